//! The `boardrules` command.

/// Counts the memory each thread holds, for the script sandbox's memory budget.
#[global_allocator]
static MEMORY: boardrules::memory::Counting = boardrules::memory::Counting;

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
