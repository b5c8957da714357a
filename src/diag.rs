//! User-facing errors: a message and, when there is one, the text it points into, rendered with
//! ariadne as a report with a caret under the offending span.

use std::ops::Range;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};

use crate::terminal::{self, clean};

/// The text an error points into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer {
    /// Name of the text (a file path, `builtin:NAME`, `<command line>`, `<input>`).
    pub name: String,
    /// The whole text.
    pub text: String,
    /// The offending bytes of `text`.
    pub span: Range<usize>,
    /// What is wrong there, in a few words.
    pub label: String,
}

/// A user-facing error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline.
    pub message: String,
    /// Where it points, if anywhere.
    pub pointer: Option<Box<Pointer>>,
    /// Extra lines of help.
    pub notes: Vec<String>,
}

/// The source text a report points into: its name, the (cleaned) text and the offending bytes.
pub(crate) struct Snippet<'a> {
    /// Name of the text, shown in the report's header.
    pub name: &'a str,
    /// The text, already [cleaned](clean).
    pub text: &'a str,
    /// The bytes the label points at.
    pub span: Range<usize>,
}

/// One ariadne report of `kind` with `message`, a `label` (text and colour) under `snippet`'s
/// span, and `notes`, written to a string: every report of the crate is rendered here.
pub(crate) fn write_report(
    kind: ReportKind<'_>,
    snippet: Snippet<'_>,
    message: &str,
    label: (&str, Color),
    notes: &[String],
    color: bool,
) -> String {
    let Snippet { name, text, span } = snippet;
    let mut report = Report::build(kind, (name, span.clone()))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_message(message)
        .with_label(
            Label::new((name, span))
                .with_message(label.0)
                .with_color(label.1),
        );
    for note in notes {
        report = report.with_note(note);
    }
    let mut buf = Vec::new();
    report
        .finish()
        .write((name, Source::from(text)), &mut buf)
        .expect("writing to memory cannot fail");
    String::from_utf8_lossy(&buf).into_owned()
}

impl Diagnostic {
    /// An error with no text to point into.
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            pointer: None,
            notes: Vec::new(),
        }
    }

    /// Points the error at `span` of `text` (clamped to the text, widened to whole characters).
    pub fn at(
        mut self,
        name: impl Into<String>,
        text: impl Into<String>,
        span: Range<usize>,
        label: impl Into<String>,
    ) -> Self {
        let text = text.into();
        let span = clamp_span(&text, span);
        self.pointer = Some(Box::new(Pointer {
            name: name.into(),
            text,
            span,
            label: label.into(),
        }));
        self
    }

    /// Adds a line of help.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The report as text, with ANSI colours when `color` is set. Every text in it may come from
    /// a script, so control characters and bidi overrides are escaped ([`terminal::clean`]).
    pub fn render(&self, color: bool) -> String {
        self.render_in(color, &Words::default())
    }

    /// The report as text, its headings in `words` (for another language than English). Every
    /// text is [cleaned](clean): script text never reaches the terminal raw.
    pub fn render_in(&self, color: bool, words: &Words) -> String {
        let message = clean(&self.message);
        let Some(p) = &self.pointer else {
            let mut out = format!("{}: {message}\n", words.error);
            for n in &self.notes {
                out += &format!("  {}: {}\n", words.note, clean(n));
            }
            return out;
        };
        let name = clean(&p.name);
        let id = name.as_ref();
        let (shown, shown_span, cut) = around(&p.text, p.span.clone());
        let (text, span) = terminal::clean_with_span(&shown, shown_span);
        let kind = match words.error.as_str() {
            "Error" => ReportKind::Error,
            other => ReportKind::Custom(other, Color::Red),
        };
        let mut notes: Vec<String> = self.notes.iter().map(|n| clean(n).into_owned()).collect();
        if let Some(cut) = &cut {
            notes.push(cut.note.clone());
        }
        let mut out = write_report(
            kind,
            Snippet {
                name: id,
                text: &text,
                span,
            },
            &message,
            (&clean(&p.label), Color::Red),
            &notes,
            color,
        );
        if let Some(cut) = &cut {
            // the header's column is the cut line's: say the real one
            out = out.replacen(&cut.header.0, &cut.header.1, 1);
        }
        if !color {
            out = without_colours(&out); // ariadne colours a custom heading always
        }
        if words.note == "Note" {
            return out;
        }
        // ariadne writes "Note" itself: put the word of the language in its place
        out.replace("│ Note: ", &format!("│ {}: ", words.note))
            .replace("Note\u{1b}[0m: ", &format!("{}\u{1b}[0m: ", words.note))
    }
}

/// The longest line a report shows whole, in bytes.
const LONGEST_LINE: usize = 240;
/// How much of a longer line a report shows on each side of the problem, in bytes.
const AROUND: usize = 80;

/// `text` with the line `span` is on cut to [`AROUND`] bytes either side of it (marked `…`) when
/// that line is longer than [`LONGEST_LINE`], the span moved to match, and how it was cut. A one-line script of megabytes gives a report of a few lines.
fn around(
    text: &str,
    span: Range<usize>,
) -> (std::borrow::Cow<'_, str>, Range<usize>, Option<Cut>) {
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[span.end..]
        .find('\n')
        .map_or(text.len(), |i| span.end + i);
    if line_end - line_start <= LONGEST_LINE {
        return (text.into(), span, None);
    }
    let boundary = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let from = boundary(span.start.saturating_sub(AROUND).max(line_start));
    let span_end = span.end.min(span.start + AROUND);
    let to = boundary((span_end + AROUND).min(line_end));
    let span_end = boundary(span_end).max(span.start);
    let before = if from > line_start { "…" } else { "" };
    let after = if to < line_end { "…" } else { "" };
    let shown = format!(
        "{}{before}{}{after}{}",
        &text[..line_start],
        &text[from..to],
        &text[line_end..]
    );
    let moved = |i: usize| i - from + line_start + before.len();
    let line = text[..line_start].matches('\n').count() + 1;
    let column = text[line_start..span.start].chars().count() + 1;
    let cut = Cut {
        note: format!(
            "line {line} is {} long: shown around column {column}",
            crate::fsio::human((line_end - line_start) as u64)
        ),
        header: (
            format!(
                ":{line}:{} ]",
                before.chars().count() + text[from..span.start].chars().count() + 1
            ),
            format!(":{line}:{column} ]"),
        ),
    };
    (shown.into(), moved(span.start)..moved(span_end), Some(cut))
}

/// How a report's line was cut: the note saying so, and the position in its header as the cut
/// line gives it and as it really is.
struct Cut {
    note: String,
    header: (String, String),
}

/// `text` without its ANSI colour sequences (`ESC [ … m`).
fn without_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("\u{1b}[") {
        out += &rest[..i];
        let after = &rest[i + 2..];
        match after.find('m') {
            Some(end) => rest = &after[end + 1..],
            None => rest = "",
        }
    }
    out + rest
}

/// The headings of a report, in the language it is shown in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// The heading of an error ("Error").
    pub error: String,
    /// The heading of a note ("Note").
    pub note: String,
}

impl Default for Words {
    fn default() -> Self {
        Words {
            error: "Error".into(),
            note: "Note".into(),
        }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(false))
    }
}

fn clamp_span(text: &str, span: Range<usize>) -> Range<usize> {
    let mut start = span.start.min(text.len());
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// The byte offset of 1-based `line` and `column` in `text` (clamped to the text).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line_text = text[line_start..].lines().next().unwrap_or("");
    let in_line: usize = line_text
        .chars()
        .take(column.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    line_start + in_line
}

/// The span of the token starting at `offset`: up to the next whitespace or punctuation.
pub fn token_at(text: &str, offset: usize) -> Range<usize> {
    let start = offset.min(text.len());
    let len = text[start..]
        .find(|c: char| c.is_whitespace() || "(){}[];,".contains(c))
        .unwrap_or(text.len() - start)
        .max(1);
    start..(start + len).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_the_problem() {
        let text = format!(
            "fn f() {{\n{}let x = @;{}\n}}\n",
            "a + ".repeat(500_000),
            " + b".repeat(500_000)
        );
        let at = text.find('@').unwrap();
        let d =
            Diagnostic::new("syntax error").at("big.rhai", text.as_str(), at..at + 1, "not Rhai");
        let out = d.render(false);
        assert!(out.len() < 2_000, "{} bytes", out.len());
        assert!(
            out.contains("│ …a + a + ") && out.contains("a + let x = @; + b + b"),
            "{out}"
        );
        assert!(
            out.contains(" + …\n") && out.contains("big.rhai:2:2000009 ]"),
            "{out}"
        );
        assert!(
            out.contains("line 2 is 3.8 MiB long: shown around column 2000009"),
            "{out}"
        );
        assert!(out.contains("^") || out.contains("┬"), "{out}");
        // a short line is shown whole
        let d = Diagnostic::new("e").at("s.rhai", "let x = @;", 8..9, "here");
        assert!(!d.render(false).contains('…'));
        // a cut one character from the line's start
        let text = format!("@{}", "x".repeat(1000));
        let d = Diagnostic::new("e").at("s.rhai", text.as_str(), 0..1, "here");
        assert!(d.render(false).contains("@xxx"));
        let text = format!("{}@{}", "é".repeat(41), "x".repeat(1000));
        let at = text.find('@').unwrap();
        let d = Diagnostic::new("e").at("s.rhai", text.as_str(), at..at + 1, "here");
        assert!(d.render(false).contains("é@xxx"));
    }

    #[test]
    fn points_at_the_span() {
        let d = Diagnostic::new("illegal move").at("<args>", "13n 32x", 4..7, "off the board");
        let text = d.render(false);
        assert!(text.contains("illegal move"), "{text}");
        assert!(text.contains("off the board"), "{text}");
        assert!(text.contains("13n 32x"), "{text}");
    }

    #[test]
    fn offsets_count_lines_and_columns_from_one() {
        let text = "ab\ncdé f\n";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 1), 3);
        assert_eq!(offset_of(text, 2, 5), 8);
        assert_eq!(token_at(text, 3), 3..7);
    }

    #[test]
    fn script_text_cannot_reach_the_terminal_raw() {
        let d = Diagnostic::new("\u{1b}]0;owned\u{7}")
            .at("<s>", "\u{1b}[2J 32x", 5..8, "\u{202e}here")
            .note("\u{1b}[31m");
        let text = d.render(false);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{text:?}"
        );
        assert!(text.contains("\\u{1b}]0;owned\\u{7}"), "{text}");
        assert!(text.contains("\\u{202e}here"), "{text}");
        let plain = Diagnostic::new("a\u{1b}c").note("\u{9b}").render(false);
        assert_eq!(plain, "Error: a\\u{1b}c\n  Note: \\u{9b}\n");
    }

    #[test]
    fn headings_come_in_the_language_asked_and_without_colour_when_off() {
        let words = Words {
            error: "Lỗi".into(),
            note: "Ghi chú".into(),
        };
        let d = Diagnostic::new("x").at("t", "abc", 0..1, "here").note("n");
        let text = d.render_in(false, &words);
        assert!(text.starts_with("Lỗi: x"), "{text}");
        assert!(
            text.contains("Ghi chú: n") && !text.contains("Note"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(d.render_in(true, &words).contains('\u{1b}'));
        let plain = Diagnostic::new("x").note("n").render_in(false, &words);
        assert_eq!(plain, "Lỗi: x\n  Ghi chú: n\n");
    }

    #[test]
    fn spans_are_clamped_to_characters() {
        let d = Diagnostic::new("x").at("t", "é", 1..9, "here");
        assert_eq!(d.pointer.unwrap().span, 0..2);
    }
}
