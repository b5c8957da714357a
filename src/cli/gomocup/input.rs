//! The manager's lines, read on their own thread so that a command can arrive while the brain
//! thinks (`YXSTOP`), and read safely: a line is cut at [`MAX_LINE`] bytes and need not be UTF-8.

use std::{
    io::BufRead,
    sync::mpsc::{self, Receiver},
    thread,
};

/// The longest line kept; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// One line from the manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line of text (trimmed).
    Text(String),
    /// A line that is not UTF-8.
    NotText,
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
}

/// Reads `input` line by line on a thread of its own; each line goes to the receiver, and
/// `on_line` sees it first, as it arrives (to stop a search that is running). The receiver's
/// end means the input ended.
pub fn spawn(
    input: impl BufRead + Send + 'static,
    on_line: impl Fn(&Line) + Send + 'static,
) -> Receiver<Line> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut input = input;
        while let Some(line) = read_line(&mut input) {
            on_line(&line);
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// The next line, or `None` at the end of the input (or on a read error).
fn read_line(input: &mut impl BufRead) -> Option<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf().ok()?;
        if buffer.is_empty() {
            if bytes.is_empty() && !too_long {
                return None;
            }
            break;
        }
        let (chunk, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..=i], true),
            None => (buffer, false),
        };
        let used = chunk.len();
        if bytes.len() + used <= MAX_LINE + 1 {
            bytes.extend_from_slice(chunk);
        } else {
            too_long = true;
        }
        input.consume(used);
        if ended {
            break;
        }
    }
    if too_long {
        return Some(Line::TooLong);
    }
    Some(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text.trim().to_string()),
        Err(_) => Line::NotText,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut input = input;
        std::iter::from_fn(|| read_line(&mut input)).collect()
    }

    #[test]
    fn lines_are_trimmed_and_bad_ones_named() {
        let mut input = b"START 15\r\n\xff\xfe\nEND".to_vec();
        let got = lines(&input);
        assert_eq!(
            got,
            [
                Line::Text("START 15".into()),
                Line::NotText,
                Line::Text("END".into())
            ]
        );
        input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nABOUT\n");
        assert_eq!(lines(&input), [Line::TooLong, Line::Text("ABOUT".into())]);
    }
}
