//! The picture of a grid: cells on a wooden board, pieces as discs in their colours, labels,
//! coordinates (columns a, b, … and rows counted from the bottom) and marks.

use svg::Document;

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

/// Draws `grid` of a game of `players` players.
pub fn picture(grid: &Grid, hints: &Hints, palette: &Palette, players: usize) -> Document {
    let (w, h) = (grid.width() as f64, grid.height() as f64);
    let (width, height) = (w * CELL + 2.0 * MARGIN, h * CELL + 2.0 * MARGIN);
    let mut doc =
        super::document(width, height, hints).add(draw::rect(0.0, 0.0, width, height, BOARD));
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
            let letter = column_letter(x).to_string();
            for y in [MARGIN / 2.0, height - MARGIN / 2.0] {
                doc = doc.add(draw::text(cx, y, &letter, 14.0, INK));
            }
        }
        for y in 0..grid.height() {
            let (_, cy) = centre(Cell::new(0, y));
            let row = (grid.height() - y).to_string();
            for x in [MARGIN / 2.0, width - MARGIN / 2.0] {
                doc = doc.add(draw::text(x, cy, &row, 14.0, INK));
            }
        }
    }
    for cell in grid.cells() {
        let value = grid.get(cell).unwrap_or(0);
        let (cx, cy) = centre(cell);
        let label = hints.labels.get(&value);
        if value != 0 {
            let fill = hints
                .colors
                .get(&value)
                .cloned()
                .unwrap_or_else(|| palette.piece(value, players));
            doc = doc.add(draw::disc(cx, cy, 0.42 * CELL, &fill));
            if let Some(label) = label {
                doc = doc.add(draw::text(cx, cy, label, 0.45 * CELL, draw::ink_on(&fill)));
            }
        } else if let Some(label) = label {
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
    doc
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
