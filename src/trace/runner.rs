//! Replaying a trace and comparing what comes out with what it expects.

use std::{ops::Range, path::Path};

use similar::{ChangeTag, TextDiff};

use super::syntax::{self, Expect, Spanned, Start, Trace};
use crate::{
    diag::Diagnostic,
    driver::{apply_option, move_error, parse_to_move, position_error, split_with_spans},
    runtime::{Game, History},
    script::{Library, ScriptedGame},
};

/// What replaying one trace found.
#[derive(Debug, Clone)]
pub struct TraceReport {
    /// The trace's name (its path).
    pub name: String,
    /// How many expectations were checked.
    pub checks: usize,
    /// Each failure, rendered for the terminal.
    pub failures: Vec<String>,
}

impl TraceReport {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Reads and replays the trace file at `path`.
pub fn run_file(library: &Library, path: &Path, color: bool) -> TraceReport {
    let name = path.display().to_string();
    match crate::fsio::read_text(path) {
        Ok(text) => run_text(library, &name, &text, color),
        Err(e) => TraceReport {
            name: name.clone(),
            checks: 0,
            failures: vec![Diagnostic::new(format!("cannot read {name}: {e}")).render(color)],
        },
    }
}

/// Replays the trace `text` (named `name` in reports).
pub fn run_text(library: &Library, name: &str, text: &str, color: bool) -> TraceReport {
    let mut run = Run {
        name,
        text,
        color,
        checks: 0,
        failures: Vec::new(),
    };
    match syntax::parse(name, text) {
        Ok(trace) => run.replay(library, &trace),
        Err(d) => run.fail(d),
    }
    TraceReport {
        name: name.to_string(),
        checks: run.checks,
        failures: run.failures,
    }
}

struct Run<'a> {
    name: &'a str,
    text: &'a str,
    color: bool,
    checks: usize,
    failures: Vec<String>,
}

impl Run<'_> {
    fn fail(&mut self, d: Diagnostic) {
        self.failures.push(d.render(self.color));
    }

    fn at(
        &self,
        message: impl Into<String>,
        span: Range<usize>,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(message).at(self.name, self.text, span, label)
    }

    fn load(&mut self, library: &Library, trace: &Trace) -> Option<ScriptedGame> {
        let mut game = match ScriptedGame::load(library, &trace.game.value) {
            Ok(g) => g,
            Err(ds) => {
                let first = &ds[0];
                self.fail(self.at(first.message.clone(), trace.game.span.clone(), "this game"));
                ds.into_iter().for_each(|d| self.fail(d));
                return None;
            }
        };
        for setting in &trace.options {
            if let Err((_, message)) = apply_option(&mut game, &setting.value) {
                self.fail(self.at("bad option", setting.span.clone(), message));
                return None;
            }
        }
        if let Some(seed) = &trace.seed {
            match seed.value.parse::<u64>() {
                Ok(s) => game.set_seed(s),
                Err(_) => {
                    self.fail(self.at("bad seed", seed.span.clone(), "not a whole number"));
                    return None;
                }
            }
        }
        Some(game)
    }

    fn replay(&mut self, library: &Library, trace: &Trace) {
        let Some(game) = self.load(library, trace) else {
            return;
        };
        let to_move = match &trace.to_move {
            Some(t) => match parse_to_move(&game, &t.value) {
                Ok(p) => Some(p),
                Err(m) => return self.fail(self.at("bad to-move", t.span.clone(), m)),
            },
            None => None,
        };
        let start = match &trace.start {
            Some(Start::Position(p)) => game.parse_state(&p.value, to_move).map_err(|e| {
                position_error(&game, &e, &format!("{} (position)", self.name), &p.value)
            }),
            _ => game.start().map_err(|e| game.describe(&e)),
        };
        let start = match start {
            Ok(s) => s,
            Err(d) => return self.fail(d),
        };
        let mut history = History::<ScriptedGame>::new(start);
        let start_expect = Expect {
            rendering: match &trace.start {
                Some(Start::Expect(r)) => Some(r.clone()),
                _ => None,
            },
            events: Vec::new(),
            result: trace.start_result.clone(),
        };
        self.check(&game, &history, &start_expect, "the start");
        for mv in &trace.moves {
            let played = self.play(&game, &mut history, &mv.text);
            match (played, &mv.error) {
                (Ok(()), None) => self.check(
                    &game,
                    &history,
                    &mv.expect,
                    &format!("move '{}'", mv.text.value),
                ),
                (Ok(()), Some(expected)) => {
                    self.checks += 1;
                    self.fail(self.at(
                        format!("move '{}' was accepted", mv.text.value),
                        expected.span.clone(),
                        format!("expected an error containing '{}'", expected.value),
                    ));
                }
                (Err(d), Some(expected)) => {
                    self.checks += 1;
                    if !d.render(false).contains(&expected.value) {
                        self.fail(self.at(
                            format!("move '{}' failed differently", mv.text.value),
                            expected.span.clone(),
                            format!("expected '{}'", expected.value),
                        ));
                        self.fail(d);
                    }
                }
                (Err(d), None) => {
                    self.checks += 1;
                    self.fail(d);
                    return;
                }
            }
        }
    }

    /// Plays every move `text` holds; on error the history is as before the failing move.
    fn play(
        &mut self,
        game: &ScriptedGame,
        history: &mut History<ScriptedGame>,
        text: &Spanned<String>,
    ) -> Result<(), Diagnostic> {
        let line_start = text.span.start + 1;
        let moves = split_with_spans(game, &text.value).map_err(|e| {
            move_error(
                game,
                &e,
                self.name,
                self.text,
                text.span.clone(),
                &text.value,
            )
        })?;
        for (mv, span) in moves {
            let at = self.text[line_start..]
                .find(&text.value)
                .map_or(text.span.clone(), |i| {
                    line_start + i + span.start..line_start + i + span.end
                });
            history
                .play_text(game, &mv)
                .map_err(|e| move_error(game, &e, self.name, self.text, at, &mv))?;
        }
        Ok(())
    }

    fn check(
        &mut self,
        game: &ScriptedGame,
        history: &History<ScriptedGame>,
        expect: &Expect,
        after: &str,
    ) {
        let state = history.current();
        if let Some(expected) = &expect.rendering {
            self.checks += 1;
            match game.render(state) {
                Ok(actual) if same_text(&actual, &expected.value) => {}
                Ok(actual) => {
                    let d = self
                        .at(
                            format!("the rendering after {after} differs"),
                            expected.span.clone(),
                            "expected this",
                        )
                        .note(format!(
                            "diff (- expected, + actual):\n{}",
                            diff(&expected.value, &actual)
                        ));
                    self.fail(d);
                }
                Err(e) => self.fail(game.describe(&e)),
            }
        }
        if !expect.events.is_empty() {
            self.checks += 1;
            let actual: Vec<String> = history
                .steps()
                .last()
                .map(|s| s.events.iter().map(|e| e.text.clone()).collect())
                .unwrap_or_default();
            let expected: Vec<String> = expect.events.iter().map(|e| e.value.clone()).collect();
            if actual != expected {
                let span =
                    expect.events[0].span.start..expect.events.last().expect("not empty").span.end;
                let d = self
                    .at(
                        format!("the events of {after} differ"),
                        span,
                        "expected these",
                    )
                    .note(format!(
                        "diff (- expected, + actual):\n{}",
                        diff(&expected.join("\n"), &actual.join("\n"))
                    ));
                self.fail(d);
            }
        }
        if let Some(expected) = &expect.result {
            self.checks += 1;
            let actual = match history.outcome(game) {
                Ok(Some(o)) => game.describe_outcome(o),
                Ok(None) => "none".to_string(),
                Err(e) => return self.fail(game.describe(&e)),
            };
            if actual != expected.value {
                self.fail(self.at(
                    format!("the result after {after} differs"),
                    expected.span.clone(),
                    format!("expected '{}', got '{actual}'", expected.value),
                ));
            }
        }
    }
}

/// Whether two renderings are equal, ignoring trailing blanks on lines and at the end.
fn same_text(a: &str, b: &str) -> bool {
    let lines = |t: &str| {
        t.trim_end()
            .lines()
            .map(str::trim_end)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    lines(a) == lines(b)
}

/// A line diff of two texts: `-` expected, `+` actual, ` ` the same.
pub fn diff(expected: &str, actual: &str) -> String {
    TextDiff::from_lines(expected.trim_end(), actual.trim_end())
        .iter_all_changes()
        .map(|c| {
            let sign = match c.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            format!("{sign} {}", c.value().trim_end_matches('\n'))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
