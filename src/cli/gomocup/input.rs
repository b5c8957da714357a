//! The manager's lines, read on their own thread so that a command can arrive while the brain
//! thinks (`YXSTOP`), and read safely ([`fsio::next_line`]): a line longer than
//! [`fsio::MAX_LINE`] bytes or not UTF-8 is skipped and named.

use std::{
    io::BufRead,
    sync::mpsc::{self, Receiver},
    thread,
    time::Instant,
};

use crate::fsio;

/// One line from the manager: its text (trimmed), or why it was skipped.
pub type Line = Result<String, String>;

/// A line and when it arrived: a command that waits while the brain is busy with an earlier
/// one (a rule's set-up) is on the manager's clock from then.
pub type Arrived = (Instant, Line);

/// Lines read ahead of the brain at most: past them the reader waits (back-pressure), so a
/// flood of lines while the brain thinks holds at most this many lines in memory.
pub const QUEUE: usize = 64;

/// Reads `input` line by line on a thread of its own; each line goes to the receiver with the
/// time it arrived, and `on_line` sees it first, as it arrives (to stop a search that is
/// running). At most [`QUEUE`] lines wait to be taken. The receiver's end means the input ended
/// (or could not be read).
pub fn spawn(
    input: impl BufRead + Send + 'static,
    on_line: impl Fn(&Line) + Send + 'static,
) -> Receiver<Arrived> {
    let (send, receive) = mpsc::sync_channel(QUEUE);
    thread::spawn(move || {
        let mut input = input;
        while let Ok(Some(line)) = fsio::next_line(&mut input, fsio::MAX_LINE) {
            let line = line.map(|text| text.trim().to_string());
            on_line(&line);
            if send.send((Instant::now(), line)).is_err() {
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
        .map(|(_, line)| line)
        .collect();
        assert_eq!(lines[0], Ok("START 15".to_string()));
        assert!(lines[1]
            .as_ref()
            .is_err_and(|why| why.contains("not UTF-8")));
        assert_eq!(lines[2], Ok("END".to_string()));
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 3);
    }

    #[test]
    fn a_flood_of_lines_waits_for_the_brain() {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = std::sync::Arc::clone(&seen);
        let flood = std::io::Cursor::new(b"x\n".repeat(10 * QUEUE));
        let lines = spawn(flood, move |_| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        // The reader read what the queue holds, and one more line it waits to hand over.
        let read = seen.load(std::sync::atomic::Ordering::Relaxed);
        assert!(read <= QUEUE + 1, "{read} lines read ahead");
        assert_eq!(lines.iter().count(), 10 * QUEUE);
    }
}
