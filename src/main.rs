//! The `boardrules` command.

fn main() -> std::process::ExitCode {
    // Piped into `head` and the like, end quietly like other command-line tools instead of
    // failing on a closed stdout.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    boardrules::cli::main()
}
