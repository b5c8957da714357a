//! Highlights inside rendered text. A rules script's `render` may tag part of its text with
//! `highlight(kind, text)` (`"last"` for the last move, `"win"` for a winning line, or any kind a
//! theme styles). The tags are invisible control characters: plain output strips them, the REPL
//! turns them into colours.

use std::borrow::Cow;

const OPEN: char = '\u{2}';
const BODY: char = '\u{3}';
const CLOSE: char = '\u{4}';

/// `text` tagged as `kind`.
pub fn highlight(kind: &str, text: &str) -> String {
    format!("{OPEN}{kind}{BODY}{text}{CLOSE}")
}

/// A piece of tagged text: the text and the kind it was tagged with, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The kind (`"last"`, `"win"`, …) or `None` for untagged text.
    pub kind: Option<&'a str>,
    /// The visible text.
    pub text: &'a str,
}

/// Splits tagged text into its segments, in order. A stray control character is kept as text.
pub fn segments(text: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        let tail = &rest[open + 1..];
        let (Some(body), Some(close)) = (tail.find(BODY), tail.find(CLOSE)) else {
            break;
        };
        if body > close {
            break;
        }
        if open > 0 {
            out.push(Segment {
                kind: None,
                text: &rest[..open],
            });
        }
        out.push(Segment {
            kind: Some(&tail[..body]),
            text: &tail[body + 1..close],
        });
        rest = &tail[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Segment {
            kind: None,
            text: rest,
        });
    }
    out
}

/// The text with its tags removed.
pub fn strip(text: &str) -> Cow<'_, str> {
    if !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(segments(text).iter().map(|s| s.text).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_strip() {
        let text = format!("a {} b {}", highlight("last", "X"), highlight("win", "OO"));
        assert_eq!(strip(&text), "a X b OO");
        let segs = segments(&text);
        assert_eq!(segs.len(), 4);
        assert_eq!(
            segs[1],
            Segment {
                kind: Some("last"),
                text: "X"
            }
        );
        assert_eq!(
            segs[3],
            Segment {
                kind: Some("win"),
                text: "OO"
            }
        );
        assert_eq!(strip("plain"), "plain");
        assert_eq!(strip("\u{2}broken"), "\u{2}broken");
    }
}
