//! Replay mode: step through a history (a move list, a file, or the game's own) with `n`, `p`, `s`,
//! `first`, `last` and `goto N`. A legal move typed in the middle starts a new branch from there.

use super::{
    command::Command,
    kept::{OldRules, Replay},
    outcome::{Done, Failure, Flow},
    save::{self, LoadedFile},
    session::Session,
};
use crate::{
    diag::Diagnostic,
    driver::split_with_spans,
    runtime::{Game, History},
};

impl Session {
    /// `replay [MOVES|@FILE]`: enters replay mode at the start of the history.
    pub(super) fn start_replay(&mut self, line: &str, source: Option<&str>) -> Done {
        let (name, text, offset) = match source {
            None => {
                if self.history.ply() == 0 {
                    return Err(Diagnostic::new(self.ui.t("replay-nothing", &[])).into());
                }
                let moves: Vec<&str> = self
                    .history
                    .steps()
                    .iter()
                    .map(|s| s.text.as_str())
                    .collect();
                ("<game>".to_string(), moves.join(" "), 0)
            }
            Some(source) => match source.strip_prefix('@') {
                Some(path) => {
                    let text = crate::fsio::read_text(std::path::Path::new(path)).map_err(|e| {
                        Diagnostic::new(self.ui.t("cannot-read", &[("path", &path), ("why", &e)]))
                    })?;
                    match self.saved_moves(path, &text)? {
                        Some(moves) => (path.to_string(), moves, 0),
                        None => (path.to_string(), blank_comments(&text), 0),
                    }
                }
                None => (
                    "<input>".to_string(),
                    line.to_string(),
                    line.find(source).unwrap_or(0),
                ),
            },
        };
        let moves_text = &text[offset..];
        let start = self.game.start().map_err(|e| self.fault(&e))?;
        let mut history = History::new(start);
        let moves = split_with_spans(&self.game, moves_text)
            .map_err(|e| self.move_failed(&e, &name, &text, offset..text.len(), moves_text))?;
        let mut listing = Vec::with_capacity(moves.len());
        for (mv, span) in moves {
            let player = self
                .game
                .to_move(history.current())
                .map(|p| self.game.player_name(p))
                .unwrap_or_default();
            let span = span.start + offset..span.end + offset;
            let step = history
                .play_text(&self.game, &mv)
                .map_err(|e| self.move_failed(&e, &name, &text, span, &mv))?;
            listing.push((player, step.text.clone()));
        }
        while history.undo() {}
        println!("{}", self.ui.t_n("replay-started", listing.len(), &[]));
        self.replay = Some(Replay { history, listing });
        self.show_board()
    }

    /// The moves of `text` if it is a saved game of the game being played (same script and
    /// options); an error saying to `load` it if it is a saved game of another; `None` if it is
    /// not a saved game.
    fn saved_moves(&self, path: &str, text: &str) -> Result<Option<String>, Failure> {
        let Ok(file) = toml::from_str::<LoadedFile>(text) else {
            return Ok(None);
        };
        let options: Vec<(String, String)> = file
            .options
            .iter()
            .map(|(k, v)| (k.clone(), save::option_text(v.get_ref())))
            .collect();
        let mut ours = self.choice.options.clone();
        ours.sort();
        if *file.game.get_ref() != self.choice.game || options != ours {
            let game = file.game.get_ref();
            return Err(Diagnostic::new(
                self.ui
                    .t("replay-other-save", &[("path", &path), ("game", game)]),
            )
            .note(self.ui.t("replay-use-load", &[("path", &path)]))
            .into());
        }
        let moves: Vec<&str> = file.moves.iter().map(|m| m.get_ref().as_str()).collect();
        Ok(Some(moves.join(" ")))
    }

    /// One command in replay mode.
    pub(super) fn execute_in_replay(
        &mut self,
        line: &str,
        command: Command,
    ) -> Result<Flow, Failure> {
        match command {
            Command::Nothing => {}
            Command::Quit => return Ok(Flow::Quit),
            Command::Next => self.step_replay(1)?,
            Command::Prev => self.step_back(1)?,
            Command::First => self.step_back(usize::MAX)?,
            Command::Last => self.step_replay(usize::MAX)?,
            Command::Goto(n) => {
                let ply = self.replay_mut().history.ply();
                if n > self.replay_mut().listing.len() {
                    let total = self.replay_mut().listing.len();
                    return Err(Diagnostic::new(
                        self.ui.t("goto-beyond", &[("n", &n), ("total", &total)]),
                    )
                    .into());
                }
                if n >= ply {
                    self.step_replay(n - ply)?;
                } else {
                    self.step_back(ply - n)?;
                }
            }
            Command::Stop => {
                self.replay = None;
                println!("{}", self.ui.t("replay-stopped", &[]));
                self.show_board()?;
            }
            Command::Play(text) => self.branch(line, &text)?,
            Command::Board => self.show_board()?,
            other @ (Command::History
            | Command::Moves
            | Command::Explain { .. }
            | Command::Help(_)
            | Command::Lang(_)
            | Command::Theme(_)
            | Command::Color(_)
            | Command::Options) => return self.execute_anywhere(other),
            _ => return Err(Diagnostic::new(self.ui.t("replay-only", &[])).into()),
        }
        Ok(Flow::Continue)
    }

    fn replay_mut(&mut self) -> &mut Replay {
        self.replay.as_mut().expect("called in replay mode")
    }

    /// Shows the next `n` moves (at most to the end); at the end, says so.
    fn step_replay(&mut self, n: usize) -> Done {
        let mut moved = 0;
        while moved < n && self.replay_mut().history.redo() {
            moved += 1;
        }
        if moved == 0 {
            println!("{}", self.ui.t("replay-at-end", &[]));
            return Ok(());
        }
        self.show_replay_step()
    }

    /// Goes back `n` moves (at most to the start); at the start, says so.
    fn step_back(&mut self, n: usize) -> Done {
        let mut moved = 0;
        while moved < n && self.replay_mut().history.undo() {
            moved += 1;
        }
        if moved == 0 {
            println!("{}", self.ui.t("replay-at-start", &[]));
            return Ok(());
        }
        self.show_replay_step()
    }

    fn show_replay_step(&self) -> Done {
        let replay = self.replay.as_ref().expect("called in replay mode");
        let (ply, total) = replay.position();
        let what = match ply.checked_sub(1).map(|i| &replay.listing[i]) {
            Some((player, mv)) => self.ui.t(
                "replay-move",
                &[
                    ("ply", &ply),
                    ("total", &total),
                    ("player", player),
                    ("move", mv),
                ],
            ),
            None => self.ui.t("replay-start-board", &[("total", &total)]),
        };
        println!("{what}");
        self.show_board()
    }

    /// A move typed during a replay: play it at the cursor as a new branch of the game.
    fn branch(&mut self, line: &str, text: &str) -> Done {
        let mut history = self.replay_mut().history.clone();
        let illegal = |why: String| {
            Diagnostic::new(self.ui.t("replay-illegal", &[])).at(
                "<input>",
                line,
                0..line.len(),
                why,
            )
        };
        let moves = split_with_spans(&self.game, text).map_err(|e| illegal(e.to_string()))?;
        for (mv, _) in &moves {
            history
                .play_text(&self.game, mv)
                .map_err(|e| illegal(e.to_string()))?;
        }
        let from = self.replay_mut().history.ply();
        self.replay = None;
        println!("{}", self.ui.t("branched", &[("n", &from)]));
        let old = std::mem::replace(&mut self.history, history);
        let rules = OldRules::values_of(&self.game);
        let lost = self.lost_on_time.take();
        self.put_aside(rules, self.choice.clone(), old, lost, from);
        self.restart_clock();
        self.show_board()
    }
}

/// `text` with each `#` comment replaced by spaces, so spans still point into the original.
fn blank_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find('#') {
            Some(i) => format!("{}{}", &l[..i], " ".repeat(l.len() - i)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
