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

use libmimalloc_sys::{mi_free, mi_malloc, mi_realloc, mi_zalloc};
use mimalloc::MiMalloc as Base;

/// What one thread counts: one thread-local, so that the allocator updates it, and the script
/// sandbox reads it, with one access.
struct Counts {
    /// Bytes this thread allocated minus bytes it freed (memory freed by another thread than
    /// the one that allocated it makes both drift, which per-call differences tolerate).
    held: Cell<isize>,
    /// Bytes this thread ever allocated (growths included, frees not subtracted): how much
    /// copying it did, which the script sandbox charges to a call's clocks.
    allocated: Cell<u64>,
}

thread_local! {
    static COUNTS: Counts = const {
        Counts {
            held: Cell::new(0),
            allocated: Cell::new(0),
        }
    };
}

/// mimalloc, counting what each thread holds.
pub struct Counting;

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counter left; its frees go uncounted.
    let _ = COUNTS.try_with(|counts| {
        counts.held.set(counts.held.get().wrapping_add(delta));
        if delta > 0 {
            let total = counts.allocated.get().wrapping_add(delta as u64);
            counts.allocated.set(total);
        }
    });
}

/// The alignment every mimalloc block has: its size classes are whole words, and the first
/// block of a page is 16-aligned.
const WORD: usize = std::mem::size_of::<usize>();

/// Whether mimalloc's plain entry points give `layout` its alignment. Most of a script's values
/// (a `Dynamic`, a boxed cell, an array's buffer) ask for a word or less; `mi_malloc` serves
/// them with fewer checks than `mi_malloc_aligned`, which the rest go through.
fn word_aligned(layout: Layout) -> bool {
    layout.align() <= WORD
}

// SAFETY: every call is passed on to mimalloc: to its plain entry points when the alignment is
// at most a word (every mimalloc block is word-aligned), else to `MiMalloc`, which asks for the
// alignment; a block from either is freed by `mi_free`, which `MiMalloc::dealloc` calls too.
// The counter is a const-initialised thread-local without a destructor, so updating it never
// allocates or re-enters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if word_aligned(layout) {
            mi_malloc(layout.size()).cast()
        } else {
            Base.alloc(layout)
        };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = if word_aligned(layout) {
            mi_zalloc(layout.size()).cast()
        } else {
            Base.alloc_zeroed(layout)
        };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        mi_free(ptr.cast());
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = if word_aligned(layout) {
            mi_realloc(ptr.cast(), new_size).cast()
        } else {
            Base.realloc(ptr, layout, new_size)
        };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The bytes the current thread holds (allocated minus freed) when [`Counting`] is the global
/// allocator; always 0 otherwise.
#[inline]
pub fn held() -> isize {
    counts().0
}

/// The bytes the current thread has allocated so far (never less: frees are not subtracted) when
/// [`Counting`] is the global allocator; always 0 otherwise. The difference between two readings
/// is the copying done in between.
#[inline]
pub fn allocated() -> u64 {
    counts().1
}

/// [`held`] and [`allocated`] at once (one look at the thread's counters).
#[inline]
pub fn counts() -> (isize, u64) {
    COUNTS.with(|counts| (counts.held.get(), counts.allocated.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Allocates, grows and frees blocks of `layout` through [`Counting`] (called directly, as
    /// the test binary has its own allocator), checking their alignment and the count.
    fn round_trip(layout: Layout) {
        let before = held();
        // SAFETY: the layouts are non-zero-sized; every block is freed with the layout (and
        // size) it was last given.
        unsafe {
            let p = Counting.alloc(layout);
            assert!(!p.is_null());
            assert_eq!(p as usize % layout.align(), 0, "{layout:?}");
            assert_eq!(held(), before + layout.size() as isize);
            assert!(allocated() >= layout.size() as u64);
            p.write_bytes(7, layout.size());
            let grown = Counting.realloc(p, layout, layout.size() * 3);
            assert_eq!(grown as usize % layout.align(), 0, "{layout:?} grown");
            assert_eq!(*grown.add(layout.size() - 1), 7);
            let grown_layout = Layout::from_size_align(layout.size() * 3, layout.align()).unwrap();
            Counting.dealloc(grown, grown_layout);
            let zeroed = Counting.alloc_zeroed(layout);
            assert!((0..layout.size()).all(|i| *zeroed.add(i) == 0));
            Counting.dealloc(zeroed, layout);
        }
        assert_eq!(held(), before);
    }

    #[test]
    fn word_aligned_and_over_aligned_blocks_are_aligned_and_counted() {
        for (size, align) in [
            (1, 1),
            (8, 8),
            (24, 8),
            (16, 16),
            (48, 16),
            (64, 64),
            (4096, 4096),
        ] {
            round_trip(Layout::from_size_align(size, align).unwrap());
        }
    }
}
