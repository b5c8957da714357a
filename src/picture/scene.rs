//! What a picture shows: the board found in a state (its first grid or track, or the one the
//! script's `picture(state, last)` names) and the script's hints — colours, labels, marks,
//! who is who, the game's own numbers, coordinate labels, caption.

use std::collections::BTreeMap;

use rhai::{Array, Dynamic, Map};

use super::colors;
use crate::runtime::{Cell, Grid, Track};

/// The board to draw.
#[derive(Debug, Clone)]
pub enum Board {
    /// A rectangular grid of cell values.
    Grid(Grid),
    /// A circular track of pits with their counts.
    Track(Track),
}

/// A place on the board a mark points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    /// A grid's cell.
    Cell(Cell),
    /// A track's pit.
    Pit(usize),
}

/// How to draw the board.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    /// Fills of cell values, as SVG colours.
    pub colors: BTreeMap<i64, String>,
    /// Text drawn on cells of a value.
    pub labels: BTreeMap<i64, String>,
    /// Highlighted places, by kind (`last`, `win`, …).
    pub marks: Vec<(String, Vec<Spot>)>,
    /// Whether to draw coordinates (default true).
    pub coordinates: bool,
    /// A line of text under the board.
    pub caption: Option<String>,
    /// The names of a track's pits, in track order (default 1, 2, …).
    pub names: Vec<String>,
    /// Who is who: each player's piece and a note, in player order (the legend).
    pub pieces: Vec<Piece>,
    /// The game's own numbers (scores, what comes next, …), in the script's order.
    pub numbers: Vec<Number>,
    /// A grid's column labels, left to right (default a, b, …).
    pub columns: Option<Vec<String>>,
    /// A grid's row labels, top to bottom (default the row numbers counted from the bottom).
    pub rows: Option<Vec<String>>,
}

/// A player's entry in the legend.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Piece {
    /// The cell value of the player's pieces, drawn as on the board.
    pub value: Option<i64>,
    /// A note after the player's name (`pits 1–5, quan A`).
    pub text: Option<String>,
}

/// One of the game's numbers: a label and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// What the number is (`score`).
    pub label: String,
    /// Its value.
    pub shown: Shown,
}

/// What a number shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// Text (a number as text).
    Text(String),
    /// Pieces drawn as on the board, by cell value (a preview of what comes next).
    Pieces(Vec<i64>),
}

/// A board and how to draw it.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The board.
    pub board: Board,
    /// The hints.
    pub hints: Hints,
}

impl Scene {
    /// The scene of `state`, reached by the move `last` (if known), with the script's
    /// `picture(state, last)` map if it gave one; `Err` says what is wrong when nothing can be
    /// drawn or a hint is malformed.
    pub fn of(
        state: &Dynamic,
        last: Option<&Dynamic>,
        given: Option<Map>,
    ) -> Result<Scene, String> {
        let given = given.unwrap_or_default();
        let board = match given.get("board") {
            Some(b) => board_of(b).ok_or("picture(): `board` must be a grid or a track")?,
            None => find_board(state).ok_or(
                "this state holds no grid or track to draw; define `picture(state)` returning \
                 #{ board: … } (see the book's chapter on pictures)",
            )?,
        };
        let mut hints = Hints {
            coordinates: true,
            ..Hints::default()
        };
        for (key, value) in &given {
            match key.as_str() {
                "board" => {}
                "colors" => {
                    for (v, c) in by_value(value, "colors")? {
                        let c = c.to_string();
                        let color = colors::named(&c).ok_or(format!(
                            "picture(): unknown colour '{c}' (a colour name or #rrggbb)"
                        ))?;
                        hints.colors.insert(v, color);
                    }
                }
                "labels" => {
                    for (v, text) in by_value(value, "labels")? {
                        hints.labels.insert(v, text.to_string());
                    }
                }
                "marks" => {
                    let map = value
                        .read_lock::<Map>()
                        .ok_or("picture(): `marks` must be a map")?;
                    for (kind, spots) in map.iter() {
                        let spots = spots_of(spots).ok_or(format!(
                            "picture(): mark `{kind}` must be cells or pit numbers"
                        ))?;
                        hints.marks.push((kind.to_string(), spots));
                    }
                }
                "coordinates" => {
                    hints.coordinates = value
                        .as_bool()
                        .map_err(|_| "picture(): `coordinates` must be true or false")?;
                }
                "caption" => hints.caption = Some(value.to_string()),
                "names" => {
                    let names = value
                        .read_lock::<Array>()
                        .ok_or("picture(): `names` must be an array of pit names")?;
                    hints.names = names.iter().map(ToString::to_string).collect();
                }
                "pieces" => hints.pieces = pieces_of(value)?,
                "numbers" => hints.numbers = numbers_of(value)?,
                "columns" => hints.columns = Some(texts_of(value, "columns")?),
                "rows" => hints.rows = Some(texts_of(value, "rows")?),
                other => {
                    return Err(format!(
                        "picture(): unknown key `{other}` (board, colors, labels, marks, names, \
                         coordinates, caption, pieces, numbers, columns, rows)"
                    ))
                }
            }
        }
        if !given.contains_key("marks") {
            if matches!(board, Board::Grid(_)) {
                hints.marks = default_marks(state);
            }
            let marked = hints.marks.iter().any(|(kind, _)| kind == "last");
            if let Some(spots) = last.filter(|_| !marked).and_then(spots_of) {
                hints.marks.push(("last".to_string(), spots));
            }
        }
        Ok(Scene { board, hints })
    }
}

/// `pieces`: per player an integer (a cell value), a string (a note) or `#{ piece, text }`.
fn pieces_of(value: &Dynamic) -> Result<Vec<Piece>, String> {
    const WHAT: &str =
        "picture(): each of `pieces` must be a cell value, a text, or #{ piece: 1, text: \"…\" }";
    let list = value
        .read_lock::<Array>()
        .ok_or("picture(): `pieces` must be an array, one entry per player")?;
    list.iter()
        .map(|entry| {
            if let Ok(v) = entry.as_int() {
                return Ok(Piece {
                    value: Some(v),
                    text: None,
                });
            }
            if entry.is_string() {
                return Ok(Piece {
                    value: None,
                    text: Some(entry.to_string()),
                });
            }
            let map = entry.read_lock::<Map>().ok_or(WHAT)?;
            let value = match map.get("piece") {
                Some(v) => Some(v.as_int().map_err(|_| WHAT)?),
                None => None,
            };
            Ok(Piece {
                value,
                text: map.get("text").map(ToString::to_string),
            })
        })
        .collect()
}

/// `numbers`: an array of `#{ label, value }` or `#{ label, pieces: [...] }`, or a map from
/// labels to values (in key order).
fn numbers_of(value: &Dynamic) -> Result<Vec<Number>, String> {
    const WHAT: &str = "picture(): each of `numbers` must be #{ label: \"…\", value: … } or #{ label: \"…\", pieces: [...] }";
    if let Some(map) = value.read_lock::<Map>() {
        return Ok(map
            .iter()
            .map(|(label, v)| Number {
                label: label.to_string(),
                shown: Shown::Text(v.to_string()),
            })
            .collect());
    }
    let list = value
        .read_lock::<Array>()
        .ok_or("picture(): `numbers` must be an array of #{ label, value } or a map")?;
    list.iter()
        .map(|entry| {
            let map = entry.read_lock::<Map>().ok_or(WHAT)?;
            let label = map.get("label").ok_or(WHAT)?.to_string();
            let shown = match (map.get("value"), map.get("pieces")) {
                (Some(v), None) => Shown::Text(v.to_string()),
                (None, Some(p)) => {
                    let values = p.read_lock::<Array>().ok_or(WHAT)?;
                    Shown::Pieces(
                        values
                            .iter()
                            .map(|v| v.as_int().map_err(|_| WHAT))
                            .collect::<Result<_, _>>()?,
                    )
                }
                _ => return Err(WHAT.to_string()),
            };
            Ok(Number { label, shown })
        })
        .collect()
}

/// An array of texts (`columns`, `rows`).
fn texts_of(value: &Dynamic, what: &str) -> Result<Vec<String>, String> {
    let list = value
        .read_lock::<Array>()
        .ok_or(format!("picture(): `{what}` must be an array of labels"))?;
    Ok(list.iter().map(ToString::to_string).collect())
}

fn board_of(value: &Dynamic) -> Option<Board> {
    if let Some(g) = value.read_lock::<Grid>() {
        return Some(Board::Grid(g.clone()));
    }
    value.read_lock::<Track>().map(|t| Board::Track(t.clone()))
}

/// The first grid or track in `state` (the state itself, or a field of it in key order).
fn find_board(state: &Dynamic) -> Option<Board> {
    board_of(state).or_else(|| state.read_lock::<Map>()?.values().find_map(board_of))
}

/// A map keyed by cell values (`#{ "1": … }`).
fn by_value(value: &Dynamic, what: &str) -> Result<Vec<(i64, Dynamic)>, String> {
    let map = value.read_lock::<Map>().ok_or(format!(
        "picture(): `{what}` must be a map from cell values"
    ))?;
    map.iter()
        .map(|(k, v)| match k.parse::<i64>() {
            Ok(n) => Ok((n, v.clone())),
            Err(_) => Err(format!("picture(): `{what}` key '{k}' is not a cell value")),
        })
        .collect()
}

/// A cell, a pit number, or an array of them.
fn spots_of(value: &Dynamic) -> Option<Vec<Spot>> {
    let one = |v: &Dynamic| -> Option<Spot> {
        if let Some(c) = v.read_lock::<Cell>() {
            return Some(Spot::Cell(*c));
        }
        usize::try_from(v.as_int().ok()?).ok().map(Spot::Pit)
    };
    match value.read_lock::<Array>() {
        Some(a) => a.iter().map(one).collect(),
        None if value.is_unit() => Some(Vec::new()),
        None => one(value).map(|s| vec![s]),
    }
}

/// Without hints: a field holding a cell marks the last move, a field holding a non-empty
/// array of cells marks a winning line.
fn default_marks(state: &Dynamic) -> Vec<(String, Vec<Spot>)> {
    let Some(map) = state.read_lock::<Map>() else {
        return Vec::new();
    };
    let mut marks = Vec::new();
    for value in map.values() {
        if let Some(c) = value.read_lock::<Cell>() {
            marks.push(("last".to_string(), vec![Spot::Cell(*c)]));
        } else if let Some(a) = value.read_lock::<Array>() {
            let cells: Option<Vec<Spot>> = a
                .iter()
                .map(|v| v.read_lock::<Cell>().map(|c| Spot::Cell(*c)))
                .collect();
            if let Some(cells) = cells.filter(|c| !c.is_empty()) {
                marks.push(("win".to_string(), cells));
            }
        }
    }
    marks
}
