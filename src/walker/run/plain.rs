//! Copying, replacing and dropping the walker's values without a call where the value is a
//! plain one (an integer, a boolean or `()`, not shared): such a value owns nothing, so it is
//! copied by its bits and forgotten rather than dropped. A `Dynamic`'s clone and drop are
//! calls into Rhai's code that match every kind of value; most values a loop handles are
//! plain integers, and the calls were a sixth of a simple loop's instructions.

use rhai::Dynamic;

/// Whether `value` owns nothing: an integer, a boolean or `()`, not shared.
#[inline(always)]
fn is_plain(value: &Dynamic) -> bool {
    !value.is_shared() && (value.is_int() || value.is_unit() || value.is_bool())
}

/// The integer `value` holds, if it is a plain one (not shared).
#[inline(always)]
pub(super) fn int(value: &Dynamic) -> Option<rhai::INT> {
    if value.is_shared() {
        None
    } else {
        value.as_int().ok()
    }
}

/// Drops `value`: a plain value (see [`is_plain`]) is forgotten, which is the same.
#[inline(always)]
pub(super) fn discard(value: Dynamic) {
    if is_plain(&value) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// Puts `value` in `slot`, dropping what was there as [`discard`] does.
#[inline(always)]
pub(super) fn put(slot: &mut Dynamic, value: Dynamic) {
    discard(std::mem::replace(slot, value));
}

/// A copy of `value`, as its clone gives it: an integer without a tag is made anew.
#[inline(always)]
pub(super) fn copy(value: &Dynamic) -> Dynamic {
    match value.as_int() {
        Ok(n) if !value.is_shared() && value.tag() == 0 => Dynamic::from_int(n),
        _ => value.clone(),
    }
}

/// The most items an array kept for reuse may have room for (see [`discard_sparing`]): a
/// larger one is dropped, its memory given back as Rhai gives it back.
const SPARE_ROOM: usize = 32;

/// Drops `value` as [`discard`] does, but where `spare` is empty and `value` is an array of
/// the script's own (not shared, not a constant, without a tag) with room for at most
/// [`SPARE_ROOM`] items: its items are dropped and the array, empty, is kept in `spare` for
/// the next empty array literal (see `Runner::spare_array`), which then allocates nothing.
/// An empty array's room is not seen by a script.
#[inline(always)]
pub(super) fn discard_sparing(value: Dynamic, spare: &mut Option<Dynamic>) {
    if spare.is_none() && value.is_array() {
        keep_emptied(value, spare);
    } else {
        discard(value);
    }
}

/// [`discard_sparing`] of an array.
#[inline(never)]
fn keep_emptied(mut value: Dynamic, spare: &mut Option<Dynamic>) {
    if value.is_shared() || value.is_read_only() || value.tag() != 0 {
        return;
    }
    let emptied = match value.as_array_mut() {
        Ok(mut array) if array.capacity() <= SPARE_ROOM => {
            array.clear();
            true
        }
        _ => false,
    };
    if emptied {
        *spare = Some(value);
    }
}

/// Ends the values of `values` from `mark` on, as `truncate` does.
#[inline(always)]
pub(super) fn truncate(values: &mut Vec<Dynamic>, mark: usize) {
    while values.len() > mark {
        if let Some(value) = values.pop() {
            discard(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::Dynamic;

    #[test]
    fn a_copy_is_the_clone() {
        let mut tagged = Dynamic::from_int(7);
        tagged.set_tag(3);
        let shared = Dynamic::from_int(5).into_shared();
        let values = [
            Dynamic::from_int(-4),
            tagged,
            Dynamic::from_int(9).into_read_only(),
            shared.clone(),
            Dynamic::from_array(vec![Dynamic::from_int(1)]),
            Dynamic::UNIT,
        ];
        for value in &values {
            let copied = copy(value);
            let cloned = value.clone();
            assert_eq!(copied.type_name(), cloned.type_name());
            assert_eq!(copied.tag(), cloned.tag());
            assert_eq!(copied.is_shared(), cloned.is_shared());
            assert_eq!(copied.is_read_only(), cloned.is_read_only());
            assert_eq!(format!("{copied:?}"), format!("{cloned:?}"));
        }
        // A shared value's copy is the same shared value.
        let mut copied = copy(&shared);
        *copied.write_lock::<rhai::INT>().unwrap() = 6;
        assert_eq!(shared.as_int(), Ok(6));
    }

    #[test]
    fn an_array_discarded_is_kept_emptied_if_nothing_is_kept_yet() {
        let owner = std::rc::Rc::new(0);
        let mut spare = None;
        let array = Dynamic::from_array(vec![Dynamic::from(owner.clone()), Dynamic::from_int(2)]);
        discard_sparing(array, &mut spare);
        // Its items are dropped, the array kept empty.
        assert_eq!(std::rc::Rc::strong_count(&owner), 1);
        let kept = spare
            .as_ref()
            .map(|a| a.as_array_ref().map(|a| (a.len(), a.capacity())));
        assert!(matches!(kept, Some(Ok((0, room))) if room >= 2));
        // Only one is kept: another is dropped.
        discard_sparing(
            Dynamic::from_array(vec![Dynamic::from(owner.clone())]),
            &mut spare,
        );
        assert_eq!(std::rc::Rc::strong_count(&owner), 1);
        assert_eq!(
            spare.as_ref().map(|a| a.as_array_ref().map(|a| a.len())),
            Some(Ok(0))
        );
    }

    #[test]
    fn arrays_of_others_constants_tagged_or_large_are_not_kept() {
        let mut tagged = Dynamic::from_array(vec![Dynamic::from_int(1)]);
        tagged.set_tag(1);
        let not_kept = [
            Dynamic::from_array(vec![Dynamic::from_int(1)]).into_shared(),
            Dynamic::from_array(vec![Dynamic::from_int(1)]).into_read_only(),
            tagged,
            Dynamic::from_array(vec![Dynamic::UNIT; SPARE_ROOM + 1]),
            Dynamic::from_int(3),
        ];
        for value in not_kept {
            let mut spare = None;
            discard_sparing(value, &mut spare);
            assert!(spare.is_none());
        }
    }

    #[test]
    fn values_put_discarded_and_truncated_are_dropped() {
        let owner = std::rc::Rc::new(0);
        let held = || Dynamic::from(owner.clone());
        let mut values = vec![
            Dynamic::from_int(1),
            held(),
            held().into_shared(),
            Dynamic::UNIT,
        ];
        assert_eq!(std::rc::Rc::strong_count(&owner), 3);
        truncate(&mut values, 1);
        assert_eq!(values.len(), 1);
        assert_eq!(std::rc::Rc::strong_count(&owner), 1);
        let mut slot = held();
        put(&mut slot, Dynamic::from_int(2));
        assert_eq!(std::rc::Rc::strong_count(&owner), 1);
        assert_eq!(slot.as_int(), Ok(2));
        discard(held());
        discard(held().into_shared());
        assert_eq!(std::rc::Rc::strong_count(&owner), 1);
    }
}
