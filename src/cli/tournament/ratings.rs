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

/// Up to how many bots the error bars are exact: the covariance of the ratings costs the cube
/// of the number of bots (256 bots: a few milliseconds; 3 000: minutes).
const EXACT_UP_TO: usize = 256;

/// Game results summed up for the fit, in memory that grows with the bots and the pairs that
/// met (not with the games): each bot's points and how many games each pair played.
#[derive(Debug, Default)]
pub struct Results {
    /// Each bot's points (draws half).
    points: Vec<f64>,
    /// The games each pair played, by (lower bot, higher bot).
    pairs: std::collections::HashMap<(usize, usize), f64>,
}

impl Results {
    /// Adds one game (a game of a bot against itself counts for nothing).
    pub fn add(&mut self, (a, b, s): Game) {
        let bots = a.max(b) + 1;
        if self.points.len() < bots {
            self.points.resize(bots, 0.0);
        }
        if a == b {
            return;
        }
        self.points[a] += s;
        self.points[b] += 1.0 - s;
        *self.pairs.entry((a.min(b), a.max(b))).or_default() += 1.0;
    }

    /// The ratings of `bots` bots (at least as many as the games named).
    pub fn fit(&self, bots: usize) -> Vec<Rating> {
        let neighbours = self.neighbours(bots);
        let gamma = self.strengths(&neighbours);
        let variances = if bots <= EXACT_UP_TO {
            exact_variances(&gamma, &neighbours)
        } else {
            approximate_variances(&gamma, &neighbours)
        };
        let n = bots as f64;
        let mean = gamma.iter().map(|g| g.ln()).sum::<f64>() / n;
        let scale = 400.0 / std::f64::consts::LN_10;
        gamma
            .iter()
            .zip(variances)
            .map(|(g, variance)| Rating {
                elo: (g.ln() - mean) * scale,
                margin: 1.96 * variance.max(0.0).sqrt() * scale,
            })
            .collect()
    }

    /// Each bot's opponents, with how many games they played.
    fn neighbours(&self, bots: usize) -> Vec<Vec<(usize, f64)>> {
        let mut neighbours = vec![Vec::new(); bots];
        for (&(a, b), &games) in &self.pairs {
            neighbours[a].push((b, games));
            neighbours[b].push((a, games));
        }
        // The same sums in the same order on every run, whatever the map's order.
        neighbours
            .iter_mut()
            .for_each(|n| n.sort_by_key(|&(j, _)| j));
        neighbours
    }

    /// The maximum-likelihood strengths γ, with the virtual draws (Hunter's MM iteration; each
    /// step costs the number of pairs that met).
    fn strengths(&self, neighbours: &[Vec<(usize, f64)>]) -> Vec<f64> {
        let bots = neighbours.len();
        let score: Vec<f64> = (0..bots)
            .map(|i| 0.5 + self.points.get(i).copied().unwrap_or(0.0))
            .collect();
        let mut gamma = vec![1.0f64; bots];
        for _ in 0..10_000 {
            let mut change = 0.0f64;
            let next: Vec<f64> = (0..bots)
                .map(|i| {
                    let denominator = 1.0 / (gamma[i] + 1.0)
                        + neighbours[i]
                            .iter()
                            .map(|&(j, games)| games / (gamma[i] + gamma[j]))
                            .sum::<f64>();
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
        gamma
    }
}

/// The Fisher information of θ = ln γ on the diagonal: bot `i`'s, with the virtual draw.
fn own_information(gamma: &[f64], neighbours: &[Vec<(usize, f64)>], i: usize) -> f64 {
    let p = |a: f64, b: f64| a / (a + b);
    let q = p(gamma[i], 1.0);
    q * (1.0 - q)
        + neighbours[i]
            .iter()
            .map(|&(j, games)| {
                let q = p(gamma[i], gamma[j]);
                games * q * (1.0 - q)
            })
            .sum::<f64>()
}

/// The variance of θᵢ − mean(θ) for each bot, from the inverse of the whole Fisher information.
fn exact_variances(gamma: &[f64], neighbours: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let bots = gamma.len();
    let p = |a: f64, b: f64| a / (a + b);
    let mut information = vec![vec![0.0f64; bots]; bots];
    for i in 0..bots {
        information[i][i] = own_information(gamma, neighbours, i);
        for &(j, games) in &neighbours[i] {
            let q = p(gamma[i], gamma[j]);
            information[i][j] -= games * q * (1.0 - q);
        }
    }
    let covariance = invert(information);
    let n = bots as f64;
    let row_sums: Vec<f64> = covariance.iter().map(|r| r.iter().sum()).collect();
    let total: f64 = row_sums.iter().sum();
    (0..bots)
        .map(|i| covariance[i][i] - 2.0 * row_sums[i] / n + total / (n * n))
        .collect()
}

/// [`exact_variances`] for many bots, taking the covariance as its diagonal (each bot's own
/// information, the others' ratings as if known): error bars within a few percent of the exact
/// ones in a round robin, in time that grows with the pairs that met.
fn approximate_variances(gamma: &[f64], neighbours: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let own: Vec<f64> = (0..gamma.len())
        .map(|i| 1.0 / own_information(gamma, neighbours, i))
        .collect();
    let n = gamma.len() as f64;
    let total: f64 = own.iter().sum();
    own.iter()
        .map(|v| v - 2.0 * v / n + total / (n * n))
        .collect()
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

    /// The ratings of `bots` bots from `games`.
    fn fit(bots: usize, games: &[Game]) -> Vec<Rating> {
        let mut results = Results::default();
        games.iter().for_each(|&g| results.add(g));
        results.fit(bots)
    }

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
        let mut results = Results::default();
        games.iter().for_each(|&g| results.add(g));
        let g = results.strengths(&results.neighbours(3));
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

    #[test]
    fn many_bots_get_error_bars_close_to_the_exact_ones() {
        // A round robin of 20 bots, twice over, the stronger (lower) bot winning 2 games in 3.
        let mut games = Vec::new();
        for a in 0..20 {
            for b in a + 1..20 {
                games.extend([(a, b, 1.0), (b, a, 0.0), (a, b, 0.0)]);
            }
        }
        let mut results = Results::default();
        games.iter().for_each(|&g| results.add(g));
        let neighbours = results.neighbours(20);
        let gamma = results.strengths(&neighbours);
        let exact = exact_variances(&gamma, &neighbours);
        let approximate = approximate_variances(&gamma, &neighbours);
        for (e, a) in exact.iter().zip(&approximate) {
            assert!((a / e - 1.0).abs() < 0.15, "{e} vs {a}");
        }
    }
}
