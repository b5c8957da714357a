//! Reading files the user (or a bot) names, safely: only regular files are read, never more than a
//! size cap, and opening never blocks. A path that is `/dev/zero`, a FIFO, a socket, a directory or
//! a symlink to one of them gives a clear error instead of a hang or an exhausted memory. Every
//! file the runtime reads (saves, positions, move lists, rules scripts, trace files, settings)
//! goes through [`read_text`]. Lines read from a pipe (the piped REPL, the Gomocup brain) go
//! through [`next_line`], so that one bad line is reported and skipped instead of ending the input.

use std::{
    fs::{File, Metadata},
    io::{self, BufRead, Read},
    path::Path,
};

/// The most a text file read by the runtime may hold: 4 MiB.
pub const MAX_TEXT_FILE: u64 = 4 << 20;

/// The longest line of piped input that is read: 64 KiB.
pub const MAX_LINE: usize = 64 * 1024;

/// The next line of `input` (without its line ending): `None` at the end of the input,
/// `Some(Err(why))` for a line that is not UTF-8 text or is longer than `max` bytes (it is
/// skipped whole, so the next call reads the line after it).
pub fn next_line(
    input: &mut impl BufRead,
    max: usize,
) -> io::Result<Option<Result<String, String>>> {
    let mut bytes = Vec::new();
    if input
        .by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', &mut bytes)?
        == 0
    {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > max {
        skip_line(input)?;
        return Ok(Some(Err(format!(
            "the line is longer than {} and was skipped",
            human(max as u64)
        ))));
    }
    Ok(Some(String::from_utf8(bytes).map_err(|e| {
        format!(
            "the line is not UTF-8 text (byte {} is not valid) and was skipped",
            e.utf8_error().valid_up_to() + 1
        )
    })))
}

/// Reads past the end of the current line.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// How a file is opened.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most bytes the file may hold.
    pub max_bytes: u64,
    /// Whether a symlink as the last part of the path is followed (else it is refused).
    pub follow_symlinks: bool,
    /// Whether a file with more than one hard link is refused (someone else's file linked in).
    pub single_link: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: MAX_TEXT_FILE,
            follow_symlinks: true,
            single_link: false,
        }
    }
}

/// The text of the regular file at `path`, at most [`MAX_TEXT_FILE`] bytes of UTF-8.
pub fn read_text(path: &Path) -> io::Result<String> {
    read_text_with(path, Limits::default())
}

/// The text of the regular file at `path`, within `limits`. Errors say what is wrong in words
/// (`is a FIFO, not a regular file`, `holds 6.0 GB, more than the 4.0 MiB allowed`).
pub fn read_text_with(path: &Path, limits: Limits) -> io::Result<String> {
    let file = open_regular(path, limits)?;
    let mut bytes = Vec::new();
    // A file may grow while it is read, and some (in /proc) report no size: read one byte past
    // the cap to tell.
    file.take(limits.max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limits.max_bytes {
        return Err(too_big(bytes.len() as u64, limits.max_bytes));
    }
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// The regular file at `path`, opened for reading as `limits` say: refused when it is not a
/// regular file, has other hard links (with `limits.single_link`), or holds more than
/// `limits.max_bytes` now (a reader that must stop a file growing past them reads at most one
/// byte more, and calls [`too_big`] when it gets it).
pub fn open_regular(path: &Path, limits: Limits) -> io::Result<File> {
    let file = open(path, limits.follow_symlinks)?;
    let meta = file.metadata()?;
    check_regular(&meta)?;
    if limits.single_link && links(&meta) > 1 {
        return Err(refused("has other hard links to it"));
    }
    if meta.len() > limits.max_bytes {
        return Err(too_big(meta.len(), limits.max_bytes));
    }
    Ok(file)
}

/// What `meta` describes, when it is not a regular file: an error saying so.
pub fn check_regular(meta: &Metadata) -> io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    Err(refused(&format!("is {}, not a regular file", kind(meta))))
}

/// "a directory", "a FIFO", … for the file `meta` describes.
pub fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

#[cfg(unix)]
fn open(path: &Path, follow_symlinks: bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking, so that opening a FIFO with no writer returns at once (it is then refused
    // by its type); never becoming our controlling terminal.
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
    if !follow_symlinks {
        flags |= libc::O_NOFOLLOW;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) if !follow_symlinks => refused("is a symbolic link"),
            _ => e,
        })
}

#[cfg(not(unix))]
fn open(path: &Path, follow_symlinks: bool) -> io::Result<File> {
    let meta = if follow_symlinks {
        std::fs::metadata(path)?
    } else {
        std::fs::symlink_metadata(path)?
    };
    check_regular(&meta)?;
    File::open(path)
}

#[cfg(unix)]
fn links(meta: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn links(_: &Metadata) -> u64 {
    1
}

fn refused(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why.to_string())
}

/// The error for a file holding `size` bytes where `max` are allowed.
pub fn too_big(size: u64, max: u64) -> io::Error {
    refused(&format!(
        "holds {}, more than the {} allowed",
        human(size),
        human(max)
    ))
}

/// A byte count in words: `512 bytes`, `4.0 MiB`, `6.0 GiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "9h 10h\n").unwrap();
        assert_eq!(read_text(&path).unwrap(), "9h 10h\n");
    }

    #[test]
    fn refuses_a_file_over_the_cap_and_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, "x".repeat(100)).unwrap();
        let limits = Limits {
            max_bytes: 99,
            ..Limits::default()
        };
        let e = read_text_with(&path, limits).unwrap_err().to_string();
        assert!(
            e.contains("holds 100 bytes, more than the 99 bytes allowed"),
            "{e}"
        );
        let e = read_text(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory, not a regular file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_devices_fifos_and_unfollowed_symlinks_without_blocking() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("is a character device"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo).unwrap_err().to_string();
        assert!(e.contains("is a FIFO"), "{e}");
        let file = dir.path().join("f.txt");
        std::fs::write(&file, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_text(&link).unwrap(), "x");
        let strict = Limits {
            follow_symlinks: false,
            ..Limits::default()
        };
        let e = read_text_with(&link, strict).unwrap_err().to_string();
        assert!(e.contains("is a symbolic link"), "{e}");
        let hard = dir.path().join("hard");
        std::fs::hard_link(&file, &hard).unwrap();
        let single = Limits {
            single_link: true,
            ..Limits::default()
        };
        let e = read_text_with(&hard, single).unwrap_err().to_string();
        assert!(e.contains("hard links"), "{e}");
    }

    #[test]
    fn bad_lines_are_reported_and_skipped_and_the_rest_is_read() {
        let input = b"9h\r\n\xff\xfe 10h\n0123456789abc\nlast".to_vec();
        let mut reader = io::BufReader::with_capacity(4, &input[..]);
        let mut lines = Vec::new();
        while let Some(line) = next_line(&mut reader, 8).unwrap() {
            lines.push(line);
        }
        assert_eq!(lines[0], Ok("9h".to_string()));
        assert!(lines[1].as_ref().unwrap_err().contains("not UTF-8"));
        assert!(lines[2]
            .as_ref()
            .unwrap_err()
            .contains("longer than 8 bytes"));
        assert_eq!(lines[3], Ok("last".to_string()));
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(4 << 20), "4.0 MiB");
        assert_eq!(human(6 << 30), "6.0 GiB");
    }
}
