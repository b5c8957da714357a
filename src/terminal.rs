//! Keeping the terminal ours: text that comes from a rules script or a bot (renderings, events,
//! warnings, error messages, names, a bot's `play.txt`) is passed through [`clean`] before it is
//! printed, so it cannot clear the screen, set the window title, write the clipboard (OSC 52),
//! plant hyperlinks or reverse the text that follows it. Control characters and bidirectional
//! overrides become visible escapes like `\u{1b}`; newlines and tabs stay. The runtime's own
//! styling (the REPL's colours for `highlight` tags) is added after cleaning, so it keeps working.

use std::{borrow::Cow, fmt::Write, ops::Range};

/// Whether `c` must not reach a terminal as it is: a C0 control other than newline and tab, DEL,
/// a C1 control, or a character that changes the direction of the text that follows it.
pub fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidirectional marks, embeddings, overrides and isolates; line and paragraph separators.
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            true
        }
        _ => false,
    }
}

/// `text` made safe to print: every [unsafe](is_unsafe) character written as `\u{…}`.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(clean_with_span(text, 0..0).0)
}

/// `text` made safe for an XML document (an SVG picture or chart): [cleaned](clean), and the
/// two characters XML 1.0 forbids that cleaning keeps, U+FFFE and U+FFFF, written as `\u{fffe}`
/// and `\u{ffff}`.
pub fn clean_for_xml(text: &str) -> String {
    let cleaned = clean(text);
    if !cleaned.contains(['\u{fffe}', '\u{ffff}']) {
        return cleaned.into_owned();
    }
    cleaned
        .replace('\u{fffe}', "\\u{fffe}")
        .replace('\u{ffff}', "\\u{ffff}")
}

/// `text` made safe to print, and where the bytes `span` of `text` are in the result (for an
/// error report that points into a script's text).
pub fn clean_with_span(text: &str, span: Range<usize>) -> (String, Range<usize>) {
    let mut out = String::with_capacity(text.len());
    let (mut start, mut end) = (None, None);
    for (i, c) in text.char_indices() {
        if start.is_none() && i >= span.start {
            start = Some(out.len());
        }
        if end.is_none() && i >= span.end {
            end = Some(out.len());
        }
        push_clean(&mut out, c);
    }
    let start = start.unwrap_or(out.len());
    let end = end.unwrap_or(out.len()).max(start);
    (out, start..end)
}

/// Appends `c` to `out`, escaped if it is unsafe.
pub fn push_clean(out: &mut String, c: char) {
    if is_unsafe(c) {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_and_keeps_newlines() {
        assert_eq!(clean("a\nb\tc"), "a\nb\tc");
        assert!(matches!(clean("plain"), Cow::Borrowed(_)));
        assert_eq!(clean("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(clean("\u{1b}]52;c;aGk=\u{7}"), "\\u{1b}]52;c;aGk=\\u{7}");
        assert_eq!(clean("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(clean("\u{2067}x\u{2069}"), "\\u{2067}x\\u{2069}");
        assert_eq!(clean("\u{9b}31m\r"), "\\u{9b}31m\\u{d}");
        assert_eq!(clean("Tiếng Việt 漢字"), "Tiếng Việt 漢字");
    }

    #[test]
    fn spans_follow_the_text_they_pointed_at() {
        let text = "\u{1b}[2J 32x";
        let (out, span) = clean_with_span(text, 5..8);
        assert_eq!(&out[span], "32x");
        let (out, span) = clean_with_span(text, 0..1);
        assert_eq!(&out[span], "\\u{1b}");
        let (out, span) = clean_with_span("ab", 2..2);
        assert_eq!(span, out.len()..out.len());
    }
}
