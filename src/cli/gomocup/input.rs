//! The manager's lines, read on their own thread so that a command can arrive while the brain
//! thinks (`YXSTOP`), and read safely ([`fsio::next_line`]): a line longer than
//! [`fsio::MAX_LINE`] bytes or not UTF-8 is skipped and named.

use std::{
    io::BufRead,
    sync::mpsc::{self, Receiver},
    thread,
};

use crate::fsio;

/// One line from the manager: its text (trimmed), or why it was skipped.
pub type Line = Result<String, String>;

/// Reads `input` line by line on a thread of its own; each line goes to the receiver, and
/// `on_line` sees it first, as it arrives (to stop a search that is running). The receiver's
/// end means the input ended (or could not be read).
pub fn spawn(
    input: impl BufRead + Send + 'static,
    on_line: impl Fn(&Line) + Send + 'static,
) -> Receiver<Line> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut input = input;
        while let Ok(Some(line)) = fsio::next_line(&mut input, fsio::MAX_LINE) {
            let line = line.map(|text| text.trim().to_string());
            on_line(&line);
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_arrive_trimmed_and_bad_ones_named() {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = std::sync::Arc::clone(&seen);
        let input = std::io::Cursor::new(b"START 15\r\n\xff\xfe\n  END  ".to_vec());
        let lines: Vec<Line> = spawn(input, move |_| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .iter()
        .collect();
        assert_eq!(lines[0], Ok("START 15".to_string()));
        assert!(lines[1]
            .as_ref()
            .is_err_and(|why| why.contains("not UTF-8")));
        assert_eq!(lines[2], Ok("END".to_string()));
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 3);
    }
}
