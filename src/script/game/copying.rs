//! Copying a state for a script call, part-way interruptible.
//!
//! A script function receives its own copy of the state (Rhai copies arrays and maps whole:
//! a state of 100 000 values, the most the sandbox's sizes let it hold, takes a few
//! milliseconds). The host makes those copies between script calls, outside any call's meter,
//! so a copy counts its values and, under a command's time ([`crate::cancel::calls_until`]),
//! looks at that time every [`LOOK_EVERY`] of them: past it (or on Ctrl-C) it stops part-way, as
//! a script call stops at its clocks, and the state copied from is untouched. A smaller state
//! (most games' states) never looks at the clock.

use rhai::{Array, Dynamic, Map};

use super::work::{Meter, Stopped};

/// The values a copy makes between two looks at the command's time: a fraction of a
/// millisecond of copying, and more than most games' states hold.
const LOOK_EVERY: u64 = 1 << 14;

/// A copy of `value` as [`Dynamic::clone`] makes it (arrays and maps copied, everything else
/// shared or cloned as Rhai clones it; the tag kept, the copy read-write), or [`Stopped`] once the command's time is up part-way.
pub(crate) fn copy_in_time(value: &Dynamic) -> Result<Dynamic, Stopped> {
    copy(value, &mut Meter::stoppable(LOOK_EVERY))
}

/// Copies `value`, counting a unit of work on `meter` for every array, map and other value.
fn copy(value: &Dynamic, meter: &mut Meter) -> Result<Dynamic, Stopped> {
    meter.add(1)?;
    // A value shared with a closure stays shared, as Rhai's clone keeps it.
    if value.is_shared() {
        return Ok(value.clone());
    }
    if let Some(values) = size_within(value, LOOK_EVERY) {
        // Small enough never to look at the clock: Rhai's own clone, faster than item by
        // item.
        meter.add(values)?;
        return Ok(value.clone());
    }
    let mut copied = if let Some(a) = value.read_lock::<Array>() {
        let mut items = Array::with_capacity(a.len());
        for item in a.iter() {
            items.push(copy(item, meter)?);
        }
        Dynamic::from_array(items)
    } else if let Some(m) = value.read_lock::<Map>() {
        let mut entries = Map::new();
        for (key, item) in m.iter() {
            entries.insert(key.clone(), copy(item, meter)?);
        }
        Dynamic::from_map(entries)
    } else {
        return Ok(value.clone());
    };
    // Rhai's clone keeps the tag (and marks the copy read-write, as this one is).
    copied.set_tag(value.tag());
    Ok(copied)
}

/// How many values `value` holds, itself and everything inside (a value shared with a
/// closure counted as one, as [`copy`] takes it), if at most `limit`: the count stops there.
/// Most games' states (a map of a board, a turn, a few short lists) hold far fewer.
fn size_within(value: &Dynamic, limit: u64) -> Option<u64> {
    fn count(value: &Dynamic, seen: &mut u64, limit: u64) -> bool {
        *seen += 1;
        if *seen > limit {
            return false;
        }
        // Numbers, strings, native values and values shared with a closure hold nothing more.
        if !(value.is_array() || value.is_map()) || value.is_shared() {
            return true;
        }
        if let Some(a) = value.read_lock::<Array>() {
            a.iter().all(|item| count(item, seen, limit))
        } else if let Some(m) = value.read_lock::<Map>() {
            m.values().all(|item| count(item, seen, limit))
        } else {
            true
        }
    }
    let mut seen = 0;
    count(value, &mut seen, limit).then_some(seen)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::script::game::hashing::tests::hash;

    /// A state like a game's, nested: `#{ board: [[0, 1, …] × rows], turn: 1, name: "x" }`
    /// with `rows` rows of 100 numbers.
    fn state(rows: usize) -> Dynamic {
        let row: Array = (0..100).map(|i| Dynamic::from(i as rhai::INT)).collect();
        let board: Array = (0..rows)
            .map(|_| Dynamic::from_array(row.clone()))
            .collect();
        let mut m = Map::new();
        m.insert("board".into(), Dynamic::from_array(board));
        m.insert("turn".into(), Dynamic::from(1 as rhai::INT));
        m.insert("name".into(), Dynamic::from("x"));
        let mut tagged = Dynamic::from_map(m);
        tagged.set_tag(7);
        tagged
    }

    #[test]
    fn a_copy_in_time_is_equal_to_the_value_and_apart_from_it() {
        let original = state(3);
        let mut copied = copy_in_time(&original).unwrap();
        assert_eq!(hash(&copied), hash(&original));
        assert_eq!(copied.tag(), 7);
        // Changing the copy leaves the original as it was.
        copied
            .write_lock::<Map>()
            .unwrap()
            .insert("turn".into(), Dynamic::UNIT);
        assert_ne!(hash(&copied), hash(&original));
        assert_eq!(hash(&original), hash(&state(3)));
        // A constant's copy may be changed, as Rhai's clone of it may.
        let constant = Dynamic::from_array(vec![Dynamic::UNIT]).into_read_only();
        assert!(!copy_in_time(&constant).unwrap().is_read_only());
        assert!(!constant.clone().is_read_only());
    }

    #[test]
    fn past_the_commands_time_a_large_copy_stops_part_way_and_a_small_one_does_not() {
        // 1 000 rows of 100: 101 000 values, as many as the sandbox lets a state hold.
        let large = state(1000);
        let small = state(20);
        {
            let _later = crate::cancel::calls_until(Some(Instant::now() + Duration::from_secs(60)));
            let whole = copy_in_time(&large).unwrap();
            assert_eq!(hash(&whole), hash(&large));
        }
        let _past = crate::cancel::calls_until(Some(Instant::now()));
        assert_eq!(copy_in_time(&large).err(), Some(Stopped));
        // The state copied from is as it was.
        assert_eq!(hash(&large), hash(&state(1000)));
        assert_eq!(hash(&copy_in_time(&small).unwrap()), hash(&small));
    }
}
