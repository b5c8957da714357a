//! The walker: the runtime's own evaluator of a rules script's functions, lowered from Rhai's
//! syntax tree into a tree the host walks itself.
//!
//! **What it promises: exactly what Rhai gives.** A call run by the walker gives the value
//! Rhai's interpreter gives, or the same error (message, position, nested calls), counts the
//! same operations against the same budget, and changes the same values. A function the walker
//! cannot run exactly as Rhai does is not lowered: Rhai runs it. `tests.rs` (construct by
//! construct, and generated programs in `tests/differential.rs`) and
//! `tests/compiled_agreement.rs` (the games) hold it to that; the differential test compares
//! operation counts too. Where Rhai computes a value its own way and counts for it
//! accordingly (an operator or an assignment with an operator on values other than integers),
//! the walker hands it that computation with the values already computed.
//!
//! Rhai's interpreter spends most of a rules script's time around the work rather than on it:
//! finding each variable, setting up each native call (a search for a script method of the
//! same name, the arguments gathered into a fresh list, a target wrapper), boxing control flow
//! as errors. [`Program`] lowers each function of a loaded script once: variables become
//! frame slots, operators on integers and booleans (and `==`/`!=` on strings) are computed in
//! place (each operator decoded when lowered, an `IntOp`: two integers where they are, in
//! variables, literals or constants, are read without a copy, and a comparison of integers in a
//! condition — `if`, `while`, `&&`, `||` — gives a `bool` without making a value: the leading
//! such comparisons of a `&&`/`||` chain (`x >= 0 && y >= 0 && x < 8 && …`) are decoded when
//! lowered into a [`Junction`] and read in one loop, their operations counted in one addition,
//! and a comparison of a computed value with such an integer (`board.get(c) == theirs`) takes a
//! short way of its own; `x op= n` on an
//! integer variable changes it in place), so are Rhai's `len`, `is_empty`, `push` and `pop` on
//! arrays (a variable's array keeps its sizes known as it changes: a push or a pop measures
//! only its item, an empty array has none to measure, and `len` or `is_empty` on an array
//! whose sizes are known or none only checks them; a pair's value pushed,
//! `list.push(cell(x, y))`, is made and pushed without the checks its type answers, an item
//! with no size of its own, an integer or a cell, is not measured, and an array made for the
//! push, `list.push([from, to])`, comes with the sizes its making found: `Runner::push_called`),
//! and the runtime's primitives
//! are called directly (each call site remembers the function its arguments' types
//! led to, in the [`native_table::NativeTable`] kept when they were registered);
//! other native functions are called through Rhai's own function resolution. A getter of an
//! integer field registered with its field reader ([`native_table::FieldReader`]: `c.x`) is
//! read by that reader, kept in the chain at its first read (`FieldPlan`): a read after it
//! looks at the value's type only, counting the variable and the getter's call as Rhai does.
//! An operator on integers read through such chains (`c.x + d[0]`, `x - d[1]`,
//! `state.pits[i] > 0`: a variable's property read by its field reader, a variable's array
//! item at a literal index or a variable's, a map's array item there, beside variables,
//! literals and constants; decided when lowered, `Operands::int_reads`) reads each operand's
//! integer where it is and computes the operator from them (in a condition, compares them): no
//! operand's value is made nor its chain set up, and the operations Rhai counts for the
//! operands are counted after at once (one by one where a report or the limit falls among
//! them; with no positions, since a budget stop leaves a function at the call's position, in
//! Rhai as in the walker). So is `x op= v` on an integer variable, `v` such a chain (`total +=
//! pits[i]`); and an integer assigned to a variable's array item, or a map's array item, at a
//! literal index or a variable's (`state.pits[last] += 1`, `pits[i] = 0`) is set in place,
//! everything looked at before anything is counted (`run/items.rs`).
//! A condition comparing a method's read at a pair's integers with an integer where it is
//! (`board.get(cell(x, y)) == theirs`, its pair's call kept as the integers, or
//! `board.get(c) == theirs`, `c` a variable's cell split into them by its type's
//! [`native_table::PairSplit`]) calls the method's [`native_table::PairReader`] and compares
//! the integer it gives: no value is made for the read nor for the comparison, and the
//! operations Rhai counts for the condition are counted at once after (`run/pairs.rs`,
//! `Runner::pair_compared` and `Runner::split_compared`). A pair's integers are read where
//! they are, for such a condition as for any read, set or push at a pair's call
//! (`Runner::pair_in_place`): variables, literals and constants, and chains and operators
//! on them as `Runner::int_reads` reads its operands (`cell(p[0], p[1])`,
//! `cell(b.x, b.y - 1)`, `cell(c.x + d[0], c.y + d[1])`: `Runner::pair_int`), each
//! argument's operations counted with the chain's; where one holds no integer there (an
//! index out of range or negative, another type, an operator that fails), the pair's call
//! is evaluated as written. A variable's cell read as a value rather than compared
//! (`let stone = board.get(c)`, `owns(turn, state.board.get(c))`) is read by the same reader
//! at the integers its type's `PairSplit` gives (`Runner::split_read`).
//!
//! Statements and loops take the shortest way their kind allows, decided as they run from
//! what was lowered (`Runner::exec`): a `let` of an arithmetic operator on two integers where
//! they are (`let tx = x + dx`) declares the integer computed from them, its operations
//! counted with the statement's; `if … { continue; }` and `if … { break; }` make the jump
//! without running the branch as a block of its own, and an empty branch (an `if` without
//! `else`) runs nothing; a `for` over a literal array or a script constant's array copies each
//! item as its round comes (an integer by its bits, not `Dynamic::clone`), and over a range
//! of integers where they are makes no range value. The operations are counted as Rhai counts
//! them, the budget looked at where Rhai looks.
//!
//! A closure is an anonymous function of the script, lowered like the others: Rhai's array
//! methods that take one (`filter`, `map`, `some`, `all`, `index_of`, `find`, `find_map`,
//! `reduce`, `reduce_rev`, and those changing the array: `retain`, `drain`, `for_each`,
//! `sort`, `dedup`) are done by the walker, calling the closure's lowered function as Rhai
//! calls it (`run/closures.rs`). A closure capturing variables it only reads, written as
//! such a method's argument, is lowered too (Rhai shares the captured variables; the walker
//! passes their values, which is the same as long as nothing changes them while the closure
//! lives: see `Lower::capture`). So is a script function named in a closure's place
//! (`list.filter(open)`): Rhai makes the name a pointer linked to the function and calls it as
//! it calls a closure, and so does the walker, where nothing else could answer first (see
//! `run/closures.rs`). So is a closure that changes a captured variable (`n += 1`): Rhai
//! shares the variable between the closure and the function (a change is seen by both, and by
//! the closure's later calls); the walker makes the variable's slot a shared value as Rhai
//! does, lends the shared value's content to each call of the closure, and makes the slot a
//! plain value again when the chain holding the closure ends (the closure ends with it, and a
//! shared variable then behaves as a plain one in Rhai too).
//!
//! A call of one of the script's lowered functions evaluates its arguments straight into the
//! callee's frame (a function of one expression runs on top of the caller's frame). Rhai gives
//! the callee a copy of each argument; the walker lends an array rather than copying it where
//! it is read once the arguments are evaluated ([`Call::late`], decided when lowered): a local
//! variable that the arguments after it leave as they are, or a local variable's property
//! (`side(state.pits, 0)`) that they neither read nor change, the variable holding a map of its
//! own. The value is moved into the callee's frame and back after the call (a property taken
//! out of its map as it is read, counted as its read); before the callee changes or moves it,
//! it is copied for the caller, whose value stays as it was, as with Rhai's copy (see
//! `Runner::call_script`).
//!
//! A call of a function pointer, `f.call(args)` on a variable or `call(f, args)`, is made by
//! the walker where the pointer leads to a lowered function of the script (a closure capturing
//! nothing, a function's name used as a value, `Fn("name")`) and carries no curried values:
//! Rhai calls such a pointer's function as a call by its name is made, and so does the walker
//! (see `run/pointers.rs`). Any other pointer's call is Rhai's, decided before anything of it
//! is evaluated (`f.call`: its arguments do not name `f`) or with the pointer's value handed
//! over (`call(f, …)`).
//!
//! A call of an imported script's function (`base::moves(state)`) is made by the walker: it
//! evaluates the arguments as Rhai does for a call through a module (a first argument that is a
//! variable counted where it is, read last) and hands them to the host's [`Imports`], which
//! runs the function in the walker with the imported script's own lowered [`Program`], once
//! the host has linked it (see `crate::script::imported`), as the module's function registered
//! with Rhai runs it. A call the host does not make (a private or unlowered function, a path
//! of modules, a closure capturing variables among the arguments) is handed to Rhai, below.
//!
//! What the walker does not do itself it hands to Rhai, in the same frame: a node it does not
//! lower (string interpolation, `switch`, `try`, `curry` but of a literal pointer and local
//! variables (a closure's captures), the calls of curried pointers,
//! module paths…) is kept as Rhai's
//! own node and evaluated by Rhai with the frame's variables in a scope laid out as Rhai lays
//! out its own; and a chain (`a.b[i].f(x)`) that meets a value it does not handle (a string
//! index, an index out of bounds, a property of a native value that is not a plain getter) is
//! finished by Rhai with the values already computed; so is a native method called with a
//! closure the walker does not run (a closure using `this`, taking other numbers of
//! parameters, or named with `Fn`). A function is not
//! lowered at all when it uses `this`, closures capturing variables other than as above, or
//! `import`; Rhai runs it as before.
//!
//! The walker counts operations and reports them to the host's budget ([`Progress`]) as Rhai
//! does, so a lowered call is bounded by the same budget. Where a node counts several at once
//! (a statement and its expression, an operator and its operands), they are added together
//! unless a report or the limit falls among them: then one by one, so that the budget stops
//! the call at the same operation as Rhai's. It depends on nothing of the script
//! host: the host ([`crate::script`]) gives it the engine, the natives' table and the budget.
//!
//! A call of a pure function (its result depends on its arguments only; decided when lowered,
//! see `memo.rs`) made again with equal arguments gives the result kept from the call before,
//! a copy, where the host gave its [`Charges`]: it counts the operations that call counted and
//! charges the work its primitives charged, so the count and the budget come out as Rhai's. It
//! does not where the count would pass the engine's limit, or the work the budget's, or where
//! the budget, asked at the last report the count crosses, stops the call: then the call is
//! made, and stopped at Rhai's operation. What differs from Rhai is only that the reports
//! before that last one are not made (nor the budget's looks at memory and the clocks when the
//! primitives charge). That stops the same calls as Rhai for any budget whose answer only
//! turns to "stop" as the call goes on: the count, the work charged and the time only grow,
//! and the memory held in the middle of the call is not held at all by a reuse, which holds
//! only the result's copy; a budget stopping at a report stops at every later one, so asking
//! the last one asks whether any would have stopped.
//!
//! The lowering reads Rhai's internal syntax tree (Rhai's `internals` feature), which may change
//! in any Rhai release: Rhai's version is pinned, and an upgrade is gated by the agreement tests
//! (see the contributing guide).

pub mod lists;
mod lower;
mod memo;
pub mod native_table;
pub mod profile;
mod run;
mod syntax;

use std::{
    any::TypeId,
    cell::{Cell, RefCell},
    num::NonZeroUsize,
    rc::Rc,
};

use foldhash::HashMap;

use rhai::{Dynamic, Identifier, ImmutableString, Position, RhaiFunc, Scope, StaticVec, AST};

use native_table::NativeTable;

/// What the walker reports the operations it counts to, as Rhai reports them to the engine's
/// progress callback (the host's sandbox): it is told the operations so far and may stop the
/// call with the token it gives.
pub type Progress = fn(u64) -> Option<Dynamic>;

/// How often (in operations) the walker reports to its [`Progress`]: at every count the host's
/// budget looks at (the sandbox's reasons for its interval are in `script::sandbox`), so that a
/// lowered call stops at the operation Rhai's would. Between two reports a tick is one
/// addition and one comparison (see `Runner::tick`).
pub const REPORT_EVERY: u64 = 16;

/// The work the host's primitives charge to a call's budget beside the operations the walker
/// counts (the sandbox's charged work), which a reused result charges again (see
/// `memo.rs`). Without it the walker reuses no result.
#[derive(Clone, Copy)]
pub struct Charges {
    /// The work charged so far in the call in progress.
    pub charged: fn() -> u64,
    /// Charges `work` more, the call having counted `operations`, if the budget allows it;
    /// else charges nothing and gives false.
    pub recharge: fn(u64, u64) -> bool,
    /// Takes back `work` charged by `recharge`.
    pub uncharge: fn(u64),
}

pub use lower::body_of;
pub use run::Runner;

/// The calls of imported scripts' functions (`base::moves(state)`) that the host makes for the
/// walker: the walker evaluates the arguments itself and hands them over, as Rhai hands them
/// to the module's function. A call the host does not make (the function is not lowered, the
/// module is not an imported rules script) is left to Rhai, arguments and all.
pub trait Imports {
    /// Whether the host makes the call `namespace::name` with `arity` arguments.
    fn makes(&self, namespace: &str, name: &str, arity: usize) -> bool;

    /// Makes the call `namespace::name(args)` at `pos`, from a caller whose runtime state is
    /// `global`, as Rhai's call of a module's function makes it (one level below the caller;
    /// the result's size is checked by the walker).
    fn call(
        &self,
        engine: &rhai::Engine,
        global: &mut rhai::GlobalRuntimeState,
        namespace: &str,
        name: &str,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Result<Dynamic, Box<rhai::EvalAltResult>>;
}

/// The lowered functions of one script, by name and number of parameters.
#[derive(Default)]
pub struct Program {
    functions: Vec<Option<Function>>,
    /// The lowered functions by name, then number of parameters (what the host looks up).
    by_name: HashMap<String, Vec<(usize, usize)>>,
    /// The name of the module holding the functions, which Rhai gives as the source of what
    /// happens in them.
    source: Option<ImmutableString>,
    /// What the walker leaves to Rhai, and why: each node it hands over, and each function it
    /// does not lower.
    handed_to_rhai: Vec<HandedToRhai>,
    /// The functions run with the script's own functions first in Rhai's `global.lib`, as the
    /// host calls them (not those of an imported script, which run below their caller's): a
    /// function's name used as a value (`list.filter(open)`) then points to the script's own
    /// function, which the walker runs as a closure (see `run/closures.rs`).
    own_lib: bool,
    /// For each name of a script function passed as a closure, whether some native function
    /// has that name (Rhai would try it first): found once, in the engine's signatures.
    native_names: RefCell<HashMap<ImmutableString, bool>>,
    /// The results of pure functions' calls, kept for reuse (see `memo.rs`).
    memo: memo::Memo,
}

/// Something of the script that Rhai's interpreter runs rather than the walker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandedToRhai {
    /// The function it is in (or the function itself).
    pub function: String,
    /// Where it is (for a whole function, its first statement's line, or 0 if not known).
    pub line: usize,
    /// Why: what the walker does not model.
    pub why: String,
    /// The whole function runs in Rhai (else one node of it).
    pub whole_function: bool,
}

impl Program {
    /// Lowers the functions of `ast`, whose top level left `constants`, for an engine with
    /// `natives`. Nothing is lowered when
    /// the top level left a variable rather than a constant: Rhai lets a function called from
    /// the host change such a variable for every later call, which the walker does not model.
    pub fn new(ast: &AST, constants: &Scope, natives: &NativeTable) -> Self {
        Self::lowered(ast, constants, natives, false, true)
    }

    /// [`Self::new`] for an imported script (`base::`), whose functions Rhai runs with the
    /// importing script's functions first in its `global.lib`.
    pub fn imported(ast: &AST, constants: &Scope, natives: &NativeTable) -> Self {
        Self::lowered(ast, constants, natives, false, false)
    }

    /// [`Self::new`] with every statement recorded when it runs (see [`profile`]): for
    /// `boardrules profile`, never for play.
    pub fn profiled(ast: &AST, constants: &Scope, natives: &NativeTable) -> Self {
        Self::lowered(ast, constants, natives, true, true)
    }

    fn lowered(
        ast: &AST,
        constants: &Scope,
        natives: &NativeTable,
        profile: bool,
        own_lib: bool,
    ) -> Self {
        if constants.iter_raw().any(|(_, is_constant, _)| !is_constant) {
            let handed_to_rhai = ast
                .iter_fn_def()
                .map(|def| HandedToRhai {
                    function: def.name.to_string(),
                    line: 0,
                    why: "the script's top level leaves a variable (`let`), not only constants, \
                          so no function is lowered: make it a `const`"
                        .into(),
                    whole_function: true,
                })
                .collect();
            return Program {
                handed_to_rhai,
                ..Program::default()
            };
        }
        lower::program(ast, constants, natives, profile, own_lib)
    }

    /// Whether a native function of the engine is named `name` (Rhai's calls of a function
    /// pointer by that name would try it).
    fn native_named(&self, engine: &rhai::Engine, name: &ImmutableString) -> bool {
        if let Some(&known) = self.native_names.borrow().get(name) {
            return known;
        }
        let found = engine.gen_fn_signatures(true).iter().any(|signature| {
            let called = signature.split('(').next().unwrap_or("");
            called.rsplit("::").next() == Some(name.as_str())
        });
        self.native_names.borrow_mut().insert(name.clone(), found);
        found
    }

    /// What Rhai's interpreter runs rather than the walker, and why.
    pub fn handed_to_rhai(&self) -> &[HandedToRhai] {
        &self.handed_to_rhai
    }

    /// The lowered function `name` with `arity` parameters, if the script defines it and it
    /// could be lowered.
    pub fn function(&self, name: &str, arity: usize) -> Option<&Function> {
        let &(_, i) = self.by_name.get(name)?.iter().find(|(a, _)| *a == arity)?;
        self.functions[i].as_ref()
    }

    /// How many of the script's functions were lowered, of how many.
    pub fn coverage(&self) -> (usize, usize) {
        let lowered = self.functions.iter().filter(|f| f.is_some()).count();
        (lowered, self.functions.len())
    }
}

/// One lowered script function.
pub struct Function {
    name: ImmutableString,
    arity: usize,
    body: Block,
    /// The most variables its frame holds at once.
    frame_size: usize,
    /// The function may move a variable out of its frame (returning it as it is, see
    /// [`mark_returned`]): its parameters are not as they were after a call.
    moves_out: bool,
    /// For a closure, whether it may change each parameter (its captured variables come
    /// first): those are shared with the function that made it (empty for other functions).
    changes: Vec<bool>,
    /// For a pure function (see `memo.rs`), its index in [`Program::functions`]: its calls'
    /// results may be reused (`None` too once they are no longer looked up).
    memo: Cell<Option<usize>>,
}

/// Statements run in order in a block of their own: the variables they declare end with it.
type Block = Vec<Stmt>;

/// A slot of the frame, counted from its end (as Rhai's parser numbers variables).
type Slot = NonZeroUsize;

/// A lowered statement.
enum Stmt {
    /// An expression; its value is the block's if it comes last.
    Expr(Expr),
    /// A statement for which Rhai counts one operation, with its expression's value: a call
    /// (`f(x);`, `n + 1` last in a body), whose expression Rhai does not count again; `;`.
    Call(Expr),
    /// `let` / `const`: a new slot, or (`reuse`) a slot the parser chose to reuse.
    Let {
        value: Expr,
        constant: bool,
        reuse: Option<Slot>,
    },
    /// `x = v` or `x op= v` on a local variable.
    Assign {
        slot: Slot,
        name: ImmutableString,
        pos: Position,
        op: Option<OpAssign>,
        value: Expr,
        /// For `x op= v`, the statement as Rhai's: Rhai assigns with an operator on values
        /// other than two integers (its own operators, or a registered function).
        stmt: Option<Box<Fallback>>,
    },
    /// `x op= n` on integers where they are (see [`IntAssign`]).
    IntAssign(Box<IntAssign>),
    /// `a.b[i] = v` or `a.b[i] op= v` (`stmt`: the statement as Rhai's, for a chain Rhai
    /// must finish).
    ChainAssign {
        chain: Box<Chain>,
        op: Option<OpAssign>,
        value: Expr,
        stmt: Box<Fallback>,
        /// Where the assignment operator is (Rhai's size errors point there).
        pos: Position,
    },
    If {
        cond: Expr,
        cond_pos: Position,
        then: Block,
        otherwise: Block,
    },
    /// `while cond { … }`, or `loop { … }` without a condition.
    While {
        cond: Option<(Expr, Position)>,
        body: Block,
    },
    /// `do { … } while cond` (`until`: `do { … } until cond`).
    Do {
        body: Block,
        cond: Expr,
        cond_pos: Position,
        until: bool,
    },
    For(Box<ForLoop>),
    /// `break` / `continue`.
    Break {
        value: Option<Expr>,
        is_break: bool,
    },
    Return(Option<Expr>),
    Throw {
        value: Option<Expr>,
        pos: Position,
    },
    Block(Block),
    /// A statement Rhai runs.
    Rhai(Box<Fallback>),
    /// A statement whose cost is recorded (in a program lowered for profiling only).
    Profiled(Box<profile::Profiled>),
}

/// `for x in iterable { … }` (or `for (x, i) in …`).
struct ForLoop {
    /// Whether the loop counts its rounds in a second variable.
    counter: bool,
    iterable: Expr,
    /// The iterable is a local variable that nothing in the body may change (no assignment,
    /// no `let` reusing its slot, no method call on it, no native function taking it by
    /// reference, nothing left to Rhai): an array there is iterated in place, each item copied
    /// as its round comes, rather than the whole array copied first as Rhai does. Rhai's
    /// copy could not differ from the variable while the loop runs.
    stable: bool,
    /// Each item is lent to the loop's variable rather than copied (moved there for its round,
    /// then put back; see `Runner::lent_rounds`): the body never changes the variable (no
    /// assignment, no `let` reusing its slot, no method call on it, no native function taking
    /// it by reference, nothing left to Rhai) and, for a local variable's array (`stable`),
    /// never reads the variable iterated. Rhai's copy of the item could not differ from it.
    lend: bool,
    /// For a loop over a script constant's array that lends its items: the constant's items,
    /// whose items are lent in turn (a loop running again while it runs, by recursion, copies
    /// its items as before).
    items: Option<RefCell<rhai::Array>>,
    body: Block,
    /// The loop as Rhai's statement, for iterables the walker does not iterate itself (the
    /// iterable is replaced by its value): strings, native types' iterators.
    rhai: Box<Fallback>,
    /// The loop's body makes closures capturing variables: where Rhai runs the loop, it
    /// shares them, and they are made plain values again after it (the closures end with
    /// the method calls they are passed to).
    shares: bool,
}

/// An assignment operator: `+=` and the like.
struct OpAssign {
    op_assign: &'static str,
    op: &'static str,
    token: rhai::Token,
    /// The operator on two integers, decoded when lowered, for `+=`, `-=`, `*=`, `/=`, `%=`
    /// (the walker computes those itself; Rhai the others).
    int: Option<IntOp>,
    pos: Position,
}

/// A lowered expression.
enum Expr {
    Value(Dynamic),
    Local(Slot),
    /// A variable whose value the function returns as it is (see [`mark_returned`]): moved out
    /// of the frame, which ends with the call, rather than copied.
    Returned(Slot),
    /// A script constant, by name, with its value when the script loaded, and whether
    /// something Rhai runs may call a native method on it, which (called from the host)
    /// changes it for the calls after: called from the host, it is then read in the host's
    /// scope.
    Constant(ImmutableString, Dynamic, bool),
    Array(Vec<(Expr, Position)>),
    Map(Box<MapLiteral>),
    And(Box<Junction>),
    Or(Box<Junction>),
    Unary {
        token: rhai::Token,
        name: ImmutableString,
        arg: Box<Expr>,
        pos: Position,
        site: Site,
    },
    Binary {
        token: rhai::Token,
        /// The operator, decoded when lowered: what it computes on two integers.
        op: IntOp,
        name: ImmutableString,
        args: Box<Operands>,
        pos: Position,
        site: Site,
    },
    Call(Box<Call>),
    /// A call of an imported script's function, `base::f(…)`.
    Imported(Box<ImportedCall>),
    /// A call of a function pointer, `f.call(…)` or `call(f, …)`.
    PointerCall(Box<PointerCall>),
    Chain(Box<Chain>),
    Block(Block),
    /// Rhai's `share` of the captured variables a closure may change (its value `()`): each
    /// slot's value becomes a shared one, which the closure's pointer then holds (see
    /// `Lower::capture`); Rhai shares the script constants it captures (the statement with
    /// only them), counting the statement's operation.
    Share(Vec<Slot>, Option<Box<Fallback>>),
    /// A chain holding closures that share the slots: the slots' values become plain again
    /// when it ends, as the closures do (see `Lower::unshared`).
    Unshare(Box<(Expr, Vec<Slot>)>),
    /// `curry(f, a, …)` of a literal function pointer and local variables (a closure's
    /// captured ones, as Rhai's parser writes a closure capturing variables): the pointer with
    /// the variables' values appended to its curried ones, as Rhai's `curry` makes it.
    Curry(Box<(Dynamic, Vec<Slot>)>),
    /// An expression Rhai evaluates.
    Rhai(Box<Fallback>),
}

/// A binary operator the walker computes itself on two integers (and, for some, on booleans,
/// strings and `()`): decoded from Rhai's token when lowered, so that running it matches a
/// small enum rather than Rhai's token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum IntOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    EqualsTo,
    NotEqualsTo,
    LessThan,
    LessThanEqualsTo,
    GreaterThan,
    GreaterThanEqualsTo,
    BitAnd,
    BitOr,
    BitXor,
    ExclusiveRange,
    InclusiveRange,
}

impl IntOp {
    /// The operator `token` stands for, if the walker computes it.
    fn of(token: &rhai::Token) -> Option<Self> {
        use rhai::Token;
        Some(match token {
            Token::Plus => IntOp::Add,
            Token::Minus => IntOp::Subtract,
            Token::Multiply => IntOp::Multiply,
            Token::Divide => IntOp::Divide,
            Token::Modulo => IntOp::Modulo,
            Token::EqualsTo => IntOp::EqualsTo,
            Token::NotEqualsTo => IntOp::NotEqualsTo,
            Token::LessThan => IntOp::LessThan,
            Token::LessThanEqualsTo => IntOp::LessThanEqualsTo,
            Token::GreaterThan => IntOp::GreaterThan,
            Token::GreaterThanEqualsTo => IntOp::GreaterThanEqualsTo,
            Token::Ampersand => IntOp::BitAnd,
            Token::Pipe => IntOp::BitOr,
            Token::XOr => IntOp::BitXor,
            Token::ExclusiveRange => IntOp::ExclusiveRange,
            Token::InclusiveRange => IntOp::InclusiveRange,
            _ => return None,
        })
    }
}

/// The operands of `&&` or `||`, and the first of them that compare two integers where they
/// are, decoded when lowered: `x >= 0 && y >= 0 && x < 8 && board.get(cell(x, y)) == theirs`
/// reads its four comparisons in one loop and counts their operations in one addition (see
/// `Runner::junction`).
struct Junction {
    /// Each operand, with where it is.
    operands: Vec<(Expr, Position)>,
    /// The operands from the first on that compare two [`IntOperand`]s, up to the first that
    /// does not: `compares[i]` is `operands[i]`.
    compares: Vec<IntCompare>,
}

/// A comparison of two [`IntOperand`]s (`x < SIZE`), an operand of a [`Junction`].
#[derive(Clone, Copy)]
struct IntCompare {
    /// A comparing operator.
    op: IntOp,
    operands: [IntOperand; 2],
}

impl Junction {
    /// The junction of `operands`, its leading comparisons of integers decoded.
    fn new(operands: Vec<(Expr, Position)>) -> Self {
        let compares = operands
            .iter()
            .map_while(|(operand, _)| match operand {
                Expr::Binary { op, args, .. } if op.compares() => Some(IntCompare {
                    op: *op,
                    operands: args.ints?,
                }),
                _ => None,
            })
            .collect();
        Junction { operands, compares }
    }
}

/// The operands of a binary operator, and the operator's call as Rhai's expression: Rhai
/// evaluates it (with the operands' values) for operands the walker does not compute itself and
/// that are not native values, as its own fast path for operators does (see
/// `Runner::rhai_operator`).
struct Operands {
    args: [Expr; 2],
    rhai: rhai::FnCallExpr,
    /// Both operands as integers where they are, if both may be (see [`IntOperand`]).
    ints: Option<[IntOperand; 2]>,
    /// For a comparison whose left operand is computed (not a variable, a literal or a
    /// constant: `board.get(c) == theirs`) and whose right one may be an integer where it is:
    /// the right one as such (see `Runner::computed_comparison`), unless both may be integers
    /// read where they are (`int_reads`).
    computed_left: Option<IntOperand>,
    /// Both operands may be integers read where they are, at least one of them through a
    /// chain ([`int_read_chain`]: `c.x + d[0]`, `x + d[0]`), where `ints` is `None`: the
    /// operator is computed from the integers, no operand's value made (see
    /// `Runner::int_reads`).
    int_reads: bool,
}

impl Operands {
    /// The operands `args` of the operator `op`, called as Rhai's `rhai`.
    fn new(op: IntOp, args: [Expr; 2], rhai: rhai::FnCallExpr) -> Self {
        let ints = IntOperand::of(&args[0]).zip(IntOperand::of(&args[1]));
        let read = matches!(
            args[0],
            Expr::Local(_) | Expr::Value(_) | Expr::Constant(..)
        );
        let readable = |arg: &Expr| IntOperand::of(arg).is_some() || int_read_chain(arg);
        let int_reads = ints.is_none() && args.iter().all(readable);
        // A comparison of integers read through chains is made by `Runner::any_condition`.
        let computed_left = if op.compares() && !read && !int_reads {
            IntOperand::of(&args[1])
        } else {
            None
        };
        Operands {
            ints: ints.map(|(x, y)| [x, y]),
            computed_left,
            int_reads,
            args,
            rhai,
        }
    }
}

/// An operand that is an integer where it is, decided when lowered: a local variable (which
/// may hold an integer), or an integer literal or script constant that nothing changes. Read
/// without a look at the expression's kind.
#[derive(Clone, Copy)]
enum IntOperand {
    Literal(rhai::INT),
    Local(Slot),
}

impl IntOperand {
    /// `expr` as such an operand, if it is one.
    fn of(expr: &Expr) -> Option<Self> {
        match expr {
            Expr::Local(slot) => Some(IntOperand::Local(*slot)),
            Expr::Value(value) | Expr::Constant(_, value, false) if !value.is_shared() => {
                value.as_int().ok().map(IntOperand::Literal)
            }
            _ => None,
        }
    }
}

/// Whether `expr` is a chain that reads an integer where it is, if the value holds one, for a
/// fixed count of operations: a variable's array item at a literal index or a variable's
/// (`d[0]`, `pits[i]`), a map's array item there (`state.pits[i]`), or a variable's property
/// (`c.x`, read by a getter's [`FieldPlan`] once its first read found one). Read as its quick
/// read in `run/reads.rs` reads it.
fn int_read_chain(expr: &Expr) -> bool {
    let Expr::Chain(chain) = expr else {
        return false;
    };
    let reads = match (chain.steps.as_slice(), chain.args.as_slice()) {
        ([Step::Index], [Expr::Value(_)]) => chain.gathering == Gathering::LiteralIndex,
        ([Step::Index], [Expr::Local(_)])
        | ([Step::Prop { .. }, Step::Index], [Expr::Value(_) | Expr::Local(_)]) => {
            chain.gathering == Gathering::PerLink
        }
        ([Step::Prop { .. }], []) => true,
        _ => false,
    };
    reads && matches!(chain.root, Root::Local(_)) && chain.array_method.is_none()
}

/// `x op= n` on a local variable, `op` one of `+=`, `-=`, `*=`, `/=`, `%=` and `n` an
/// [`IntOperand`]: computed in place when `x` and `n` hold integers and the operator does not
/// fail; else run as `assign`, the same statement as any assignment.
struct IntAssign {
    slot: Slot,
    by: IntOperand,
    op: IntOp,
    /// Where the variable is (the look-up's operation is counted there).
    pos: Position,
    /// The variable is declared by `let` in the function (not a constant, a parameter or a
    /// loop's variable): it never holds a constant's value, which cannot be assigned.
    writable: bool,
    /// The statement as a [`Stmt::Assign`].
    assign: Stmt,
}

/// An object map literal, `#{ a: x, b: y }`.
struct MapLiteral {
    /// Each property's name, value and where the value is.
    entries: Vec<(Identifier, Expr, Position)>,
    /// The map with every property, as Rhai's parser prepared it.
    template: rhai::Map,
}

/// A call in function-call style, `f(a, b)`.
struct Call {
    name: ImmutableString,
    args: Vec<Expr>,
    /// The first argument is a local variable passed by reference (Rhai does this so that a
    /// native function like `push(list, x)` may change it).
    first_local: Option<Slot>,
    callee: Callee,
    pos: Position,
    site: Site,
    /// The function returns the call's value as it is (see [`mark_returned`]).
    returned: bool,
    /// The call is `x = f(x, …)` of a script function: x, whose value the result replaces,
    /// is handed to it rather than copied.
    take_first: bool,
    /// The arguments from this one on are local variables or literals, whose evaluation
    /// changes nothing (a native function's arguments are then read where they are, see
    /// `Runner::plain_native`).
    pure_from: usize,
    /// The arguments (bit `k` for argument `k`) that are a local variable which the arguments
    /// after it leave as it is, or a local variable's property (`state.board`) which they
    /// neither read nor change (see [`late_arguments`]): what such an argument holds is the
    /// same once all are evaluated, so `Runner::call_script` may lend it to a script function
    /// rather than copy it.
    late: u64,
}

/// The arguments `args` of a call that are [`Call::late`]: a local variable that no argument
/// after it may change, or a local variable's property that no argument after it reads or
/// changes (reading another property of the variable, `state.turn`, is allowed), no argument
/// passing the variable itself.
fn late_arguments(args: &[Expr]) -> u64 {
    let mut late = 0;
    for (k, arg) in args.iter().enumerate().take(64) {
        let after = &args[k + 1..];
        let read_late = match arg {
            Expr::Local(slot) => after.iter().all(|a| leaves(a, *slot, None)),
            Expr::Chain(chain) => match (&chain.root, chain.steps.as_slice()) {
                (Root::Local(slot), [Step::Prop { name, .. }]) => {
                    after.iter().all(|a| leaves(a, *slot, Some(name))) && passes(args, *slot) == 0
                }
                _ => false,
            },
            _ => false,
        };
        if read_late {
            late |= 1 << k;
        }
    }
    late
}

/// The arguments among `args` that are the local variable in `slot` (bit `k` for argument `k`).
fn passes(args: &[Expr], slot: Slot) -> u64 {
    args.iter()
        .take(64)
        .enumerate()
        .filter(|(_, a)| matches!(a, Expr::Local(s) if *s == slot))
        .fold(0, |bits, (k, _)| bits | 1 << k)
}

/// Whether evaluating `expr` leaves the local variable in `slot` as it is, as seen when
/// lowered, and (`prop` given) reads nothing of it but its properties other than `prop`:
/// variables, literals and constants; operators on such values; reads of a variable's
/// properties and items (of the variable in `slot`, one property only: `state.turn`, a map's
/// property or a getter, which reads); calls not passing the variable as their first argument
/// (a native function may change that one), their arguments leaving it so.
fn leaves(expr: &Expr, slot: Slot, prop: Option<&str>) -> bool {
    match expr {
        Expr::Local(s) => prop.is_none() || *s != slot,
        Expr::Value(_) | Expr::Constant(..) => true,
        Expr::Unary { arg, .. } => leaves(arg, slot, prop),
        Expr::Binary { args, .. } => args.args.iter().all(|a| leaves(a, slot, prop)),
        Expr::Chain(chain) => {
            let reads = match &chain.root {
                Root::Local(s) if *s == slot => match chain.steps.as_slice() {
                    [Step::Prop { name, .. }] => prop != Some(name.as_str()),
                    _ => false,
                },
                Root::Local(_) | Root::Constant(..) => chain
                    .steps
                    .iter()
                    .all(|s| matches!(s, Step::Prop { .. } | Step::Index)),
                Root::Value(_) => false,
            };
            reads
                && chain.array_method.is_none()
                && chain.args.iter().all(|a| leaves(a, slot, prop))
        }
        Expr::Call(call) => {
            call.first_local != Some(slot) && call.args.iter().all(|a| leaves(a, slot, prop))
        }
        _ => false,
    }
}

/// A call of an imported script's function, `namespace::name(args)`: made by the host's
/// [`Imports`] with the arguments the walker evaluates, or by Rhai (`rhai`) when the host does
/// not make it.
struct ImportedCall {
    namespace: ImmutableString,
    name: ImmutableString,
    args: Vec<Expr>,
    /// Where the first argument is, if it is a variable: Rhai counts an operation there for it
    /// (after the other arguments) rather than evaluating it.
    first_variable: Option<Position>,
    pos: Position,
    rhai: Box<Fallback>,
}

/// A call of a function pointer: `f.call(args)` on a local variable the arguments do not name
/// (or a script function's name), or `call(f, args)`. The walker makes it where the pointer leads to one of the script's
/// lowered functions and carries no curried values (see `run/pointers.rs`); else Rhai makes it.
struct PointerCall {
    /// The pointer: the variable `.call` is called on (read, not evaluated: Rhai reads it after
    /// the arguments, which cannot change it) or the function's pointer, or `call`'s first
    /// argument.
    pointer: Expr,
    /// `f.call(args)` rather than `call(f, args)`.
    method: bool,
    /// The arguments after the pointer.
    args: Vec<Expr>,
    /// For `call(f, x, …)`, x's slot if x is a local variable: a call by the pointer's name
    /// passes it as `name(x, …)` does (counted first, read last).
    first_local: Option<Slot>,
    pos: Position,
    /// The call as Rhai's expression, for a pointer the walker does not call.
    rhai: Box<Fallback>,
}

/// What a call by name reaches.
#[derive(Clone, Copy)]
enum Callee {
    /// One of the script's functions (its index in [`Program::functions`]).
    Script(usize),
    /// A native function (found at the call's [`Site`], or by Rhai's resolution).
    Native,
}

/// A chain of properties, indexes and method calls from a variable: `state.pits.take(p)`.
struct Chain {
    root: Root,
    steps: Vec<Step>,
    /// Method arguments and indexes, in the order Rhai evaluates them.
    args: Vec<Expr>,
    /// The chain as Rhai's expression, for handing it to Rhai with the arguments replaced by
    /// their values.
    whole: rhai::Expr,
    /// For each step, how Rhai would continue from it on a value: the chain's kind there and
    /// the rest of the chain (`whole` cut at that step).
    rests: Vec<Rest>,
    /// The frame's variable names where the chain is (for handing it to Rhai).
    names: Rc<[ImmutableString]>,
    /// The function returns the chain's value as it is (see [`mark_returned`]).
    returned: bool,
    /// The chain is an argument of a method call that may take a compact list (see
    /// [`crate::walker::native_table::Natives::register_list_taker`]), and ends in a native method:
    /// that method's list form gives its value, where it has one.
    argument: bool,
    /// How Rhai gathers the chain's arguments and indexes before it walks it.
    gathering: Gathering,
    /// The chain is `list.push(x)`, `list.pop()`, `list.len()`, `list.is_empty()` (or
    /// `list.len`, `list.is_empty`) on a variable, and the runtime's natives have no function
    /// of that name on arrays: the walker does it itself when the variable holds an array
    /// (keeping the sizes of the array, `Measured` in `run`).
    array_method: Option<ArrayMethod>,
    /// Which quick read the chain's shape allows (decided when lowered: running it tries that
    /// one only). A native method's call in place becomes [`Shape::General`] once the call
    /// site's function is found without a plain form (the chain then never tries it again).
    shape: Cell<Shape>,
    /// For a [`Shape::Pair`] chain, what its first read in place found (see [`PairPlan`]).
    pair_plan: RefCell<Option<PairPlan>>,
    /// For a [`Shape::Property`] chain on a native value, what its first getter's read found
    /// (see [`FieldPlan`]).
    field_plan: Cell<Option<FieldPlan>>,
}

/// What a getter's read in place (`c.x`, see `run/reads.rs`) found at its first run: the
/// getter's form reading an integer field, for the type of value it was called on. The reader
/// looks at the value's type itself, so the reads after look at nothing else of the site: a
/// value of another type goes the way of the first read again.
#[derive(Clone, Copy)]
struct FieldPlan {
    /// The getter's form reading the field.
    reader: native_table::FieldReader,
    /// Rhai says the getter is pure (it calls it on a constant).
    pure: bool,
}

/// What a pair's read in place (`x.f(g(a, b))`, see `run/pairs.rs`) found at its first run:
/// the form of `f` taking `g`'s two integers, for the type of value `f` was called on. Both call
/// sites' functions are found in the native table by name and argument types alone, so it
/// holds for every later read of the chain with two integers on a value of that type: those
/// look at nothing else of the sites.
struct PairPlan {
    /// The type of the value the method is called on.
    receiver: TypeId,
    /// The method's form taking the pair's integers.
    taker: native_table::PairTaker,
    /// The method's form reading an integer at the pair's integers, if it has one: called
    /// rather than `taker`.
    reader: Option<native_table::PairReader>,
    /// The method only reads the value it is called on.
    reads_only: bool,
    /// Rhai says the method is pure (it calls it on a constant).
    pure: bool,
    /// The chain's property `p` (`x.p.f(…)`), if it has one: its name, read without going
    /// through Rhai's string.
    prop: Option<Box<str>>,
    /// Where the method's call is.
    pos: Position,
}

/// The quick reads a chain's shape allows, tried before its arguments are gathered (each
/// falls back to the general walk, having counted nothing, where the values do not fit).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    /// `x.p` on a variable: a map's property, else a getter read in place.
    Property,
    /// `x[k]`, `x.p[k]`, `x.f(a, b)` or `x.p.f(a, b)` (`f` native, each argument a variable
    /// or a literal) on a variable: read in place (see `run/reads.rs`).
    InPlace,
    /// `x.f(g(a, b))` or `x.p.f(g(a, b))` on a variable, `f` and `g` native: `g` may make a
    /// pair, passed as its integers (see `run/pairs.rs`).
    Pair,
    /// Anything else: gathered and walked.
    General,
}

impl Shape {
    /// The shape of `chain` (its root, steps and arguments known): a native method is called
    /// in place only where `natives` has a plain form of it (for some types), so that a chain
    /// whose method has none (a track's `take`, a string's `len`) never tries it.
    fn of(chain: &Chain, natives: &NativeTable) -> Shape {
        if !matches!(chain.root, Root::Local(_)) {
            return Shape::General;
        }
        let in_place = |args: &[Expr], step: &Step| {
            args.iter()
                .all(|a| matches!(a, Expr::Local(_) | Expr::Value(_)))
                && matches!(step, Step::Method { name, .. } if natives.has_typed(name))
        };
        let pair_call = match chain.args.as_slice() {
            [Expr::Call(call)] => call.args.len() == 2 && matches!(call.callee, Callee::Native),
            _ => false,
        };
        let pair_method = |step: &Step| {
            matches!(step, Step::Method { script: false, args, .. } if *args >= 1)
                && chain.gathering == Gathering::PerLink
        };
        match chain.steps.as_slice() {
            [Step::Prop { .. }] => Shape::Property,
            [Step::Index] | [Step::Prop { .. }, Step::Index] => Shape::InPlace,
            [method @ Step::Method { script: false, .. }]
                if chain.array_method.is_none() && in_place(&chain.args, method) =>
            {
                Shape::InPlace
            }
            [Step::Prop { .. }, method @ Step::Method { script: false, .. }]
                if chain.gathering == Gathering::PerLink && in_place(&chain.args, method) =>
            {
                Shape::InPlace
            }
            [method] | [Step::Prop { .. }, method] if pair_call && pair_method(method) => {
                Shape::Pair
            }
            _ => Shape::General,
        }
    }
}

/// Rhai's array methods a chain of one step on a variable may call (see
/// [`Chain::array_method`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ArrayMethod {
    Push,
    Pop,
    Len,
    IsEmpty,
}

impl ArrayMethod {
    /// The method called `name` with `args` arguments (the array not counted), if it is one.
    fn of(name: &str, args: usize) -> Option<ArrayMethod> {
        match (name, args) {
            ("push", 1) => Some(ArrayMethod::Push),
            ("pop", 0) => Some(ArrayMethod::Pop),
            ("len", 0) => Some(ArrayMethod::Len),
            ("is_empty", 0) => Some(ArrayMethod::IsEmpty),
            _ => None,
        }
    }
}

/// How Rhai gathers a chain's arguments and indexes (`eval_dot_index_chain`), which decides
/// the operations it counts for them besides their own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gathering {
    /// Not at all: a property, or a method without arguments.
    Nothing,
    /// The chain's one index is a literal, taken as written: it counts nothing.
    LiteralIndex,
    /// One step per link, each counting an operation.
    PerLink,
}

impl Step {
    /// How many of the chain's values (arguments, index) the step takes.
    fn values(&self) -> usize {
        match self {
            Step::Prop { .. } => 0,
            Step::Index => 1,
            Step::Method { args, .. } => *args,
        }
    }
}

impl Chain {
    /// Marks the chain's value as one the host may take as a list form: returned as it is
    /// (`returned`, see [`mark_returned`]), else an argument of a method taking lists
    /// (`argument`). A native method is then not called in place (its plain form makes no
    /// list form): the chain's shape no longer offers it.
    fn mark_listed(&mut self, returned: bool) {
        if returned {
            self.returned = true;
        } else {
            self.argument = true;
        }
        if self.shape.get() == Shape::InPlace && self.ends_in_native_method() {
            self.shape.set(Shape::General);
        }
    }

    /// Whether the chain's last step calls a native method.
    fn ends_in_native_method(&self) -> bool {
        matches!(self.steps.last(), Some(Step::Method { script: false, .. }))
    }

    /// Whether a step calls a method.
    fn calls_methods(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::Method { .. }))
    }

    /// Whether the chain may change the script constant it starts from (Rhai hands a method
    /// the constant itself, or the part of it the chain reached): it calls a method before
    /// any other method's value, but for Rhai's array methods that only read an array
    /// (`filter`, `map`, `some`… and `len`, `is_empty`) called on a constant holding one.
    fn may_change_constant(&self) -> bool {
        let reads_array = matches!(&self.root, Root::Constant(_, value, _) if value.is_array());
        match self.steps.iter().find(|s| matches!(s, Step::Method { .. })) {
            Some(Step::Method {
                name,
                args,
                script: false,
                ..
            }) if reads_array => !run::closures::only_reads_array(name, args + 1),
            Some(_) => true,
            None => false,
        }
    }

    /// Whether the only method the chain calls is a native one at its end.
    fn calls_only_at_end(&self) -> bool {
        match self.steps.split_last() {
            Some((Step::Method { script, .. }, before)) => {
                !script && !before.iter().any(|s| matches!(s, Step::Method { .. }))
            }
            _ => false,
        }
    }
}

/// Where a chain starts.
enum Root {
    Local(Slot),
    /// A script constant (not in the frame), by name, with its value when the script loaded,
    /// and whether it is read in the host's scope (see [`Expr::Constant`]).
    Constant(ImmutableString, Dynamic, bool),
    /// Another expression's value (`f(x).len`): a value made for the chain, not a variable.
    Value(Box<Expr>),
}

/// One link of a chain.
enum Step {
    /// `.name`: a map's property, or a native getter.
    Prop {
        name: ImmutableString,
        getter: ImmutableString,
        pos: Position,
        site: Site,
    },
    /// `.name(args)`.
    Method {
        name: ImmutableString,
        args: usize,
        /// The script defines a function `name` (Rhai may call it with `this`).
        script: bool,
        pos: Position,
        site: Site,
    },
    /// `[index]`.
    Index,
}

/// The chain from one step on, as Rhai's expression with the value so far as its root.
struct Rest {
    dot: bool,
    flags: rhai::ASTFlags,
    pos: Position,
    rhs: rhai::Expr,
}

/// What a native call site last called: the native function for its arguments' types, found in
/// the [`crate::walker::native_table::NativeTable`] (`None`: not there, Rhai finds it).
#[derive(Default)]
struct Site(RefCell<Option<Resolved>>);

struct Resolved {
    types: StaticVec<TypeId>,
    func: Option<RhaiFunc>,
    /// The function's list form, if it has one.
    list: Option<RhaiFunc>,
    /// The function only reads its first argument.
    reads_only: bool,
    /// The function's plain form, if it has one.
    typed: Option<native_table::Typed>,
    /// The function makes a value of two integers that may be kept as them.
    pair: Option<native_table::Pair>,
    /// The getter's form reading an integer field, if it has one.
    field: Option<native_table::FieldReader>,
    /// The function's form taking a pair's integers for its second argument.
    pair_taker: Option<native_table::PairTaker>,
    /// The function's form reading an integer at a pair's integers.
    pair_reader: Option<native_table::PairReader>,
    /// Where it has one: the integers of its second argument's type, a pair's value (a
    /// variable's cell read by the reader: `board.get(c) == theirs`).
    pair_split: Option<native_table::PairSplit>,
    /// What Rhai says of the function (`func`), asked once: whether it is a method (takes
    /// its first argument by reference), needs Rhai's context, is pure.
    method: bool,
    context: bool,
    pure: bool,
}

/// A node Rhai evaluates in the walker's frame.
struct Fallback {
    expr: rhai::Expr,
    /// The frame's variable names there, bottom first.
    names: Rc<[ImmutableString]>,
}

/// Marks the expressions of `body` whose value the function returns as it is: those of a
/// `return`, and the last expression of the body (through `if` branches and blocks). A
/// variable there is moved out of the frame (`state` at the end of `play`); a chain or call
/// there, called from the host for a list of moves, gives a primitive's list form
/// ([`crate::walker::lists::NativeList`]) rather than its array. Whether a variable is moved
/// so.
fn mark_returned(body: &mut Block) -> bool {
    fn mark(expr: &mut Expr, moved: &mut bool) {
        match expr {
            Expr::Chain(chain) => chain.mark_listed(true),
            Expr::Call(call) => call.returned = true,
            Expr::Local(slot) => {
                *expr = Expr::Returned(*slot);
                *moved = true;
            }
            _ => (),
        }
    }
    fn returns(block: &mut Block, moved: &mut bool) {
        for stmt in block {
            returns_in(stmt, moved);
        }
    }
    fn returns_in(stmt: &mut Stmt, moved: &mut bool) {
        match stmt {
            Stmt::Return(Some(value)) => mark(value, moved),
            Stmt::If {
                then, otherwise, ..
            } => {
                returns(then, moved);
                returns(otherwise, moved);
            }
            Stmt::While { body, .. } | Stmt::Do { body, .. } | Stmt::Block(body) => {
                returns(body, moved)
            }
            Stmt::For(for_loop) => returns(&mut for_loop.body, moved),
            Stmt::Profiled(p) => returns_in(&mut p.stmt, moved),
            _ => (),
        }
    }
    fn last(block: &mut Block, moved: &mut bool) {
        if let Some(stmt) = block.last_mut() {
            last_of(stmt, moved);
        }
    }
    fn last_of(stmt: &mut Stmt, moved: &mut bool) {
        match stmt {
            Stmt::Expr(value) | Stmt::Call(value) => mark(value, moved),
            Stmt::If {
                then, otherwise, ..
            } => {
                last(then, moved);
                last(otherwise, moved);
            }
            Stmt::Block(inner) => last(inner, moved),
            Stmt::Profiled(p) => last_of(&mut p.stmt, moved),
            _ => (),
        }
    }
    let mut moved = false;
    returns(body, &mut moved);
    last(body, &mut moved);
    moved
}

#[cfg(test)]
mod tests;
