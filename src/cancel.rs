//! Cancelling a running search: Ctrl-C (SIGINT) sets a flag that the searches check where they
//! already check their deadline, so a cancelled search stops at once with what it has. The REPL
//! turns the flag on while it runs a command and reads it afterwards.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks the running search to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Clears the request and says whether there was one.
pub fn take() -> bool {
    REQUESTED.swap(false, Ordering::Relaxed)
}

/// Whether a search with this deadline must stop now: past it, or asked to stop.
pub fn past(deadline: Instant) -> bool {
    requested() || Instant::now() >= deadline
}

/// From now on Ctrl-C (SIGINT) asks the running search to stop instead of ending the program.
/// (The line editor reads Ctrl-C as a key while it waits for a line, so this only matters while
/// a command runs.)
#[cfg(unix)]
pub fn catch_interrupts() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        request(); // an atomic store: safe in a signal handler
    }
    let handler: extern "C" fn(libc::c_int) = on_interrupt;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Elsewhere Ctrl-C ends the program as usual.
#[cfg(not(unix))]
pub fn catch_interrupts() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_stops_any_deadline_once() {
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        assert!(!past(later));
        request();
        assert!(past(later));
        assert!(take());
        assert!(!take() && !past(later));
    }
}
