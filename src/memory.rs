//! Counting the memory a thread holds, so that the script sandbox can stop a script that uses
//! too much (see [`crate::script::sandbox`]).
//!
//! [`Counting`] wraps [mimalloc](https://docs.rs/mimalloc) (a faster allocator than the system's
//! for the many small values scripts make and drop) and keeps, per thread, the bytes allocated minus the
//! bytes freed. A binary opts in by installing it (`boardrules` does, in `main.rs`):
//!
//! ```ignore
//! #[global_allocator]
//! static MEMORY: boardrules::memory::Counting = boardrules::memory::Counting;
//! ```
//!
//! Without it (a program embedding the library with its own allocator), [`held`] stays 0 and
//! the sandbox's memory budget falls back to the checks the primitives make themselves.

use std::{
    alloc::{GlobalAlloc, Layout},
    cell::Cell,
};

use mimalloc::MiMalloc as Base;

thread_local! {
    /// Bytes this thread allocated minus bytes it freed (memory freed by another thread than
    /// the one that allocated it makes both drift, which per-call differences tolerate).
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// mimalloc, counting what each thread holds.
pub struct Counting;

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counter left; its frees go uncounted.
    let _ = HELD.try_with(|held| held.set(held.get().wrapping_add(delta)));
}

// SAFETY: every call is passed on unchanged to mimalloc; the counter is a const-initialised
// thread-local without a destructor, so updating it never allocates or re-enters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = Base.alloc(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = Base.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Base.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = Base.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The bytes the current thread holds (allocated minus freed) when [`Counting`] is the global
/// allocator; always 0 otherwise.
pub fn held() -> isize {
    HELD.with(Cell::get)
}
