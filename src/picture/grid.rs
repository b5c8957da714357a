//! The picture of a grid: cells on a wooden board, pieces as discs in their colours, labels,
//! coordinates (columns a, b, … and rows counted from the bottom, or the script's labels) and
//! marks.

use svg::node::element::Group;

use super::{
    colors::{Palette, BOARD, INK},
    draw,
    scene::{Hints, Spot},
};
use crate::runtime::{grid::column_letter, Cell, Grid};

/// The side of a cell, in pixels.
pub const CELL: f64 = 40.0;
/// The margin around the cells (room for coordinates).
pub const MARGIN: f64 = 30.0;

/// The centre of `cell` in the picture.
pub fn centre(cell: Cell) -> (f64, f64) {
    (
        MARGIN + (cell.x as f64 + 0.5) * CELL,
        MARGIN + (cell.y as f64 + 0.5) * CELL,
    )
}

/// Draws `grid` of a game of `players` players, with the picture's size.
pub fn picture(grid: &Grid, hints: &Hints, palette: &Palette, players: usize) -> (Group, f64, f64) {
    let (w, h) = (grid.width() as f64, grid.height() as f64);
    let (width, height) = (w * CELL + 2.0 * MARGIN, h * CELL + 2.0 * MARGIN);
    let mut doc = Group::new().add(draw::rect(0.0, 0.0, width, height, BOARD));
    for x in 0..=grid.width() {
        let at = MARGIN + x as f64 * CELL;
        doc = doc.add(line(at, MARGIN, at, MARGIN + h * CELL));
    }
    for y in 0..=grid.height() {
        let at = MARGIN + y as f64 * CELL;
        doc = doc.add(line(MARGIN, at, MARGIN + w * CELL, at));
    }
    if hints.coordinates {
        for x in 0..grid.width() {
            let (cx, _) = centre(Cell::new(x, 0));
            let letter = label(hints.columns.as_deref(), x, || column_letter(x).to_string());
            for y in [MARGIN / 2.0, height - MARGIN / 2.0] {
                doc = doc.add(draw::text(cx, y, &letter, 14.0, INK));
            }
        }
        for y in 0..grid.height() {
            let (_, cy) = centre(Cell::new(0, y));
            let row = label(hints.rows.as_deref(), y, || (grid.height() - y).to_string());
            for x in [MARGIN / 2.0, width - MARGIN / 2.0] {
                doc = doc.add(draw::text(x, cy, &row, 14.0, INK));
            }
        }
    }
    for cell in grid.cells() {
        let value = grid.get(cell).unwrap_or(0);
        let (cx, cy) = centre(cell);
        if value != 0 {
            doc = doc.add(piece(cx, cy, 0.42 * CELL, value, hints, palette, players));
        } else if let Some(label) = hints.labels.get(&value) {
            doc = doc.add(draw::text(cx, cy, label, 0.45 * CELL, INK));
        }
    }
    for (kind, spots) in &hints.marks {
        let color = palette.mark(kind);
        for spot in spots {
            let Spot::Cell(cell) = *spot else { continue };
            if !grid.contains(cell) {
                continue;
            }
            let (cx, cy) = centre(cell);
            doc = if kind == "last" {
                doc.add(draw::ring(cx, cy, 0.18 * CELL, &color, 4.0))
            } else {
                let half = CELL / 2.0 - 2.0;
                doc.add(
                    draw::rect(cx - half, cy - half, 2.0 * half, 2.0 * half, "none")
                        .set("stroke", color.as_str())
                        .set("stroke-width", 4),
                )
            };
        }
    }
    (doc, width, height)
}

/// The script's label number `i` (columns, rows), else the default one.
fn label(given: Option<&[String]>, i: i64, default: impl FnOnce() -> String) -> String {
    let at = usize::try_from(i).ok();
    given
        .and_then(|g| g.get(at?))
        .cloned()
        .unwrap_or_else(default)
}

/// A piece of cell value `value` as a disc of radius `r` centred on `(cx, cy)`: in the script's
/// colour for it, else the palette's, lettered with the script's label for it.
pub fn piece(
    cx: f64,
    cy: f64,
    r: f64,
    value: i64,
    hints: &Hints,
    palette: &Palette,
    players: usize,
) -> Group {
    let fill = hints
        .colors
        .get(&value)
        .cloned()
        .unwrap_or_else(|| palette.piece(value, players));
    let mut group = Group::new().add(draw::disc(cx, cy, r, &fill));
    if let Some(label) = hints.labels.get(&value) {
        group = group.add(draw::text(cx, cy, label, 1.07 * r, draw::ink_on(&fill)));
    }
    group
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64) -> svg::node::element::Line {
    svg::node::element::Line::new()
        .set("x1", x1)
        .set("y1", y1)
        .set("x2", x2)
        .set("y2", y2)
        .set("stroke", INK)
        .set("stroke-width", 1)
}
