//! Elo ratings from game results: a maximum-likelihood Bradley–Terry fit with standard errors.
//!
//! Bot *i* has a strength γᵢ and beats bot *j* with probability γᵢ / (γᵢ + γⱼ); a draw counts as
//! half a win for each. Each bot also gets one virtual draw against a reference bot of strength 1,
//! which keeps the ratings finite when a bot wins or loses every game. The fit is Hunter's MM
//! iteration (2004); Elo = 400 · log₁₀ γ, shifted so that the average bot has 0. The error bars
//! come from the inverse of the Fisher information in θ = ln γ, for θᵢ minus the average θ.

/// A bot's rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The Elo rating (0 is the average of the bots).
    pub elo: f64,
    /// Half the width of the 95% confidence interval (1.96 standard errors), in Elo.
    pub margin: f64,
}

/// One game's result: the two bots and the first one's score (1, ½ or 0).
pub type Game = (usize, usize, f64);

/// The ratings of `bots` bots from `games`.
pub fn fit(bots: usize, games: &[Game]) -> Vec<Rating> {
    let (gamma, played) = strengths(bots, games);
    // The Fisher information of θ = ln γ.
    let p = |a: f64, b: f64| a / (a + b);
    let mut information = vec![vec![0.0f64; bots]; bots];
    for i in 0..bots {
        let q = p(gamma[i], 1.0);
        information[i][i] += q * (1.0 - q);
        for j in 0..bots {
            if i != j && played[i][j] > 0.0 {
                let q = p(gamma[i], gamma[j]);
                let v = played[i][j] * q * (1.0 - q);
                information[i][i] += v;
                information[i][j] -= v;
            }
        }
    }
    let covariance = invert(information);
    // Ratings relative to the average bot, and the variance of θᵢ − mean(θ).
    let n = bots as f64;
    let mean = gamma.iter().map(|g| g.ln()).sum::<f64>() / n;
    let row_sums: Vec<f64> = covariance.iter().map(|r| r.iter().sum()).collect();
    let total: f64 = row_sums.iter().sum();
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..bots)
        .map(|i| {
            let variance = covariance[i][i] - 2.0 * row_sums[i] / n + total / (n * n);
            Rating {
                elo: (gamma[i].ln() - mean) * scale,
                margin: 1.96 * variance.max(0.0).sqrt() * scale,
            }
        })
        .collect()
}

/// The maximum-likelihood strengths γ (with the virtual draws), and how many games each pair
/// played.
fn strengths(bots: usize, games: &[Game]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut played = vec![vec![0.0f64; bots]; bots];
    let mut score = vec![0.5f64; bots]; // the virtual draw
    for &(a, b, s) in games {
        if a == b {
            continue;
        }
        played[a][b] += 1.0;
        played[b][a] += 1.0;
        score[a] += s;
        score[b] += 1.0 - s;
    }
    let mut gamma = vec![1.0f64; bots];
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        let next: Vec<f64> = (0..bots)
            .map(|i| {
                let mut denominator = 1.0 / (gamma[i] + 1.0);
                for j in 0..bots {
                    if played[i][j] > 0.0 {
                        denominator += played[i][j] / (gamma[i] + gamma[j]);
                    }
                }
                score[i] / denominator
            })
            .collect();
        for (g, n) in gamma.iter_mut().zip(next) {
            change = change.max((n.ln() - g.ln()).abs());
            *g = n;
        }
        if change < 1e-12 {
            break;
        }
    }
    (gamma, played)
}

/// The inverse of a symmetric positive definite matrix, by Gauss–Jordan elimination.
fn invert(mut m: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for k in 0..n {
            m[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                for k in 0..n {
                    m[row][k] -= f * m[col][k];
                    inv[row][k] -= f * inv[col][k];
                }
            }
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bots_rate_equally_and_a_stronger_one_higher() {
        let even = fit(2, &[(0, 1, 1.0), (1, 0, 1.0)]);
        assert!((even[0].elo - even[1].elo).abs() < 1e-9);
        let games: Vec<Game> = (0..30)
            .map(|k| (0, 1, if k % 3 == 0 { 0.0 } else { 1.0 }))
            .collect();
        let r = fit(2, &games);
        assert!(r[0].elo > r[1].elo + 50.0, "{r:?}");
        assert!(r[0].margin > 0.0 && r[0].margin < 400.0, "{r:?}");
    }

    #[test]
    fn a_bot_that_wins_everything_stays_finite() {
        let r = fit(3, &[(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.margin.is_finite()));
        assert!(r[0].elo > r[1].elo);
    }

    #[test]
    fn the_fit_is_the_maximum_of_the_likelihood() {
        // With the virtual draws, at the maximum each bot's expected score equals its score.
        let games = [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 0.0), (0, 1, 0.5)];
        let (g, _) = strengths(3, &games);
        for i in 0..3 {
            let mut expected = g[i] / (g[i] + 1.0);
            let mut actual = 0.5;
            for &(a, b, s) in &games {
                if a == i {
                    expected += g[a] / (g[a] + g[b]);
                    actual += s;
                } else if b == i {
                    expected += g[b] / (g[a] + g[b]);
                    actual += 1.0 - s;
                }
            }
            assert!(
                (expected - actual).abs() < 1e-6,
                "bot {i}: {expected} vs {actual}"
            );
        }
    }
}
