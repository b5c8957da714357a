//! Running lowered functions: the tree walker.

use std::{
    any::TypeId,
    cell::Cell,
    ops::{Range, RangeInclusive},
};

use rhai::{
    Array, Caches, Dynamic, Engine, EvalAltResult, EvalContext, Expr as RhaiExpr,
    GlobalRuntimeState, ImmutableString, Map, NativeCallContext, Position, RhaiFunc, Scope,
    StaticVec, Token, INT,
};

use later::Later;

use super::{
    lists::NativeList,
    native_table::{NativeTable, Typed},
    Charges, Imports, Progress, REPORT_EVERY,
};
use super::{
    Block, Call, Callee, Chain, Expr, Fallback, ForLoop, Function, IntAssign, IntOp, IntOperand,
    OpAssign, Program, Resolved, Root, Shape, Site, Slot, Step, Stmt,
};

mod chain;
pub(super) mod closures;
mod imported;
mod items;
mod later;
mod memoised;
mod pairs;
mod plain;
mod pointers;
mod reads;

type Error = Box<EvalAltResult>;

/// Why evaluation left the normal flow.
enum Stop {
    Error(Error),
    Return(Dynamic),
    Break(Dynamic),
    Continue,
}

impl From<Error> for Stop {
    /// Rhai reports `return`, `break` and `continue` in the nodes it evaluates as errors.
    fn from(err: Error) -> Self {
        match *err {
            EvalAltResult::Return(value, ..) => Stop::Return(value),
            EvalAltResult::LoopBreak(true, value, ..) => Stop::Break(value),
            EvalAltResult::LoopBreak(false, ..) => Stop::Continue,
            _ => Stop::Error(err),
        }
    }
}

/// The first count after `operations` at which [`Runner::tick`] must look at the budget,
/// the engine's limit being `max`: the next one reported (a multiple of [`REPORT_EVERY`]), or
/// the first one past the limit (once past it, every one).
#[inline]
fn next_look(operations: u64, max: u64) -> u64 {
    if operations >= max {
        operations.saturating_add(1)
    } else {
        let report = (operations / REPORT_EVERY + 1).saturating_mul(REPORT_EVERY);
        report.min(max.saturating_add(1))
    }
}

type Flow<T> = Result<T, Stop>;

/// Whether a call may give a primitive's list form (a [`NativeList`]) rather than its array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    /// No: the array.
    No,
    /// For the host, which asked the function for a list of moves (see
    /// [`Runner::call_lending`]): the call must leave its arguments as they were (one may be
    /// the lent state), and the function ends with it.
    ForHost,
    /// For a native taking compact lists, to which the call's value is passed.
    ForArgument,
}

/// How walking a chain ended when it did not give a value.
enum Walked {
    /// Rhai must run the whole chain (nothing has happened yet that it would repeat).
    Whole,
    Stop(Stop),
}

impl From<Stop> for Walked {
    fn from(stop: Stop) -> Self {
        Walked::Stop(stop)
    }
}

impl From<Error> for Walked {
    fn from(err: Error) -> Self {
        Walked::Stop(err.into())
    }
}

/// The variables of one call: its parameters, then its locals.
struct Frame {
    values: Vec<Dynamic>,
    /// Called by the host (Rhai then puts the script's constants in the scope below).
    top: bool,
    /// What is known of the sizes of the array in one slot (see [`Measured`]).
    measured: Option<Measured>,
    /// The parameters (bit `i` for slot `i`) holding a value lent by the caller rather than
    /// copied, not copied since: the caller's own (see [`Runner::call_script`]), or the
    /// host's state (see [`Runner::call_lending`]). Before such a parameter may change, its
    /// value is copied for the lender ([`Runner::before_change`]).
    lent: Cell<u64>,
}

/// The sizes Rhai's limits count in the array held by slot `index` of a frame (its items, map
/// entries and string bytes, nested ones included), within the limits, when it had `len`
/// items. Rhai checks a variable's whole value after every method called on it, so a list
/// built by `push` would be measured whole after each push (quadratic); the walker keeps the
/// sizes up to date as it pushes and pops (see `Runner::array_method_on`), measuring only the
/// item pushed or popped.
/// Forgotten as soon as anything else may change the slot.
#[derive(Clone, Copy)]
struct Measured {
    index: usize,
    len: usize,
    sizes: (usize, usize, usize),
}

impl Frame {
    fn index(&self, slot: Slot) -> usize {
        self.values.len() - slot.get()
    }

    /// A frame of `values` (called by the host: `top`), with the parameters in `lent` lent.
    #[inline(always)]
    fn new(values: Vec<Dynamic>, top: bool, lent: u64) -> Self {
        Frame {
            values,
            top,
            measured: None,
            lent: Cell::new(lent),
        }
    }

    /// Forgets what is measured of slot `i`, which may change.
    #[inline]
    fn touch(&mut self, i: usize) {
        if self.measured.is_some_and(|m| m.index == i) {
            self.measured = None;
        }
    }

    /// Ends the slots from `mark` on.
    #[inline]
    fn truncate(&mut self, mark: usize) {
        plain::truncate(&mut self.values, mark);
        self.forget_from(mark);
    }

    /// [`Self::truncate`], an array among the slots kept emptied in `spare` for reuse (see
    /// [`plain::discard_sparing`]).
    #[inline(always)]
    fn truncate_sparing(&mut self, mark: usize, spare: &mut Option<Dynamic>) {
        while self.values.len() > mark {
            if let Some(value) = self.values.pop() {
                plain::discard_sparing(value, spare);
            }
        }
        self.forget_from(mark);
    }

    /// Forgets what is measured of the slots from `mark` on, which end.
    #[inline(always)]
    fn forget_from(&mut self, mark: usize) {
        if self.measured.is_some_and(|m| m.index >= mark) {
            self.measured = None;
        }
    }
}

/// The host's state lent to a host call (see [`Runner::call_lending`]).
#[derive(Default)]
struct Lending {
    /// The state as lent, copied before the call first changes it.
    copy: Option<Dynamic>,
    /// The state as the call left it (its first parameter).
    back: Option<Dynamic>,
}

/// Runs lowered functions of one script within one host call.
pub struct Runner<'a> {
    engine: &'a Engine,
    program: &'a Program,
    natives: &'a NativeTable,
    global: &'a mut GlobalRuntimeState,
    caches: &'a mut Caches,
    /// The scope a host call runs in (the script's constants), which Rhai lets a host call
    /// change (a native method called on a constant changes it).
    constants: &'a mut Scope<'static>,
    /// An empty scope for the native calls Rhai makes.
    empty: Scope<'static>,
    /// The engine's limit on operations in one call (`u64::MAX`: none).
    max_operations: u64,
    /// The engine's limits on data sizes, as [`data_sizes`] gives them (`usize::MAX`: none).
    max_sizes: (usize, usize, usize),
    /// Where the operations are reported (the host's sandbox).
    progress: Progress,
    /// An empty array kept from a variable's array that ended with its block, for the next
    /// empty array literal (`let line = [];` in a loop's body allocates nothing after its first
    /// round; see [`plain::discard_sparing`]).
    spare_array: Option<Dynamic>,
    /// The count from which [`Self::tick`] looks closer: at most the next count that is
    /// reported or over the limit (see [`next_look`]); set again whenever the count is set
    /// other than by counting ([`Self::set_operations`]).
    look_at: u64,
    /// The host lent its state to the call rather than copying it, asking for a list of moves
    /// (see [`Runner::call_lending`]).
    lending: Option<Lending>,
    /// Empty frames to reuse (a call's frame is not allocated anew).
    frames: &'a mut Vec<Vec<Dynamic>>,
    /// The copies of lent parameters (by their slot) made before they changed, for the
    /// callers that lent them, the innermost call's last (see [`Runner::call_script`]).
    loans: Vec<(usize, Dynamic)>,
    /// Who makes the calls of imported scripts' functions (`base::f(…)`), if anyone: else
    /// Rhai makes them.
    imports: Option<&'a dyn Imports>,
    /// The work the host's primitives charge, if the host tells it: pure functions' results
    /// are reused only then (see `memo.rs`).
    charges: Option<Charges>,
}

impl<'a> Runner<'a> {
    /// A runner for one host call, with Rhai's state for the call, taking the frames it needs
    /// from `frames` and putting them back when they end; the operations it counts are reported
    /// to `progress`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        engine: &'a Engine,
        program: &'a Program,
        natives: &'a NativeTable,
        global: &'a mut GlobalRuntimeState,
        caches: &'a mut Caches,
        constants: &'a mut Scope<'static>,
        frames: &'a mut Vec<Vec<Dynamic>>,
        progress: Progress,
    ) -> Self {
        let max_operations = match engine.max_operations() {
            0 => u64::MAX,
            max => max,
        };
        Runner {
            look_at: next_look(global.num_operations, max_operations),
            engine,
            program,
            natives,
            global,
            caches,
            constants,
            empty: Scope::new(),
            max_operations,
            max_sizes: max_sizes(engine),
            lending: None,
            frames,
            loans: Vec::new(),
            progress,
            spare_array: None,
            imports: None,
            charges: None,
        }
    }

    /// The runner, with the calls of imported scripts' functions made by `imports`.
    pub fn with_imports(mut self, imports: Option<&'a dyn Imports>) -> Self {
        self.imports = imports;
        self
    }

    /// The runner, reusing pure functions' results, the host's primitives charging their work
    /// as `charges` tells (see `memo.rs`).
    pub fn with_charges(mut self, charges: Charges) -> Self {
        self.charges = Some(charges);
        self
    }

    /// Calls `function` with `args` as the host does (what Rhai's `call_fn` would give).
    pub fn call(
        &mut self,
        function: &Function,
        args: impl IntoIterator<Item = Dynamic>,
    ) -> Result<Dynamic, Error> {
        // Rhai's call from the host goes one level deeper before the function's own.
        self.global.level += 1;
        let result = self.function(function, args, Position::NONE, true);
        self.global.level -= 1;
        result
    }

    /// Calls `function`, which takes one parameter, for a list of moves, with the host's
    /// `state` lent rather than copied: the call runs on the value itself until it would change
    /// it (it then copies it first), and `state` is as it was afterwards. Most `moves`
    /// functions only read the state, and a copy of it is a good part of their cost. Where the
    /// function returns a primitive's list as it is, the primitive's list form gives it (a
    /// [`NativeList`]).
    pub fn call_lending(
        &mut self,
        function: &Function,
        state: &mut Dynamic,
    ) -> Result<Dynamic, Error> {
        debug_assert_eq!(function.arity, 1);
        self.lending = Some(Lending::default());
        let result = self.call(function, [std::mem::take(state)]);
        let lending = self.lending.take().unwrap_or_default();
        *state = lending
            .copy
            .or(lending.back)
            .expect("a lent state comes back from its frame or was copied");
        result
    }

    /// Whether `frame` is the function the host called for a list of moves.
    #[inline]
    fn listing(&self, frame: &Frame) -> bool {
        frame.top && self.lending.is_some()
    }

    /// Before slot `i` of `frame` may change: a lent value is copied first for its lender (a
    /// state lent by the host, see [`Self::call_lending`]; a caller's variable, see
    /// [`Self::call_script`]).
    #[inline(always)]
    fn before_change(&mut self, frame: &Frame, i: usize) {
        if self.lent_unchanged(frame, i) {
            self.copy_lent(frame, i);
        }
    }

    /// Copies the lent value in slot `i` of `frame` for its lender, before it changes.
    #[cold]
    #[inline(never)]
    fn copy_lent(&mut self, frame: &Frame, i: usize) {
        frame.lent.set(frame.lent.get() & !(1 << i));
        let copy = frame.values[i].clone();
        match &mut self.lending {
            Some(lending) if frame.top => lending.copy = Some(copy),
            _ => self.loans.push((i, copy)),
        }
    }

    /// Before anything may change any slot of `frame` from `from` on: every lent value there
    /// is copied first.
    fn before_changes(&mut self, frame: &Frame, from: usize) {
        let mut lent = frame.lent.get() & u64::MAX.checked_shl(from as u32).unwrap_or(0);
        while lent != 0 {
            self.before_change(frame, lent.trailing_zeros() as usize);
            lent &= lent - 1;
        }
    }

    /// Whether slot `i` of `frame` holds a value lent to the call (by the host or the
    /// caller), not yet copied.
    #[inline(always)]
    fn lent_unchanged(&self, frame: &Frame, i: usize) -> bool {
        i < 64 && frame.lent.get() & (1 << i) != 0
    }

    /// Counts one operation and lets the budget stop the call, as Rhai does: every
    /// [`REPORT_EVERY`] operations the count is reported, and past the engine's limit the call
    /// stops. Both are looked at from one comparison with [`Self::look_at`].
    #[inline]
    fn tick(&mut self, pos: Position) -> Result<(), Error> {
        self.global.num_operations += 1;
        if self.global.num_operations >= self.look_at {
            self.look(pos)
        } else {
            Ok(())
        }
    }

    /// The count reached [`Self::look_at`]: reports it or stops the call where [`Self::tick`]
    /// must, and sets the next count to look at.
    #[cold]
    #[inline(never)]
    fn look(&mut self, pos: Position) -> Result<(), Error> {
        let operations = self.global.num_operations;
        self.look_at = next_look(operations, self.max_operations);
        if operations > self.max_operations {
            return Err(EvalAltResult::ErrorTooManyOperations(pos).into());
        }
        if !operations.is_multiple_of(REPORT_EVERY) {
            return Ok(());
        }
        match (self.progress)(operations) {
            Some(token) => Err(EvalAltResult::ErrorTerminated(token, pos).into()),
            None => Ok(()),
        }
    }

    /// Counts `n` operations at once (each at `Position::NONE`), exactly as `n` calls of
    /// [`Self::tick`]: when they would reach a report to the budget or pass its limit, the
    /// count stops at each such operation to look at the budget, so that the budget stops the
    /// call at the same operation.
    #[inline]
    fn tick_n(&mut self, n: u64) -> Result<(), Error> {
        let after = self.global.num_operations + n;
        if after < self.look_at {
            self.global.num_operations = after;
            Ok(())
        } else {
            self.tick_each(n)
        }
    }

    /// Counts three operations, the first two at `Position::NONE` and the third at `pos`
    /// (a statement, its value, a variable's look-up), exactly as [`Self::tick_n`] of two and
    /// [`Self::tick`] at `pos`.
    #[inline(always)]
    fn tick_3_at(&mut self, pos: Position) -> Result<(), Error> {
        let after = self.global.num_operations + 3;
        if after < self.look_at {
            self.global.num_operations = after;
            Ok(())
        } else {
            self.tick_2_then_at(pos)
        }
    }

    /// Counts `n` operations (one at least), the last at `pos` and the others at
    /// `Position::NONE`, exactly as [`Self::tick_n`] of `n - 1` and [`Self::tick`] at `pos`.
    #[inline(always)]
    fn tick_n_at(&mut self, n: u64, pos: Position) -> Result<(), Error> {
        let after = self.global.num_operations + n;
        if after < self.look_at {
            self.global.num_operations = after;
            Ok(())
        } else {
            self.tick_n_then_at(n, pos)
        }
    }

    /// [`Self::tick_n_at`] where a look falls among the `n`.
    #[cold]
    #[inline(never)]
    fn tick_n_then_at(&mut self, n: u64, pos: Position) -> Result<(), Error> {
        let last = n as usize - 1;
        self.tick_at_each_of(n as usize, |k| if k == last { pos } else { Position::NONE })
    }

    /// [`Self::tick_3_at`] where a look falls among the three.
    #[cold]
    #[inline(never)]
    fn tick_2_then_at(&mut self, pos: Position) -> Result<(), Error> {
        self.tick_at_each(&[Position::NONE, Position::NONE, pos])
    }

    /// Counts three operations, at `first`, at `Position::NONE` and at `last` (a native call's
    /// two arguments and the call), exactly as a [`Self::tick`] at each.
    #[inline(always)]
    fn tick_3(&mut self, first: Position, last: Position) -> Result<(), Error> {
        let after = self.global.num_operations + 3;
        if after < self.look_at {
            self.global.num_operations = after;
            Ok(())
        } else {
            self.tick_at_each(&[first, Position::NONE, last])
        }
    }

    /// [`Self::tick_n`] when the `n` operations reach [`Self::look_at`]: counted up to each
    /// operation to look at, which is looked at.
    #[cold]
    #[inline(never)]
    fn tick_each(&mut self, n: u64) -> Result<(), Error> {
        let end = self.global.num_operations + n;
        let at = self.look_at;
        // The commonest: one count to report among them, the only one to look at (the next
        // report after it past them, and the limit not passed).
        if at > self.global.num_operations
            && at <= end
            && end <= self.max_operations
            && end < at + REPORT_EVERY
            && at.is_multiple_of(REPORT_EVERY)
        {
            self.global.num_operations = at;
            self.look_at = next_look(at, self.max_operations);
            if let Some(token) = (self.progress)(at) {
                return Err(EvalAltResult::ErrorTerminated(token, Position::NONE).into());
            }
            self.global.num_operations = end;
            return Ok(());
        }
        loop {
            // `look_at` is behind the count when Rhai counted on its own since: the next
            // operation is looked at.
            let at = self.look_at.max(self.global.num_operations + 1);
            if at > end {
                break;
            }
            self.global.num_operations = at;
            self.look(Position::NONE)?;
        }
        self.global.num_operations = end;
        Ok(())
    }

    /// Counts one operation at each of `positions` in turn, exactly as a [`Self::tick`] at
    /// each: where one report to the budget falls among them (the commonest look), it is made
    /// once, at its operation's position, without counting them one by one.
    #[cold]
    #[inline(never)]
    fn tick_at_each(&mut self, positions: &[Position]) -> Result<(), Error> {
        self.tick_at_each_of(positions.len(), |k| positions[k])
    }

    /// [`Self::tick_at_each`] of `n` operations, the `k`th at `position(k)`: the positions
    /// are asked only where the budget is looked at (where a caller knows them without
    /// listing them).
    #[inline(always)]
    fn tick_at_each_of(
        &mut self,
        n: usize,
        position: impl Fn(usize) -> Position,
    ) -> Result<(), Error> {
        let start = self.global.num_operations;
        let end = start + n as u64;
        if end < self.look_at {
            self.global.num_operations = end;
            return Ok(());
        }
        let at = self.look_at;
        if at > start
            && end <= self.max_operations
            && end < at + REPORT_EVERY
            && at.is_multiple_of(REPORT_EVERY)
        {
            let pos = position((at - start - 1) as usize);
            self.global.num_operations = at;
            self.look_at = next_look(at, self.max_operations);
            if let Some(token) = (self.progress)(at) {
                return Err(EvalAltResult::ErrorTerminated(token, pos).into());
            }
            self.global.num_operations = end;
            return Ok(());
        }
        for k in 0..n {
            self.tick(position(k))?;
        }
        Ok(())
    }

    /// Takes back the operation just counted, which Rhai counts elsewhere (the budget was
    /// looked at with it: counting it again looks at the same budget).
    #[inline]
    fn untick(&mut self) {
        self.set_operations(self.global.num_operations - 1);
    }

    /// Sets the count of operations other than by counting them (Rhai counted some again, a
    /// count is taken back), and the next count to look at from it.
    #[inline]
    pub(super) fn set_operations(&mut self, operations: u64) {
        self.global.num_operations = operations;
        self.look_at = next_look(operations, self.max_operations);
    }

    fn function(
        &mut self,
        function: &Function,
        args: impl IntoIterator<Item = Dynamic>,
        pos: Position,
        top: bool,
    ) -> Result<Dynamic, Error> {
        let mut values = self.frames.pop().unwrap_or_default();
        values.reserve(function.frame_size);
        values.extend(args);
        self.run_in(function, values, pos, top)
    }

    /// Runs `function` in a frame made of `values`, its arguments (a vector of `self.frames`,
    /// put back when the call ends).
    #[inline(always)]
    fn run_in(
        &mut self,
        function: &Function,
        values: Vec<Dynamic>,
        pos: Position,
        top: bool,
    ) -> Result<Dynamic, Error> {
        debug_assert_eq!(values.len(), function.arity);
        // The host lends its state to a call for a list of moves.
        let lent = u64::from(top && self.lending.is_some());
        let mut frame = Frame::new(values, top, lent);
        let result = match function.memo.get() {
            Some(index) if self.charges.is_some() => {
                self.memoised(index, function, &mut frame, pos)
            }
            _ => self.run_function(function, &mut frame, pos),
        };
        if let Some(lending) = self.lending.as_mut().filter(|_| top) {
            lending.back = frame.values.first_mut().map(std::mem::take);
        }
        plain::truncate(&mut frame.values, 0);
        self.frames.push(frame.values);
        result
    }

    fn run_function(
        &mut self,
        function: &Function,
        frame: &mut Frame,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let caller_source = self.enter(pos)?;
        let result = self.stmts(frame, &function.body);
        self.leave(function, result, caller_source, pos)
    }

    /// Enters the call of a script function at `pos` as Rhai does: counts the call, refuses it
    /// past the engine's call levels, and goes one level down, with the source of the module
    /// the function was found in. The caller's source, which [`Self::leave`] puts back.
    #[inline(always)]
    fn enter(&mut self, pos: Position) -> Result<Option<ImmutableString>, Error> {
        self.tick(pos)?;
        if self.global.level + 1 > self.engine.max_call_levels() {
            return Err(EvalAltResult::ErrorStackOverflow(pos).into());
        }
        self.global.level += 1;
        Ok(std::mem::replace(
            &mut self.global.source,
            self.program.source.clone(),
        ))
    }

    /// Leaves the call of `function` at `pos` entered by [`Self::enter`], its body having ended
    /// with `result`: back one level up, with the caller's source; the call's value or error
    /// (see [`function_result`]).
    #[inline(always)]
    fn leave(
        &mut self,
        function: &Function,
        result: Flow<Dynamic>,
        caller_source: Option<ImmutableString>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let source = std::mem::replace(&mut self.global.source, caller_source);
        self.global.level -= 1;
        function_result(function, result, source, pos)
    }

    fn block(&mut self, frame: &mut Frame, block: &Block) -> Flow<Dynamic> {
        let mark = frame.values.len();
        let result = self.stmts(frame, block);
        frame.truncate(mark);
        result
    }
}

/// What a call of `function` (at `pos`) gives, its body having ended with `result`, run with
/// the module's `source`: its value, or its error as Rhai reports it (see
/// [`function_error`]). The value's way is inlined in the callers, as it is every call's.
#[inline(always)]
fn function_result(
    function: &Function,
    result: Flow<Dynamic>,
    source: Option<ImmutableString>,
    pos: Position,
) -> Result<Dynamic, Error> {
    let err = match result {
        Ok(value) | Err(Stop::Return(value)) => return Ok(value),
        Err(Stop::Break(value)) => EvalAltResult::LoopBreak(true, value, pos).into(),
        Err(Stop::Continue) => EvalAltResult::LoopBreak(false, Dynamic::UNIT, pos).into(),
        Err(Stop::Error(err)) => err,
    };
    Err(function_error(function, err, source, pos))
}

/// The error a call of `function` (at `pos`), run with the module's `source`, gives where its
/// body stopped with `err` (a `break` or `continue` outside a loop made one), as Rhai reports it.
#[cold]
#[inline(never)]
fn function_error(
    function: &Function,
    err: Error,
    source: Option<ImmutableString>,
    pos: Position,
) -> Error {
    match *err {
        EvalAltResult::Exit(..) => with_position(err, pos),
        _ if err.is_system_exception() => with_position(err, pos),
        _ => EvalAltResult::ErrorInFunctionCall(
            function.name.to_string(),
            source.as_deref().unwrap_or("").to_string(),
            err,
            pos,
        )
        .into(),
    }
}

impl Runner<'_> {
    /// Runs `block` in a block of its own for what it does, its value unused (a loop's body,
    /// the branch of an `if` that is a statement): no statement's value is made. An empty
    /// block (an `if` without `else`) does nothing, at no call.
    #[inline(always)]
    fn run(&mut self, frame: &mut Frame, block: &Block) -> Flow<()> {
        if block.is_empty() {
            return Ok(());
        }
        let mark = frame.values.len();
        let result = self.exec_all(frame, block);
        frame.truncate_sparing(mark, &mut self.spare_array);
        result
    }

    /// Runs the statements of `block` for what they do.
    #[inline]
    fn exec_all(&mut self, frame: &mut Frame, block: &[Stmt]) -> Flow<()> {
        for stmt in block {
            self.exec(frame, stmt)?;
        }
        Ok(())
    }

    /// The value of the statements of `block` (that of the last one): those before it are
    /// run for what they do. Rhai drops a statement's value before it runs the next one.
    fn stmts(&mut self, frame: &mut Frame, block: &Block) -> Flow<Dynamic> {
        match block.split_last() {
            Some((last, before)) => {
                self.exec_all(frame, before)?;
                self.stmt(frame, last)
            }
            None => Ok(Dynamic::UNIT),
        }
    }

    /// Runs `stmt` for what it does, its value unused (dropped as soon as it is made, as Rhai
    /// does).
    #[inline(always)]
    fn exec(&mut self, frame: &mut Frame, stmt: &Stmt) -> Flow<()> {
        // The commonest in loops, run here; the others out of line, which keeps a block's
        // own code (and its call) small.
        match stmt {
            Stmt::IntAssign(assign) => self.int_step(frame, assign),
            Stmt::If {
                cond,
                cond_pos,
                then,
                otherwise,
            } => {
                // The statement's operation, counted with the condition's first.
                if self.condition_after(frame, cond, *cond_pos, 1)? {
                    // `if … { continue; }`, `if … { break; }`: no block run for the jump.
                    if let [Stmt::Break {
                        value: None,
                        is_break,
                    }] = then.as_slice()
                    {
                        return self.jump(*is_break);
                    }
                    self.run(frame, then)
                } else {
                    self.run(frame, otherwise)
                }
            }
            Stmt::Expr(expr) => {
                // The statement's operation and the expression's.
                self.tick_n(2)?;
                plain::discard(self.eval(frame, expr)?);
                Ok(())
            }
            Stmt::Let {
                value,
                constant,
                reuse,
            } => self.declare(frame, value, *constant, *reuse),
            _ => self.exec_more(frame, stmt),
        }
    }

    /// [`Self::exec`] of the other statements.
    #[inline(never)]
    fn exec_more(&mut self, frame: &mut Frame, stmt: &Stmt) -> Flow<()> {
        // Rhai counts an operation for every statement it runs: for a statement made of an
        // expression, counted with the expression's own.
        match stmt {
            // The call's expression counts the statement's operation.
            Stmt::Call(expr) => {
                plain::discard(self.expr(frame, expr)?);
                Ok(())
            }
            Stmt::Assign {
                slot,
                name,
                pos,
                op,
                value,
                stmt,
            } => self.assign_local(
                frame,
                *slot,
                name,
                *pos,
                op.as_ref(),
                value,
                stmt.as_deref(),
            ),
            Stmt::While { cond, body } => {
                self.tick(Position::NONE)?;
                plain::discard(self.while_loop(frame, cond.as_ref(), body)?);
                Ok(())
            }
            Stmt::For(for_loop) => {
                self.tick(Position::NONE)?;
                plain::discard(self.for_loop(frame, for_loop)?);
                Ok(())
            }
            Stmt::Break {
                value: None,
                is_break,
            } => self.jump(*is_break),
            // Their value is made, and dropped.
            _ => {
                plain::discard(self.stmt(frame, stmt)?);
                Ok(())
            }
        }
    }

    /// `break` or `continue` without a value (`is_break`: which), its statement's operation
    /// counted first as [`Self::stmt`] counts it.
    #[inline(always)]
    fn jump(&mut self, is_break: bool) -> Flow<()> {
        self.tick(Position::NONE)?;
        Err(if is_break {
            Stop::Break(Dynamic::UNIT)
        } else {
            Stop::Continue
        })
    }

    /// The value of `stmt`.
    fn stmt(&mut self, frame: &mut Frame, stmt: &Stmt) -> Flow<Dynamic> {
        match stmt {
            Stmt::Expr(expr) => {
                self.tick_n(2)?;
                self.eval(frame, expr)
            }
            Stmt::Call(expr) => self.expr(frame, expr),
            Stmt::Let { .. } | Stmt::Assign { .. } | Stmt::IntAssign(_) => {
                self.exec(frame, stmt)?;
                Ok(Dynamic::UNIT)
            }
            Stmt::ChainAssign {
                chain,
                op,
                value,
                stmt,
                pos,
            } => {
                self.tick(Position::NONE)?;
                let value = self.expr(frame, value)?;
                // An integer to an array's item (`state.pits[last] += 1`): in place.
                if matches!(chain.steps.last(), Some(Step::Index)) {
                    if let Some(done) = self.item_assigned(frame, chain, op.as_ref(), &value) {
                        plain::discard(value);
                        return done.map(|()| Dynamic::UNIT);
                    }
                }
                self.chain(frame, chain, Some((value, op.as_ref(), *pos)), Some(stmt))
            }
            _ => {
                self.tick(Position::NONE)?;
                self.control(frame, stmt)
            }
        }
    }

    /// `let` / `const` (see [`Stmt::Let`]).
    #[inline(always)]
    fn declare(
        &mut self,
        frame: &mut Frame,
        value: &Expr,
        constant: bool,
        reuse: Option<Slot>,
    ) -> Flow<()> {
        // An arithmetic operator on two integers where they are (`let tx = x + dx`): computed
        // from them, its operations (the operator's and its operands') counted with the
        // statement's and its value's, as `Self::eval` counts them after.
        if let Expr::Binary { op, args, .. } = value {
            if let Some([lhs, rhs]) = args.ints {
                if let (Some(x), Some(y)) = (self.int_of(frame, lhs), self.int_of(frame, rhs)) {
                    if let Some(n) = op.checked(x, y) {
                        self.tick_n(4)?;
                        self.bind(frame, Dynamic::from_int(n), constant, reuse);
                        return Ok(());
                    }
                }
            }
        }
        self.tick_n(2)?;
        let value = self.computed_operand(frame, value)?;
        self.bind(frame, value, constant, reuse);
        Ok(())
    }

    /// Gives a declared variable its `value` (see [`Stmt::Let`]).
    #[inline(always)]
    fn bind(&mut self, frame: &mut Frame, mut value: Dynamic, constant: bool, reuse: Option<Slot>) {
        if constant {
            value = value.into_read_only();
        }
        match reuse {
            Some(slot) => {
                let i = frame.index(slot);
                self.before_change(frame, i);
                frame.touch(i);
                plain::put(&mut frame.values[i], value);
            }
            None => frame.values.push(value),
        }
    }

    /// `x op= n` on integers where they are (see [`IntAssign`]), done in place as
    /// [`Self::int_assign`] does; run as any assignment where they are not integers, the
    /// variable may be a constant (Rhai words the error) or the operator fails.
    #[inline(always)]
    fn int_step(&mut self, frame: &mut Frame, assign: &IntAssign) -> Flow<()> {
        let i = frame.index(assign.slot);
        let target = &frame.values[i];
        if let (Some(x), Some(y)) = (plain::int(target), self.int_of(frame, assign.by)) {
            if let Some(result) = assign.op.checked(x, y) {
                if assign.writable || !target.is_read_only() {
                    // The statement's operation, its value's and the variable's look-up.
                    self.tick_3_at(assign.pos)?;
                    self.before_change(frame, i);
                    frame.touch(i);
                    set_int(&mut frame.values[i], result);
                    return Ok(());
                }
            }
        }
        self.exec_more(frame, &assign.assign)
    }

    /// The integer `operand` holds where it is, if it holds one.
    #[inline(always)]
    fn int_of(&self, frame: &Frame, operand: IntOperand) -> Option<INT> {
        match operand {
            IntOperand::Literal(n) => Some(n),
            IntOperand::Local(slot) => int_in(&frame.values[frame.index(slot)]),
        }
    }

    /// `x = v` or `x op= v` on the local variable `name` in `slot` (see [`Stmt::Assign`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn assign_local(
        &mut self,
        frame: &mut Frame,
        slot: Slot,
        name: &ImmutableString,
        pos: Position,
        op: Option<&OpAssign>,
        value: &Expr,
        stmt: Option<&Fallback>,
    ) -> Flow<()> {
        self.tick_n(2)?;
        // `x op= n` on an integer variable, computed in place, `n` read where it is if it can
        // be (a variable, a literal).
        if let Some(op) = op {
            if let Some(b) = self.int_at(frame, value) {
                if let Some(done) = self.int_assign(frame, slot, name, pos, op, b) {
                    return done;
                }
            }
            // Or read where it is through a chain (`total += pits[i]`).
            if let Expr::Chain(_) = value {
                if let Some(done) = self.int_read_assign(frame, slot, pos, op, value) {
                    return done;
                }
            }
        }
        self.assign_computed(frame, slot, name, pos, op, value, stmt)
    }

    /// [`Self::assign_local`] but for `x op= n` with `n` an integer where it is: the value is
    /// computed (the statement's operations counted already).
    #[allow(clippy::too_many_arguments)]
    fn assign_computed(
        &mut self,
        frame: &mut Frame,
        slot: Slot,
        name: &ImmutableString,
        pos: Position,
        op: Option<&OpAssign>,
        value: &Expr,
        stmt: Option<&Fallback>,
    ) -> Flow<()> {
        let value = self.computed_operand(frame, value)?;
        if let (Some(op), Ok(b)) = (op, value.as_int()) {
            if let Some(done) = self.int_assign(frame, slot, name, pos, op, b) {
                plain::discard(value);
                return done;
            }
        }
        if let Some(op) = op.filter(|op| op.token == Token::PlusAssign) {
            let target = &frame.values[frame.index(slot)];
            let arrays = target.is_array() && value.is_array();
            if arrays && !target.is_shared() && !value.is_shared() {
                return self.append(frame, slot, name, pos, op.pos, value);
            }
        }
        if let Some(stmt) = stmt {
            if !assigns_itself(&frame.values[frame.index(slot)], op, &value) {
                return self.assign_in_rhai(frame, stmt, value).map(plain::discard);
            }
        }
        self.tick(pos)?;
        let i = frame.index(slot);
        self.before_change(frame, i);
        frame.touch(i);
        let target = &mut frame.values[i];
        if target.is_read_only() {
            let err = EvalAltResult::ErrorAssignmentToConstant(name.to_string(), pos);
            return Err(Stop::Error(err.into()));
        }
        self.assign(target, op, value, pos)?;
        Ok(())
    }

    /// `x op= b` on the integer variable `name` in `slot` (at `pos`), computed in place (the
    /// statement's and the value's operations counted already); `None`, with nothing done,
    /// where the variable holds no integer or the operator fails (Rhai words its error).
    #[inline(always)]
    fn int_assign(
        &mut self,
        frame: &mut Frame,
        slot: Slot,
        name: &ImmutableString,
        pos: Position,
        op: &OpAssign,
        b: INT,
    ) -> Option<Flow<()>> {
        let i = frame.index(slot);
        let a = int_in(&frame.values[i])?;
        let result = int_op_assign(op, a, b)?;
        if let Err(err) = self.tick(pos) {
            return Some(Err(err.into()));
        }
        self.before_change(frame, i);
        frame.touch(i);
        let target = &mut frame.values[i];
        if target.is_read_only() {
            let err = EvalAltResult::ErrorAssignmentToConstant(name.to_string(), pos);
            return Some(Err(Stop::Error(err.into())));
        }
        set_int(target, result);
        Some(Ok(()))
    }

    /// `while cond { body }` (`loop { body }` without a condition), its statement's operation
    /// counted already: `()`, or a `break`'s value.
    fn while_loop(
        &mut self,
        frame: &mut Frame,
        cond: Option<&(Expr, Position)>,
        body: &Block,
    ) -> Flow<Dynamic> {
        loop {
            if let Some((cond, pos)) = cond {
                if !self.condition(frame, cond, *pos)? {
                    return Ok(Dynamic::UNIT);
                }
            } else if body.is_empty() {
                // Rhai counts a round of `loop` only when its body is empty.
                self.tick(Position::NONE)?;
            }
            match self.run(frame, body) {
                Ok(()) | Err(Stop::Continue) => (),
                Err(Stop::Break(value)) => return Ok(value),
                Err(stop) => return Err(stop),
            }
        }
    }

    /// A statement other than an expression, a variable's declaration or an assignment (its
    /// operation counted already).
    fn control(&mut self, frame: &mut Frame, stmt: &Stmt) -> Flow<Dynamic> {
        match stmt {
            Stmt::If {
                cond,
                cond_pos,
                then,
                otherwise,
            } => {
                if self.condition(frame, cond, *cond_pos)? {
                    self.block(frame, then)
                } else {
                    self.block(frame, otherwise)
                }
            }
            Stmt::While { cond, body } => self.while_loop(frame, cond.as_ref(), body),
            Stmt::Do {
                body,
                cond,
                cond_pos,
                until,
            } => loop {
                // Rhai counts no operation for a round of `do` (only the body's and the
                // condition's).
                match self.run(frame, body) {
                    Ok(()) => (),
                    // Rhai starts the body again without looking at the condition.
                    Err(Stop::Continue) => continue,
                    Err(Stop::Break(value)) => return Ok(value),
                    Err(stop) => return Err(stop),
                }
                if self.condition(frame, cond, *cond_pos)? == *until {
                    return Ok(Dynamic::UNIT);
                }
            },
            Stmt::For(for_loop) => self.for_loop(frame, for_loop),
            Stmt::Break { value, is_break } => {
                let value = self.optional(frame, value.as_ref())?;
                Err(if *is_break {
                    Stop::Break(value)
                } else {
                    Stop::Continue
                })
            }
            Stmt::Return(value) => Err(Stop::Return(self.optional(frame, value.as_ref())?)),
            Stmt::Throw { value, pos } => {
                let value = self.optional(frame, value.as_ref())?;
                Err(Stop::Error(EvalAltResult::ErrorRuntime(value, *pos).into()))
            }
            Stmt::Block(block) => self.block(frame, block),
            Stmt::Rhai(fallback) => {
                // Rhai counts the statement it runs.
                self.untick();
                self.fallback(frame, &fallback.expr, &fallback.names)
            }
            Stmt::Profiled(p) => self.profiled(frame, p),
            Stmt::Expr(_)
            | Stmt::Call(_)
            | Stmt::Let { .. }
            | Stmt::Assign { .. }
            | Stmt::IntAssign(_)
            | Stmt::ChainAssign { .. } => unreachable!("run by `stmt`"),
        }
    }

    /// `x += array` on the array in `slot` (named `name`, at `pos`; the operator at `op_pos`),
    /// as Rhai's own operator does it: it checks the sizes of the array as it was (answered
    /// from what is measured of it, see [`Measured`]), then appends the items; the sizes
    /// become known.
    fn append(
        &mut self,
        frame: &mut Frame,
        slot: Slot,
        name: &str,
        pos: Position,
        op_pos: Position,
        value: Dynamic,
    ) -> Flow<()> {
        // Rhai counts the variable's look-up.
        self.tick(pos)?;
        let i = frame.index(slot);
        if frame.values[i].is_read_only() {
            let err = EvalAltResult::ErrorAssignmentToConstant(name.to_string(), pos);
            return Err(Stop::Error(err.into()));
        }
        self.before_change(frame, i);
        let items = value.into_array().unwrap_or_default();
        if items.is_empty() {
            return Ok(());
        }
        let known = frame.measured.filter(|m| m.index == i);
        frame.measured = None;
        let target = &mut frame.values[i];
        let len = target.read_lock::<Array>().map_or(0, |a| a.len());
        let sizes = match known.filter(|m| m.len == len) {
            Some(m) => m.sizes,
            None => data_sizes(target),
        };
        if len > 0 {
            self.check_sizes(sizes, op_pos)?;
        }
        let added = items.iter().fold(sizes, |(a, m, s), item| {
            let (ia, im, is) = data_sizes(item);
            (a + 1 + ia, m + im, s + is)
        });
        let mut array = target.write_lock::<Array>().expect("an array");
        if array.is_empty() {
            *array = items;
        } else {
            array.extend(items);
        }
        let len = array.len();
        drop(array);
        frame.measured = Some(Measured {
            index: i,
            len,
            sizes: added,
        });
        Ok(())
    }

    /// Rhai runs the assignment `stmt` with `value` (computed already) in place of its right
    /// side.
    fn assign_in_rhai(
        &mut self,
        frame: &mut Frame,
        stmt: &Fallback,
        value: Dynamic,
    ) -> Flow<Dynamic> {
        let mut block = stmt.expr.clone();
        if let RhaiExpr::Stmt(b) = &mut block {
            if let Some(rhai::Stmt::Assignment(x)) = b.statements_mut().first_mut() {
                let pos = x.1.rhs.position();
                x.1.rhs = RhaiExpr::DynamicConstant(Box::new(value), pos);
            }
        }
        let result = self.fallback(frame, &block, &stmt.names);
        // Rhai counted the statement (counted already) and the value, a literal.
        self.set_operations(self.global.num_operations.saturating_sub(2));
        result
    }

    /// Runs a statement recording its cost (see [`super::profile`]). Out of line, so that a
    /// program lowered as usual runs as it did.
    #[cold]
    #[inline(never)]
    fn profiled(&mut self, frame: &mut Frame, p: &super::profile::Profiled) -> Flow<Dynamic> {
        // The statement inside counts its own operation: the wrapper's is not Rhai's.
        self.untick();
        super::profile::enter(self.global.num_operations);
        let result = self.stmt(frame, &p.stmt);
        super::profile::leave(p, self.global.num_operations);
        result
    }

    /// The value of `expr`, `()` without one (`return;`, `break;`, `throw;`).
    fn optional(&mut self, frame: &mut Frame, expr: Option<&Expr>) -> Flow<Dynamic> {
        match expr {
            Some(expr) => self.expr(frame, expr),
            None => Ok(Dynamic::UNIT),
        }
    }

    /// A condition's value, which must be a boolean. A comparison of integers, and `&&` and
    /// `||` of conditions, give theirs without making a value.
    #[inline(always)]
    fn condition(&mut self, frame: &mut Frame, cond: &Expr, pos: Position) -> Flow<bool> {
        self.condition_after(frame, cond, pos, 0)
    }

    /// [`Self::condition`] with `counted` operations counted first (those of the statement the
    /// condition is in), with the condition's first: exactly as that many calls of
    /// [`Self::tick`] before it, nothing being evaluated between them.
    #[inline(always)]
    fn condition_after(
        &mut self,
        frame: &mut Frame,
        cond: &Expr,
        pos: Position,
        counted: u64,
    ) -> Flow<bool> {
        // The commonest: a comparison of two integers where they are (in variables, literals
        // or constants), read without a copy.
        if let Some(holds) = self.int_comparison(frame, cond) {
            // The operator's operation and those of reading its operands.
            self.tick_n(counted + 3)?;
            return Ok(holds);
        }
        match cond {
            Expr::Binary { args, .. } if args.computed_left.is_some() => {
                self.computed_comparison(frame, cond, pos, counted)
            }
            // The operator's operation, counted with its operands' first.
            Expr::And(junction) if !junction.compares.is_empty() => {
                self.junction(frame, junction, counted + 1, true)
            }
            Expr::Or(junction) if !junction.compares.is_empty() => {
                self.junction(frame, junction, counted + 1, false)
            }
            _ => self.any_condition(frame, cond, pos, counted),
        }
    }

    /// [`Self::condition_after`] of a comparison whose left operand is computed and whose
    /// right one may be an integer where it is (see [`super::Operands::computed_left`]), as
    /// [`Self::any_condition`] gives it: the left operand computed (the operator's operation
    /// and its own counted first), then the right one read where it is (computing the left one
    /// may change it). Out of line and small, as such conditions are common (`board.get(c) ==
    /// theirs`) and [`Self::any_condition`]'s own entry costs more than the comparison.
    #[inline(never)]
    fn computed_comparison(
        &mut self,
        frame: &mut Frame,
        cond: &Expr,
        pos: Position,
        counted: u64,
    ) -> Flow<bool> {
        let Expr::Binary { op, args, .. } = cond else {
            unreachable!("a binary operator")
        };
        let Some(rhs) = args.computed_left else {
            unreachable!("a comparison of a computed value")
        };
        if self.int_of(frame, rhs).is_none() {
            return self.any_condition(frame, cond, pos, counted);
        }
        // A read by its method's form reading at a pair's integers, of a pair's call
        // (`board.get(cell(x, y)) == theirs`) or a variable's pair (`board.get(c) == theirs`).
        if let Expr::Chain(chain) = &args.args[0] {
            let read = match chain.shape.get() {
                _ if chain.array_method.is_some() => None,
                Shape::Pair if pairs::integers_in_place(chain) => {
                    self.pair_compared(frame, chain, *op, rhs, counted)
                }
                Shape::InPlace => self.split_compared(frame, chain, *op, rhs, counted),
                _ => None,
            };
            if let Some(done) = read {
                return done;
            }
        }
        self.tick_n(counted + 2)?;
        let left = self.computed_operand(frame, &args.args[0])?;
        if let (Some(x), Some(y)) = (int_in(&left), self.int_of(frame, rhs)) {
            plain::discard(left);
            self.tick(Position::NONE)?;
            return Ok(op.compare(x, y));
        }
        self.compared(frame, cond, left, pos)
    }

    /// [`Self::computed_comparison`] where the operands are not two integers: the operator on
    /// the left operand's value `left` (counted already), which must give a boolean.
    #[cold]
    #[inline(never)]
    fn compared(
        &mut self,
        frame: &mut Frame,
        cond: &Expr,
        left: Dynamic,
        pos: Position,
    ) -> Flow<bool> {
        let value = self.binary(frame, cond, Some(left))?;
        self.boolean(value, pos)
    }

    /// The boolean a condition's `value` (at `pos`) must be.
    #[inline(always)]
    fn boolean(&self, value: Dynamic, pos: Position) -> Flow<bool> {
        match value.as_bool() {
            Ok(b) => {
                plain::discard(value);
                Ok(b)
            }
            Err(typ) => Err(Stop::Error(self.mismatch("bool", typ, pos))),
        }
    }

    /// What `cond` gives where it compares two integers where they are (see
    /// [`super::Operands::ints`]): read without a copy, nothing counted.
    #[inline(always)]
    fn int_comparison(&self, frame: &Frame, cond: &Expr) -> Option<bool> {
        let Expr::Binary { op, args, .. } = cond else {
            return None;
        };
        let [lhs, rhs] = args.ints?;
        let (x, y) = (self.int_of(frame, lhs)?, self.int_of(frame, rhs)?);
        op.compares().then(|| op.compare(x, y))
    }

    /// [`Self::condition_after`] of any expression.
    fn any_condition(
        &mut self,
        frame: &mut Frame,
        cond: &Expr,
        pos: Position,
        counted: u64,
    ) -> Flow<bool> {
        let value = match cond {
            Expr::Binary { op, args, .. } if op.compares() => {
                // Integers read where they are through chains (`state.pits[i] > 0`,
                // `x < board.width`).
                if args.int_reads {
                    if let Some(done) = self.int_reads_compared(frame, *op, &args.args, counted) {
                        return done;
                    }
                }
                let [lhs, rhs] = &args.args;
                match (self.int_at(frame, rhs), self.peek(frame, lhs)) {
                    (Some(y), Some(left)) => match int_in(left) {
                        Some(x) => {
                            // The operator's operation and those of reading its operands.
                            self.tick_n(counted + 3)?;
                            return Ok(op.compare(x, y));
                        }
                        None => {
                            self.tick_n(counted + 1)?;
                            self.binary(frame, cond, None)?
                        }
                    },
                    // The left operand is computed (the operator's operation and its own
                    // first), the right one read where it is (after: computing the left one may
                    // change it).
                    (Some(_), None) => {
                        self.tick_n(counted + 2)?;
                        let left = self.computed_operand(frame, lhs)?;
                        if let (Some(x), Some(y)) = (int_in(&left), self.int_at(frame, rhs)) {
                            plain::discard(left);
                            self.tick(Position::NONE)?;
                            return Ok(op.compare(x, y));
                        }
                        self.binary(frame, cond, Some(left))?
                    }
                    (None, _) => {
                        self.tick_n(counted + 1)?;
                        self.binary(frame, cond, None)?
                    }
                }
            }
            Expr::And(junction) => {
                self.tick_n(counted + 1)?;
                return self.conditions(frame, &junction.operands, true);
            }
            Expr::Or(junction) => {
                self.tick_n(counted + 1)?;
                return self.conditions(frame, &junction.operands, false);
            }
            _ => {
                self.tick_n(counted + 1)?;
                self.eval(frame, cond)?
            }
        };
        self.boolean(value, pos)
    }

    /// Whether every one of `operands` holds (`all`) or one does (else), each a condition in
    /// turn, up to the first that decides.
    #[inline(always)]
    fn conditions(
        &mut self,
        frame: &mut Frame,
        operands: &[(Expr, Position)],
        all: bool,
    ) -> Flow<bool> {
        for (operand, pos) in operands {
            if self.condition(frame, operand, *pos)? != all {
                return Ok(!all);
            }
        }
        Ok(all)
    }

    /// `&&` (`all`) or `||` of `junction`'s operands, with `counted` operations counted first
    /// (the operator's and its statement's), with its operands' first: as Rhai, each operand
    /// in turn until one decides. The leading comparisons of integers where they are (see
    /// [`super::Junction::compares`]) are read in one loop, nothing evaluated among them, and
    /// their operations (each the operator's and its operands' reads, three) counted with
    /// `counted` in one [`Self::tick_n`], which is exactly a tick of each in turn; from the
    /// first operand that is not such a comparison, or whose operands are not both integers,
    /// each operand is a condition of its own. (A junction without such comparisons is
    /// [`Self::conditions`] of its operands where it is.)
    #[inline(never)]
    fn junction(
        &mut self,
        frame: &mut Frame,
        junction: &super::Junction,
        counted: u64,
        all: bool,
    ) -> Flow<bool> {
        let mut read = 0;
        for compare in &junction.compares {
            let [lhs, rhs] = compare.operands;
            let (Some(x), Some(y)) = (self.int_of(frame, lhs), self.int_of(frame, rhs)) else {
                break;
            };
            read += 1;
            if compare.op.compare(x, y) != all {
                self.tick_n(counted + 3 * read as u64)?;
                return Ok(!all);
            }
        }
        self.tick_n(counted + 3 * read as u64)?;
        self.conditions(frame, &junction.operands[read..], all)
    }

    fn mismatch(&self, expected: &str, found: &str, pos: Position) -> Error {
        EvalAltResult::ErrorMismatchDataType(
            self.engine.map_type_name(expected).into(),
            found.into(),
            pos,
        )
        .into()
    }

    fn for_loop(&mut self, frame: &mut Frame, for_loop: &ForLoop) -> Flow<Dynamic> {
        // An array the loop cannot change is iterated where it is, each item copied as its
        // round comes (Rhai copies the whole array first: the items are the same).
        match &for_loop.iterable {
            Expr::Constant(_, value, from_host)
                if value.is_array() && !value.is_shared() && !(frame.top && *from_host) =>
            {
                // The constant's value when the script loaded, which nothing changes.
                self.tick(Position::NONE)?;
                if let Some(mut items) = for_loop
                    .items
                    .as_ref()
                    .and_then(|i| i.try_borrow_mut().ok())
                {
                    return self.lent_rounds(frame, for_loop, &mut items);
                }
                let array = value.read_lock::<Array>().expect("an array");
                return self.rounds(frame, for_loop, |_, k| array.get(k).map(plain::copy));
            }
            // An array literal of constants (`for d in [-1, 0, 1]`): its items copied as their
            // rounds come, rather than the whole array first.
            Expr::Value(value) if value.is_array() && !value.is_shared() => {
                self.tick(Position::NONE)?;
                let array = value.read_lock::<Array>().expect("an array");
                return self.rounds(frame, for_loop, |_, k| array.get(k).map(plain::copy));
            }
            Expr::Local(slot) if for_loop.stable => {
                let i = frame.index(*slot);
                let value = &frame.values[i];
                if value.is_array() && !value.is_shared() {
                    self.tick(Position::NONE)?;
                    if for_loop.lend {
                        // The body never reads the variable: its array is taken out of the
                        // frame while the loop lends its items, then put back.
                        let mut iterable = std::mem::take(&mut frame.values[i]);
                        let result = match iterable.write_lock::<Array>() {
                            Some(mut items) => self.lent_rounds(frame, for_loop, &mut items),
                            None => Ok(Dynamic::UNIT),
                        };
                        frame.values[i] = iterable;
                        return result;
                    }
                    return self.rounds(frame, for_loop, |frame, k| {
                        let array = frame.values[i].read_lock::<Array>()?;
                        array.get(k).map(plain::copy)
                    });
                }
            }
            _ => (),
        }
        // A range of integers where they are (`0..n`): iterated without making its value.
        if let Expr::Binary { op, args, .. } = &for_loop.iterable {
            let range = matches!(op, IntOp::ExclusiveRange | IntOp::InclusiveRange);
            if let Some([from, to]) = args.ints.filter(|_| range) {
                if let (Some(x), Some(y)) = (self.int_of(frame, from), self.int_of(frame, to)) {
                    // The iterable's operation and those of reading its operands.
                    self.tick_n(3)?;
                    return if *op == IntOp::ExclusiveRange {
                        let mut items = x..y;
                        self.rounds(frame, for_loop, |_, _| items.next().map(Dynamic::from_int))
                    } else {
                        let mut items = x..=y;
                        self.rounds(frame, for_loop, |_, _| items.next().map(Dynamic::from_int))
                    };
                }
            }
        }
        let iterable = self.expr(frame, &for_loop.iterable)?;
        if iterable.is_array() {
            let mut items = iterable.into_array().unwrap_or_default().into_iter();
            self.rounds(frame, for_loop, |_, _| items.next())
        } else if iterable.is::<Range<INT>>() {
            let mut items = iterable.cast::<Range<INT>>();
            self.rounds(frame, for_loop, |_, _| items.next().map(Dynamic::from_int))
        } else if iterable.is::<RangeInclusive<INT>>() {
            let mut items = iterable.cast::<RangeInclusive<INT>>();
            self.rounds(frame, for_loop, |_, _| items.next().map(Dynamic::from_int))
        } else {
            // Strings, native types' iterators: Rhai runs the loop over the value.
            let mut stmt = for_loop.rhai.expr.clone();
            if let RhaiExpr::Stmt(block) = &mut stmt {
                if let Some(rhai::Stmt::For(parts, ..)) = block.statements_mut().first_mut() {
                    let pos = parts.2.expr.position();
                    parts.2.expr = RhaiExpr::DynamicConstant(Box::new(iterable), pos);
                }
            }
            let result = self.fallback(frame, &stmt, &for_loop.rhai.names);
            // Rhai counted the statement and the iterable, a literal: both counted already.
            self.set_operations(self.global.num_operations.saturating_sub(2));
            if for_loop.shares {
                self.unshare_all(frame);
            }
            result
        }
    }

    /// The rounds of `for_loop`, over the items `next` gives (with the frame and the round's
    /// number) until it gives none.
    fn rounds(
        &mut self,
        frame: &mut Frame,
        for_loop: &ForLoop,
        mut next: impl FnMut(&Frame, usize) -> Option<Dynamic>,
    ) -> Flow<Dynamic> {
        let (mark, var) = loop_variables(frame, for_loop);
        let mut result = Ok(Dynamic::UNIT);
        let mut index: usize = 0;
        while let Some(value) = next(frame, index) {
            next_round(frame, for_loop, mark, index);
            index += 1;
            plain::put(&mut frame.values[var], value);
            if let Some(end) = ended(self.round(frame, for_loop)) {
                result = end;
                break;
            }
        }
        frame.truncate(mark);
        result
    }

    /// The rounds of `for_loop` (which lends its items, see [`ForLoop::lend`]) over `items`:
    /// each item is moved into the loop's variable for its round and put back after it, as
    /// the body, which never changes the variable, leaves it. A `return` of the variable
    /// itself moves it out of the frame (see [`Expr::Returned`]): its copy is put back.
    fn lent_rounds(
        &mut self,
        frame: &mut Frame,
        for_loop: &ForLoop,
        items: &mut Array,
    ) -> Flow<Dynamic> {
        let (mark, var) = loop_variables(frame, for_loop);
        let mut result = Ok(Dynamic::UNIT);
        for (index, item) in items.iter_mut().enumerate() {
            next_round(frame, for_loop, mark, index);
            let unit = item.is_unit();
            std::mem::swap(&mut frame.values[var], item);
            let round = self.round(frame, for_loop);
            if let Err(Stop::Return(value)) = &round {
                if !unit && frame.values[var].is_unit() {
                    frame.values[var] = value.clone();
                }
            }
            std::mem::swap(&mut frame.values[var], item);
            if let Some(end) = ended(round) {
                result = end;
                break;
            }
        }
        frame.truncate(mark);
        result
    }

    /// One round of `for_loop`'s body, its variables set.
    #[inline(always)]
    fn round(&mut self, frame: &mut Frame, for_loop: &ForLoop) -> Flow<()> {
        if for_loop.body.is_empty() {
            // Rhai counts a round of `for` only when its body is empty.
            self.tick(Position::NONE).map_err(Stop::from)
        } else {
            self.run(frame, &for_loop.body)
        }
    }

    /// The value of `expr`.
    #[inline]
    fn expr(&mut self, frame: &mut Frame, expr: &Expr) -> Flow<Dynamic> {
        // Rhai counts an operation for every expression it evaluates.
        self.tick(Position::NONE)?;
        self.eval(frame, expr)
    }

    /// The value of `expr`, whose own operation is counted already. The commonest kinds go
    /// straight where they are computed; the others through [`Self::eval_other`].
    #[inline(always)]
    fn eval(&mut self, frame: &mut Frame, expr: &Expr) -> Flow<Dynamic> {
        match expr {
            Expr::Chain(chain) => self.chain(frame, chain, None, None),
            Expr::Local(slot) => Ok(plain::copy(&frame.values[frame.index(*slot)])),
            Expr::Call(call) => self.call_by_name(frame, call),
            _ => self.eval_other(frame, expr),
        }
    }

    /// The array `[items]` (each with where it is), made as Rhai makes it: each item
    /// evaluated in turn, the array's size checked as it grows. With its sizes as
    /// [`data_sizes`] measures them, which a push of it needs (see
    /// [`Self::push_called`]): they are known here without measuring it again.
    #[inline(always)]
    fn array_made(
        &mut self,
        frame: &mut Frame,
        items: &[(Expr, Position)],
    ) -> Flow<(Dynamic, (usize, usize, usize))> {
        let mut array = Array::with_capacity(items.len());
        let mut sizes = (0, 0, 0);
        for (item, pos) in items {
            let value = self.expr(frame, item)?;
            if has_no_size(&value) {
                sizes.0 += 1;
            } else {
                let (a, m, s) = data_sizes(&value);
                sizes = (sizes.0 + a + 1, sizes.1 + m, sizes.2 + s);
            }
            self.check_sizes(sizes, *pos)?;
            array.push(value);
        }
        Ok((Dynamic::from_array(array), sizes))
    }

    /// [`Self::eval`] of any expression.
    fn eval_other(&mut self, frame: &mut Frame, expr: &Expr) -> Flow<Dynamic> {
        match expr {
            Expr::Value(value) => Ok(plain::copy(value)),
            Expr::Local(slot) => Ok(plain::copy(&frame.values[frame.index(*slot)])),
            Expr::Returned(slot) => {
                let i = frame.index(*slot);
                // A lent state stays in the frame for the host (see `call_lending`); Rhai's
                // copy of a constant is not one.
                if (i == 0 && self.listing(frame))
                    || self.lent_unchanged(frame, i)
                    || frame.values[i].is_read_only()
                {
                    Ok(frame.values[i].clone())
                } else {
                    frame.touch(i);
                    Ok(std::mem::take(&mut frame.values[i]))
                }
            }
            Expr::Constant(name, value, from_host) => {
                Ok(self.constant(frame, name, value, *from_host))
            }
            Expr::Array(items) => {
                if items.is_empty() {
                    if let Some(spare) = self.spare_array.take() {
                        return Ok(spare);
                    }
                }
                self.array_made(frame, items).map(|(array, _)| array)
            }
            Expr::Map(map) => {
                let mut result = map.template.clone();
                let entries = &map.entries;
                let mut sizes = (0, 0, 0);
                for (key, value, pos) in entries {
                    let value = self.expr(frame, value)?;
                    let (a, m, s) = data_sizes(&value);
                    sizes = (sizes.0 + a, sizes.1 + m + 1, sizes.2 + s);
                    self.check_sizes(sizes, *pos)?;
                    result.insert(key.clone(), value);
                }
                Ok(Dynamic::from_map(result))
            }
            Expr::And(junction) if junction.compares.is_empty() => {
                Ok(self.conditions(frame, &junction.operands, true)?.into())
            }
            Expr::Or(junction) if junction.compares.is_empty() => {
                Ok(self.conditions(frame, &junction.operands, false)?.into())
            }
            Expr::And(junction) => Ok(self.junction(frame, junction, 0, true)?.into()),
            Expr::Or(junction) => Ok(self.junction(frame, junction, 0, false)?.into()),
            Expr::Unary {
                token,
                name,
                arg,
                pos,
                site,
            } => {
                let mut value = self.expr(frame, arg)?;
                match token {
                    Token::Bang if value.is_bool() => {
                        Ok((!value.as_bool().unwrap_or_default()).into())
                    }
                    // Rhai negates a float in place too.
                    Token::Minus | Token::UnaryMinus if value.is_float() => {
                        Ok((-value.as_float().unwrap_or_default()).into())
                    }
                    Token::Minus | Token::UnaryMinus if value.is_int() => {
                        match value.as_int().unwrap_or_default().checked_neg() {
                            Some(n) => Ok(n.into()),
                            None => Err(Stop::Error(
                                EvalAltResult::ErrorArithmetic("integer overflow".into(), *pos)
                                    .into(),
                            )),
                        }
                    }
                    _ => Ok(self.native(site, name, false, &mut [&mut value], *pos, List::No)?),
                }
            }
            Expr::Binary { op, args, .. } => {
                // Two integers where they are: computed without a copy.
                if let Some([lhs, rhs]) = args.ints {
                    if let (Some(x), Some(y)) = (self.int_of(frame, lhs), self.int_of(frame, rhs)) {
                        if let Some(value) = op.apply(x, y) {
                            // The operations of reading the operands.
                            self.tick_n(2)?;
                            return Ok(value);
                        }
                    }
                }
                if args.int_reads {
                    if let Some(done) = self.int_reads(frame, *op, &args.args) {
                        return done;
                    }
                }
                let [lhs, rhs] = &args.args;
                if let Some(y) = self.int_at(frame, rhs) {
                    if let Some(value) = self.int_at(frame, lhs).and_then(|x| op.apply(x, y)) {
                        // The operations of reading the operands.
                        self.tick_n(2)?;
                        return Ok(value);
                    }
                }
                self.binary(frame, expr, None)
            }
            Expr::Call(call) => self.call_by_name(frame, call),
            Expr::Imported(call) => self.imported(frame, call),
            Expr::PointerCall(call) => self.pointer_call(frame, call),
            Expr::Chain(chain) => self.chain(frame, chain, None, None),
            Expr::Block(block) => self.block(frame, block),
            Expr::Share(slots, constants) => {
                self.share(frame, slots);
                if let Some(constants) = constants {
                    // Rhai counts the statement it runs.
                    self.untick();
                    let _ = self.fallback(frame, &constants.expr, &constants.names)?;
                }
                Ok(Dynamic::UNIT)
            }
            Expr::Unshare(unshare) => {
                let (chain, slots) = &**unshare;
                let value = self.eval(frame, chain);
                self.unshare(frame, slots);
                value
            }
            Expr::Curry(curry) => {
                let (ptr, slots) = &**curry;
                // Rhai counts the pointer's literal, then each variable read.
                self.tick(Position::NONE)?;
                let mut ptr = ptr.clone().cast::<rhai::FnPtr>();
                for &slot in slots {
                    self.tick(Position::NONE)?;
                    ptr.add_curry(frame.values[frame.index(slot)].clone());
                }
                Ok(ptr.into())
            }
            Expr::Rhai(fallback) => {
                // Rhai counts the expression it evaluates, but for a block, which it runs
                // without counting.
                if !matches!(fallback.expr, RhaiExpr::Stmt(..)) {
                    self.untick();
                }
                self.fallback(frame, &fallback.expr, &fallback.names)
            }
        }
    }

    /// The value of the binary operator `expr` (its operation counted already), whose left
    /// operand may be `computed` already (counted too: the right one is then read where it
    /// is).
    #[inline(always)]
    fn binary(
        &mut self,
        frame: &mut Frame,
        expr: &Expr,
        computed: Option<Dynamic>,
    ) -> Flow<Dynamic> {
        let Expr::Binary {
            token,
            op,
            name,
            args,
            pos,
            site,
        } = expr
        else {
            unreachable!("a binary operator")
        };
        let [lhs, rhs] = &args.args;
        let (mut lhs, mut rhs) = if self.peek(frame, rhs).is_some() {
            // A variable, a constant or a literal on the right (and, if it is one
            // too, on the left) is read where it is: most operators need no copy.
            let lhs = match (computed, self.peek(frame, lhs)) {
                (Some(value), _) => Some(value),
                (None, Some(_)) => None,
                (None, None) => Some(self.expr(frame, lhs)?),
            };
            let left = match &lhs {
                Some(value) => Some(value),
                None => self.peek(frame, &args.args[0]),
            };
            let computed = match (left, self.peek(frame, rhs)) {
                (Some(l), Some(r)) => values_binary(*op, token, l, r),
                _ => None,
            };
            // The operations of reading the operands.
            self.tick_n(if lhs.is_none() { 2 } else { 1 })?;
            if let Some(value) = computed {
                return Ok(value);
            }
            let copy = |at: &Expr| self.peek(frame, at).cloned().unwrap_or_default();
            (lhs.unwrap_or_else(|| copy(&args.args[0])), copy(rhs))
        } else {
            let lhs = match computed {
                Some(value) => value,
                None => self.expr(frame, lhs)?,
            };
            (lhs, self.expr(frame, rhs)?)
        };
        match values_binary(*op, token, &lhs, &rhs) {
            Some(value) => {
                plain::discard(lhs);
                plain::discard(rhs);
                Ok(value)
            }
            None if !lhs.is_variant() && !rhs.is_variant() => {
                Ok(self.rhai_operator(&args.rhai, lhs, rhs, *pos)?)
            }
            None => {
                Ok(self.native(site, name, false, &mut [&mut lhs, &mut rhs], *pos, List::No)?)
            }
        }
    }

    /// The integer `expr` is where it is (see [`Self::peek`]), if it is one.
    #[inline(always)]
    fn int_at(&self, frame: &Frame, expr: &Expr) -> Option<INT> {
        int_in(self.peek(frame, expr)?)
    }

    /// The value of `expr` where it is, if it is a local variable, a literal or a script
    /// constant that nothing changes: what evaluating it would copy (it counts one
    /// operation, not counted here).
    #[inline(always)]
    fn peek<'f>(&self, frame: &'f Frame, expr: &'f Expr) -> Option<&'f Dynamic> {
        match expr {
            Expr::Local(slot) => Some(&frame.values[frame.index(*slot)]),
            Expr::Value(value) => Some(value),
            Expr::Constant(_, value, from_host) if !(frame.top && *from_host) => Some(value),
            _ => None,
        }
    }

    /// The value of the script constant `name` (`loaded`: its value when the script loaded):
    /// called from the host, Rhai reads it in the host's scope, where a native method may have
    /// changed it (when something Rhai runs may: `from_host`); called from a script, in a
    /// module, where nothing changes it.
    fn constant(&self, frame: &Frame, name: &str, loaded: &Dynamic, from_host: bool) -> Dynamic {
        if frame.top && from_host {
            if let Some(value) = self.constants.get(name) {
                return plain::copy(value);
            }
        }
        plain::copy(loaded)
    }

    /// Checks `value` against Rhai's limits on data sizes (integers, booleans, `()` and native
    /// values have no size: they are let through without a look).
    #[inline]
    fn check_size_of(&self, value: &Dynamic, pos: Position) -> Result<(), Error> {
        if has_no_size(value) {
            return Ok(());
        }
        self.check_sizes(data_sizes(value), pos)
    }

    /// Rhai's limits on the size of strings, arrays and maps.
    #[inline]
    fn check_sizes(&self, (a, m, s): (usize, usize, usize), pos: Position) -> Result<(), Error> {
        let (max_a, max_m, max_s) = self.max_sizes;
        if a <= max_a && m <= max_m && s <= max_s {
            return Ok(());
        }
        Err(too_large(s > max_s, a > max_a, pos))
    }

    /// Calls a native function from call site `site`: directly if it is one of the runtime's
    /// (found by its arguments' types, remembered at the site), else through Rhai; with `list`,
    /// its list form where it has one.
    fn native(
        &mut self,
        site: &Site,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
        list: List,
    ) -> Result<Dynamic, Error> {
        // The commonest call: a function of the runtime's, for the types the site remembers.
        if list == List::No {
            if let Some(r) = &*site.0.borrow() {
                if let Some(func) = r.func.as_ref().filter(|_| same_types(&r.types, args)) {
                    if let Some(result) = self.direct(func, r.typed.as_ref(), is_ref_mut, args, pos)
                    {
                        return result;
                    }
                }
            }
        }
        // A function that takes no compact list gets the arrays the lists stand for.
        if !self.resolve(site, name, args) && materialise(args.iter_mut().map(|a| &mut **a)) {
            self.resolve(site, name, args);
        }
        let resolved = site.0.borrow();
        let list_form = resolved
            .as_ref()
            .and_then(|r| r.list.as_ref())
            .filter(|_| list != List::No);
        let direct = match list_form {
            Some(func) => self
                .direct(func, None, is_ref_mut, args, pos)
                .map(|result| {
                    // Rhai's limits count the array the list stands for.
                    let value = result?;
                    let items = value
                        .read_lock::<NativeList>()
                        .map_or(0, |l| l.array_items());
                    self.check_sizes((items, 0, 0), pos)?;
                    Ok(value)
                }),
            // Asked for a list, a function that may change its first argument gets a copy of
            // it: the caller counts on it not changing (see `call_lending`).
            None if list == List::ForHost
                && !args.is_empty()
                && !resolved.as_ref().is_some_and(|r| r.reads_only) =>
            {
                drop(resolved);
                return with_first_copied(args, |copied| {
                    self.native(site, name, is_ref_mut, copied, pos, List::No)
                });
            }
            None => resolved.as_ref().and_then(|r| {
                let func = r.func.as_ref()?;
                self.direct(func, r.typed.as_ref(), is_ref_mut, args, pos)
            }),
        };
        drop(resolved);
        match direct {
            Some(result) => result,
            None => match self.array_builtin(name, is_ref_mut, args, pos) {
                Some(result) => result,
                None => match self.closure_method(name, is_ref_mut, args, pos) {
                    Some(result) => result,
                    None => self.rhai_native(name, is_ref_mut, args, pos),
                },
            },
        }
    }

    /// Finds the native function call site `site` reaches with `args` (remembered at the site
    /// for the same argument types); whether the runtime's table has it (else Rhai finds it).
    #[inline]
    fn resolve(&self, site: &Site, name: &str, args: &[&mut Dynamic]) -> bool {
        if let Some(r) = &*site.0.borrow() {
            if same_types(&r.types, args) {
                return r.func.is_some();
            }
        }
        self.resolve_anew(site, name, args)
    }

    /// [`Self::resolve`] when the site's remembered types are not `args`'.
    #[cold]
    fn resolve_anew(&self, site: &Site, name: &str, args: &[&mut Dynamic]) -> bool {
        let types: StaticVec<TypeId> = args.iter().map(|a| Dynamic::type_id(a)).collect();
        let func = self.natives.get(name, &types).cloned();
        let found = func.is_some();
        let natives = self.natives;
        *site.0.borrow_mut() = Some(Resolved {
            list: natives.get_list(name, &types).cloned(),
            reads_only: natives.is_reader(name, &types),
            typed: natives.get_typed(name, &types),
            pair: natives.get_pair(name, &types).cloned(),
            pair_taker: natives.get_pair_taker(name, &types),
            pair_reader: natives.get_pair_reader(name, &types),
            pair_split: match types.as_slice() {
                [_, arg] if natives.get_pair_reader(name, &types).is_some() => {
                    natives.get_pair_split(*arg)
                }
                _ => None,
            },
            field: natives.get_field_reader(name, &types),
            method: func.as_ref().is_some_and(RhaiFunc::is_method),
            context: func.as_ref().is_some_and(RhaiFunc::has_context),
            pure: func.as_ref().is_some_and(RhaiFunc::is_pure),
            types,
            func,
        });
        found
    }

    /// Rhai's own `len` and `is_empty` (as methods or properties) and `push` on an array, done
    /// in place as Rhai's array package does them, with the checks Rhai makes around a native
    /// call; `None` for anything else, which Rhai then calls.
    fn array_builtin(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Option<Result<Dynamic, Error>> {
        let (first, rest) = args.split_first_mut()?;
        if !first.is_array() || first.is_shared() {
            return None;
        }
        let push = match (name, &*rest) {
            ("len" | "get$len" | "is_empty" | "get$is_empty", []) => false,
            // Rhai refuses to push onto a constant, in its own words.
            ("push", [item]) if !first.is_read_only() && !item.is_shared() => true,
            _ => return None,
        };
        // Rhai counts an operation for the call.
        if let Err(err) = self.tick(pos) {
            return Some(Err(err));
        }
        // An array that is not shared is always at hand.
        let result = if push {
            let item = std::mem::take(&mut *rest[0]);
            first.write_lock::<Array>().expect("an array").push(item);
            Dynamic::UNIT
        } else {
            let len = first.read_lock::<Array>().expect("an array").len();
            match name {
                "len" | "get$len" => Dynamic::from_int(INT::try_from(len).unwrap_or(INT::MAX)),
                _ => Dynamic::from_bool(len == 0),
            }
        };
        if is_ref_mut {
            if let Err(err) = self.check_size_of(first, pos) {
                return Some(Err(with_position_if_none(err, pos)));
            }
        }
        Some(Ok(result))
    }

    /// Calls `func` (through its plain form `typed`, where it has one) as Rhai's native call
    /// would (the same checks around it), or `None` when Rhai must: a function that needs Rhai's
    /// context, or one that would change a constant (Rhai words that error).
    fn direct(
        &mut self,
        func: &RhaiFunc,
        typed: Option<&Typed>,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Option<Result<Dynamic, Error>> {
        let call = func.get_native_fn()?;
        if !direct_call(func, args) {
            return None;
        }
        if let Err(err) = self.tick(pos) {
            return Some(Err(err));
        }
        Some(self.counted_native(&**call, func.is_method(), typed, is_ref_mut, args, pos))
    }

    /// The native call of `call` (a `method`, taking its first argument by reference, or not;
    /// through its plain form `typed`, where it has one) with `args`, its operation counted
    /// already, with the checks Rhai makes after it.
    #[inline(always)]
    fn counted_native<F>(
        &self,
        call: &F,
        method: bool,
        typed: Option<&Typed>,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Result<Dynamic, Error>
    where
        F: Fn(Option<NativeCallContext>, &mut [&mut Dynamic]) -> Result<Dynamic, Error> + ?Sized,
    {
        // A plain form reads its arguments where they are (changing none it takes by value).
        let result = match typed.and_then(|typed| typed(args)) {
            Some(result) => result,
            // A function that takes its first argument by value gets a copy of a variable.
            None if is_ref_mut && !method && !args.is_empty() => {
                with_first_copied(args, |copied| call(None, copied))
            }
            None => call(None, args),
        };
        let changed = if is_ref_mut { args.first() } else { None };
        self.checked_native_result(result, changed.map(|a| &**a), pos)
    }

    /// `result` of a native call at `pos` with the checks Rhai makes after one: the size of its
    /// value and of the variable it may have `changed`; an error without a position gets `pos`.
    #[inline(always)]
    pub(super) fn checked_native_result(
        &self,
        result: Result<Dynamic, Error>,
        changed: Option<&Dynamic>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        // The commonest: values without a size (an integer read, a native value changed).
        match &result {
            Ok(value) if has_no_size(value) && changed.is_none_or(has_no_size) => result,
            _ => self.checked_sizes(result, changed, pos),
        }
    }

    /// [`Self::checked_native_result`] of a value or a change with a size, or of an error.
    #[inline(never)]
    fn checked_sizes(
        &self,
        result: Result<Dynamic, Error>,
        changed: Option<&Dynamic>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        result
            .and_then(|value| {
                self.check_size_of(&value, pos)?;
                if let Some(changed) = changed {
                    self.check_size_of(changed, pos)?;
                }
                Ok(value)
            })
            .map_err(|err| with_position_if_none(err, pos))
    }

    /// Calls a native function through Rhai's function resolution.
    fn rhai_native(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Result<Dynamic, Error> {
        EvalContext::new(self.engine, self.global, self.caches, &mut self.empty, None)
            .call_native_fn_raw(name, is_ref_mut, args)
            .map_err(|err| with_position_if_none(err, pos))
    }

    /// Rhai's evaluation of the operator `call` on the values `lhs` and `rhs` (neither a
    /// native value): its own operators where it has one for their types (counting no
    /// operation), else the registered function (counting one).
    fn rhai_operator(
        &mut self,
        call: &rhai::FnCallExpr,
        lhs: Dynamic,
        rhs: Dynamic,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let mut call = call.clone();
        let args: StaticVec<RhaiExpr> = [lhs, rhs]
            .into_iter()
            .zip(&call.args)
            .map(|(value, arg)| RhaiExpr::DynamicConstant(Box::new(value), arg.position()))
            .collect();
        call.args = args.into_iter().collect();
        let result = self.detached(&RhaiExpr::FnCall(Box::new(call), pos));
        // Rhai counted the call's expression (counted already) and its two literal operands.
        self.set_operations(self.global.num_operations.saturating_sub(3));
        result
    }

    /// Calls a script function (or, with `method`, a method) the walker does not run.
    fn rhai_call(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        method: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Result<Dynamic, Error> {
        EvalContext::new(self.engine, self.global, self.caches, &mut self.empty, None)
            .call_fn_raw(name, is_ref_mut, method, args)
            .map_err(|err| with_position_if_none(err, pos))
    }

    fn call_by_name(&mut self, frame: &mut Frame, call: &Call) -> Flow<Dynamic> {
        let program = self.program;
        if let Callee::Script(i) = call.callee {
            if let Some(function) = &program.functions[i] {
                return self.call_script(frame, call, function);
            }
        }
        let list = if call.returned && self.listing(frame) {
            List::ForHost
        } else {
            List::No
        };
        if call.pure_from == 0 && matches!(call.callee, Callee::Native) && list == List::No {
            if let Some(made) = self.pair_made(frame, call) {
                return made;
            }
            if let Some(result) = self.plain_native(frame, call) {
                return result;
            }
        }
        // Rhai evaluates the arguments after the first before it looks up a first argument
        // that is a variable (which it passes by reference).
        // It counts that variable first.
        let skip = usize::from(call.first_local.is_some());
        if call.first_local.is_some() {
            self.tick(call.pos)?;
        }
        let mut values: StaticVec<Dynamic> = StaticVec::new();
        for arg in &call.args[skip..] {
            values.push(self.expr(frame, arg)?);
        }
        match (call.callee, call.first_local) {
            (Callee::Script(_), first) => {
                if let Some(slot) = first {
                    values.insert(0, self.first_argument(frame, call, slot));
                }
                self.unlowered(&call.name, values, call.pos)
            }
            (Callee::Native, _) => self.call_native(frame, call, values, list),
        }
    }

    /// [`Self::call_by_name`] of a native function of two arguments, each a local variable or
    /// a literal (`cell(x, y)`), where the call site's function for their types (as they are)
    /// is one of the runtime's with a plain form, pure and needing no context: the arguments
    /// are read where they are rather than evaluated one by one into a list, and the function
    /// is called as [`Self::direct`] calls it. Counted as Rhai counts the call (the first
    /// argument, at the call if it is a variable, the second, then the call); a first argument
    /// that is a variable is passed by reference, the others copied, as [`Self::call_native`]
    /// passes them. `None`, having counted nothing, where that does not apply.
    #[inline(always)]
    fn plain_native(&mut self, frame: &mut Frame, call: &Call) -> Option<Flow<Dynamic>> {
        let resolved = call.site.0.borrow();
        let r = resolved.as_ref()?;
        let (func, typed) = (r.func.as_ref()?, r.typed.as_ref()?);
        let ([a, b], [ta, tb]) = (call.args.as_slice(), r.types.as_slice()) else {
            return None;
        };
        if !r.pure || r.context {
            return None;
        }
        let native_fn = func.get_native_fn()?;
        let (va, vb) = (self.peek(frame, a)?, self.peek(frame, b)?);
        if va.type_id() != *ta || vb.type_id() != *tb {
            return None;
        }
        let mut second = plain::copy(vb);
        // The first argument: the variable's index, else a copy of the literal.
        let mut first = match call.first_local {
            Some(slot) => Ok(frame.index(slot)),
            None => Err(plain::copy(va)),
        };
        let first_pos = if first.is_ok() {
            call.pos
        } else {
            Position::NONE
        };
        if let Err(err) = self.tick_3(first_pos, call.pos) {
            plain::discard(second);
            if let Err(copy) = first {
                plain::discard(copy);
            }
            return Some(Err(err.into()));
        }
        if let Ok(i) = first {
            self.before_change(frame, i);
            frame.touch(i);
        }
        let method = func.is_method();
        let mut called = |first: &mut Dynamic, by_ref: bool| {
            let args = &mut [first, &mut second];
            self.counted_native(&**native_fn, method, Some(typed), by_ref, args, call.pos)
        };
        let result = match &mut first {
            Ok(i) => {
                let target = &mut frame.values[*i];
                if target.is_read_only() {
                    called(&mut target.clone(), false)
                } else {
                    called(target, true)
                }
            }
            Err(copy) => called(copy, false),
        };
        plain::discard(second);
        if let Err(copy) = first {
            plain::discard(copy);
        }
        Some(result.map_err(Stop::from))
    }

    /// The call `call` of the script's lowered `function`, its arguments evaluated as Rhai
    /// evaluates them (a first argument that is a variable counted first, read last) straight
    /// into the frame the function runs in: no list of them is made and then copied. A
    /// function whose body is one expression runs in the caller's frame (see
    /// [`Self::call_inline`]).
    ///
    /// A variable read once the arguments are evaluated (the first argument, and the
    /// variables and variables' properties that the arguments after them leave alone, see
    /// [`Call::late`]) is lent rather than copied where its value is worth it (see
    /// [`later::lendable`]): moved into the callee's frame and back after the call
    /// (`side(state.pits, 0)` does not copy the array). Rhai gives the function a copy, which
    /// it may change: before the callee changes a lent parameter (or moves it out), it is
    /// copied for the caller ([`Self::before_change`]), and that copy comes back.
    #[inline(always)]
    fn call_script(
        &mut self,
        frame: &mut Frame,
        call: &Call,
        function: &Function,
    ) -> Flow<Dynamic> {
        let mut values = self.frames.pop().unwrap_or_default();
        let mut later = Later::default();
        // A call whose results are reused lends as before (see `memo.rs`, which reads the
        // arguments): arrays only, from the last arguments that are variables or literals.
        let memo = function.memo.get().is_some() && self.charges.is_some();
        if let Err(stop) = self.script_arguments(frame, call, memo, &mut values, &mut later) {
            // The properties taken out so far go back.
            for (p, at, prop) in later.lent() {
                let value = std::mem::take(&mut values[p]);
                later::put_back(&mut frame.values[at], prop, &call.args[p], value);
            }
            values.clear();
            self.frames.push(values);
            return Err(stop);
        }
        let lent = if later.is_empty() {
            0
        } else {
            later.lend(frame, &mut values)
        };
        let mark = frame.values.len();
        if let Some(body) = inline_body(function).filter(|_| mark + function.arity <= 64) {
            return self.call_inline(frame, function, body, values, (later, lent), call);
        }
        if lent == 0 {
            values.reserve(function.frame_size);
            return Ok(self.run_in(function, values, call.pos, false)?);
        }
        let loans = self.loans.len();
        let mut callee = Frame::new(values, false, lent);
        let result = self.run_function(function, &mut callee, call.pos);
        for (p, at, prop) in later.lent() {
            let value = self.lent_back(&mut callee, p, loans);
            later::put_back(&mut frame.values[at], prop, &call.args[p], value);
        }
        self.loans.truncate(loans);
        plain::truncate(&mut callee.values, 0);
        self.frames.push(callee.values);
        Ok(result?)
    }

    /// Evaluates the arguments of `call` into `values`, as Rhai does (a first argument that is
    /// a variable counted first, read last); the variables read last that may be lent are
    /// noted in `later`, their places left empty, and the variables' properties that may be
    /// lent are taken out of their maps, noted in `later` (`memo`: only arrays of variables
    /// from [`Call::pure_from`] on are lent, as the memo reads the arguments).
    #[inline(always)]
    fn script_arguments(
        &mut self,
        frame: &mut Frame,
        call: &Call,
        memo: bool,
        values: &mut Vec<Dynamic>,
        later: &mut Later,
    ) -> Result<(), Stop> {
        if call.first_local.is_some() {
            self.tick(call.pos)?;
        }
        let skip = usize::from(call.first_local.is_some());
        if skip == 1 {
            // The first argument's place, filled once the others are evaluated.
            values.push(Dynamic::UNIT);
        }
        for (k, arg) in call.args.iter().enumerate().skip(skip) {
            let late = k < 64 && call.late & (1 << k) != 0;
            let value = match arg {
                Expr::Local(slot) => {
                    self.tick(Position::NONE)?;
                    let at = frame.index(*slot);
                    let value = &frame.values[at];
                    let late = late && (!memo || (k >= call.pure_from && value.is_array()));
                    if late && later::lendable(value) && later.add(k, at) {
                        Dynamic::UNIT
                    } else {
                        plain::copy(value)
                    }
                }
                Expr::Value(value) => {
                    self.tick(Position::NONE)?;
                    plain::copy(value)
                }
                Expr::Chain(chain) if late && !memo => {
                    match self.taken_property(frame, chain, k, later) {
                        Some(taken) => taken?,
                        None => self.expr(frame, arg)?,
                    }
                }
                _ => self.expr(frame, arg)?,
            };
            values.push(value);
        }
        if let Some(slot) = call.first_local {
            let at = frame.index(slot);
            let lent = !call.take_first
                && (!memo || frame.values[at].is_array())
                && later::lendable(&frame.values[at])
                && later.add(0, at);
            if !lent {
                plain::put(&mut values[0], self.first_argument(frame, call, slot));
            }
        }
        Ok(())
    }

    /// Argument `k` of a call, `chain`, a local variable's property (`state.board`) that the
    /// arguments after it neither read nor change (see [`Call::late`]), read as
    /// `Runner::quick_chain` reads a map's property (counting the variable and the property's
    /// look-up) where the variable holds a map of its own (neither shared nor a constant's);
    /// a value worth lending ([`later::lendable`]) is taken out of the map rather than copied,
    /// to lend to the callee (noted in `later`, put back after the call). `None`, with nothing
    /// counted, where the variable holds no such map.
    #[inline(always)]
    fn taken_property(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        k: usize,
        later: &mut Later,
    ) -> Option<Flow<Dynamic>> {
        let (Root::Local(slot), [Step::Prop { name, .. }]) = (&chain.root, chain.steps.as_slice())
        else {
            return None;
        };
        let at = frame.index(*slot);
        let variable = &mut frame.values[at];
        if variable.is_shared() || variable.is_read_only() {
            return None;
        }
        let mut map = variable.write_lock::<Map>()?;
        let place = chain::property_mut(&mut map, name);
        let lend = place.as_deref().is_some_and(later::lendable) && later.has_room(k, at);
        if let Err(err) = self.tick_n(2) {
            return Some(Err(err.into()));
        }
        Some(Ok(match place {
            Some(place) if lend => {
                later.add_lent(k, at);
                std::mem::take(place)
            }
            Some(place) => plain::copy(place),
            None => Dynamic::UNIT,
        }))
    }

    /// The value lent to slot `i` of `frame`, to give back to the lender: where it is if it
    /// was not copied, else the copy made before it changed (among the copies from `loans`
    /// on).
    fn lent_back(&mut self, frame: &mut Frame, i: usize, loans: usize) -> Dynamic {
        let value = if self.lent_unchanged(frame, i) {
            frame.values.get_mut(i).map(std::mem::take)
        } else {
            let copy = self.loans[loans..].iter_mut().find(|(j, _)| *j == i);
            copy.map(|(_, copy)| std::mem::take(copy))
        };
        value.unwrap_or_default()
    }

    /// The call of `function`, whose body is the one expression `body` and which has no
    /// variables but its parameters (see [`inline_body`]), evaluated in the caller's `frame`:
    /// its arguments `values` (some `lent` by the caller, see [`Self::call_script`]) go on
    /// top of the caller's variables for the body, which reads them where the function's
    /// frame would have them (slots count from the frame's end), and end with it. What the
    /// call does around the body is done as [`Self::run_function`] does it.
    #[inline(always)]
    fn call_inline(
        &mut self,
        frame: &mut Frame,
        function: &Function,
        body: &Stmt,
        mut values: Vec<Dynamic>,
        (later, lent): (Later, u64),
        call: &Call,
    ) -> Flow<Dynamic> {
        let pos = call.pos;
        let mark = frame.values.len();
        frame.values.append(&mut values);
        self.frames.push(values);
        let top = std::mem::replace(&mut frame.top, false);
        if lent == 0 {
            let result = self.run_inline(function, frame, body, pos);
            frame.top = top;
            frame.truncate(mark);
            return Ok(result?);
        }
        let loans = self.loans.len();
        frame.lent.set(frame.lent.get() | (lent << mark));
        let result = self.run_inline(function, frame, body, pos);
        frame.top = top;
        for (p, at, prop) in later.lent() {
            let value = self.lent_back(frame, mark + p, loans);
            later::put_back(&mut frame.values[at], prop, &call.args[p], value);
        }
        self.loans.truncate(loans);
        // The caller's own lent parameters are below `mark`.
        frame.lent.set(frame.lent.get() & !(u64::MAX << mark));
        frame.truncate(mark);
        Ok(result?)
    }

    /// Runs `body`, the one statement of `function`, with its arguments on top of `frame`, as
    /// [`Self::run_function`] runs a function.
    #[inline(always)]
    fn run_inline(
        &mut self,
        function: &Function,
        frame: &mut Frame,
        body: &Stmt,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let caller_source = self.enter(pos)?;
        // As `stmts` runs the statement.
        let result = match body {
            Stmt::Expr(expr) => match self.tick_n(2) {
                Ok(()) => self.eval(frame, expr),
                Err(err) => Err(err.into()),
            },
            Stmt::Call(expr) => self.expr(frame, expr),
            _ => self.stmts(frame, &function.body),
        };
        self.leave(function, result, caller_source, pos)
    }

    /// The value of a script function call's first argument, the variable in `slot`, read
    /// once the other arguments are evaluated: handed over for `x = f(x, …)` (see
    /// [`Call::take_first`]), else copied. A constant stays: assigning the result to it fails
    /// after the call.
    fn first_argument(&mut self, frame: &mut Frame, call: &Call, slot: Slot) -> Dynamic {
        let at = frame.index(slot);
        frame.touch(at);
        if call.take_first && !frame.values[at].is_read_only() {
            self.before_change(frame, at);
            std::mem::take(&mut frame.values[at])
        } else {
            plain::copy(&frame.values[at])
        }
    }

    /// The native call `call` with the values of its arguments (but the first, where that is
    /// a variable passed by reference), counted already.
    fn call_native(
        &mut self,
        frame: &mut Frame,
        call: &Call,
        mut values: StaticVec<Dynamic>,
        list: List,
    ) -> Flow<Dynamic> {
        match call.first_local {
            Some(slot) => {
                let i = frame.index(slot);
                // A list form never changes its arguments (nor, called for one, the function).
                if list != List::ForHost {
                    self.before_change(frame, i);
                }
                frame.touch(i);
                let target = &mut frame.values[i];
                let mut copy;
                let (target, by_ref) = if target.is_read_only() {
                    copy = target.clone();
                    (&mut copy, false)
                } else {
                    (target, true)
                };
                let (site, name, pos) = (&call.site, &call.name, call.pos);
                Ok(with_args(target, &mut values, |args| {
                    self.native(site, name, by_ref, args, pos, list)
                })?)
            }
            None => {
                let mut args: StaticVec<&mut Dynamic> = values.iter_mut().collect();
                let (site, name, pos) = (&call.site, &call.name, call.pos);
                Ok(self.native(site, name, false, &mut args, pos, list)?)
            }
        }
    }

    /// Calls the script's function `name`, which the walker does not run (it was not
    /// lowered), with `args`, through Rhai.
    fn unlowered(
        &mut self,
        name: &str,
        mut args: StaticVec<Dynamic>,
        pos: Position,
    ) -> Flow<Dynamic> {
        let mut refs: StaticVec<&mut Dynamic> = args.iter_mut().collect();
        Ok(self.rhai_call(name, false, false, &mut refs, pos)?)
    }

    /// Lets Rhai evaluate `expr` in this frame, whose variables are `names`: they go into a
    /// scope laid out as Rhai's own (below them, for a call from the host, the script's
    /// constants), and come back changed.
    fn fallback(
        &mut self,
        frame: &mut Frame,
        expr: &RhaiExpr,
        names: &[ImmutableString],
    ) -> Flow<Dynamic> {
        // The function's variables are the frame's last (a function evaluated in its caller's
        // frame, see `call_inline`, has its caller's below them).
        debug_assert!(names.len() <= frame.values.len());
        let from = frame.values.len().saturating_sub(names.len());
        self.before_changes(frame, from);
        frame.measured = None;
        let mut scope = if frame.top {
            std::mem::take(self.constants)
        } else {
            Scope::new()
        };
        let base = scope.len();
        for (name, value) in names.iter().zip(frame.values.drain(from..)) {
            scope.push_dynamic(name.as_str(), value);
        }
        let result = EvalContext::new(self.engine, self.global, self.caches, &mut scope, None)
            .eval_expression_tree(&expr.into());
        // The frame's variables come back; a call from the host gives the constants back too
        // (as Rhai left them: each keeps its access mode).
        for (i, (name, value, _)) in scope.into_iter().enumerate() {
            if i < base {
                self.constants.push_dynamic(name, value);
            } else {
                frame.values.push(value);
            }
        }
        Ok(result?)
    }

    /// Rhai evaluates `expr`, which names no variable.
    fn detached(&mut self, expr: &RhaiExpr) -> Result<Dynamic, Error> {
        let mut scope = Scope::new();
        EvalContext::new(self.engine, self.global, self.caches, &mut scope, None)
            .eval_expression_tree(&expr.into())
    }

    /// Assigns `value` to `target` (`op`: with an operator such as `+=`).
    fn assign(
        &mut self,
        target: &mut Dynamic,
        op: Option<&OpAssign>,
        value: Dynamic,
        root_pos: Position,
    ) -> Result<(), Error> {
        let Some(op) = op else {
            *target = value;
            return Ok(());
        };
        if target.is_int() && value.is_int() {
            let (a, b) = (
                target.as_int().unwrap_or_default(),
                value.as_int().unwrap_or_default(),
            );
            if let Some(result) = int_op_assign(op, a, b) {
                *target = result.into();
                return Ok(());
            }
        }
        let mut value = value;
        let pos = op.pos;
        match self.rhai_native(op.op_assign, true, &mut [&mut *target, &mut value], pos) {
            Ok(_) => (),
            Err(err)
                if matches!(&*err, EvalAltResult::ErrorFunctionNotFound(f, ..)
                    if f.starts_with(op.op_assign)) =>
            {
                *target = self.rhai_native(op.op, true, &mut [&mut *target, &mut value], pos)?;
            }
            Err(err) => return Err(err),
        }
        self.check_size_of(target, root_pos)
    }
}

/// Pushes the variables of `for_loop` onto `frame` (its counter first, if it has one): the
/// frame's length before them, and the slot of the loop's variable.
fn loop_variables(frame: &mut Frame, for_loop: &ForLoop) -> (usize, usize) {
    let mark = frame.values.len();
    if for_loop.counter {
        frame.values.push(Dynamic::ZERO);
    }
    frame.values.push(Dynamic::UNIT);
    (mark, frame.values.len() - 1)
}

/// Starts round `index` of `for_loop`, whose variables start at `mark`: the counter is set, and
/// the variables change (a body may have pushed onto one).
#[inline]
fn next_round(frame: &mut Frame, for_loop: &ForLoop, mark: usize, index: usize) {
    if for_loop.counter {
        let counter = Dynamic::from_int(INT::try_from(index).unwrap_or(INT::MAX));
        plain::put(&mut frame.values[mark], counter);
    }
    // The loop's variables are the frame's last slots (the body's ended with its round).
    frame.forget_from(mark);
}

/// How a loop goes on after a round that ended as `round`: `None` to the next round, else the
/// loop's result (a `break`'s value, or what stops it).
#[inline]
fn ended(round: Flow<()>) -> Option<Flow<Dynamic>> {
    match round {
        Ok(()) | Err(Stop::Continue) => None,
        Err(Stop::Break(value)) => Some(Ok(value)),
        Err(stop) => Some(Err(stop)),
    }
}

/// Whether the walker assigns `value` to `target` with `op` itself, as Rhai's own operators do
/// (counting no operation): a plain assignment, or `+=`, `-=`, `*=`, `/=`, `%=` on two
/// integers that do not fail. Rhai assigns anything else (its own operators, or a registered function).
pub(super) fn assigns_itself(target: &Dynamic, op: Option<&OpAssign>, value: &Dynamic) -> bool {
    let Some(op) = op else {
        return true;
    };
    match (target.as_int(), value.as_int()) {
        (Ok(a), Ok(b)) => int_op_assign(op, a, b).is_some(),
        _ => false,
    }
}

/// `a op= b` on two integers as Rhai's own operators compute it, `None` where they fail (an
/// overflow, a division by zero) or for an operator the walker leaves to Rhai.
#[inline(always)]
fn int_op_assign(op: &OpAssign, a: INT, b: INT) -> Option<INT> {
    op.int?.checked(a, b)
}

/// Sets the integer `target` holds (a shared one's too) to `n` in place, as Rhai's own `+=`
/// and the like on integers do: the value keeps its tag.
#[inline(always)]
pub(super) fn set_int(target: &mut Dynamic, n: INT) {
    if let Some(mut value) = target.write_lock::<INT>() {
        *value = n;
    }
}

/// Makes the compact lists among `values` the arrays they stand for; whether there were any.
pub(super) fn materialise<'v>(values: impl IntoIterator<Item = &'v mut Dynamic>) -> bool {
    let mut any = false;
    for value in values.into_iter().filter(|v| v.is::<NativeList>()) {
        let list = std::mem::take(value).cast::<NativeList>();
        *value = Dynamic::from_array(list.into_array());
        any = true;
    }
    any
}

/// Calls `f` with the arguments `first` and then `rest` (in a vector only when there are more
/// than four of them).
pub(super) fn with_args<R>(
    first: &mut Dynamic,
    rest: &mut [Dynamic],
    f: impl FnOnce(&mut [&mut Dynamic]) -> R,
) -> R {
    match rest {
        [] => f(&mut [first]),
        [a] => f(&mut [first, a]),
        [a, b] => f(&mut [first, a, b]),
        [a, b, c] => f(&mut [first, a, b, c]),
        _ => {
            let mut args: StaticVec<&mut Dynamic> = StaticVec::new();
            args.push(first);
            args.extend(rest.iter_mut());
            f(&mut args)
        }
    }
}

/// Calls `f` with `args` whose first argument is a copy (the original is left as it is).
///
/// # Panics
/// If `args` is empty.
pub(super) fn with_first_copied<R>(
    args: &mut [&mut Dynamic],
    f: impl FnOnce(&mut [&mut Dynamic]) -> R,
) -> R {
    let (first, rest) = args.split_first_mut().expect("a first argument");
    let mut copy = first.clone();
    match rest {
        [] => f(&mut [&mut copy]),
        [a] => f(&mut [&mut copy, a]),
        [a, b] => f(&mut [&mut copy, a, b]),
        _ => {
            let mut copied: StaticVec<&mut Dynamic> = StaticVec::new();
            copied.push(&mut copy);
            copied.extend(rest.iter_mut().map(|a| &mut **a));
            f(&mut copied)
        }
    }
}

impl IntOp {
    /// Whether the operator compares (its value is a boolean).
    #[inline]
    pub(super) fn compares(self) -> bool {
        matches!(
            self,
            IntOp::EqualsTo
                | IntOp::NotEqualsTo
                | IntOp::LessThan
                | IntOp::LessThanEqualsTo
                | IntOp::GreaterThan
                | IntOp::GreaterThanEqualsTo
        )
    }

    /// `+`, `-`, `*`, `/`, `%` on two integers as Rhai's own operators compute them, `None`
    /// where they fail (overflow, division by zero) or for another operator.
    #[inline(always)]
    fn checked(self, x: INT, y: INT) -> Option<INT> {
        match self {
            IntOp::Add => x.checked_add(y),
            IntOp::Subtract => x.checked_sub(y),
            IntOp::Multiply => x.checked_mul(y),
            IntOp::Divide => x.checked_div(y),
            IntOp::Modulo => x.checked_rem(y),
            _ => None,
        }
    }

    /// The comparison on two integers (`false` for an operator that does not compare).
    #[inline(always)]
    fn compare(self, x: INT, y: INT) -> bool {
        match self {
            IntOp::EqualsTo => x == y,
            IntOp::NotEqualsTo => x != y,
            IntOp::LessThan => x < y,
            IntOp::LessThanEqualsTo => x <= y,
            IntOp::GreaterThan => x > y,
            IntOp::GreaterThanEqualsTo => x >= y,
            _ => false,
        }
    }

    /// The operator on two integers as Rhai's own operators compute it, `None` where they fail
    /// (overflow, division by zero: Rhai words the error).
    #[inline(always)]
    fn apply(self, x: INT, y: INT) -> Option<Dynamic> {
        Some(match self {
            IntOp::Add => x.checked_add(y)?.into(),
            IntOp::Subtract => x.checked_sub(y)?.into(),
            IntOp::Multiply => x.checked_mul(y)?.into(),
            IntOp::Divide => x.checked_div(y)?.into(),
            IntOp::Modulo => x.checked_rem(y)?.into(),
            IntOp::BitAnd => (x & y).into(),
            IntOp::BitOr => (x | y).into(),
            IntOp::BitXor => (x ^ y).into(),
            IntOp::ExclusiveRange => Dynamic::from(x..y),
            IntOp::InclusiveRange => Dynamic::from(x..=y),
            _ => self.compare(x, y).into(),
        })
    }
}

/// The operator `op` (written `token`) on two integers, booleans or `()`, or `==`/`!=` on two
/// strings, computed in place; `None` for Rhai to compute (other types, and overflow or
/// division by zero, whose errors Rhai words).
#[inline(always)]
fn values_binary(op: IntOp, token: &Token, lhs: &Dynamic, rhs: &Dynamic) -> Option<Dynamic> {
    match (int_in(lhs), int_in(rhs)) {
        (Some(x), Some(y)) => op.apply(x, y),
        _ => other_binary(token, lhs, rhs),
    }
}

/// The integer `value` holds, if it holds one.
#[inline(always)]
fn int_in(value: &Dynamic) -> Option<INT> {
    value.as_int().ok()
}

/// [`values_binary`] on operands that are not two integers.
#[inline]
fn other_binary(token: &Token, lhs: &Dynamic, rhs: &Dynamic) -> Option<Dynamic> {
    if lhs.is_bool() && rhs.is_bool() {
        let (x, y) = (lhs.as_bool().ok()?, rhs.as_bool().ok()?);
        return match token {
            Token::EqualsTo => Some((x == y).into()),
            Token::NotEqualsTo => Some((x != y).into()),
            _ => None,
        };
    }
    if let (Some(x), Some(y)) = (
        lhs.read_lock::<ImmutableString>(),
        rhs.read_lock::<ImmutableString>(),
    ) {
        match token {
            Token::EqualsTo => return Some((*x == *y).into()),
            Token::NotEqualsTo => return Some((*x != *y).into()),
            _ => (),
        }
    }
    // `()` against a value of another built-in type is never equal to it.
    let unit_against_other =
        (lhs.is_unit() != rhs.is_unit()) && !lhs.is_variant() && !rhs.is_variant();
    match token {
        Token::EqualsTo if unit_against_other => Some(Dynamic::FALSE),
        Token::NotEqualsTo if unit_against_other => Some(Dynamic::TRUE),
        Token::EqualsTo if lhs.is_unit() && rhs.is_unit() => Some(Dynamic::TRUE),
        Token::NotEqualsTo if lhs.is_unit() && rhs.is_unit() => Some(Dynamic::FALSE),
        _ => None,
    }
}

/// Whether the walker may call `func` with `args` itself: Rhai must call a function that needs
/// its context, or one that would change a constant (Rhai words that error).
#[inline]
fn direct_call(func: &RhaiFunc, args: &[&mut Dynamic]) -> bool {
    !(func.has_context() || (!func.is_pure() && args.first().is_some_and(|a| a.is_read_only())))
}

/// Whether `args` are of `types`.
#[inline]
fn same_types(types: &[TypeId], args: &[&mut Dynamic]) -> bool {
    types.len() == args.len()
        && types
            .iter()
            .zip(args)
            .all(|(t, a)| *t == Dynamic::type_id(a))
}

/// Whether `value` is one of the common values Rhai's limits give no size (integers,
/// booleans, `()` and native values), known without a look inside.
#[inline]
fn has_no_size(value: &Dynamic) -> bool {
    value.is_int() || value.is_variant() || value.is_unit() || value.is_bool()
}

/// Rhai's error for data over its limits at `pos`: it looks at the string's size first
/// (`string` over), then the array's (`array` over), then the map's.
#[cold]
fn too_large(string: bool, array: bool, pos: Position) -> Error {
    let what = if string {
        "Length of string"
    } else if array {
        "Size of array/BLOB"
    } else {
        "Size of object map"
    };
    EvalAltResult::ErrorDataTooLarge(what.into(), pos).into()
}

/// `engine`'s limits on array items, map entries and string bytes (`usize::MAX` where it has
/// none).
fn max_sizes(engine: &Engine) -> (usize, usize, usize) {
    let max = |limit: usize| if limit == 0 { usize::MAX } else { limit };
    (
        max(engine.max_array_size()),
        max(engine.max_map_size()),
        max(engine.max_string_size()),
    )
}

/// The sizes Rhai's limits count in a value: array items, map entries, string bytes.
fn data_sizes(value: &Dynamic) -> (usize, usize, usize) {
    if has_no_size(value) {
        (0, 0, 0)
    } else if let Some(array) = value.read_lock::<Array>() {
        array.iter().fold((0, 0, 0), |(a, m, s), item| {
            // The commonest item (an integer, a cell) is looked at here, without a call.
            if has_no_size(item) {
                return (a + 1, m, s);
            }
            let (ia, im, is) = data_sizes(item);
            (a + 1 + ia, m + im, s + is)
        })
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        map.values().fold((0, 0, 0), |(a, m, s), item| {
            let (ia, im, is) = data_sizes(item);
            (a + ia, m + 1 + im, s + is)
        })
    } else if let Some(text) = value.read_lock::<ImmutableString>() {
        (0, 0, text.len())
    } else if value.is::<rhai::Blob>() {
        (value.read_lock::<rhai::Blob>().map_or(0, |b| b.len()), 0, 0)
    } else {
        (0, 0, 0)
    }
}

fn with_position(mut err: Error, pos: Position) -> Error {
    err.set_position(pos);
    err
}

/// `err` of a call at `pos`, placed there if it has no position. A native function Rhai calls
/// for the walker reports the calls it makes in turn (a closure `map` calls) without a
/// position; Rhai's own call gives them the call's: so do those nested reports.
fn with_position_if_none(mut err: Error, pos: Position) -> Error {
    let mut at = &mut *err;
    loop {
        if at.position().is_none() {
            at.set_position(pos);
        }
        match at {
            EvalAltResult::ErrorInFunctionCall(.., inner, _) => at = &mut **inner,
            _ => break,
        }
    }
    err
}

/// The one statement of `function`'s body, where its call may be evaluated in the caller's
/// frame (see [`Runner::call_inline`]): an expression, the function having no variables but
/// its parameters.
#[inline(always)]
fn inline_body(function: &Function) -> Option<&Stmt> {
    match function.body.as_slice() {
        [stmt @ (Stmt::Expr(_) | Stmt::Call(_))] if function.frame_size == function.arity => {
            Some(stmt)
        }
        _ => None,
    }
}
