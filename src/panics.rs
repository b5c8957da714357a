//! The process's panic hook, quiet about the one panic a script may cause on purpose.
//!
//! Rust's sort panics when a comparer is not a total order. A script's `sort` with a closure
//! is such a comparer: Rhai (and the walker, as Rhai does) catch that panic and turn it into
//! the script's error "error in comparer for sorting". The default hook would still print the
//! panic's message and a backtrace to the terminal before it is caught. [`install_hook`] keeps
//! that panic quiet and leaves every other panic to the hook it replaces.

use std::{panic::PanicHookInfo, sync::Once};

/// The message of Rust's sort when its comparer is not a total order.
const SORT_ORDER_VIOLATION: &str = "does not correctly implement a total order";

/// Installs the hook (once per process; later calls do nothing).
pub fn install_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !is_sort_order_violation(info) {
                before(info);
            }
        }));
    });
}

/// Whether `info` is the panic of a sort whose comparer is not a total order.
fn is_sort_order_violation(info: &PanicHookInfo) -> bool {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .is_some_and(|message| message.contains(SORT_ORDER_VIOLATION))
}
