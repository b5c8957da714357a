//! A seedable random generator that games keep inside their state, so that a seed plus a move
//! list replays a game exactly and undoing a move restores the generator too.

use std::hash::{Hash, Hasher};

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A deterministic random generator (ChaCha8): the same seed gives the same draws on every
/// platform. Cloning it copies its position in the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n`, or `None` if `n` is not positive.
    pub fn below(&mut self, n: i64) -> Option<i64> {
        (n > 0).then(|| self.0.random_range(0..n))
    }
}

impl Hash for Rng {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.get_seed().hash(state);
        self.0.get_stream().hash(state);
        self.0.get_word_pos().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<_> = (0..20).map(|_| a.below(81)).collect();
        let ys: Vec<_> = (0..20).map(|_| b.below(81)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|x| matches!(x, Some(0..=80))));
        assert_ne!(
            xs,
            (0..20).map(|_| Rng::new(8).below(81)).collect::<Vec<_>>()
        );
        assert_eq!(a.below(0), None);
    }

    #[test]
    fn a_clone_continues_from_the_same_place() {
        let mut a = Rng::new(1);
        a.below(10);
        let mut b = a.clone();
        assert_eq!(a, b);
        assert_eq!(a.below(1000), b.below(1000));
        a.below(10);
        assert_ne!(a, b);
    }
}
