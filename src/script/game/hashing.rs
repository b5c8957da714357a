//! Hashing script values: equal values (maps by key, arrays in order, runtime types by content)
//! feed equal bytes.
//!
//! The host hashes a state between script calls (the search keys positions by their hash),
//! outside any call's meter. Copying a state is bounded by the sandbox's sizes (arrays, maps and
//! strings are counted in all; grids and tracks are shared between copies), but hashing one is
//! not: a state may hold the same 1 000 000-cell grid thousands of times over, each copy costing
//! nothing to make and every cell of every copy read by the hash. So a hash counts its work
//! (a value, a grid's cells, a track's pits) and, under a command's time
//! ([`crate::cancel::calls_until`]), looks at that time every [`LOOK_EVERY`] of it: past the
//! time (or on Ctrl-C) it gives up part-way, as a script call stops there. A value smaller than
//! that (every value the sandbox's sizes allow without grids or tracks) never looks at the clock.

use std::hash::{Hash, Hasher};

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::work::{Meter, Stopped};
use crate::runtime::{Cell, Grid, Rng, Run, Track};

/// The work (values, cells, pits) a hash does between two looks at the command's time: a few
/// milliseconds, and more than the sandbox lets a state's arrays, maps and strings hold
/// (100 000 items, 10 000 entries, 1 MiB of text at 8 bytes a unit), so that only grids and
/// tracks held many times over make a hash look. A state within those sizes is hashed whole
/// even once the time is up, as a call begun then still runs to its first look at its clocks
/// (so that a search at a turn of 0 ms still verifies and uses a native form).
const LOOK_EVERY: u64 = 1 << 18;

/// Feeds `value` into `h`, all of it whatever the time (for a hash that is saved or compared
/// with one that was).
pub(crate) fn hash_value(value: &Dynamic, h: &mut impl Hasher) {
    // An unstoppable meter never stops the walk.
    let _ = feed(value, h, &mut Meter::unstoppable());
}

/// Feeds `value` into `h`, or stops part-way ([`Stopped`], `h` then holds part of it) once the
/// command's time is up: for a hash a search uses, which it drops when its time is up anyway.
pub(crate) fn hash_value_in_time(value: &Dynamic, h: &mut impl Hasher) -> Result<(), Stopped> {
    feed(value, h, &mut Meter::stoppable(LOOK_EVERY))
}

/// Feeds `value` into `h`, counting its work on `meter`.
fn feed(value: &Dynamic, h: &mut impl Hasher, meter: &mut Meter) -> Result<(), Stopped> {
    // (`is_…` first: a failed `as_…` spends time naming the type, and a search hashes every
    // move it meets.)
    let work = if value.is_unit() {
        0u8.hash(h);
        1
    } else if value.is_bool() {
        (1u8, value.as_bool().unwrap_or_default()).hash(h);
        1
    } else if value.is_int() {
        (2u8, value.as_int().unwrap_or_default()).hash(h);
        1
    } else if let Some(c) = value.read_lock::<Cell>() {
        // Cells early: moves are often cells, or arrays of them.
        (8u8, *c).hash(h);
        1
    } else if value.is_float() {
        (3u8, value.as_float().unwrap_or_default().to_bits()).hash(h);
        1
    } else if let Some(s) = value.read_lock::<ImmutableString>() {
        (4u8, s.as_str()).hash(h);
        1 + s.len() as u64 / 8
    } else if let Some(a) = value.read_lock::<Array>() {
        (5u8, a.len()).hash(h);
        for v in a.iter() {
            feed(v, h, meter)?;
        }
        1
    } else if let Some(m) = value.read_lock::<Map>() {
        (6u8, m.len()).hash(h);
        for (k, v) in m.iter() {
            k.as_str().hash(h);
            feed(v, h, meter)?;
        }
        1
    } else if let Some(g) = value.read_lock::<Grid>() {
        // A grid at a time (at most 1 000 000 cells, a few milliseconds): its bytes are those
        // of its derived `Hash`, which saved games' checksums hold.
        (7u8, &*g).hash(h);
        (g.width() * g.height()) as u64
    } else if let Some(r) = value.read_lock::<Run>() {
        (9u8, &*r).hash(h);
        1
    } else if let Some(t) = value.read_lock::<Track>() {
        (13u8, &*t).hash(h);
        t.len() as u64
    } else if let Ok(c) = value.as_char() {
        (10u8, c).hash(h);
        1
    } else if let Some(r) = value.read_lock::<Rng>() {
        (12u8, &*r).hash(h);
        1
    } else {
        (11u8, value.type_name(), value.to_string()).hash(h);
        1
    };
    meter.add(work)
}

#[cfg(test)]
pub(super) mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::runtime::StableHasher;

    /// The stable hash of `value` alone.
    pub(in crate::script::game) fn hash(value: &Dynamic) -> u64 {
        let mut h = StableHasher::default();
        hash_value(value, &mut h);
        h.finish()
    }

    /// An array holding `copies` copies of one `side`×`side` grid (sharing its cells).
    fn grids(copies: usize, side: i64) -> Dynamic {
        let mut g = Grid::new(side, side, 0);
        g.set(Cell::new(1, 2), 3);
        Dynamic::from_array(vec![Dynamic::from(g); copies])
    }

    #[test]
    fn a_grid_feeds_the_bytes_of_its_derived_hash() {
        // Saved games hold checksums of these hashes: they must not change.
        let g = grid_with(3, 2);
        let mut derived = StableHasher::default();
        (7u8, &g).hash(&mut derived);
        assert_eq!(hash(&Dynamic::from(g)), derived.finish());
        let mut derived = StableHasher::default();
        (5u8, 2usize, 2u8, 7i64).hash(&mut derived);
        (0u8).hash(&mut derived);
        let plain: Array = vec![Dynamic::from(7_i64), Dynamic::UNIT];
        assert_eq!(hash(&Dynamic::from_array(plain)), derived.finish());
    }

    fn grid_with(x: i64, y: i64) -> Grid {
        let mut g = Grid::new(5, 4, 0);
        g.set(Cell::new(x, y), 2);
        g
    }

    #[test]
    fn outside_a_commands_time_a_hash_finishes_and_in_time_gives_the_same() {
        let value = grids(200, 20);
        let mut whole = StableHasher::default();
        hash_value_in_time(&value, &mut whole).unwrap();
        assert_eq!(whole.finish(), hash(&value));
        // A time far off does not stop it either.
        let _later = crate::cancel::calls_until(Some(Instant::now() + Duration::from_secs(3600)));
        let mut again = StableHasher::default();
        assert_eq!(hash_value_in_time(&value, &mut again), Ok(()));
        assert_eq!(again.finish(), hash(&value));
    }

    #[test]
    fn past_the_commands_time_a_large_value_stops_part_way_and_a_small_one_does_not() {
        // 2 000 copies of a 300×300 grid: 180 million cells, about a second to hash.
        let large = grids(2000, 300);
        let small = grids(3, 20);
        let _past = crate::cancel::calls_until(Some(Instant::now()));
        let begun = Instant::now();
        let stopped = hash_value_in_time(&large, &mut StableHasher::default());
        assert_eq!(stopped, Err(Stopped));
        assert!(
            begun.elapsed() < Duration::from_millis(500),
            "{:?}",
            begun.elapsed()
        );
        let mut h = StableHasher::default();
        assert_eq!(hash_value_in_time(&small, &mut h), Ok(()));
        assert_eq!(h.finish(), hash(&small));
        // As many values as the sandbox lets an array hold: hashed whole, however late.
        let within = Dynamic::from_array(vec![Dynamic::from(1_i64); 100_000]);
        assert_eq!(hash_value_in_time(&within, &mut h), Ok(()));
        // A hash that must finish does, past the time too.
        assert_ne!(hash(&grids(3, 20)), hash(&grids(4, 20)));
    }
}
