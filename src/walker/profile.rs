//! Profiling lowered functions: where a script's operations and time go, statement by
//! statement (`boardrules profile`).
//!
//! A program lowered for profiling ([`super::Program::profiled`]) wraps each statement in a
//! [`Profiled`] node; running one records, for the statement's line, how often it ran and the
//! operations and time it took itself (what the statements and calls inside it took is theirs,
//! so the lines' costs add up to the whole). A program lowered as usual has no such node, so
//! the walker does nothing more than before: profiling costs nothing when it is off.

use std::{cell::RefCell, time::Instant};

use foldhash::HashMap;
use rhai::{ImmutableString, Position};

/// A statement with the place it is recorded under.
pub(super) struct Profiled {
    /// The function it is in.
    pub function: ImmutableString,
    /// Where the statement starts.
    pub pos: Position,
    pub stmt: super::Stmt,
}

/// What one line cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineCost {
    /// The function the line is in.
    pub function: String,
    /// The line, from 1.
    pub line: usize,
    /// How many times a statement starting on the line ran.
    pub runs: u64,
    /// The operations its statements counted themselves (not those of statements and calls
    /// inside them, which count on their own lines).
    pub operations: u64,
    /// The time its statements took themselves, in nanoseconds.
    pub nanos: u64,
}

/// A statement being run: what it and what ran inside it had used when it began.
struct Open {
    operations: u64,
    started: Instant,
    inner_operations: u64,
    inner_nanos: u64,
}

#[derive(Default)]
struct Recorder {
    lines: HashMap<(ImmutableString, usize), LineCost>,
    open: Vec<Open>,
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Starts recording on this thread (what was recorded before is dropped).
pub fn start() {
    RECORDER.with(|r| *r.borrow_mut() = Some(Recorder::default()));
}

/// Stops recording and gives every line that ran, costliest first.
pub fn finish() -> Vec<LineCost> {
    let recorder = RECORDER.with(|r| r.borrow_mut().take()).unwrap_or_default();
    let mut lines: Vec<LineCost> = recorder.lines.into_values().collect();
    lines.sort_by(|a, b| b.nanos.cmp(&a.nanos).then(a.line.cmp(&b.line)));
    lines
}

/// A statement begins, the call having counted `operations` so far.
pub(super) fn enter(operations: u64) {
    RECORDER.with(|r| {
        if let Some(r) = r.borrow_mut().as_mut() {
            r.open.push(Open {
                operations,
                started: Instant::now(),
                inner_operations: 0,
                inner_nanos: 0,
            });
        }
    });
}

/// The statement `p` ends, the call having counted `operations` so far.
pub(super) fn leave(p: &Profiled, operations: u64) {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        let Some(r) = r.as_mut() else { return };
        let Some(open) = r.open.pop() else { return };
        let nanos = open.started.elapsed().as_nanos() as u64;
        let used = operations.saturating_sub(open.operations);
        if let Some(outer) = r.open.last_mut() {
            outer.inner_operations += used;
            outer.inner_nanos += nanos;
        }
        let line = p.pos.line().unwrap_or(0);
        let cost = r
            .lines
            .entry((p.function.clone(), line))
            .or_insert_with(|| LineCost {
                function: p.function.to_string(),
                line,
                ..LineCost::default()
            });
        cost.runs += 1;
        cost.operations += used.saturating_sub(open.inner_operations);
        cost.nanos += nanos.saturating_sub(open.inner_nanos);
    });
}
