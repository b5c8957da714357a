//! The statistics of the variant lab: Wilson intervals, the two-proportion z-test, and a
//! histogram of game lengths.

/// The z value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95 % Wilson score interval of a proportion: `successes` out of `n`.
pub fn wilson(successes: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, successes as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The two-proportion z-test of `x1` out of `n1` against `x2` out of `n2` (pooled variance):
/// `(z, two-sided p-value)`; `None` when the pooled proportion is 0 or 1 and the samples are
/// equal in proportion (no variance: nothing to test).
pub fn two_proportion(x1: usize, n1: usize, x2: usize, n2: usize) -> Option<(f64, f64)> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    if se == 0.0 {
        return None;
    }
    let z = (p1 - p2) / se;
    Some((z, erfc(z.abs() / std::f64::consts::SQRT_2)))
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Buckets of equal width (whole plies) covering every length in `all`, at most `most` of them:
/// each bucket as its first and last length.
pub fn buckets(all: impl Iterator<Item = usize>, most: usize) -> Vec<(usize, usize)> {
    let (mut lo, mut hi) = (usize::MAX, 0);
    for n in all {
        lo = lo.min(n);
        hi = hi.max(n);
    }
    if lo > hi {
        return Vec::new();
    }
    let width = (hi - lo + 1).div_ceil(most.max(1));
    (lo..=hi)
        .step_by(width)
        .map(|a| (a, (a + width - 1).min(hi)))
        .collect()
}

/// How many of `lengths` fall in each bucket.
pub fn histogram(lengths: &[usize], buckets: &[(usize, usize)]) -> Vec<usize> {
    buckets
        .iter()
        .map(|&(a, b)| lengths.iter().filter(|&&n| a <= n && n <= b).count())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10: the textbook interval [0.490, 0.943].
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(50, 50);
        assert!(lo > 0.92 && hi == 1.0, "{lo} {hi}");
    }

    #[test]
    fn z_test_matches_known_values() {
        // 60/100 against 45/100: z = 2.12, p = 0.034.
        let (z, p) = two_proportion(60, 100, 45, 100).unwrap();
        assert!(
            (z - 2.1240).abs() < 1e-3 && (p - 0.03367).abs() < 1e-4,
            "{z} {p}"
        );
        assert!(two_proportion(5, 5, 7, 7).is_none());
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
    }

    #[test]
    fn buckets_cover_every_length() {
        let lengths = [3, 4, 9, 21];
        let b = buckets(lengths.iter().copied(), 4);
        assert_eq!(b, vec![(3, 7), (8, 12), (13, 17), (18, 21)]);
        assert_eq!(histogram(&lengths, &b), vec![2, 1, 0, 1]);
        assert_eq!(buckets([5].into_iter(), 10), vec![(5, 5)]);
    }
}
