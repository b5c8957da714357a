//! Where a missing `}` belongs. Rhai notices a block left open only where it can go no further
//! — at the end of the script, or at the next `fn` (a function cannot be defined inside a
//! block) — far from the block that lacks it. Reading the braces (outside strings and comments)
//! with the layout teachers write finds it: a line that starts with `fn` begins a new function,
//! so the outermost block still open there (or at the end) is the one never closed.

/// A block never closed: where it opens, and where Rhai will notice.
#[derive(Debug, PartialEq, Eq)]
pub struct Unclosed {
    /// The byte offset of its `{`.
    pub brace: usize,
    /// The byte offset where a parser meets the trouble: the next line starting with `fn` (or
    /// `private fn`), or the end of the text (less trailing blanks).
    pub noticed: usize,
}

/// The outermost block of `text` still open at the first line starting with `fn` (or at the
/// end), if any.
pub fn find(text: &str) -> Option<Unclosed> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let line_start = i == 0 || bytes[i - 1] == b'\n';
        if line_start && !open.is_empty() && starts_function(&text[i..]) {
            return Some(Unclosed {
                brace: open[0],
                noticed: i,
            });
        }
        i = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => skip_to(bytes, i + 2, b"\n"),
            b'/' if bytes.get(i + 1) == Some(&b'*') => skip_to(bytes, i + 2, b"*/") + 2,
            b'"' => skip_string(bytes, i + 1, b'"') + 1,
            b'`' => skip_string(bytes, i + 1, b'`') + 1,
            b'\'' => skip_string(bytes, i + 1, b'\'') + 1,
            b'{' => {
                open.push(i);
                i + 1
            }
            b'}' => {
                open.pop();
                i + 1
            }
            _ => i + 1,
        };
    }
    open.first().map(|&brace| Unclosed {
        brace,
        noticed: text.trim_end().len(),
    })
}

/// Whether `rest` (the start of a line) begins a function definition.
fn starts_function(rest: &str) -> bool {
    let rest = rest.strip_prefix("private ").unwrap_or(rest);
    rest.starts_with("fn ")
}

/// The offset of the first `end` at or after `from` (the text's length if none).
fn skip_to(bytes: &[u8], from: usize, end: &[u8]) -> usize {
    (from..bytes.len())
        .find(|&j| bytes[j..].starts_with(end))
        .unwrap_or(bytes.len())
}

/// The offset of the `quote` that ends a string or character literal starting at `from`
/// (backslash escapes skipped; the text's length if none).
fn skip_string(bytes: &[u8], from: usize, quote: u8) -> usize {
    let mut j = from;
    while j < bytes.len() && bytes[j] != quote {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    j.min(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_left_open_is_found_before_the_next_fn_or_at_the_end() {
        let text = "fn a() {\n    if x { 1 } else { \"}\" }\n\nfn b() {\n    // }\n    2\n}\n";
        assert_eq!(
            find(text),
            Some(Unclosed {
                brace: 7,
                noticed: text.find("fn b").unwrap()
            })
        );
        let last = "fn a() { 1 }\nfn b() {\n    `${1}`\n\n";
        assert_eq!(
            find(last),
            Some(Unclosed {
                brace: last.find("b() {").unwrap() + 4,
                noticed: last.trim_end().len()
            })
        );
        assert_eq!(find("fn a() { #{ x: '{' } }\nfn b() { /* { */ }\n"), None);
    }
}
