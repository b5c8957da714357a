//! The profile's report: functions and lines by cost, what Rhai runs and why, the primitives
//! that fit; as text (the hottest line and each hint shown in the script, as the other
//! diagnostics are) or as JSON.

use std::ops::Range;

use ariadne::{Color, ReportKind};
use serde_json::json;

use super::hints::{self, Hint};
use crate::{
    diag,
    script::ScriptedGame,
    terminal::clean,
    walker::{profile::LineCost, HandedToRhai},
};

/// How many of the costliest lines the text report lists.
const LINES_SHOWN: usize = 12;
/// The share of the operations a function must count for its loops to be looked at for hints
/// (operations, unlike time, are the same every run).
const HOT_SHARE: f64 = 0.02;

/// What the profile played.
pub struct Run {
    /// Random playouts played.
    pub playouts: u64,
    /// Moves played in them.
    pub moves: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// One function's cost: the sum of its lines'.
struct FunctionCost {
    name: String,
    operations: u64,
    nanos: u64,
}

/// A profile, ready to print.
pub struct Profile {
    title: String,
    label: String,
    text: String,
    run: Run,
    functions: Vec<FunctionCost>,
    lines: Vec<LineCost>,
    rhai: Vec<HandedToRhai>,
    hints: Vec<Hint>,
    operations: u64,
    nanos: u64,
}

impl Profile {
    /// The profile of `game`, whose main script is `text`, from the costs of its `lines`.
    pub fn new(game: &ScriptedGame, text: &str, lines: Vec<LineCost>, run: Run) -> Self {
        let mut functions: Vec<FunctionCost> = Vec::new();
        for l in &lines {
            match functions.iter_mut().find(|f| f.name == l.function) {
                Some(f) => {
                    f.operations += l.operations;
                    f.nanos += l.nanos;
                }
                None => functions.push(FunctionCost {
                    name: l.function.clone(),
                    operations: l.operations,
                    nanos: l.nanos,
                }),
            }
        }
        functions.sort_by(|a, b| b.nanos.cmp(&a.nanos).then(a.name.cmp(&b.name)));
        let operations: u64 = lines.iter().map(|l| l.operations).sum();
        let nanos = lines.iter().map(|l| l.nanos).sum::<u64>().max(1);
        let hot: Vec<&str> = functions
            .iter()
            .filter(|f| f.operations as f64 >= HOT_SHARE * operations as f64)
            .map(|f| f.name.as_str())
            .collect();
        let hints = hints::find(text, &hot);
        let mut rhai = game.handed_to_rhai().to_vec();
        rhai.sort_by(|a, b| a.line.cmp(&b.line).then(a.why.cmp(&b.why)));
        rhai.dedup();
        Profile {
            title: game.title().to_string(),
            label: game.label().to_string(),
            text: text.to_string(),
            run,
            functions,
            lines,
            rhai,
            hints,
            operations,
            nanos,
        }
    }

    /// `nanos`' share of the time recorded.
    fn share(&self, nanos: u64) -> f64 {
        nanos as f64 / self.nanos as f64
    }

    /// Line `line` of the script, trimmed (empty if there is none).
    fn source_line(&self, line: usize) -> &str {
        line.checked_sub(1)
            .and_then(|i| self.text.lines().nth(i))
            .map_or("", str::trim)
    }

    /// The report as text, with colours when `color` is set. Script text is cleaned.
    pub fn text(&self, color: bool) -> String {
        let mut out = format!(
            "profile of {} ({}): {} random playouts, {} moves in {:.1} s under the walker; {} \
             operations recorded\n",
            clean(&self.title),
            clean(&self.label),
            self.run.playouts,
            self.run.moves,
            self.run.seconds,
            self.operations,
        );
        out += "\nfunctions (the time of their own lines)\n   share  operations  function\n";
        for f in &self.functions {
            out += &format!(
                "{:>7.1} % {:>11}  {}\n",
                100.0 * self.share(f.nanos),
                f.operations,
                clean(&f.name)
            );
        }
        out += "\ncostliest lines\n   share  operations       runs  line  function: code\n";
        for l in self.lines.iter().take(LINES_SHOWN) {
            out += &format!(
                "{:>7.1} % {:>11} {:>10} {:>5}  {}: {}\n",
                100.0 * self.share(l.nanos),
                l.operations,
                l.runs,
                l.line,
                clean(&l.function),
                clean(self.source_line(l.line)),
            );
        }
        if let Some(top) = self.lines.first() {
            out += "\n";
            out += &self.advice(
                "where the time goes",
                top.line,
                &format!(
                    "{:.1} % of the time, {} operations in {} runs",
                    100.0 * self.share(top.nanos),
                    top.operations,
                    top.runs
                ),
                None,
                color,
            );
        }
        out += "\nrun by Rhai's interpreter rather than the walker\n";
        if self.rhai.is_empty() {
            out += "  nothing: the walker runs every function\n";
        }
        for r in &self.rhai {
            let whole = if r.whole_function {
                "the function"
            } else {
                "a node"
            };
            let ran = self
                .lines
                .iter()
                .find(|l| l.function == r.function && l.line == r.line)
                .map_or("not run in the playouts".to_string(), |l| {
                    format!("its line {:.1} % of the time", 100.0 * self.share(l.nanos))
                });
            out += &format!(
                "  line {:>4}  {}: {whole} ({ran}) — {}\n",
                r.line,
                clean(&r.function),
                clean(&r.why)
            );
        }
        out += "\nprimitives that fit\n";
        if self.hints.is_empty() {
            out += "  none found for the functions taking the time\n";
        }
        for h in &self.hints {
            out += &self.advice(
                &format!("`{}` fits a loop of `{}`", h.primitive, clean(&h.function)),
                h.line,
                &format!("`{}`", h.primitive),
                Some(h.why),
                color,
            );
        }
        out
    }

    /// An ariadne report of kind "Advice" with `label` under line `line` of the script.
    fn advice(
        &self,
        message: &str,
        line: usize,
        label: &str,
        note: Option<&str>,
        color: bool,
    ) -> String {
        let name = clean(&self.label);
        let id = name.as_ref();
        let span = self.line_span(line);
        let (text, span) = crate::terminal::clean_with_span(&self.text, span);
        let notes: Vec<String> = note.map(str::to_owned).into_iter().collect();
        diag::write_report(
            ReportKind::Advice,
            diag::Snippet {
                name: id,
                text: &text,
                span,
            },
            message,
            (label, Color::Yellow),
            &notes,
            color,
        )
    }

    /// The bytes of line `line`'s code (without its indentation).
    fn line_span(&self, line: usize) -> Range<usize> {
        let start = diag::offset_of(&self.text, line.max(1), 1);
        let rest = &self.text[start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let indent = rest[..len].len() - rest[..len].trim_start().len();
        start + indent..start + len
    }

    /// The report as one JSON object.
    pub fn json(&self) -> serde_json::Value {
        json!({
            "game": self.title,
            "script": self.label,
            "playouts": self.run.playouts,
            "moves": self.run.moves,
            "seconds": self.run.seconds,
            "operations": self.operations,
            "functions": self.functions.iter().map(|f| json!({
                "name": f.name,
                "operations": f.operations,
                "share": self.share(f.nanos),
            })).collect::<Vec<_>>(),
            "lines": self.lines.iter().map(|l| json!({
                "line": l.line,
                "function": l.function,
                "runs": l.runs,
                "operations": l.operations,
                "share": self.share(l.nanos),
                "code": self.source_line(l.line),
            })).collect::<Vec<_>>(),
            "rhai": self.rhai.iter().map(|r| json!({
                "line": r.line,
                "function": r.function,
                "why": r.why,
                "whole_function": r.whole_function,
            })).collect::<Vec<_>>(),
            "hints": self.hints.iter().map(|h| json!({
                "line": h.line,
                "function": h.function,
                "primitive": h.primitive,
                "why": h.why,
            })).collect::<Vec<_>>(),
        })
    }
}
