//! Profiling lowered functions: where a script's operations and time go, statement by
//! statement (`boardrules profile`).
//!
//! A program lowered for profiling ([`super::Program::profiled`]) wraps each statement in a
//! [`Profiled`] node; running one records, for the statement's line, how often it ran and the
//! operations and time it took itself (what the statements and calls inside it took is theirs,
//! so the lines' costs add up to the whole). A program lowered as usual has no such node, so
//! the walker does nothing more than before: profiling costs nothing when it is off.
//!
//! The recording is not free (reading the clock, a look-up in a table), and a statement's own
//! time is its time less its inner statements': the recording of each inner statement must not
//! count as the outer statement's (a loop whose body records a few statements each round would
//! seem to cost more than its body). So an inner statement is taken out of the outer one's time
//! with its recording, measured to its end, and what no clock reading can see (before the first
//! reading, after the last) is measured once when recording starts ([`Overhead`]) and taken out
//! too.

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
    /// The time its statements took themselves, in nanoseconds (less the recording's own).
    pub nanos: u64,
}

/// A statement being run: what it and what ran inside it had used when it began.
struct Open {
    operations: u64,
    entered: Instant,
    inner_operations: u64,
    inner_nanos: u64,
}

/// The recording's own cost per statement, in nanoseconds, measured when recording starts.
#[derive(Clone, Copy, Default, Debug)]
struct Overhead {
    /// Between a statement's two clock readings (entering, leaving) besides the statement's
    /// work: taken out of the statement's own time.
    within: u64,
    /// Before the first reading and after the last, which the outer statement's readings see:
    /// taken out of the outer statement's time.
    around: u64,
}

#[derive(Default)]
struct Recorder {
    lines: HashMap<(ImmutableString, usize), LineCost>,
    open: Vec<Open>,
    overhead: Overhead,
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Starts recording on this thread (what was recorded before is dropped), having measured
/// what recording a statement costs.
pub fn start() {
    RECORDER.with(|r| *r.borrow_mut() = Some(Recorder::default()));
    let overhead = calibrate();
    RECORDER.with(|r| {
        *r.borrow_mut() = Some(Recorder {
            overhead,
            ..Recorder::default()
        })
    });
}

/// Stops recording and gives every line that ran, costliest first.
pub fn finish() -> Vec<LineCost> {
    let recorder = RECORDER.with(|r| r.borrow_mut().take()).unwrap_or_default();
    let mut lines: Vec<LineCost> = recorder.lines.into_values().collect();
    lines.sort_by(|a, b| b.nanos.cmp(&a.nanos).then(a.line.cmp(&b.line)));
    lines
}

/// How many empty statements a round of the calibration records.
const CALIBRATION_STATEMENTS: u32 = 2_000;
/// How many rounds the calibration makes (it keeps the cheapest: the others were interrupted).
const CALIBRATION_ROUNDS: usize = 7;

/// Measures the recording's own cost, recording empty statements inside an outer one (with the
/// recorder installed on this thread, empty): what the empty statements' own times are
/// ([`Overhead::within`]), and what the outer statement's time is besides them
/// ([`Overhead::around`]). The cheapest of a few rounds is kept.
fn calibrate() -> Overhead {
    let function = ImmutableString::from("");
    let mut best: Option<Overhead> = None;
    for _ in 0..CALIBRATION_ROUNDS {
        enter(0);
        for _ in 0..CALIBRATION_STATEMENTS {
            enter(0);
            leave_line(&function, 2, 0);
        }
        leave_line(&function, 1, 0);
        let lines = RECORDER.with(|r| {
            r.borrow_mut()
                .as_mut()
                .map(|r| std::mem::take(&mut r.lines))
                .unwrap_or_default()
        });
        let own = |line: usize| {
            lines
                .values()
                .find(|l| l.line == line)
                .map_or(0, |l| l.nanos / u64::from(CALIBRATION_STATEMENTS))
        };
        let round = Overhead {
            within: own(2),
            around: own(1),
        };
        best = Some(match best {
            Some(b) => Overhead {
                within: b.within.min(round.within),
                around: b.around.min(round.around),
            },
            None => round,
        });
    }
    best.unwrap_or_default()
}

/// A statement begins, the call having counted `operations` so far.
pub(super) fn enter(operations: u64) {
    RECORDER.with(|r| {
        if let Some(r) = r.borrow_mut().as_mut() {
            r.open.push(Open {
                operations,
                entered: Instant::now(),
                inner_operations: 0,
                inner_nanos: 0,
            });
        }
    });
}

/// The statement `p` ends, the call having counted `operations` so far.
pub(super) fn leave(p: &Profiled, operations: u64) {
    leave_line(&p.function, p.pos.line().unwrap_or(0), operations);
}

/// A statement on `line` of `function` ends, the call having counted `operations` so far.
#[inline(always)]
fn leave_line(function: &ImmutableString, line: usize, operations: u64) {
    let left = Instant::now();
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        let Some(r) = r.as_mut() else { return };
        let Some(open) = r.open.pop() else { return };
        let nanos = nanos_between(open.entered, left);
        let used = operations.saturating_sub(open.operations);
        let cost = r
            .lines
            .entry((function.clone(), line))
            .or_insert_with(|| LineCost {
                function: function.to_string(),
                line,
                ..LineCost::default()
            });
        cost.runs += 1;
        cost.operations += used.saturating_sub(open.inner_operations);
        cost.nanos += nanos.saturating_sub(open.inner_nanos + r.overhead.within);
        // The outer statement is not charged this one's recording: its time runs to now.
        let around = r.overhead.around;
        if let Some(outer) = r.open.last_mut() {
            outer.inner_operations += used;
            outer.inner_nanos += nanos_between(open.entered, Instant::now()) + around;
        }
    });
}

/// The nanoseconds from `from` to `to`.
fn nanos_between(from: Instant, to: Instant) -> u64 {
    u64::try_from(to.saturating_duration_since(from).as_nanos()).unwrap_or(u64::MAX)
}
