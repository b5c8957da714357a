//! Boards of cells: neighbours, lines and coordinate notations, on a square or a hexagonal grid.
//!
//! Cells are addressed by zero-based `(x, y)`: `x` is the column from the left, `y` the row from
//! the top, which is the order a board is printed in. Notations that number rows from the bottom
//! (`12i`, `e5`) convert at the edge of the program.
//!
//! A hexagonal grid ([`Topology::Hex`]) uses axial coordinates on the same rectangle of cells:
//! drawn with each row shifted half a cell right of the row above (a rhombus, as a Hex board),
//! cell `(x, y)` touches `(x ± 1, y)`, `(x, y ± 1)`, `(x + 1, y - 1)` and `(x - 1, y + 1)`, and
//! its lines run along three axes: across, down-right and up-right.

use std::{fmt, sync::Arc};

/// A cell of a grid: column `x` from the left, row `y` from the top, both zero-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, 0 at the left.
    pub x: i64,
    /// Row, 0 at the top.
    pub y: i64,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub fn new(x: i64, y: i64) -> Self {
        Cell { x, y }
    }

    /// The cell `steps` steps away in direction `(dx, dy)`.
    pub fn offset(self, (dx, dy): (i64, i64), steps: i64) -> Cell {
        Cell::new(self.x + dx * steps, self.y + dy * steps)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The four orthogonal steps: up, right, down, left.
pub const ORTHOGONAL: [(i64, i64); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
/// The eight king steps, clockwise from up.
pub const KING: [(i64, i64); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The six hexagonal steps in axial coordinates, clockwise from up-right.
pub const HEX: [(i64, i64); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

/// The line directions of a square grid: across, down, diagonal (↘) and anti-diagonal (↗).
pub const SQUARE_LINES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
/// The line directions of a hexagonal grid: its three axes, across, down-right and up-right.
pub const HEX_LINES: [(i64, i64); 3] = [(1, 0), (0, 1), (1, -1)];

/// How the cells of a grid touch one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Topology {
    /// Square cells: four orthogonal neighbours, eight with the diagonals, four line directions.
    #[default]
    Square,
    /// Hexagonal cells in axial coordinates: six neighbours, three line directions.
    Hex,
}

impl Topology {
    /// The name scripts see: `"square"` or `"hex"`.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Square => "square",
            Topology::Hex => "hex",
        }
    }
}

/// How cells are written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Row number then column letter, row 1 at the bottom: `12i`, `1a`.
    RowLetter,
    /// Column letter then row number, row 1 at the bottom: `e5`, `a1`.
    LetterRow,
    /// Column letter then row number, row 1 at the top (`d3`): `a1` is the top left.
    LetterRowTop,
    /// Zero-based `(x,y)` with `y` from the top: `(3,4)`; `3,4` and `3 4` are read too.
    Xy,
}

impl Notation {
    /// The notation named `name`: `"row-letter"`, `"letter-row"`, `"letter-row-top"` or `"xy"`.
    pub fn from_name(name: &str) -> Option<Notation> {
        match name {
            "row-letter" => Some(Notation::RowLetter),
            "letter-row" => Some(Notation::LetterRow),
            "letter-row-top" => Some(Notation::LetterRowTop),
            "xy" => Some(Notation::Xy),
            _ => None,
        }
    }
}

/// Why a cell's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CellTextError {
    /// The text does not have the notation's shape.
    #[error("'{text}' is not a cell: {expected}")]
    Malformed {
        /// The text that was read.
        text: String,
        /// What the notation looks like.
        expected: &'static str,
    },
    /// The text names a cell outside the board.
    #[error("'{text}' is off the {width}×{height} board")]
    OffBoard {
        /// The text that was read.
        text: String,
        /// Board width.
        width: i64,
        /// Board height.
        height: i64,
    },
}

/// A rectangular board of integer cells (0 conventionally means empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    width: i64,
    height: i64,
    topology: Topology,
    /// Shared between copies until one of them changes (a copy of a large grid costs nothing).
    cells: Arc<Vec<i64>>,
}

impl Grid {
    /// A `width` × `height` grid with every cell set to `fill`.
    ///
    /// # Panics
    /// If a side is not positive or the grid would exceed 1 000 000 cells.
    pub fn new(width: i64, height: i64, fill: i64) -> Self {
        assert!(
            Self::valid_size(width, height),
            "grid size {width}×{height} out of range"
        );
        Grid {
            width,
            height,
            topology: Topology::Square,
            cells: Arc::new(vec![fill; (width * height) as usize]),
        }
    }

    /// A `width` × `height` hexagonal grid in axial coordinates (see [`Topology::Hex`]) with
    /// every cell set to `fill`.
    ///
    /// # Panics
    /// As [`Grid::new`].
    pub fn hex(width: i64, height: i64, fill: i64) -> Self {
        Grid {
            topology: Topology::Hex,
            ..Grid::new(width, height, fill)
        }
    }

    /// How the cells touch: square or hexagonal.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The steps to the cells sharing a side with a cell: [`ORTHOGONAL`] on a square grid,
    /// [`HEX`] on a hexagonal one (what regions, paths and walks follow).
    pub fn side_steps(&self) -> &'static [(i64, i64)] {
        match self.topology {
            Topology::Square => &ORTHOGONAL,
            Topology::Hex => &HEX,
        }
    }

    /// The steps to every cell touching a cell, corners too: [`KING`] on a square grid, [`HEX`]
    /// on a hexagonal one (where cells touch only along sides).
    pub fn touching_steps(&self) -> &'static [(i64, i64)] {
        match self.topology {
            Topology::Square => &KING,
            Topology::Hex => &HEX,
        }
    }

    /// The directions lines run in, one per axis: [`SQUARE_LINES`] or [`HEX_LINES`].
    pub fn line_directions(&self) -> &'static [(i64, i64)] {
        match self.topology {
            Topology::Square => &SQUARE_LINES,
            Topology::Hex => &HEX_LINES,
        }
    }

    /// Whether `width` × `height` is a size [`Grid::new`] accepts.
    pub fn valid_size(width: i64, height: i64) -> bool {
        width > 0 && height > 0 && width <= 1000 && height <= 1000 && width * height <= 1_000_000
    }

    /// Number of columns.
    pub fn width(&self) -> i64 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> i64 {
        self.height
    }

    /// Whether `cell` lies on the board.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x >= 0 && cell.y >= 0 && cell.x < self.width && cell.y < self.height
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| (cell.y * self.width + cell.x) as usize)
    }

    /// The value at `cell`, or `None` off the board.
    pub fn get(&self, cell: Cell) -> Option<i64> {
        self.index(cell).map(|i| self.cells[i])
    }

    /// Sets the value at `cell`; returns `false` (and changes nothing) off the board.
    pub fn set(&mut self, cell: Cell, value: i64) -> bool {
        match self.index(cell) {
            Some(i) => {
                Arc::make_mut(&mut self.cells)[i] = value;
                true
            }
            None => false,
        }
    }

    /// Moves the value at `from` to `to` and leaves `empty` at `from`: a piece's move. Returns
    /// the value `to` held (what a capture takes); `None`, changing nothing, when a cell is off
    /// the board or both are the same cell.
    pub fn move_value(&mut self, from: Cell, to: Cell, empty: i64) -> Option<i64> {
        let (i, j) = (self.index(from)?, self.index(to)?);
        if i == j {
            return None;
        }
        let cells = Arc::make_mut(&mut self.cells);
        let taken = cells[j];
        cells[j] = std::mem::replace(&mut cells[i], empty);
        Some(taken)
    }

    /// Every cell, row by row from the top.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Cell::new(x, y)))
    }

    /// The cells holding `value`, row by row from the top.
    pub fn cells_with(&self, value: i64) -> impl Iterator<Item = Cell> + '_ {
        let width = self.width;
        let (mut x, mut y) = (-1, 0);
        self.cells.iter().filter_map(move |&v| {
            x += 1;
            if x == width {
                (x, y) = (0, y + 1);
            }
            (v == value).then_some(Cell::new(x, y))
        })
    }

    /// How many cells hold `value`.
    pub fn count(&self, value: i64) -> usize {
        count_in(&self.cells, value)
    }

    /// The `n`th cell (from 0) of [`Self::cells_with`]`(value)`, found without listing the
    /// cells before it: blocks of cells are counted at once, the block holding it scanned.
    pub fn nth_cell_with(&self, value: i64, n: usize) -> Option<Cell> {
        const BLOCK: usize = 64;
        let mut left = n;
        for (b, block) in self.cells.chunks(BLOCK).enumerate() {
            let here = count_in(block, value);
            if left < here {
                let (i, _) = block
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v == value)
                    .nth(left)?;
                let index = (b * BLOCK + i) as i64;
                return Some(Cell::new(index % self.width, index / self.width));
            }
            left -= here;
        }
        None
    }

    /// The raw values, row by row from the top.
    pub fn values(&self) -> &[i64] {
        &self.cells
    }

    /// The on-board neighbours of `cell` along `steps` (e.g. [`ORTHOGONAL`] or [`KING`]).
    pub fn neighbours<'a>(
        &'a self,
        cell: Cell,
        steps: &'a [(i64, i64)],
    ) -> impl Iterator<Item = Cell> + 'a {
        steps
            .iter()
            .map(move |&d| cell.offset(d, 1))
            .filter(|&c| self.contains(c))
    }

    /// Reads a cell written in `notation`, checking it is on the board.
    pub fn parse_cell(&self, text: &str, notation: Notation) -> Result<Cell, CellTextError> {
        let t = text.trim();
        let malformed = |expected| CellTextError::Malformed {
            text: text.to_string(),
            expected,
        };
        let cell = match notation {
            Notation::RowLetter => {
                let expected = "row number then column letter, like 12i";
                let (digits, letter) = split_digits_letter(t, true).ok_or(malformed(expected))?;
                let row: i64 = digits.parse().map_err(|_| malformed(expected))?;
                Cell::new(letter_index(letter), self.height - row)
            }
            Notation::LetterRow | Notation::LetterRowTop => {
                let expected = "column letter then row number, like e5";
                let (digits, letter) = split_digits_letter(t, false).ok_or(malformed(expected))?;
                let row: i64 = digits.parse().map_err(|_| malformed(expected))?;
                let y = if notation == Notation::LetterRowTop {
                    row - 1
                } else {
                    self.height - row
                };
                Cell::new(letter_index(letter), y)
            }
            Notation::Xy => {
                let expected = "zero-based (x,y), like (3,4)";
                let inner = t
                    .strip_prefix('(')
                    .and_then(|s| s.strip_suffix(')'))
                    .unwrap_or(t);
                let mut parts = inner
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|p| !p.is_empty());
                let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
                    return Err(malformed(expected));
                };
                let x = x.parse().map_err(|_| malformed(expected))?;
                let y = y.parse().map_err(|_| malformed(expected))?;
                Cell::new(x, y)
            }
        };
        if self.contains(cell) {
            Ok(cell)
        } else {
            Err(CellTextError::OffBoard {
                text: text.to_string(),
                width: self.width,
                height: self.height,
            })
        }
    }

    /// Writes `cell` in `notation`.
    pub fn format_cell(&self, cell: Cell, notation: Notation) -> String {
        let row = self.height - cell.y;
        match notation {
            Notation::RowLetter => format!("{row}{}", column_letter(cell.x)),
            Notation::LetterRow => format!("{}{row}", column_letter(cell.x)),
            Notation::LetterRowTop => format!("{}{}", column_letter(cell.x), cell.y + 1),
            Notation::Xy => format!("({},{})", cell.x, cell.y),
        }
    }
}

/// The letter naming column `x`: `a` for 0 … `z` for 25, then `?`.
pub fn column_letter(x: i64) -> char {
    u8::try_from(x)
        .ok()
        .filter(|&b| b < 26)
        .map_or('?', |b| (b'a' + b) as char)
}

fn letter_index(letter: char) -> i64 {
    letter.to_ascii_lowercase() as i64 - 'a' as i64
}

/// Splits `12i` (digits first) or `e5` (letter first) into its digits and its letter.
fn split_digits_letter(text: &str, digits_first: bool) -> Option<(&str, char)> {
    let (letter, digits) = if digits_first {
        let letter = text.chars().last()?;
        (letter, &text[..text.len() - letter.len_utf8()])
    } else {
        let letter = text.chars().next()?;
        (letter, &text[letter.len_utf8()..])
    };
    let well_formed = letter.is_ascii_alphabetic()
        && !digits.is_empty()
        && digits.len() <= 4
        && digits.bytes().all(|b| b.is_ascii_digit());
    well_formed.then_some((digits, letter))
}

/// How many of `cells` hold `value` (a loop the compiler turns into vector instructions).
fn count_in(cells: &[i64], value: i64) -> usize {
    cells.iter().filter(|&&v| v == value).count()
}

/// A grid drawn as rows of digits, top row first (for tests).
#[cfg(test)]
pub(crate) fn from_digits(rows: &[&str]) -> Grid {
    let mut g = Grid::new(rows[0].len() as i64, rows.len() as i64, 0);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let digit = ch.to_digit(10).expect("a digit");
            g.set(Cell::new(x as i64, y as i64), digit as i64);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_changes_apart_from_its_original() {
        let mut a = Grid::new(3, 2, 0);
        let b = a.clone();
        a.set(Cell::new(1, 1), 7);
        let mut c = b.clone();
        c.set(Cell::new(0, 0), 5);
        assert_eq!(
            (a.get(Cell::new(1, 1)), b.get(Cell::new(1, 1))),
            (Some(7), Some(0))
        );
        assert_eq!(b.count(0), 6);
        assert_eq!((c.count(5), c.count(0)), (1, 5));
        assert_ne!(a, b);
    }

    #[test]
    fn row_letter_counts_rows_from_the_bottom() {
        let g = Grid::new(15, 15, 0);
        assert_eq!(
            g.parse_cell("1a", Notation::RowLetter),
            Ok(Cell::new(0, 14))
        );
        assert_eq!(
            g.parse_cell("15o", Notation::RowLetter),
            Ok(Cell::new(14, 0))
        );
        assert_eq!(
            g.parse_cell("12I", Notation::RowLetter),
            Ok(Cell::new(8, 3))
        );
        assert!(matches!(
            g.parse_cell("32x", Notation::RowLetter),
            Err(CellTextError::OffBoard { .. })
        ));
        assert!(matches!(
            g.parse_cell("t3", Notation::RowLetter),
            Err(CellTextError::Malformed { .. })
        ));
        assert!(g.parse_cell("16a", Notation::RowLetter).is_err());
        assert!(g.parse_cell("0a", Notation::RowLetter).is_err());
    }

    #[test]
    fn letter_row_and_xy() {
        let g = Grid::new(9, 9, 0);
        assert_eq!(g.parse_cell("e5", Notation::LetterRow), Ok(Cell::new(4, 4)));
        assert_eq!(g.parse_cell("a1", Notation::LetterRow), Ok(Cell::new(0, 8)));
        assert_eq!(
            g.parse_cell("a1", Notation::LetterRowTop),
            Ok(Cell::new(0, 0))
        );
        assert_eq!(g.format_cell(Cell::new(3, 2), Notation::LetterRowTop), "d3");
        assert_eq!(g.parse_cell("(3,4)", Notation::Xy), Ok(Cell::new(3, 4)));
        assert_eq!(g.parse_cell("3 4", Notation::Xy), Ok(Cell::new(3, 4)));
        assert!(g.parse_cell("(9,0)", Notation::Xy).is_err());
        assert!(g.parse_cell("5e", Notation::LetterRow).is_err());
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let g = Grid::new(5, 5, 0);
        assert_eq!(g.neighbours(Cell::new(0, 0), &ORTHOGONAL).count(), 2);
        assert_eq!(g.neighbours(Cell::new(0, 0), &KING).count(), 3);
        assert_eq!(g.neighbours(Cell::new(2, 2), &KING).count(), 8);
        assert_eq!(g.neighbours(Cell::new(4, 2), &ORTHOGONAL).count(), 3);
    }

    #[test]
    fn set_off_the_board_changes_nothing() {
        let mut g = Grid::new(3, 2, 0);
        assert!(!g.set(Cell::new(3, 0), 1));
        assert_eq!(g, Grid::new(3, 2, 0));
        assert!(g.set(Cell::new(2, 1), 7));
        assert_eq!(g.count(7), 1);
        assert_eq!(g.cells_with(7).collect::<Vec<_>>(), vec![Cell::new(2, 1)]);
    }

    #[test]
    fn the_nth_cell_holding_a_value_is_the_nth_of_the_list() {
        let g = from_digits(&["10201", "00111", "21000", "11111"]);
        for value in 0..3 {
            let all: Vec<Cell> = g.cells_with(value).collect();
            for (n, &cell) in all.iter().enumerate() {
                assert_eq!(g.nth_cell_with(value, n), Some(cell));
            }
            assert_eq!(g.nth_cell_with(value, all.len()), None);
        }
    }

    #[test]
    fn a_move_leaves_empty_behind_and_gives_what_it_took() {
        let mut g = from_digits(&["102", "000"]);
        assert_eq!(g.move_value(Cell::new(0, 0), Cell::new(2, 0), 0), Some(2));
        assert_eq!(g, from_digits(&["001", "000"]));
        assert_eq!(g.move_value(Cell::new(2, 0), Cell::new(2, 1), 0), Some(0));
        assert_eq!(g, from_digits(&["000", "001"]));
        // Off the board, or onto itself: nothing changes.
        assert_eq!(g.move_value(Cell::new(2, 1), Cell::new(3, 1), 0), None);
        assert_eq!(g.move_value(Cell::new(2, 1), Cell::new(2, 1), 0), None);
        assert_eq!(g, from_digits(&["000", "001"]));
    }

    #[test]
    fn hex_cells_touch_six_neighbours_along_three_axes() {
        let g = Grid::hex(5, 5, 0);
        assert_eq!(g.topology(), Topology::Hex);
        assert_eq!(g.neighbours(Cell::new(2, 2), g.side_steps()).count(), 6);
        // Acute corners touch two cells, obtuse corners three.
        assert_eq!(g.neighbours(Cell::new(0, 0), g.side_steps()).count(), 2);
        assert_eq!(g.neighbours(Cell::new(4, 0), g.side_steps()).count(), 3);
        assert_eq!(g.neighbours(Cell::new(0, 4), g.touching_steps()).count(), 3);
        assert_eq!(g.line_directions(), HEX_LINES);
        assert_ne!(g, Grid::new(5, 5, 0));
        let square = Grid::new(5, 5, 0);
        assert_eq!(
            square
                .neighbours(Cell::new(2, 2), square.touching_steps())
                .count(),
            8
        );
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn every_notation_round_trips(w in 1i64..27, h in 1i64..40, fx in 0.0f64..1.0, fy in 0.0f64..1.0) {
                let g = Grid::new(w, h, 0);
                let cell = Cell::new((fx * w as f64) as i64, (fy * h as f64) as i64);
                for n in [Notation::RowLetter, Notation::LetterRow, Notation::LetterRowTop, Notation::Xy] {
                    let text = g.format_cell(cell, n);
                    prop_assert_eq!(g.parse_cell(&text, n), Ok(cell));
                }
            }

            /// Hex adjacency is symmetric, every cell has at most six neighbours, and each line
            /// direction joins neighbours.
            #[test]
            fn hex_neighbours_are_mutual(x in 0i64..6, y in 0i64..5) {
                let g = Grid::hex(6, 5, 0);
                let c = Cell::new(x, y);
                let near: Vec<Cell> = g.neighbours(c, g.side_steps()).collect();
                prop_assert!(near.len() <= 6);
                for &n in &near {
                    prop_assert!(g.neighbours(n, g.side_steps()).any(|m| m == c));
                }
                for &d in g.line_directions() {
                    prop_assert!(HEX.contains(&d) && HEX.contains(&(-d.0, -d.1)));
                }
            }

            #[test]
            fn parse_never_panics(text in "\\PC{0,8}") {
                let g = Grid::new(15, 15, 0);
                for n in [Notation::RowLetter, Notation::LetterRow, Notation::LetterRowTop, Notation::Xy] {
                    if let Ok(c) = g.parse_cell(&text, n) {
                        prop_assert!(g.contains(c));
                    }
                }
            }
        }
    }
}
