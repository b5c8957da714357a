//! Completion and hints for the interactive REPL (rustyline): command words, their arguments
//! (option names, languages, themes, games), and the legal moves of the position on screen.

use std::{borrow::Cow, cell::RefCell, rc::Rc};

use rustyline::{
    completion::{Completer, Pair},
    highlight::{CmdKind, Highlighter},
    hint::Hinter,
    validate::Validator,
    Context, Helper,
};

use super::command::COMMANDS;
use crate::script::reference;

/// What can be completed right now; the REPL refreshes it after every command.
#[derive(Debug, Default, Clone)]
pub struct Words {
    /// Legal moves of the position on screen.
    pub moves: Vec<String>,
    /// The game's option names (and `seed`).
    pub options: Vec<String>,
    /// Languages, themes, games.
    pub languages: Vec<String>,
    /// Theme names.
    pub themes: Vec<String>,
    /// Game names.
    pub games: Vec<String>,
    /// Whether hints are dimmed with ANSI codes.
    pub color: bool,
}

/// The REPL's rustyline helper.
#[derive(Default)]
pub struct ReplHelper {
    /// Shared with the REPL loop, which refreshes it.
    pub words: Rc<RefCell<Words>>,
}

impl ReplHelper {
    /// Every completion of the word ending at `pos` in `line`, with where that word starts.
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let first = before
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let words = self.words.borrow();
        let pool: Vec<String> = if start == 0 {
            COMMANDS
                .iter()
                .map(|c| c.name.to_string())
                .chain(words.moves.iter().cloned())
                .collect()
        } else {
            match first.as_str() {
                "help" => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
                "doc" => reference::names(),
                "set" => words.options.iter().map(|o| format!("{o}=")).collect(),
                "lang" => words.languages.clone(),
                "theme" => words.themes.clone(),
                "variant" => words.games.clone(),
                "color" | "colour" => ["on", "off", "auto"].map(String::from).to_vec(),
                "explain" => vec!["--boards".into()],
                "draft" => vec!["end".into()],
                "clock" => ["off", "5m", "10m"].map(String::from).to_vec(),
                _ => words.moves.clone(),
            }
        };
        let lower = word.to_ascii_lowercase();
        let mut found: Vec<String> = pool
            .into_iter()
            .filter(|c| c.to_ascii_lowercase().starts_with(&lower))
            .collect();
        found.dedup();
        (start, found)
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = self.candidates(line, pos);
        Ok((
            start,
            found
                .into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    /// The rest of the only command the line can be, then its arguments.
    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let typed = line.trim_start().to_ascii_lowercase();
        match typed.split_once(' ') {
            None if !typed.is_empty() => {
                let mut matches = COMMANDS.iter().filter(|c| c.name.starts_with(&typed));
                let c = matches.next()?;
                if matches.next().is_some() {
                    return None;
                }
                let rest = &c.name[typed.len()..];
                Some(if c.args.is_empty() {
                    rest.to_string()
                } else {
                    format!("{rest} {}", c.args)
                })
            }
            Some((word, "")) => COMMANDS
                .iter()
                .find(|c| c.name == word && !c.args.is_empty())
                .map(|c| c.args.to_string()),
            _ => None,
        }
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.words.borrow().color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> ReplHelper {
        let h = ReplHelper::default();
        *h.words.borrow_mut() = Words {
            moves: vec!["9h".into(), "9i".into(), "10h".into()],
            options: vec!["exact".into(), "size".into()],
            ..Words::default()
        };
        h
    }

    #[test]
    fn completes_commands_options_and_moves() {
        let h = helper();
        assert_eq!(h.candidates("und", 3), (0, vec!["undo".to_string()]));
        assert_eq!(h.candidates("9", 1).1, ["9h", "9i"]);
        assert_eq!(h.candidates("set ex", 6), (4, vec!["exact=".to_string()]));
        assert_eq!(h.candidates("9h 1", 4), (3, vec!["10h".to_string()]));
        assert_eq!(h.candidates("help rel", 8).1, ["reload"]);
        assert_eq!(
            h.candidates("doc runs_t", 10),
            (4, vec!["runs_through".to_string()])
        );
    }
}
