//! A search's memories of positions and moves: maps that forget everything once they are full.

use std::hash::Hash;

use foldhash::{HashMap, HashMapExt};

/// What a search learnt, by key (a position's or a move's hash), holding at most `limit` units:
/// each value counts the units [`Memo::keep`] is told (an entry, or the moves a list holds).
/// When a value would not fit, everything is forgotten first: what a memo holds is only ever a
/// shortcut, so forgetting costs time, never correctness.
pub(super) struct Memo<K, V> {
    /// Each value with the units it counts.
    map: HashMap<K, (V, usize)>,
    /// The units the values held count together.
    held: usize,
    limit: usize,
}

impl<K: Eq + Hash, V> Memo<K, V> {
    /// An empty memo holding at most `limit` units.
    pub(super) fn new(limit: usize) -> Self {
        Memo {
            map: HashMap::new(),
            held: 0,
            limit,
        }
    }

    /// The value kept under `key`, if any.
    pub(super) fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key).map(|(value, _)| value)
    }

    /// Keeps `value` under `key` (replacing what was there), counting `units` of the limit.
    pub(super) fn keep(&mut self, key: K, value: V, units: usize) {
        if let Some((_, old)) = self.map.remove(&key) {
            self.held -= old;
        }
        if self.held + units > self.limit {
            self.map.clear();
            self.held = 0;
        }
        self.held += units;
        self.map.insert(key, (value, units));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_memo_forgets_everything_and_a_replaced_value_frees_its_units() {
        let mut memo = Memo::new(3);
        memo.keep(1, "a", 1);
        memo.keep(2, "b", 2);
        memo.keep(2, "c", 2); // replaces b: still 3 units
        assert_eq!((memo.get(&1), memo.get(&2)), (Some(&"a"), Some(&"c")));
        memo.keep(3, "d", 1); // 4 units would not fit: forget, then keep d
        assert_eq!(
            (memo.get(&1), memo.get(&2), memo.get(&3)),
            (None, None, Some(&"d"))
        );
    }
}
