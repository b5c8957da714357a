//! Steps shared by the command line, the REPL and trace files: settings from `KEY=VALUE` text,
//! move lists with the span of each move, and game errors as diagnostics pointing at the input.

use std::ops::Range;

use crate::{
    diag::Diagnostic,
    runtime::{Game, GameError},
    script::{sandbox::limits, ScriptedGame},
};

/// Applies a `KEY=VALUE` setting. On error nothing changes, and the error gives the span of
/// `setting` at fault.
pub fn apply_option(game: &mut ScriptedGame, setting: &str) -> Result<(), (Range<usize>, String)> {
    let Some((key, value)) = setting.split_once('=') else {
        return Err((0..setting.len(), format!("'{setting}' is not KEY=VALUE")));
    };
    let key_span = 0..key.len();
    let value_span = key.len() + 1..setting.len();
    game.set_option(key.trim(), value).map_err(|message| {
        let known = game.options().iter().any(|o| o.name == key.trim());
        (if known { value_span } else { key_span }, message)
    })
}

/// Refuses `text` — input for a script: a line, a list of moves, a position — when it is
/// longer than `most` bytes, before any script reads it.
pub fn check_input_size(what: &str, text: &str, most: usize) -> Result<(), Diagnostic> {
    if text.len() <= most {
        return Ok(());
    }
    Err(Diagnostic::new(format!(
        "{what} is too long: {} bytes, at most {most} are read",
        text.len()
    ))
    .note("give a shorter text (e.g. play a long game in several steps)"))
}

/// Splits `text` into move texts with the game's `split_moves`, each with its span in `text`.
pub fn split_with_spans(
    game: &ScriptedGame,
    text: &str,
) -> Result<Vec<(String, Range<usize>)>, GameError> {
    let mut cursor = 0;
    let mut out = Vec::new();
    for piece in game.split_moves(text)? {
        let span = match text[cursor..].find(piece.trim()) {
            Some(i) if !piece.trim().is_empty() => {
                let start = cursor + i;
                cursor = start + piece.trim().len();
                start..cursor
            }
            _ => cursor..text.len(),
        };
        out.push((piece, span));
    }
    Ok(out)
}

/// A list of moves given as several texts (command-line arguments), joined by spaces into one
/// text so that errors can point at a move.
#[derive(Debug, Clone)]
pub struct MoveList {
    /// The texts joined by single spaces.
    pub text: String,
    /// Each move and its span in `text`.
    pub moves: Vec<(String, Range<usize>)>,
}

impl MoveList {
    /// Splits every argument into moves.
    pub fn from_args(game: &ScriptedGame, args: &[String]) -> Result<MoveList, Diagnostic> {
        let text = args.join(" ");
        check_input_size("the list of moves", &text, limits::INPUT)?;
        let mut moves = Vec::new();
        let mut offset = 0;
        for arg in args {
            let pieces = split_with_spans(game, arg).map_err(|e| {
                move_error(game, &e, "<moves>", &text, offset..offset + arg.len(), arg)
            })?;
            moves.extend(
                pieces
                    .into_iter()
                    .map(|(m, span)| (m, span.start + offset..span.end + offset)),
            );
            offset += arg.len() + 1;
        }
        Ok(MoveList { text, moves })
    }
}

/// A diagnostic for a move that failed, pointing at `span` of `text` (named `name`).
pub fn move_error(
    game: &ScriptedGame,
    err: &GameError,
    name: &str,
    text: &str,
    span: Range<usize>,
    mv: &str,
) -> Diagnostic {
    match err {
        GameError::BadText(m) => {
            Diagnostic::new(format!("cannot read move '{mv}'")).at(name, text, span, m.as_str())
        }
        GameError::Illegal(m) => {
            Diagnostic::new(format!("illegal move '{mv}'")).at(name, text, span, m.as_str())
        }
        GameError::GameOver(result) => Diagnostic::new(format!("illegal move '{mv}'")).at(
            name,
            text,
            span,
            format!("the game is over ({result})"),
        ),
        GameError::Rules { .. } => game.describe(err).note(format!("while playing '{mv}'")),
    }
}

/// A diagnostic for a position that could not be read. A script may start its message with
/// `line N:` to point at line N of the position.
pub fn position_error(game: &ScriptedGame, err: &GameError, name: &str, text: &str) -> Diagnostic {
    let (GameError::BadText(message) | GameError::Illegal(message)) = err else {
        return game.describe(err).note("while reading the position");
    };
    let line = message
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(':'))
        .and_then(|(n, rest)| Some((n.trim().parse::<usize>().ok()?, rest.trim())));
    let (span, label) = match line {
        Some((n, rest)) if n >= 1 => {
            let start = crate::diag::offset_of(text, n, 1);
            let len = text[start..].lines().next().map_or(0, str::len);
            (start..start + len, rest.to_string())
        }
        _ => (0..text.lines().next().map_or(0, str::len), message.clone()),
    };
    Diagnostic::new(format!("cannot read the position: {}", label)).at(name, text, span, label)
}

/// Reads a 1-based `--to-move N` into a player index.
pub fn parse_to_move(game: &ScriptedGame, text: &str) -> Result<usize, String> {
    let count = game.player_names().len();
    let by_name = game
        .player_names()
        .iter()
        .position(|n| n.eq_ignore_ascii_case(text.trim()));
    by_name
        .or_else(|| {
            text.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| (1..=count).contains(&n))
                .map(|n| n - 1)
        })
        .ok_or_else(|| format!("'{text}' is not a player: give 1 to {count} or a player's name"))
}
