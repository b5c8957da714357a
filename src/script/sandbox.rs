//! The sandboxed Rhai engine rules scripts run in, and the budget every script call runs under:
//! operations (the runtime's primitives count the work they do), processor time (the thread's
//! own: a busy machine does not stop a correct call), a wall-clock backstop, and memory.
//!
//! A call is metered from [`begin`] until its guard drops. Rhai reports each operation to the
//! engine's progress callback, which stops the call when its budget is spent; primitives that
//! loop or build large results call [`charge`] and [`reserve`] as they go, so that no single
//! native call escapes the budget.

use std::{
    cell::Cell,
    time::{Duration, Instant},
};

use rhai::{packages::Package, Dynamic, Engine, EvalAltResult, Position};

use crate::memory;

/// Limits every script call runs under.
pub mod limits {
    use std::time::Duration;

    /// Operations one call may take (about half a second), counting the work primitives do:
    /// stops endless loops.
    pub const OPERATIONS: u64 = 5_000_000;
    /// Processor time one call may take: the time its thread computed, whatever it computed
    /// (on a busy machine a call may take longer by the clock).
    pub const TIME: Duration = Duration::from_secs(2);
    /// Wall-clock time one call may take however little processor time it got: a backstop.
    pub const WALL_TIME: Duration = Duration::from_secs(30);
    /// Memory one call may come to hold, in bytes (values, native grids and tracks, events).
    pub const MEMORY: usize = 256 << 20;
    /// Nested function calls.
    pub const CALL_DEPTH: usize = 64;
    /// Nesting of expressions (global level, inside functions).
    pub const EXPR_DEPTH: (usize, usize) = (64, 64);
    /// Characters in one string.
    pub const STRING_SIZE: usize = 1 << 20;
    /// Items in one array.
    pub const ARRAY_SIZE: usize = 100_000;
    /// Entries in one object map.
    pub const MAP_SIZE: usize = 10_000;
    /// Modules one script may import, directly or not.
    pub const MODULES: usize = 16;
    /// Events one call may emit.
    pub const EVENTS: usize = 10_000;
    /// Bytes of one line of input: a REPL line, the moves given on the command line.
    pub const INPUT: usize = 16 * 1024;
    /// Bytes of a position (`--position`).
    pub const POSITION: usize = 64 * 1024;
}

/// How often (in operations) the progress callback looks at the budget (the walker reports to
/// it as often). What a look must catch, at worst, since the one before:
/// - memory: one operation makes at most one value within Rhai's sizes
///   ([`limits::ARRAY_SIZE`] items, [`limits::MAP_SIZE`] entries, [`limits::STRING_SIZE`]
///   bytes of strings: a few MiB, a copied grid shares its cells) and a primitive refuses a
///   larger result up front ([`reserve`]), so a call is stopped within 16 such values of
///   [`limits::MEMORY`];
/// - time, the command's deadline and Ctrl-C: the clocks are read every [`CLOCK_EVERY`]
///   operations, and at the first look after the call copied [`COPIED_EVERY`] bytes, so 16
///   operations that each copy a largest value (milliseconds) are not missed by more.
///
/// A look that finds nothing spent reads two thread-locals and compares three numbers (the
/// [`Meter`]'s trip wires): with the walker's report, about 70 instructions, some 5 % of a
/// newcomer's Othello (callgrind). Looking four times less often would save most of that and
/// make the memory overshoot four times larger, so the interval stays.
pub(crate) const CHECK_EVERY: u64 = 16;
// The walker reports at every operation the progress callback looks at.
const _: () = assert!(CHECK_EVERY.is_multiple_of(crate::walker::REPORT_EVERY));
/// How often (in operations, and in work primitives charge) the clocks are looked at.
const CLOCK_EVERY: u64 = 1024;
/// Bytes a call may copy between two looks at the clocks: one operation may copy a whole state
/// (a call's argument, a value read from a variable), and 1 024 such operations on a large one
/// take seconds, so copying is charged too. A state of 100 000 values is a few MiB to copy.
const COPIED_EVERY: u64 = 1 << 20;

/// The budget of one script call: what a [`CallGuard`] keeps of an outer call while an inner
/// one runs.
#[derive(Debug, Clone, Copy)]
struct Budget {
    /// The thread's processor time and the wall-clock time at which the call is stopped, set at
    /// the first look at the clocks (after at most [`CLOCK_EVERY`] operations: reading the
    /// processor time costs a system call, which most calls, short, never make).
    deadlines: Option<(Duration, Instant)>,
    /// What [`memory::held`] said when the call began.
    memory_base: isize,
    /// Operations Rhai counted so far.
    operations: u64,
    /// Work primitives charged so far.
    charged: u64,
    /// What [`memory::allocated`] said at the last look at the clocks (or when the call
    /// began): copying more than [`COPIED_EVERY`] bytes since makes the next check look again.
    allocated_at_clock: u64,
}

/// The budget of the call in progress on this thread, a field in a cell each: the progress
/// callback, called every [`CHECK_EVERY`] operations of every call, reads and writes only
/// the fields it needs, in place.
///
/// Most looks find nothing spent: they compare the operations and the thread's memory counters
/// with three trip wires, kept up to date from the budget ([`Meter::arm`]), and look closer
/// (out of line) only when one is crossed or the clocks are due. Without a call metered, the
/// wires are never crossed.
struct Meter {
    /// A call is metered.
    active: Cell<bool>,
    deadlines: Cell<Option<(Duration, Instant)>>,
    memory_base: Cell<isize>,
    operations: Cell<u64>,
    charged: Cell<u64>,
    allocated_at_clock: Cell<u64>,
    /// Operations from which the call may be over [`limits::OPERATIONS`] (with the work
    /// charged).
    operations_wire: Cell<u64>,
    /// Bytes held (see [`memory::held`]) beyond which the call is over [`limits::MEMORY`].
    held_wire: Cell<isize>,
    /// Bytes allocated (see [`memory::allocated`]) beyond which the clocks are looked at:
    /// [`COPIED_EVERY`] since the last look.
    allocated_wire: Cell<u64>,
}

thread_local! {
    static METER: Meter = const {
        Meter {
            active: Cell::new(false),
            deadlines: Cell::new(None),
            memory_base: Cell::new(0),
            operations: Cell::new(0),
            charged: Cell::new(0),
            allocated_at_clock: Cell::new(0),
            operations_wire: Cell::new(u64::MAX),
            held_wire: Cell::new(isize::MAX),
            allocated_wire: Cell::new(u64::MAX),
        }
    };
}

/// Meters a script call from here until the guard drops (a call begun inside another is
/// metered on its own; the outer one resumes after it).
#[must_use = "the call is metered while the guard lives"]
pub struct CallGuard {
    outer: Option<Budget>,
}

/// Starts metering a script call: [`limits::OPERATIONS`], [`limits::TIME`],
/// [`limits::WALL_TIME`] and [`limits::MEMORY`] from now.
pub fn begin() -> CallGuard {
    let budget = Budget {
        deadlines: None,
        memory_base: memory::held(),
        operations: 0,
        charged: 0,
        allocated_at_clock: memory::allocated(),
    };
    CallGuard {
        outer: METER.with(|m| m.replace(Some(budget))),
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        METER.with(|m| m.replace(self.outer));
    }
}

/// Why a call was stopped, in words.
fn message(what: Spent) -> String {
    match what {
        Spent::Operations => format!(
            "the script ran more than {} operations in one call (an endless loop?)",
            limits::OPERATIONS
        ),
        Spent::Time => format!(
            "the script computed for more than {} s of processor time in one call (an endless \
             loop, or too much work?)",
            limits::TIME.as_secs_f64()
        ),
        Spent::WallTime => format!(
            "the script ran for more than {} s by the clock in one call, though it computed for \
             less than {} s (is the machine overloaded?)",
            limits::WALL_TIME.as_secs_f64(),
            limits::TIME.as_secs_f64()
        ),
        Spent::Memory => format!(
            "the script used more than {} MiB of memory in one call",
            limits::MEMORY >> 20
        ),
        Spent::Stopped => "stopped: the command's time is up (or Ctrl-C)".to_string(),
    }
}

/// The error that stops a call whose budget is spent.
fn spent(what: Spent) -> Box<EvalAltResult> {
    over_limit(message(what))
}

enum Spent {
    Operations,
    /// Processor time.
    Time,
    /// Wall-clock time.
    WallTime,
    Memory,
    /// The command's time is up, or Ctrl-C ([`crate::cancel::calls_until`]).
    Stopped,
}

/// The processor time the calling thread has used (on unix; elsewhere, where no such clock is
/// read, the wall-clock time since the first call).
fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the time into `now`, a valid timespec it may write.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            let secs = u64::try_from(now.tv_sec).unwrap_or(0);
            let nanos = u32::try_from(now.tv_nsec).unwrap_or(0);
            return Duration::new(secs, nanos);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

impl Meter {
    /// The budget of the call being metered, if any, replaced by `budget` (`None`: no call).
    fn replace(&self, budget: Option<Budget>) -> Option<Budget> {
        let was = self.active.get().then(|| Budget {
            deadlines: self.deadlines.get(),
            memory_base: self.memory_base.get(),
            operations: self.operations.get(),
            charged: self.charged.get(),
            allocated_at_clock: self.allocated_at_clock.get(),
        });
        self.active.set(budget.is_some());
        if let Some(b) = budget {
            self.deadlines.set(b.deadlines);
            self.memory_base.set(b.memory_base);
            self.operations.set(b.operations);
            self.charged.set(b.charged);
            self.allocated_at_clock.set(b.allocated_at_clock);
        }
        self.arm();
        was
    }

    /// Sets the trip wires from the budget (never crossed without a call metered).
    fn arm(&self) {
        if self.active.get() {
            let left = limits::OPERATIONS.saturating_sub(self.charged.get());
            self.operations_wire.set(left);
            let held = self
                .memory_base
                .get()
                .saturating_add_unsigned(limits::MEMORY);
            self.held_wire.set(held);
            let allocated = self.allocated_at_clock.get().saturating_add(COPIED_EVERY);
            self.allocated_wire.set(allocated);
        } else {
            self.operations_wire.set(u64::MAX);
            self.held_wire.set(isize::MAX);
            self.allocated_wire.set(u64::MAX);
        }
    }

    fn held(&self) -> usize {
        self.held_of(memory::held())
    }

    /// The bytes the call holds when the thread holds `held`.
    #[inline]
    fn held_of(&self, held: isize) -> usize {
        usize::try_from(held.saturating_sub(self.memory_base.get())).unwrap_or(0)
    }

    /// Whether the look at `operations` (with the thread holding `held` and having allocated
    /// `allocated`) must look closer ([`Self::check`]): a trip wire is crossed.
    #[inline]
    fn tripped(&self, operations: u64, held: isize, allocated: u64) -> bool {
        (operations >= self.operations_wire.get())
            | (held > self.held_wire.get())
            | (allocated > self.allocated_wire.get())
    }

    /// Looks at the budget; `clock`: at the clocks too (they are also looked at when the call
    /// copied more than [`COPIED_EVERY`] bytes since the last look).
    #[cold]
    #[inline(never)]
    fn check(&self, clock: bool) -> Result<(), Spent> {
        if !self.active.get() {
            return Ok(());
        }
        let (held, allocated) = memory::counts();
        let clock = clock || allocated.wrapping_sub(self.allocated_at_clock.get()) > COPIED_EVERY;
        if self.operations.get().saturating_add(self.charged.get()) > limits::OPERATIONS {
            Err(Spent::Operations)
        } else if self.held_of(held) > limits::MEMORY {
            Err(Spent::Memory)
        } else if clock {
            self.check_clocks(allocated)
        } else {
            Ok(())
        }
    }

    /// Looks at the clocks (and the command's cancel flag), the thread having `allocated` so
    /// far: every [`CLOCK_EVERY`] operations, out of the common path.
    #[cold]
    #[inline(never)]
    fn check_clocks(&self, allocated: u64) -> Result<(), Spent> {
        self.allocated_at_clock.set(allocated);
        self.arm();
        let (now, wall_now) = (thread_time(), Instant::now());
        let (cpu, wall) = match self.deadlines.get() {
            Some(deadlines) => deadlines,
            None => {
                let deadlines = (now + limits::TIME, wall_now + limits::WALL_TIME);
                self.deadlines.set(Some(deadlines));
                deadlines
            }
        };
        if now > cpu {
            Err(Spent::Time)
        } else if wall_now > wall {
            Err(Spent::WallTime)
        } else if crate::cancel::calls_stopped() {
            Err(Spent::Stopped)
        } else {
            Ok(())
        }
    }
}

/// Rhai's progress callback (also called by the compiled evaluator): stops the call when
/// its budget is spent. Rhai calls it at every operation, which it looks at every
/// [`CHECK_EVERY`]: reading one thread-local and the thread's memory counters, and comparing
/// them with the trip wires, unless the clocks are due.
#[inline]
pub(crate) fn progress(operations: u64) -> Option<Dynamic> {
    if !operations.is_multiple_of(CHECK_EVERY) {
        return None;
    }
    METER.with(|m| {
        m.operations.set(operations);
        let (held, allocated) = memory::counts();
        let clock = operations.is_multiple_of(CLOCK_EVERY);
        if clock || m.tripped(operations, held, allocated) {
            stopped(m.check(clock))
        } else {
            None
        }
    })
}

/// The token that stops a call, if its budget is `spent`.
#[cold]
#[inline(never)]
fn stopped(checked: Result<(), Spent>) -> Option<Dynamic> {
    checked.err().map(|what| message(what).into())
}

/// Charges `work` operations done by a primitive to the call in progress (and looks at its
/// memory, and at its clocks every [`CLOCK_EVERY`] operations charged): an error once the
/// call's budget is spent. Outside a metered call, a no-op.
pub fn charge(work: u64) -> Result<(), Box<EvalAltResult>> {
    METER.with(|m| {
        if !m.active.get() {
            return Ok(());
        }
        let before = m.charged.get();
        let charged = before.saturating_add(work);
        m.charged.set(charged);
        m.arm();
        m.check(charged / CLOCK_EVERY != before / CLOCK_EVERY)
            .map_err(spent)
    })
}

/// The work primitives charge, as the walker reads and charges it again for a pure function's
/// result it reuses (see [`crate::walker::Charges`]).
pub(crate) const CHARGES: crate::walker::Charges = crate::walker::Charges {
    charged,
    recharge,
    uncharge,
};

/// The work charged so far to the call in progress (0 outside a metered call).
fn charged() -> u64 {
    METER.with(|m| if m.active.get() { m.charged.get() } else { 0 })
}

/// Charges `work` to the call in progress, which counted `operations`, if that keeps it within
/// [`limits::OPERATIONS`]; else charges nothing and gives false. Memory and the clocks are
/// looked at by the next report, as after any charge between two clock looks.
fn recharge(work: u64, operations: u64) -> bool {
    METER.with(|m| {
        if !m.active.get() {
            return true;
        }
        let charged = m.charged.get().saturating_add(work);
        if operations.saturating_add(charged) > limits::OPERATIONS {
            return false;
        }
        m.charged.set(charged);
        m.arm();
        true
    })
}

/// Takes back `work` that [`recharge`] charged.
fn uncharge(work: u64) {
    METER.with(|m| {
        if m.active.get() {
            m.charged.set(m.charged.get().saturating_sub(work));
            m.arm();
        }
    })
}

/// Work a primitive counts as it loops, charged to the call in progress in batches (so that a
/// tight loop does not look at the clock each time).
#[derive(Debug, Default)]
pub struct Work {
    pending: u64,
}

impl Work {
    /// How much work is gathered before it is charged.
    const BATCH: u64 = 4096;

    /// Counts `work` more operations; an error once the call's budget is spent.
    pub fn add(&mut self, work: u64) -> Result<(), Box<EvalAltResult>> {
        self.pending += work;
        if self.pending >= Self::BATCH {
            charge(std::mem::take(&mut self.pending))?;
        }
        Ok(())
    }
}

/// Checks that the call in progress may hold `bytes` more than it does now (a primitive calls
/// this before building a large result): an error if that would exceed [`limits::MEMORY`].
pub fn reserve(bytes: usize) -> Result<(), Box<EvalAltResult>> {
    let held = METER.with(|m| if m.active.get() { m.held() } else { 0 });
    if held.saturating_add(bytes) > limits::MEMORY {
        Err(spent(Spent::Memory))
    } else {
        Ok(())
    }
}

/// The stack every thread that runs scripts gets: at least the main thread's (its limit,
/// `ulimit -s`), and at least 8 MiB (the usual main thread's). A script that runs on the main thread then
/// runs on every other one: Rhai's recursion and expression depths are bounded
/// ([`limits::CALL_DEPTH`], [`limits::EXPR_DEPTH`]), and evaluating to those depths needs more
/// than the 2 MiB a spawned thread has by default.
pub fn thread_stack() -> usize {
    const FALLBACK: usize = 8 << 20;
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the limit into `limit`, a valid struct it may write.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut limit) } == 0;
        if read && limit.rlim_cur != libc::RLIM_INFINITY {
            return usize::try_from(limit.rlim_cur).map_or(FALLBACK, |bytes| bytes.max(FALLBACK));
        }
    }
    FALLBACK
}

/// An error for a script that went past one of the [`limits`] (reported as a fault of the
/// script, not as a rule's refusal).
pub fn over_limit(message: String) -> Box<EvalAltResult> {
    EvalAltResult::ErrorTerminated(message.into(), Position::NONE).into()
}

/// An engine with the standard library (no file, process or network access exists in it),
/// `eval` disabled, and the [`limits`] applied. `print` and `debug` go nowhere.
pub fn engine() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(rhai::packages::StandardPackage::new().as_shared_module());
    engine
        .set_max_operations(limits::OPERATIONS)
        .set_max_call_levels(limits::CALL_DEPTH)
        .set_max_expr_depths(limits::EXPR_DEPTH.0, limits::EXPR_DEPTH.1)
        .set_max_string_size(limits::STRING_SIZE)
        .set_max_array_size(limits::ARRAY_SIZE)
        .set_max_map_size(limits::MAP_SIZE)
        .set_max_modules(limits::MODULES)
        .disable_symbol("eval");
    engine.on_progress(progress);
    engine
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of a budget error.
    fn budget_message(err: &EvalAltResult) -> Option<String> {
        match err {
            EvalAltResult::ErrorTerminated(message, _) => Some(message.to_string()),
            _ => None,
        }
    }

    #[test]
    fn primitives_work_counts_against_the_operations() {
        let _call = begin();
        assert!(charge(limits::OPERATIONS / 2).is_ok());
        let err = charge(limits::OPERATIONS).unwrap_err();
        assert!(budget_message(&err).unwrap().contains("operations"));
    }

    #[test]
    fn a_large_result_is_refused_before_it_is_built() {
        let _call = begin();
        assert!(reserve(1 << 20).is_ok());
        let err = reserve(limits::MEMORY + 1).unwrap_err();
        assert!(budget_message(&err).unwrap().contains("MiB"));
    }

    #[test]
    fn an_inner_call_has_its_own_budget_and_the_outer_resumes() {
        let _outer = begin();
        charge(limits::OPERATIONS - 10).unwrap();
        {
            let _inner = begin();
            charge(limits::OPERATIONS / 2).unwrap();
        }
        assert!(charge(100).is_err());
    }

    #[test]
    fn a_look_finds_the_memory_held_over_the_budget() {
        let _call = begin();
        assert!(progress(CHECK_EVERY).is_none());
        METER.with(|m| {
            let over = limits::MEMORY as isize + 1;
            m.memory_base.set(memory::held() - over);
            m.arm();
        });
        assert!(
            progress(CHECK_EVERY + 1).is_none(),
            "looked at every CHECK_EVERY only"
        );
        let token = progress(2 * CHECK_EVERY).expect("stopped");
        assert!(token.to_string().contains("MiB"), "{token}");
    }

    #[test]
    fn a_look_counts_the_work_charged_with_the_operations() {
        let _call = begin();
        charge(limits::OPERATIONS - 100).unwrap();
        assert!(progress(6 * CHECK_EVERY).is_none());
        let token = progress(7 * CHECK_EVERY).expect("stopped");
        assert!(token.to_string().contains("operations"), "{token}");
    }

    #[test]
    fn outside_a_call_a_look_finds_nothing() {
        assert!(progress(CHECK_EVERY).is_none());
        assert!(progress(CLOCK_EVERY).is_none());
        assert!(progress(limits::OPERATIONS + CLOCK_EVERY).is_none());
    }

    #[test]
    fn outside_a_call_nothing_is_metered() {
        assert!(charge(u64::MAX).is_ok());
        assert!(reserve(limits::MEMORY).is_ok());
    }

    #[test]
    fn a_script_stops_at_the_deadline_however_few_its_operations() {
        let engine = engine();
        let _call = begin();
        let started = thread_time();
        // Each push re-measures the whole array: few operations, much time.
        let err = engine
            .run("let a = []; a.pad(99000, 0); loop { a.push(1); a.pop(); }")
            .unwrap_err();
        // Processor time: on a busy machine the clock may show much more.
        let computed = thread_time() - started;
        assert!(computed < limits::TIME * 2, "{computed:?}");
        let message = budget_message(&err).unwrap_or_else(|| err.to_string());
        assert!(
            message.contains("s of processor time in one call"),
            "{message}"
        );
    }

    #[test]
    fn a_call_that_waits_rather_than_computes_is_not_stopped() {
        // A thread the machine leaves waiting (here: asleep) past the processor-time limit.
        let _call = begin();
        assert!(charge(CLOCK_EVERY).is_ok()); // the clocks start
        std::thread::sleep(limits::TIME + Duration::from_millis(300));
        assert!(charge(CLOCK_EVERY).is_ok());
    }

    #[test]
    fn the_wall_clock_backstop_says_it_is_the_clock() {
        let _call = begin();
        METER.with(|m| {
            assert!(m.active.get());
            let past = Instant::now() - Duration::from_millis(1);
            m.deadlines.set(Some((Duration::MAX, past)));
        });
        let err = charge(CLOCK_EVERY).unwrap_err();
        assert!(
            budget_message(&err).unwrap().contains("by the clock"),
            "{err}"
        );
    }
}
