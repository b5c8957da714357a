//! Circular tracks of pits, as mancala-family games use them.
//!
//! A [`Track`] is a ring of pits numbered `0..len`. Each pit holds a count of seeds, an owner
//! (a player index, or any number the script chooses) and a kind (a label such as `"house"`,
//! `"store"` or `"quan"`: the runtime gives kinds no meaning). Moving along the ring takes a
//! direction, `+1` (increasing index) or `-1`, and wraps around.

use std::{fmt, sync::Arc};

/// Why a track operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    /// A pit index outside `0..len`.
    #[error("pit {pit} is not on the track (pits 0..{len})")]
    NoSuchPit {
        /// The index asked for.
        pit: i64,
        /// The track's length.
        len: usize,
    },
    /// A direction other than `+1` or `-1`.
    #[error("direction {0} is not 1 or -1")]
    BadDirection(i64),
    /// Sowing seeds while every pit is skipped.
    #[error("cannot sow {0} seeds: every pit is skipped")]
    NowhereToSow(i64),
    /// A negative number of seeds.
    #[error("cannot sow {0} seeds")]
    NegativeSeeds(i64),
}

/// A ring of pits, each with a seed count, an owner and a kind label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Track {
    // Each shared between copies until one of them changes (a copy costs nothing).
    seeds: Arc<Vec<i64>>,
    owners: Arc<Vec<i64>>,
    /// Pits of the same kind share one label, so that a kind is found by its pointer.
    kinds: Arc<Vec<Arc<str>>>,
}

impl Track {
    /// The largest track [`Track::new`] accepts.
    pub const MAX_LEN: usize = 10_000;

    /// A track of `len` pits holding `fill` seeds each, owner 0, kind `""`.
    ///
    /// # Panics
    /// If `len` is 0 or above [`Track::MAX_LEN`].
    pub fn new(len: usize, fill: i64) -> Self {
        assert!(
            (1..=Self::MAX_LEN).contains(&len),
            "track length {len} out of range"
        );
        let empty: Arc<str> = Arc::from("");
        Track {
            seeds: Arc::new(vec![fill; len]),
            owners: Arc::new(vec![0; len]),
            kinds: Arc::new(vec![empty; len]),
        }
    }

    /// The number of pits.
    pub fn len(&self) -> usize {
        self.seeds.len()
    }

    /// Always `false`: a track has at least one pit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `pit` as an index, or an error if it is not on the track.
    pub fn pit(&self, pit: i64) -> Result<usize, TrackError> {
        usize::try_from(pit)
            .ok()
            .filter(|&p| p < self.len())
            .ok_or(TrackError::NoSuchPit {
                pit,
                len: self.len(),
            })
    }

    /// The seeds in pit `pit` (an index from [`Track::pit`]).
    pub fn get(&self, pit: usize) -> i64 {
        self.seeds[pit]
    }

    /// Sets the seeds in `pit`.
    pub fn set(&mut self, pit: usize, seeds: i64) {
        Arc::make_mut(&mut self.seeds)[pit] = seeds;
    }

    /// Adds `seeds` to `pit`.
    pub fn add(&mut self, pit: usize, seeds: i64) {
        Arc::make_mut(&mut self.seeds)[pit] += seeds;
    }

    /// Empties `pit` and returns what it held.
    pub fn take(&mut self, pit: usize) -> i64 {
        std::mem::take(&mut Arc::make_mut(&mut self.seeds)[pit])
    }

    /// The owner of `pit`.
    pub fn owner(&self, pit: usize) -> i64 {
        self.owners[pit]
    }

    /// Sets the owner of `pit`.
    pub fn set_owner(&mut self, pit: usize, owner: i64) {
        Arc::make_mut(&mut self.owners)[pit] = owner;
    }

    /// The kind label of `pit`.
    pub fn kind(&self, pit: usize) -> &str {
        &self.kinds[pit]
    }

    /// Sets the kind label of `pit`.
    pub fn set_kind(&mut self, pit: usize, kind: &str) {
        if &*self.kinds[pit] != kind {
            let label = self.label(kind).cloned().unwrap_or_else(|| Arc::from(kind));
            Arc::make_mut(&mut self.kinds)[pit] = label;
        }
    }

    /// The label the pits of kind `kind` share, if any pit has that kind.
    fn label(&self, kind: &str) -> Option<&Arc<str>> {
        self.kinds.iter().find(|label| &***label == kind)
    }

    /// Every pit's seeds, in index order.
    pub fn values(&self) -> &[i64] {
        &self.seeds
    }

    /// The pits owned by `owner` (any owner if `None`) of kind `kind` (any kind if `None`), in
    /// index order.
    pub fn pits_where<'a>(
        &'a self,
        owner: Option<i64>,
        kind: Option<&'a str>,
    ) -> impl Iterator<Item = usize> + 'a {
        // The pits of a kind share its label (a kind no pit has, `Some(None)`, selects none).
        let label = kind.map(|k| self.label(k).map(Arc::as_ptr));
        (0..self.len()).filter(move |&p| {
            owner.is_none_or(|o| self.owners[p] == o)
                && label.is_none_or(|l| l == Some(Arc::as_ptr(&self.kinds[p])))
        })
    }

    /// The pits [`Track::pits_where`] selects that hold seeds: where a sowing game's player
    /// may sow from.
    pub fn pits_with_seeds<'a>(
        &'a self,
        owner: Option<i64>,
        kind: Option<&'a str>,
    ) -> impl Iterator<Item = usize> + 'a {
        self.pits_where(owner, kind).filter(|&p| self.seeds[p] > 0)
    }

    /// The seeds in the pits [`Track::pits_where`] selects.
    pub fn seeds_where(&self, owner: Option<i64>, kind: Option<&str>) -> i64 {
        self.pits_where(owner, kind).map(|p| self.seeds[p]).sum()
    }

    /// The seeds on the whole track.
    pub fn total(&self) -> i64 {
        self.seeds.iter().sum()
    }

    /// The pit `steps` steps from `pit` in direction `dir` (`+1` or `-1`; negative `steps` go
    /// back), wrapping around.
    pub fn step(&self, pit: usize, dir: i64, steps: i64) -> Result<usize, TrackError> {
        check_dir(dir)?;
        let len = self.len() as i64;
        Ok((pit as i64 + dir * steps).rem_euclid(len) as usize)
    }

    /// How many steps in direction `dir` lead from `from` to `to` (`0..len`).
    pub fn distance(&self, from: usize, to: usize, dir: i64) -> Result<i64, TrackError> {
        check_dir(dir)?;
        let len = self.len() as i64;
        Ok(((to as i64 - from as i64) * dir).rem_euclid(len))
    }

    /// Drops `n` seeds one by one into the pits after `from` in direction `dir`, passing over
    /// the pits in `skip` (which may include `from` itself, e.g. on a lap), and returns the pit
    /// the last seed fell into (`from` if `n` is 0). The seeds come from nowhere: take them first
    /// with [`Track::take`]. Runs in time proportional to the track's length, not to `n`.
    pub fn sow(
        &mut self,
        from: usize,
        n: i64,
        dir: i64,
        skip: &[usize],
    ) -> Result<usize, TrackError> {
        check_dir(dir)?;
        if n < 0 {
            return Err(TrackError::NegativeSeeds(n));
        }
        if n == 0 {
            return Ok(from);
        }
        let len = self.len();
        // How many pits receive seeds on each lap.
        let open = (0..len).filter(|p| !skip.contains(p)).count() as i64;
        if open == 0 {
            return Err(TrackError::NowhereToSow(n));
        }
        let (laps, rest) = (n / open, n % open);
        let next = |p: usize| match (dir, p) {
            (1, p) if p + 1 == len => 0,
            (1, p) => p + 1,
            (_, 0) => len - 1,
            (_, p) => p - 1,
        };
        let seeds = Arc::make_mut(&mut self.seeds);
        let (mut p, mut last, mut dropped) = (from, from, 0);
        // Every open pit gets `laps` seeds and the first `rest` of them one more; with no whole
        // lap, the sowing ends at the `rest`-th.
        for _ in 0..len {
            p = next(p);
            if skip.contains(&p) {
                continue;
            }
            if laps == 0 && dropped == rest {
                break;
            }
            let extra = i64::from(dropped < rest);
            seeds[p] += laps + extra;
            if extra == 1 || rest == 0 {
                last = p;
            }
            dropped += 1;
        }
        Ok(last)
    }
}

fn check_dir(dir: i64) -> Result<(), TrackError> {
    if dir == 1 || dir == -1 {
        Ok(())
    } else {
        Err(TrackError::BadDirection(dir))
    }
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "track{:?}", self.seeds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(values: &[i64]) -> Track {
        let mut t = Track::new(values.len(), 0);
        for (p, &v) in values.iter().enumerate() {
            t.set(p, v);
        }
        t
    }

    #[test]
    fn a_copy_changes_apart_from_its_original() {
        let mut a = track(&[1, 2, 3, 4]);
        let b = a.clone();
        a.sow(0, 3, 1, &[]).unwrap();
        a.set_owner(1, 1);
        a.set_kind(2, "store");
        assert_eq!(a.values(), [1, 3, 4, 5]);
        assert_eq!(b.values(), [1, 2, 3, 4]);
        assert_eq!((b.owner(1), b.kind(2)), (0, ""));
        assert_eq!((a.owner(1), a.kind(2)), (1, "store"));
    }

    #[test]
    fn steps_wrap_both_ways() {
        let t = Track::new(12, 5);
        assert_eq!(t.step(11, 1, 1), Ok(0));
        assert_eq!(t.step(0, -1, 1), Ok(11));
        assert_eq!(t.step(3, 1, -2), Ok(1));
        assert_eq!(t.step(3, -1, 25), Ok(2));
        assert_eq!(t.step(3, 2, 1), Err(TrackError::BadDirection(2)));
        assert_eq!(t.distance(10, 2, 1), Ok(4));
        assert_eq!(t.distance(10, 2, -1), Ok(8));
        assert_eq!(t.distance(4, 4, -1), Ok(0));
    }

    #[test]
    fn sowing_drops_one_seed_per_pit_and_reports_the_last() {
        let mut t = track(&[0, 0, 5, 0, 0, 0]);
        let n = t.take(2);
        assert_eq!(t.sow(2, n, 1, &[]), Ok(1));
        assert_eq!(t.values(), &[1, 1, 0, 1, 1, 1]);
        let mut t = track(&[0, 0, 3, 0, 0, 0]);
        let n = t.take(2);
        assert_eq!(t.sow(2, n, -1, &[]), Ok(5));
        assert_eq!(t.values(), &[1, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn a_lap_can_skip_the_origin_or_not() {
        // 8 seeds on 6 pits: the origin gets one on the lap unless skipped.
        let mut t = track(&[8, 0, 0, 0, 0, 0]);
        let n = t.take(0);
        assert_eq!(t.sow(0, n, 1, &[]), Ok(2));
        assert_eq!(t.values(), &[1, 2, 2, 1, 1, 1]);
        let mut t = track(&[8, 0, 0, 0, 0, 0]);
        let n = t.take(0);
        assert_eq!(t.sow(0, n, 1, &[0]), Ok(3));
        assert_eq!(t.values(), &[0, 2, 2, 2, 1, 1]);
        // Skipping other pits too (e.g. an opponent's store).
        let mut t = track(&[0, 0, 0, 0]);
        assert_eq!(t.sow(0, 7, 1, &[0, 2]), Ok(1));
        assert_eq!(t.values(), &[0, 4, 0, 3]);
        assert_eq!(
            Track::new(2, 0).sow(0, 1, 1, &[0, 1]),
            Err(TrackError::NowhereToSow(1))
        );
    }

    #[test]
    fn sowing_many_laps_matches_one_by_one() {
        for n in 0..40 {
            for dir in [1, -1] {
                let mut fast = Track::new(7, 1);
                let last = fast.sow(3, n, dir, &[3, 5]).unwrap();
                let mut slow = Track::new(7, 1);
                let mut p = 3;
                let mut left = n;
                while left > 0 {
                    p = slow.step(p, dir, 1).unwrap();
                    if p != 3 && p != 5 {
                        slow.add(p, 1);
                        left -= 1;
                    }
                }
                assert_eq!((fast.values(), last), (slow.values(), p), "n={n} dir={dir}");
            }
        }
    }

    #[test]
    fn owners_and_kinds_select_pits() {
        let mut t = Track::new(6, 4);
        for p in 0..6 {
            t.set_owner(p, (p / 3) as i64);
            t.set_kind(p, if p % 3 == 2 { "store" } else { "house" });
        }
        t.set(1, 0);
        assert_eq!(t.pits_where(Some(1), None).collect::<Vec<_>>(), [3, 4, 5]);
        assert_eq!(
            t.pits_where(None, Some("store")).collect::<Vec<_>>(),
            [2, 5]
        );
        assert_eq!(t.seeds_where(Some(0), Some("house")), 4);
        assert_eq!(t.total(), 20);
        assert_eq!(t.kind(5), "store");
        assert_eq!(t.owner(4), 1);
        assert_eq!(t.pit(6), Err(TrackError::NoSuchPit { pit: 6, len: 6 }));
        assert_eq!(t.take(0), 4);
        assert_eq!(t.get(0), 0);
    }
}
