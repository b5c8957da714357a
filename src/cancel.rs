//! Cancelling a running search: Ctrl-C (SIGINT) sets a flag that the searches check where they
//! already check their deadline, so a cancelled search stops at once with what it has. The REPL
//! turns the flag on while it runs a command and reads it afterwards.

use std::{
    cell::Cell,
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

static REQUESTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// When script calls on this thread stop (see [`calls_until`]); `None`: only at their own
    /// limits.
    static CALLS_UNTIL: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// While it lives, every script call on this thread stops with an error once a deadline passes
/// or a stop is asked for ([`calls_stopped`]); dropped, the deadline before it is back.
#[must_use = "script calls stop at the deadline while the guard lives"]
pub struct CallsUntil {
    outer: Option<Instant>,
}

/// Script calls on this thread stop at `deadline` (or at an earlier one already set) or on
/// Ctrl-C, until the guard drops: a command's searches set this, so that however slow a
/// script's function (a `native()` that takes 0.4 s, a `play` that copies a huge state), the
/// command keeps its time. With `None`, calls run to their own limits until the guard drops
/// (for what a command does once its search is over: naming the move it chose).
pub fn calls_until(deadline: Option<Instant>) -> CallsUntil {
    let outer = CALLS_UNTIL.get();
    let inner = match (deadline, outer) {
        (Some(d), Some(o)) => Some(d.min(o)),
        (d, _) => d,
    };
    CALLS_UNTIL.set(inner);
    CallsUntil { outer }
}

impl Drop for CallsUntil {
    fn drop(&mut self) {
        CALLS_UNTIL.set(self.outer);
    }
}

/// Whether a script call on this thread must stop now: under [`calls_until`], past its deadline
/// or asked to stop. A search that meets an error while this holds stops with what it has.
pub fn calls_stopped() -> bool {
    CALLS_UNTIL.get().is_some_and(past)
}

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
    fn calls_stop_only_under_a_deadline_and_the_earliest_one_holds() {
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        assert!(!calls_stopped());
        {
            let _outer = calls_until(Some(Instant::now()));
            assert!(calls_stopped());
            {
                let _inner = calls_until(Some(later));
                assert!(calls_stopped(), "the earlier deadline holds");
                let _lifted = calls_until(None);
                assert!(!calls_stopped());
            }
            assert!(calls_stopped());
        }
        assert!(!calls_stopped());
        let _guard = calls_until(Some(later));
        assert!(!calls_stopped());
    }

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
