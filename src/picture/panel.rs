//! The panel under a board: whose turn it is (or how the game ended), who is who (each
//! player's name with their piece or note, the player to move pointed at), the game's own
//! numbers, and the script's caption — in type large enough to read on a projector.

use svg::node::element::{Group, Polygon};

use super::{
    colors::INK,
    draw,
    scene::{Hints, Number, Shown},
};

/// The size of the panel's text, in pixels.
const FONT: f64 = 22.0;
/// The size of the first line (whose turn it is).
const STATUS_FONT: f64 = 26.0;
/// The height of a line of the panel.
const ROW: f64 = 36.0;
/// The space left of the text and above and below the lines.
const PAD: f64 = 16.0;
/// The radius of a piece drawn in the panel.
const PIECE: f64 = 12.0;
/// Where a legend line's piece is drawn (after the pointer).
const PIECE_AT: f64 = PAD + 24.0;

/// A player's line in the legend.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The player's name.
    pub name: String,
    /// The cell value of their pieces, drawn as on the board.
    pub piece: Option<i64>,
    /// A note after the name.
    pub note: Option<String>,
    /// Whether this player is to move.
    pub to_move: bool,
}

/// What the panel shows.
#[derive(Debug, Clone, Default)]
pub struct Panel {
    /// Whose turn it is, or how the game ended.
    pub status: Option<String>,
    /// Who is who, in player order.
    pub legend: Vec<Entry>,
    /// The game's own numbers.
    pub numbers: Vec<Number>,
    /// The script's caption.
    pub caption: Option<String>,
}

impl Panel {
    fn lines(&self) -> usize {
        usize::from(self.status.is_some())
            + self.legend.len()
            + self.numbers.len()
            + usize::from(self.caption.is_some())
    }

    /// Where the legend's names start: after the pointer, and the pieces if any are drawn.
    fn name_at(&self) -> f64 {
        if self.legend.iter().any(|e| e.piece.is_some()) {
            PIECE_AT + 2.0 * PIECE + 8.0
        } else {
            PIECE_AT
        }
    }

    /// The panel's height (0 when it shows nothing).
    pub fn height(&self) -> f64 {
        match self.lines() {
            0 => 0.0,
            n => n as f64 * ROW + 2.0 * PAD,
        }
    }

    /// About the width the panel's lines need.
    pub fn width(&self) -> f64 {
        let status = self
            .status
            .as_deref()
            .map_or(0.0, |s| PAD + draw::width_of(s, STATUS_FONT));
        let name_at = self.name_at();
        let legend = self
            .legend
            .iter()
            .map(|e| name_at + draw::width_of(&e.line(), FONT));
        let numbers = self.numbers.iter().map(|n| match &n.shown {
            Shown::Text(t) => PAD + draw::width_of(&format!("{}: {t}", n.label), FONT),
            Shown::Pieces(p) => pieces_at(&n.label) + p.len() as f64 * 2.5 * PIECE,
        });
        let caption = self
            .caption
            .as_deref()
            .map_or(0.0, |c| PAD + draw::width_of(c, FONT));
        legend.chain(numbers).fold(status.max(caption), f64::max) + PAD
    }

    /// Draws the panel with its top at `top`; `piece` draws a piece of a cell value centred on
    /// a point with a radius.
    pub fn draw(&self, top: f64, piece: &dyn Fn(f64, f64, f64, i64) -> Group) -> Group {
        let mut group = Group::new();
        let mut middle = top + PAD + ROW / 2.0;
        if let Some(status) = &self.status {
            group = group.add(draw::text_from(PAD, middle, status, STATUS_FONT, INK));
            middle += ROW;
        }
        let name_at = self.name_at();
        for entry in &self.legend {
            if entry.to_move {
                group = group.add(pointer(PAD, middle));
            }
            if let Some(value) = entry.piece {
                group = group.add(piece(PIECE_AT + PIECE, middle, PIECE, value));
            }
            group = group.add(draw::text_from(name_at, middle, &entry.line(), FONT, INK));
            middle += ROW;
        }
        for number in &self.numbers {
            match &number.shown {
                Shown::Text(text) => {
                    let line = format!("{}: {text}", number.label);
                    group = group.add(draw::text_from(PAD, middle, &line, FONT, INK));
                }
                Shown::Pieces(values) => {
                    let label = format!("{}:", number.label);
                    group = group.add(draw::text_from(PAD, middle, &label, FONT, INK));
                    let mut x = pieces_at(&number.label) + PIECE;
                    for &value in values {
                        group = group.add(piece(x, middle, PIECE, value));
                        x += 2.5 * PIECE;
                    }
                }
            }
            middle += ROW;
        }
        if let Some(caption) = &self.caption {
            group = group.add(draw::text_from(PAD, middle, caption, FONT, INK));
        }
        group
    }
}

impl Entry {
    /// The entry's text: the name, and the note after a dash.
    fn line(&self) -> String {
        match &self.note {
            Some(note) => format!("{} — {note}", self.name),
            None => self.name.clone(),
        }
    }
}

/// Where the pieces of a number labelled `label` start.
fn pieces_at(label: &str) -> f64 {
    PAD + draw::width_of(&format!("{label}:"), FONT) + 8.0
}

/// A triangle pointing right at the player to move, its tip near `x + 16`.
fn pointer(x: f64, y: f64) -> Polygon {
    Polygon::new()
        .set(
            "points",
            format!("{x},{} {},{y} {x},{}", y - 8.0, x + 16.0, y + 8.0),
        )
        .set("fill", INK)
        .set("class", "to-move")
}

/// The panel of a picture: `status` and the legend's names come from the game, the rest from
/// the script's hints; `to_move` is the player to move while the game goes on.
pub fn of(
    hints: &Hints,
    status: Option<String>,
    names: &[String],
    to_move: Option<usize>,
) -> Panel {
    let legend = if names.len() < 2 {
        Vec::new()
    } else {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let given = hints.pieces.get(i).cloned().unwrap_or_default();
                Entry {
                    name: name.clone(),
                    piece: given.value,
                    note: given.text,
                    to_move: to_move == Some(i),
                }
            })
            .collect()
    };
    Panel {
        status,
        legend,
        numbers: hints.numbers.clone(),
        caption: hints.caption.clone(),
    }
}
