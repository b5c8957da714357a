//! Containing a class bot: what the referee does so that a bot cannot outlive its move, hang the
//! referee, or touch anything but its own folder.
//!
//! - **Its process tree dies after every move.** The bot runs in its own process group, and on
//!   Linux the referee is a child subreaper (`PR_SET_CHILD_SUBREAPER`): descendants that leave the
//!   group (`setsid`) or lose their parent are re-parented to the referee, which kills and reaps
//!   every child it has until none is left.
//! - **Writes stay in its folder** where the kernel has Landlock: the bot may create, change and
//!   remove files only under its own folder (and write to `/dev/null`). Reading is not restricted.
//!   Without Landlock the bot's writes are not restricted ([`landlock_available`] says which).
//! - **`play.txt` is read as a small regular file**: never through a symlink, never a FIFO or a
//!   device, never a hard link to another file, at most [`MAX_PLAY_BYTES`].

use std::{
    io,
    path::Path,
    process::{Child, Command},
};

use crate::fsio::{self, Limits};

/// The most bytes a bot's `play.txt` may hold.
pub const MAX_PLAY_BYTES: u64 = 64 * 1024;

/// Starts `cmd` (already set up to run in `dir`) as a contained bot: in a process group of its
/// own, adopted by the referee if orphaned, and with writes confined to `dir` where the kernel
/// has Landlock ([`landlock_available`]).
pub fn spawn(cmd: &mut Command, dir: &Path) -> io::Result<Child> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    become_subreaper();
    confine_writes(cmd, dir);
    cmd.spawn()
}

/// Kills the bot and every process it started, and reaps them. Processes that escaped its
/// process group are found as the referee's own children (they were re-parented to it).
pub fn kill_tree(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    kill_adopted_children();
}

/// The text of the `play.txt` in `dir`, read safely; `Err` says what was wrong with it in words
/// that follow the bot's name ("wrote no play.txt").
pub fn read_play(dir: &Path) -> Result<String, String> {
    let limits = Limits {
        max_bytes: MAX_PLAY_BYTES,
        follow_symlinks: false,
        single_link: true,
    };
    match fsio::read_text_with(&dir.join("play.txt"), limits) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err("wrote no play.txt".into()),
        Err(e) => Err(format!("wrote a play.txt that {e}")),
    }
}

/// Removes what a bot left as `play.txt` (a file, a link, a folder, a FIFO) before its next move.
pub fn clear_play(dir: &Path) {
    let path = dir.join("play.txt");
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(&path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(&path);
        }
        Err(_) => {}
    }
}

/// Makes this process adopt its orphaned descendants (Linux); elsewhere a no-op.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes one integer argument.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Kills and reaps every child of this process until none is left (or two seconds have passed:
/// a fork bomb that outruns the killing is left to the process group kill and the OS).
fn kill_adopted_children() {
    #[cfg(target_os = "linux")]
    {
        use std::time::{Duration, Instant};
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let children = own_children();
            if children.is_empty() || Instant::now() > deadline {
                return;
            }
            for pid in children {
                // SAFETY: kill(2) and waitpid(2) on a pid that is our own child; a zombie is
                // reaped, a running one is killed and reaped.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
        }
    }
}

/// The pids of this process's children, from `/proc`.
#[cfg(target_os = "linux")]
fn own_children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // `pid (comm) state ppid …`: the name may hold spaces and parentheses.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                    == Some(me.as_str())
            })
        })
        .collect()
}

/// Confines the writes of the process `cmd` starts to `dir` (and `/dev/null`) with Landlock, when
/// the kernel has it. Returns whether the confinement will be in force.
#[cfg(target_os = "linux")]
fn confine_writes(cmd: &mut Command, dir: &Path) -> bool {
    use landlock::{path_beneath_rules, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, ABI};
    use std::os::unix::process::CommandExt;
    if !landlock_available() {
        return false;
    }
    let abi = ABI::V5;
    let write = AccessFs::from_write(abi);
    let ruleset = Ruleset::default()
        .handle_access(write)
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules([dir, Path::new("/dev/null")], write)));
    let Ok(ruleset) = ruleset else {
        return false;
    };
    let mut ruleset = Some(ruleset);
    // SAFETY: the closure runs in the forked child before exec; it only makes the prctl(2) and
    // landlock_restrict_self(2) system calls on a ruleset built in the parent.
    unsafe {
        cmd.pre_exec(move || match ruleset.take().map(|r| r.restrict_self()) {
            Some(Err(e)) => Err(io::Error::other(e.to_string())),
            _ => Ok(()),
        });
    }
    true
}

#[cfg(not(target_os = "linux"))]
fn confine_writes(_: &mut Command, _: &Path) -> bool {
    false
}

/// Whether the running kernel enforces Landlock (its ABI version is at least 1).
#[cfg(target_os = "linux")]
pub fn landlock_available() -> bool {
    // SAFETY: landlock_create_ruleset(2) with a null attribute, size 0 and the VERSION flag only
    // returns the ABI version (or an error).
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    version >= 1
}

/// Whether the running kernel enforces Landlock: never outside Linux.
#[cfg(not(target_os = "linux"))]
pub fn landlock_available() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_txt_is_read_only_as_a_small_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_play(dir.path()).unwrap_err(), "wrote no play.txt");
        std::fs::write(dir.path().join("play.txt"), "9h\n").unwrap();
        assert_eq!(read_play(dir.path()).unwrap(), "9h\n");
        clear_play(dir.path());
        std::fs::create_dir(dir.path().join("play.txt")).unwrap();
        let e = read_play(dir.path()).unwrap_err();
        assert_eq!(
            e,
            "wrote a play.txt that is a directory, not a regular file"
        );
        clear_play(dir.path());
        let f = std::fs::File::create(dir.path().join("play.txt")).unwrap();
        f.set_len(MAX_PLAY_BYTES + 1).unwrap();
        let e = read_play(dir.path()).unwrap_err();
        assert!(e.contains("more than the 64.0 KiB allowed"), "{e}");
        clear_play(dir.path());
        assert!(!dir.path().join("play.txt").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_play_txt_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("play.txt")).unwrap();
        let e = read_play(dir.path()).unwrap_err();
        assert_eq!(e, "wrote a play.txt that is a symbolic link");
    }
}
