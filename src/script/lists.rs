//! Lists of cells made by the runtime's primitives, kept compact until a script needs them.
//!
//! A primitive such as `g.cells_with(v)` gives a script an array, in which every cell is a
//! value boxed on its own (and every `[from, to]` pair an array of two of them): making and
//! dropping those values is most of a move's cost in a placement game. Yet when a script's
//! `moves` ends by returning such a call, a random playout only needs one move of the list.
//! The walker then calls the primitive's list form instead (registered with
//! [`crate::script::natives::Natives::register_list_fn`]) and the host gets a [`NativeList`]:
//! the same moves in the same order, of which it makes only the one it picks.

use rhai::{Array, Dynamic};

use crate::runtime::Cell;

/// What a primitive's list form gives: the items its array would hold, compact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeList {
    /// Cells, each a `Cell` in the array.
    Cells(Vec<Cell>),
    /// Pairs of cells, each a two-cell array `[from, to]` in the array.
    CellPairs(Vec<[Cell; 2]>),
}

impl NativeList {
    /// How many items the list holds.
    pub fn len(&self) -> usize {
        match self {
            NativeList::Cells(cells) => cells.len(),
            NativeList::CellPairs(pairs) => pairs.len(),
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
            NativeList::Cells(cells) => Dynamic::from(cells[i]),
            NativeList::CellPairs(pairs) => pair(pairs[i]),
        }
    }

    /// The list as the script's array.
    pub fn into_array(self) -> Array {
        match self {
            NativeList::Cells(cells) => cells.into_iter().map(Dynamic::from).collect(),
            NativeList::CellPairs(pairs) => pairs.into_iter().map(pair).collect(),
        }
    }

    /// What Rhai's size limits count in the array: its items and those of the arrays in it.
    pub fn array_items(&self) -> usize {
        match self {
            NativeList::Cells(cells) => cells.len(),
            NativeList::CellPairs(pairs) => 3 * pairs.len(),
        }
    }
}

fn pair([from, to]: [Cell; 2]) -> Dynamic {
    Dynamic::from_array(vec![Dynamic::from(from), Dynamic::from(to)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> [NativeList; 2] {
        let (a, b, c) = (Cell::new(0, 1), Cell::new(2, 3), Cell::new(4, 0));
        [
            NativeList::Cells(vec![a, b, c]),
            NativeList::CellPairs(vec![[a, b], [b, c]]),
        ]
    }

    /// The cells a list item is or holds.
    fn cells_in(item: &Dynamic) -> Vec<Cell> {
        match item.as_array_ref() {
            Ok(array) => array.iter().map(|c| c.clone().cast::<Cell>()).collect(),
            Err(_) => vec![item.clone().cast::<Cell>()],
        }
    }

    #[test]
    fn each_item_is_the_arrays_item_and_the_sizes_are_rhais() {
        for list in lists() {
            let array = list.clone().into_array();
            assert_eq!(array.len(), list.len());
            for (i, item) in array.iter().enumerate() {
                assert_eq!(cells_in(item), cells_in(&list.item(i)));
                assert_eq!(item.type_name(), list.item(i).type_name());
            }
            let nested: usize = array
                .iter()
                .map(|item| item.as_array_ref().map_or(0, |a| a.len()))
                .sum();
            assert_eq!(list.array_items(), array.len() + nested);
        }
    }
}
