//! Lists of cells made by the runtime's primitives, kept compact until a script needs them.
//!
//! A primitive such as `g.cells_with(v)` gives a script an array, in which every cell is a
//! value boxed on its own (and every `[from, to]` pair an array of two of them): making and
//! dropping those values is most of a move's cost in a placement game. Yet when a script's
//! `moves` ends by returning such a call, a random playout only needs one move of the list.
//! The walker then calls the primitive's list form instead (registered with
//! [`crate::walker::native_table::Natives::register_list_fn`]) and the host gets a [`NativeList`]:
//! the same moves in the same order, of which it makes only the one it picks. A list of the
//! cells holding a value is not even listed: it finds the one cell picked.

use rhai::{Array, Dynamic, ImmutableString, INT};

use crate::runtime::{paths::PassableRegions, Cell, Grid, Track};

/// What a primitive's list form gives: the items its array would hold, compact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeList {
    /// The cells of `grid` holding `value`, row by row, each a `Cell` in the array: `len` of
    /// them. The grid is a copy (its cells are shared until one of the two changes): drop the
    /// list before changing the board it came from, or that change copies every cell.
    Holding { grid: Grid, value: i64, len: usize },
    /// Pairs of cells, each a two-cell array `[from, to]` in the array.
    CellPairs(Vec<[Cell; 2]>),
    /// Every piece with every cell it can reach (`g.reachable_pairs(passable)`), each a
    /// two-cell array `[from, to]` in the array.
    Reachable(Box<PassableRegions>),
    /// The pits of `track` owned by `owner` (of kind `kind`, if given) that hold seeds, in
    /// order, each a pit number in the array: `len` of them. The track is a copy, like
    /// [`NativeList::Holding`]'s grid.
    PitsWithSeeds {
        track: Track,
        owner: INT,
        kind: Option<ImmutableString>,
        len: usize,
    },
}

impl NativeList {
    /// How many items the list holds.
    pub fn len(&self) -> usize {
        match self {
            NativeList::Holding { len, .. } | NativeList::PitsWithSeeds { len, .. } => *len,
            NativeList::CellPairs(pairs) => pairs.len(),
            NativeList::Reachable(regions) => regions.pair_count(),
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item `i` as the array holds it.
    ///
    /// # Panics
    /// If `i` is not below [`Self::len`].
    pub fn item(&self, i: usize) -> Dynamic {
        match self {
            NativeList::Holding { grid, value, .. } => {
                Dynamic::from(grid.nth_cell_with(*value, i).expect("an item of the list"))
            }
            NativeList::CellPairs(pairs) => pair(pairs[i]),
            NativeList::Reachable(regions) => {
                let (from, to) = regions.pair(i).expect("an item of the list");
                pair([from, to])
            }
            NativeList::PitsWithSeeds {
                track, owner, kind, ..
            } => Dynamic::from_int(
                track
                    .pits_with_seeds(Some(*owner), kind.as_deref())
                    .nth(i)
                    .expect("an item of the list") as INT,
            ),
        }
    }

    /// The list as the script's array.
    pub fn into_array(self) -> Array {
        match self {
            NativeList::Holding { grid, value, .. } => {
                grid.cells_with(value).map(Dynamic::from).collect()
            }
            NativeList::CellPairs(pairs) => pairs.into_iter().map(pair).collect(),
            NativeList::Reachable(regions) => {
                regions.pairs().map(|(from, to)| pair([from, to])).collect()
            }
            NativeList::PitsWithSeeds {
                track, owner, kind, ..
            } => track
                .pits_with_seeds(Some(owner), kind.as_deref())
                .map(|p| Dynamic::from_int(p as INT))
                .collect(),
        }
    }

    /// What Rhai's size limits count in the array: its items and those of the arrays in it.
    pub fn array_items(&self) -> usize {
        match self {
            NativeList::Holding { len, .. } | NativeList::PitsWithSeeds { len, .. } => *len,
            NativeList::CellPairs(pairs) => 3 * pairs.len(),
            NativeList::Reachable(regions) => 3 * regions.pair_count(),
        }
    }
}

fn pair([from, to]: [Cell; 2]) -> Dynamic {
    Dynamic::from_array(vec![Dynamic::from(from), Dynamic::from(to)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> [NativeList; 5] {
        let (a, b, c) = (Cell::new(0, 1), Cell::new(2, 3), Cell::new(4, 0));
        let mut grid = Grid::new(5, 4, 0);
        for cell in [a, b, c] {
            grid.set(cell, 7);
        }
        // Pits 1, 3 and 4 are owner 1's; 3 is empty; 4 is its store.
        let mut track = Track::new(6, 2);
        for p in [1, 3, 4] {
            track.set_owner(p, 1);
            track.set_kind(p, "house");
        }
        track.set(3, 0);
        track.set_kind(4, "store");
        [
            NativeList::Holding {
                grid,
                value: 7,
                len: 3,
            },
            NativeList::CellPairs(vec![[a, b], [b, c]]),
            NativeList::PitsWithSeeds {
                track: track.clone(),
                owner: 1,
                kind: None,
                len: 2,
            },
            NativeList::PitsWithSeeds {
                track,
                owner: 1,
                kind: Some("house".into()),
                len: 1,
            },
            NativeList::Reachable(Box::new(PassableRegions::of(
                &crate::runtime::grid::from_digits(&["010", "000"]),
                &crate::runtime::grid::ORTHOGONAL,
                0,
            ))),
        ]
    }

    /// What a list item is or holds (cells or pit numbers), as text.
    fn items_in(item: &Dynamic) -> Vec<String> {
        let text = |v: &Dynamic| match v.read_lock::<Cell>() {
            Some(cell) => cell.to_string(),
            None => v.to_string(),
        };
        match item.as_array_ref() {
            Ok(array) => array.iter().map(text).collect(),
            Err(_) => vec![text(item)],
        }
    }

    #[test]
    fn each_item_is_the_arrays_item_and_the_sizes_are_rhais() {
        for list in lists() {
            let array = list.clone().into_array();
            assert_eq!(array.len(), list.len());
            for (i, item) in array.iter().enumerate() {
                assert_eq!(items_in(item), items_in(&list.item(i)));
                assert_eq!(item.type_name(), list.item(i).type_name());
            }
            let nested: usize = array
                .iter()
                .map(|item| item.as_array_ref().map_or(0, |a| a.len()))
                .sum();
            assert_eq!(list.array_items(), array.len() + nested);
        }
    }

    #[test]
    fn the_lists_hold_what_the_primitives_list() {
        let expected: [&[&str]; 5] = [
            &["(4,0)", "(0,1)", "(2,3)"],
            &["(0,1)", "(2,3)", "(2,3)", "(4,0)"],
            &["1", "4"],
            &["1"],
            &[
                "(1,0)", "(0,0)", "(1,0)", "(2,0)", "(1,0)", "(0,1)", "(1,0)", "(1,1)", "(1,0)",
                "(2,1)",
            ],
        ];
        for (list, expected) in lists().into_iter().zip(expected) {
            let items: Vec<String> = list.into_array().iter().flat_map(items_in).collect();
            assert_eq!(items, expected);
        }
    }
}
