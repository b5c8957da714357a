//! A pair's call passed straight to a native method (`board.get(cell(x, y))`): the pair's two
//! integers go to the method's form taking them ([`crate::walker::native_table::PairTaker`]),
//! and the value they stand for (a cell) is never made. Rhai counts the same operations as for
//! the chain as written; where the method's form does not apply (other types, a value Rhai
//! must handle), the value is made and the chain goes on as it would have.

use std::any::TypeId;

use rhai::{Dynamic, Map, Position, StaticVec, INT};

use super::{
    chain::{property, property_mut, takes_push, Counted, Gathered},
    reads::IntRead,
    with_args, with_position_if_none, Error, Flow, Frame, List, Runner, Stop,
};
use crate::walker::lists::NativeList;
use crate::walker::native_table::{Pair, PairReader};
use crate::walker::{
    ArrayMethod, Call, Callee, Chain, Expr, Gathering, IntOp, IntOperand, PairPlan, Resolved, Root,
    Shape, Site, Step,
};

/// Whether the function a site resolved may read `item` at a variable's cell by its
/// [`PairReader`] (`split_compared`, `split_read`): a function of two arguments, called as
/// `call_in_place` calls it — Rhai calls one that needs its context, or one that would change
/// a constant (it words that error), itself. The types are not looked at here: the reader and
/// the [`crate::walker::native_table::PairSplit`] the site found are those of its types, and
/// each gives `None` for a value of another type (the caller then reads the chain as before).
fn split_fits(r: &Resolved, item: &Dynamic) -> bool {
    r.types.len() == 2
        && r.func.is_some()
        && r.reads_only
        && !r.context
        && !item.is_map()
        && (r.pure || !item.is_read_only())
}

/// A pair's call, counted, whose value is not made yet: its integers.
pub(super) struct Pending {
    /// The pair its site found (kept: a call made while the chain's other arguments are
    /// evaluated may find another function at the same site).
    pair: Pair,
    a: INT,
    b: INT,
}

impl Pending {
    /// The value the call makes.
    pub(super) fn make(&self) -> Dynamic {
        (self.pair.make)(self.a, self.b)
    }
}

/// A read in place of a chain `x.f(g(a, b))` or `x.p.f(g(a, b))` (see
/// [`Runner::pair_in_place`]): what it reads, looked at before anything is counted.
struct PairRead<'c> {
    /// The slot of the variable `x`.
    i: usize,
    /// `g(a, b)`.
    call: &'c Call,
    /// `p`, if the method is called on a property.
    prop: Option<&'c str>,
    /// Where the method's call is.
    pos: Position,
    a: INT,
    b: INT,
    /// The operations Rhai counts evaluating the pair's two arguments (two where each is a
    /// variable, a literal or a constant; more for a chain or an operator, `p[0]`, `b.y - 1`).
    ops: u64,
}

/// How a read in place with a [`PairPlan`] went.
enum Planned {
    /// Done: its value, or the error Rhai gives.
    Done(Flow<Dynamic>),
    /// The method's form could not read its arguments: nothing counted, the chain is read as
    /// written.
    Declined,
    /// The value the method is called on is not of the plan's type (or is a constant the
    /// method would change): nothing counted.
    Other,
}

/// The operations Rhai counts reading `chain` as `read` reads it (see
/// [`Runner::pair_in_place`]), up to its method's call: each link, the argument's expression,
/// the pair's two arguments (`read.ops`) and its call, the variable, the property's look-up (if
/// the method is called on one) and the method's call.
///
/// They are counted at once, without their positions (the pair's call and the method's have
/// one): where the budget stops the call among them, its error is a system exception, which
/// takes the position of the function's call when it leaves it, as in Rhai (see
/// [`Runner::int_reads`]); the budget is given the count only.
#[inline(always)]
fn pair_read_ops(chain: &Chain, read: &PairRead) -> u64 {
    chain.steps.len() as u64 + 4 + read.ops + u64::from(read.prop.is_some())
}

/// Whether a call site's argument types are two integers, the arguments of a [`Pair`].
fn two_ints(types: &[TypeId]) -> bool {
    let int = TypeId::of::<INT>();
    matches!(types, [p, q] if *p == int && *q == int)
}

/// Whether `chain`'s argument is a call of two arguments each of which may be an integer where
/// it is, as [`Runner::pair_compared`] reads them (see [`Runner::pair_int`]): a variable, a
/// literal, a constant, a chain (`p[0]`, `c.x`) or an operator (`b.y - 1`). Looked at before
/// calling it, as other pairs' calls are common.
#[inline(always)]
pub(super) fn integers_in_place(chain: &Chain) -> bool {
    let in_place = |arg: &Expr| {
        matches!(
            arg,
            Expr::Local(_)
                | Expr::Value(_)
                | Expr::Constant(..)
                | Expr::Chain(_)
                | Expr::Binary { .. }
        )
    };
    matches!(chain.args.as_slice(), [Expr::Call(call)] if matches!(call.args.as_slice(), [a, b] if in_place(a) && in_place(b)))
}

/// The plan of a read in place (see [`PairPlan`]) from what the pair's call site (`call`'s)
/// and the method's (`site`) found, if they found a pair of two integers and a form of the
/// method taking it.
fn pair_plan(call: &Call, site: &Site) -> Option<PairPlan> {
    let made = {
        let found = call.site.0.borrow();
        let r = found.as_ref()?;
        if !two_ints(&r.types) {
            return None;
        }
        r.pair.as_ref()?.made
    };
    let resolved = site.0.borrow();
    let r = resolved.as_ref()?;
    // Rhai calls a function that needs its context.
    if !r.method || r.context || r.types.len() != 2 || r.types[1] != made {
        return None;
    }
    Some(PairPlan {
        receiver: r.types[0],
        taker: r.pair_taker.clone()?,
        reader: r.pair_reader,
        prop: None,
        pos: Position::NONE,
        reads_only: r.reads_only,
        pure: r.pure,
    })
}

impl Runner<'_> {
    /// The call that is the first argument of `chain`'s only method, where it may be a pair
    /// kept as its integers: a native call of two arguments whose site found a pair, in a read
    /// of a variable's value or property whose method is native.
    #[inline]
    pub(super) fn pair_argument<'c>(
        &self,
        frame: &Frame,
        chain: &'c Chain,
        assign: bool,
    ) -> Option<&'c Call> {
        // Most chains fail the first test: their first argument is not a call of two.
        let Some(Expr::Call(call)) = chain.args.first() else {
            return None;
        };
        if call.args.len() != 2 || !matches!(call.callee, Callee::Native) {
            return None;
        }
        let method = match chain.steps.as_slice() {
            [method] | [Step::Prop { .. }, method] => method,
            _ => return None,
        };
        let fits = !assign
            && matches!(chain.root, Root::Local(_))
            && chain.gathering == Gathering::PerLink
            && matches!(method, Step::Method { script: false, args, .. } if *args >= 1)
            && !chain.argument
            && !(chain.returned && self.listing(frame))
            && call
                .site
                .0
                .borrow()
                .as_ref()
                .is_some_and(|r| r.pair.is_some());
        fits.then_some(call)
    }

    /// `x.f(cell(a, b))` or `x.p.f(cell(a, b))`, a read whose method's only argument is a
    /// pair's call (see [`Self::pair_argument`]), gathered as [`Self::chain`] gathers it
    /// without its general machinery, and done where the method's form takes the pair's
    /// integers. `None`, with nothing counted, for any other chain.
    #[inline]
    pub(super) fn pair_read(&mut self, frame: &mut Frame, chain: &Chain) -> Option<Gathered> {
        if chain.args.len() != 1 {
            return None;
        }
        let call = self.pair_argument(frame, chain, false)?;
        Some(self.pair_read_of(frame, chain, call))
    }

    /// [`Self::pair_read`] of `chain`, whose argument is `call`.
    #[inline(never)]
    fn pair_read_of(&mut self, frame: &mut Frame, chain: &Chain, call: &Call) -> Gathered {
        let before = self.global.num_operations;
        // Rhai counts each link, then evaluates the argument (the last link's), then counts
        // the variable.
        if let Err(err) = self.tick_n(chain.steps.len() as u64) {
            return Gathered::Done(Err(err.into()));
        }
        let pending = match self.pair_call(frame, call) {
            Ok(pending) => pending,
            Err(stop) => return Gathered::Done(Err(stop)),
        };
        let gathered = self.global.num_operations - before;
        if let Err(err) = self.tick(Position::NONE) {
            return Gathered::Done(Err(err.into()));
        }
        let value = match (pending, &chain.root) {
            // Rhai's `push` on an array takes the pair's value.
            (Ok(pending), Root::Local(slot))
                if chain.array_method.is_some() && frame.values[frame.index(*slot)].is_array() =>
            {
                pending.make()
            }
            (Ok(pending), Root::Local(slot)) => {
                let i = frame.index(*slot);
                let mut values = [Dynamic::UNIT];
                if let Some(done) = self.pair_taken(frame, chain, i, &pending, &mut values) {
                    return Gathered::Done(done);
                }
                pending.make()
            }
            (Ok(pending), _) => pending.make(),
            (Err(value), _) => value,
        };
        let mut values = StaticVec::new();
        values.push(value);
        Gathered::Values(values, Counted { before, gathered })
    }

    /// `x.f(cell(a, b))` or `x.p.f(cell(a, b))` (see [`Self::pair_read`]) where `a` and `b`
    /// are integers where they are (variables, literals, constants) and `f`'s site found a form
    /// taking the pair's integers for the value it is called on: everything looked at before
    /// anything is counted, the operations Rhai counts before the method's call counted at once
    /// (see [`Self::count_pair_read`]), and no value made for the pair or its arguments. What
    /// the sites found is kept in the chain at its first read (its [`PairPlan`]): the reads
    /// after look only at the value's type. `None`, with nothing counted, where it does not
    /// apply: the chain is then read as before.
    #[inline(never)]
    pub(super) fn pair_in_place(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
    ) -> Option<Flow<Dynamic>> {
        let kept = chain.pair_plan.borrow();
        if let Some(plan) = kept.as_ref() {
            match self.kept_pair(frame, chain, plan) {
                Planned::Done(done) => return Some(done),
                Planned::Declined => return None,
                // The sites may have found the functions for it since.
                Planned::Other => (),
            }
        }
        drop(kept);
        self.first_pair(frame, chain)
    }

    /// The value of `expr`, computed (a comparison's operand, a value declared or assigned to a
    /// variable): a pair's read (`x.p.f(g(a, b))`, see [`Self::pair_in_place`]) straight to its
    /// read in place, without the steps [`Self::chain`] takes to reach it (none of which applies
    /// to it); any other expression evaluated.
    #[inline(always)]
    pub(super) fn computed_operand(&mut self, frame: &mut Frame, expr: &Expr) -> Flow<Dynamic> {
        if let Expr::Chain(chain) = expr {
            if chain.shape.get() == Shape::Pair && chain.array_method.is_none() {
                return match self.pair_in_place(frame, chain) {
                    Some(done) => done,
                    None => self.walked_chain(frame, chain, None, None),
                };
            }
        }
        self.eval(frame, expr)
    }

    /// The condition `x.f(cell(a, b)) op n` or `x.p.f(cell(a, b)) op n`, `op` comparing (see
    /// [`Self::computed_comparison`], which has counted nothing yet), where `chain`'s kept plan
    /// reads an integer by the method's [`PairReader`] (`board.get(cell(x, y)) == theirs`):
    /// the integer read and compared with `rhs`'s, no value made for it. The reader changes
    /// nothing, so it is called first (`rhs` is read before the chain rather than after: the
    /// chain changes nothing either); then the operations Rhai counts are counted at once with
    /// `counted` (the statement's): the operator's, the left operand's expression, the chain's
    /// as [`Self::count_pair_read`] counts them (with the pair's arguments' as
    /// [`Self::pair_int`] reads them: `cell(p[0], p[1])`, `cell(b.x, b.y - 1)`), and the right
    /// operand's. `None`, with nothing counted or changed, where the plan has no reader
    /// or changes the value it is called on, the chain does not fit its plan, or the reader
    /// gives no integer (another type, or an error Rhai's path words): the comparison is then
    /// made as before.
    #[inline(never)]
    pub(super) fn pair_compared(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        op: IntOp,
        rhs: IntOperand,
        counted: u64,
    ) -> Option<Flow<bool>> {
        let ([Expr::Call(call)], Root::Local(slot)) = (chain.args.as_slice(), &chain.root) else {
            return None;
        };
        let i = frame.index(*slot);
        let kept = chain.pair_plan.borrow();
        let plan = kept.as_ref().filter(|plan| plan.reads_only)?;
        let reader = plan.reader?;
        if chain.returned && self.listing(frame) {
            return None;
        }
        let prop = plan.prop.as_deref();
        let read = self.pair_operands(frame, call, i, prop, plan.pos)?;
        let y = self.int_of(frame, rhs)?;
        // Rhai calls a function that would change a constant (it words that error).
        let callable = |item: &Dynamic| plan.pure || !item.is_read_only();
        let target = &frame.values[i];
        let value = match prop {
            None => callable(target).then(|| reader(target, read.a, read.b))?,
            Some(name) => {
                let map = target.read_lock::<Map>()?;
                let item = property(&map, name).filter(|item| callable(item))?;
                reader(item, read.a, read.b)
            }
        };
        let Some(Ok(x)) = value else {
            return None;
        };
        frame.touch(i);
        // The operator's operation and the left operand's, then the chain's (see
        // `count_pair_read`), then the right operand's: by `tick_at_each_of`, whose look at
        // one report is made in place (most such conditions meet one: they count 13 or more of
        // the 16 operations between two reports).
        let chain_ops = pair_read_ops(chain, &read);
        drop(kept);
        let ticked =
            self.tick_at_each_of((counted + 2 + chain_ops + 1) as usize, |_| Position::NONE);
        Some(match ticked {
            Ok(()) => Ok(op.compare(x, y)),
            Err(err) => Err(err.into()),
        })
    }

    /// The condition `x.f(c) op n`, `c` a variable holding a pair's value (a cell), where `f`'s
    /// site found a [`PairReader`] and the integers of `c`'s type (see
    /// [`crate::walker::native_table::PairSplit`]): `board.get(c) == theirs` read as [`Self::pair_compared`] reads
    /// `board.get(cell(c.x, c.y)) == theirs`, nothing copied and no value made, the operations
    /// Rhai counts for the comparison (the operator's, the left operand's expression, the
    /// chain's as [`Self::call_in_place`] counts them, the right operand's) counted in one
    /// [`Self::tick_at_each_of`] with `counted` (the statement's). `None`, with nothing counted
    /// or changed, where the site found other types or a function that may change its first
    /// argument, or the reader gives no integer: the comparison is then made as before.
    #[inline(never)]
    pub(super) fn split_compared(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        op: IntOp,
        rhs: IntOperand,
        counted: u64,
    ) -> Option<Flow<bool>> {
        let (
            Root::Local(slot),
            [Expr::Local(at)],
            [Step::Method {
                args: 1,
                script: false,
                pos,
                site,
                ..
            }],
        ) = (&chain.root, chain.args.as_slice(), chain.steps.as_slice())
        else {
            return None;
        };
        if chain.argument || chain.returned {
            return None;
        }
        let (i, j) = (frame.index(*slot), frame.index(*at));
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let (reader, split) = (r.pair_reader?, r.pair_split?);
        let (target, arg) = (&frame.values[i], &frame.values[j]);
        if !split_fits(r, target) {
            return None;
        }
        let (a, b) = split(arg)?;
        let y = self.int_of(frame, rhs)?;
        let Some(Ok(x)) = reader(target, a, b) else {
            return None;
        };
        drop(resolved);
        frame.touch(i);
        // The operator's operation and the left operand's, then the chain's: the link and the
        // argument's expression (where gathered so), the variable, the call.
        let gathered = if chain.gathering == Gathering::PerLink {
            2
        } else {
            0
        };
        let call = counted as usize + 2 + gathered + 1;
        let pos = *pos;
        let ticked =
            self.tick_at_each_of(call + 2, |at| if at == call { pos } else { Position::NONE });
        Some(match ticked {
            Ok(()) => Ok(op.compare(x, y)),
            Err(err) => Err(err.into()),
        })
    }

    /// `x.f(c)` or `x.p.f(c)`, `c` a variable holding a pair's value (a cell), read as a value
    /// (`let there = board.get(c)`, a function's argument: `owns(turn, state.board.get(c))`)
    /// where `f`'s site found a [`PairReader`] and the integers of `c`'s type: the integer read
    /// as [`Self::split_compared`] reads it, no argument taken from its slot nor value made
    /// but the integer's, the operations Rhai counts for the chain counted as
    /// [`Self::call_in_place`] and [`Self::property_call_in_place`] count them (each link and
    /// the argument's expression where gathered so, the variable, the property's look-up, the
    /// call), at once (see [`pair_read_ops`] for their positions). `None`, with nothing
    /// counted or changed, where the site found other types or a function that may change its
    /// first argument, or the reader gives no integer (another type, or an error: the chain is
    /// then read as before, and Rhai's words given).
    #[inline(never)]
    pub(super) fn split_read(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        i: usize,
    ) -> Option<Flow<Dynamic>> {
        let [Expr::Local(at)] = chain.args.as_slice() else {
            return None;
        };
        let (prop, site) = match chain.steps.as_slice() {
            [Step::Method {
                args: 1,
                script: false,
                site,
                ..
            }] => (None, site),
            [Step::Prop { name, .. }, Step::Method {
                args: 1,
                script: false,
                site,
                ..
            }] if chain.gathering == Gathering::PerLink => (Some(name.as_str()), site),
            _ => return None,
        };
        if chain.argument || chain.returned || chain.array_method.is_some() {
            return None;
        }
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let (reader, split) = (r.pair_reader?, r.pair_split?);
        let arg = &frame.values[frame.index(*at)];
        let value = {
            let target = &frame.values[i];
            let map;
            let item = match prop {
                None => target,
                Some(name) => {
                    map = target.read_lock::<Map>()?;
                    property(&map, name)?
                }
            };
            if !split_fits(r, item) {
                return None;
            }
            let (a, b) = split(arg)?;
            let Some(Ok(value)) = reader(item, a, b) else {
                return None;
            };
            value
        };
        drop(resolved);
        // Each link and the argument's expression (where gathered so), the variable, the
        // property's look-up, the call.
        let ops = match prop {
            Some(_) => 6,
            None if chain.gathering == Gathering::PerLink => 4,
            None => 2,
        };
        frame.touch(i);
        Some(
            self.tick_n(ops)
                .map(|()| Dynamic::from_int(value))
                .map_err(Into::into),
        )
    }

    /// [`Self::pair_in_place`] with the plan `chain` kept: its shape was looked at when the
    /// plan was made (it does not change), what may change is looked at here.
    #[inline(always)]
    fn kept_pair(&mut self, frame: &mut Frame, chain: &Chain, plan: &PairPlan) -> Planned {
        let ([Expr::Call(call)], Root::Local(slot)) = (chain.args.as_slice(), &chain.root) else {
            return Planned::Declined;
        };
        let i = frame.index(*slot);
        if (chain.array_method.is_some() && frame.values[i].is_array())
            || (chain.returned && self.listing(frame))
        {
            return Planned::Declined;
        }
        let Some(read) = self.pair_operands(frame, call, i, plan.prop.as_deref(), plan.pos) else {
            return Planned::Declined;
        };
        self.planned_pair(frame, chain, &read, plan)
    }

    /// [`Self::pair_in_place`] of a chain with no plan kept, or whose plan did not fit the
    /// value: the chain's shape looked at, and the plan made from what the sites found.
    fn first_pair(&mut self, frame: &mut Frame, chain: &Chain) -> Option<Flow<Dynamic>> {
        let (Root::Local(slot), [Expr::Call(call)]) = (&chain.root, chain.args.as_slice()) else {
            return None;
        };
        let (prop, pos, site) = match chain.steps.as_slice() {
            [Step::Method {
                args: 1,
                script: false,
                pos,
                site,
                ..
            }] => (None, *pos, site),
            [Step::Prop { name, .. }, Step::Method {
                args: 1,
                script: false,
                pos,
                site,
                ..
            }] => (Some(name.as_str()), *pos, site),
            _ => return None,
        };
        let fits = call.args.len() == 2
            && matches!(call.callee, Callee::Native)
            && chain.gathering == Gathering::PerLink
            && !chain.argument
            && !(chain.returned && self.listing(frame));
        if !fits {
            return None;
        }
        let read = self.pair_operands(frame, call, frame.index(*slot), prop, pos)?;
        // `list.push(cell(x, y))` on an array: Rhai's array method, which takes no pair but
        // its value.
        if chain.array_method.is_some() && frame.values[read.i].is_array() {
            return self.pair_pushed(frame, chain, &read);
        }
        let plan = pair_plan(call, site)?;
        match self.planned_pair(frame, chain, &read, &plan) {
            Planned::Done(done) => {
                *chain.pair_plan.borrow_mut() = Some(PairPlan {
                    prop: prop.map(Box::from),
                    pos,
                    ..plan
                });
                Some(done)
            }
            Planned::Declined | Planned::Other => None,
        }
    }

    /// What a read in place (of a shape [`Self::first_pair`] takes) whose argument is `call`,
    /// on the variable in slot `i` or its property `prop`, with the method's call at `pos`,
    /// reads: `None` where the pair's arguments are not integers where they are.
    #[inline(always)]
    fn pair_operands<'c>(
        &self,
        frame: &Frame,
        call: &'c Call,
        i: usize,
        prop: Option<&'c str>,
        pos: Position,
    ) -> Option<PairRead<'c>> {
        // The pair's integers: a first argument that is a variable is passed by reference
        // (counted, then read), any other is evaluated; each is read where it is.
        let (a, first) = match call.first_local {
            Some(at) => (frame.values[frame.index(at)].as_int().ok()?, 1),
            None => self.pair_arg(frame, &call.args[0])?,
        };
        let (b, second) = self.pair_arg(frame, &call.args[1])?;
        Some(PairRead {
            i,
            call,
            prop,
            pos,
            a,
            b,
            ops: first + second,
        })
    }

    /// The integer a pair's argument `expr` holds where it is, and the operations Rhai counts
    /// evaluating it: one for a variable, a literal or a constant, read here; others as
    /// [`Self::pair_int`] reads them.
    #[inline(always)]
    fn pair_arg(&self, frame: &Frame, expr: &Expr) -> Option<(INT, u64)> {
        match expr {
            Expr::Chain(_) | Expr::Binary { .. } => self
                .pair_int(frame, expr)
                .map(|read| (read.value, read.ops)),
            _ => Some((self.int_at(frame, expr)?, 1)),
        }
    }

    /// The integer `expr`, a pair's argument, holds where it is, read as [`Self::expr`]
    /// would read it (without counting), with the operations Rhai counts evaluating it (its
    /// expression's own included): a variable, a literal, a constant, or a chain of
    /// [`Self::int_read`] (`p[0]`, `c.x`), or `+ - * / %` on such operands (`b.y - 1`,
    /// `c.x + d[0]`: the operator's operation, then its operands'). `None` where an operand
    /// holds no integer there (or its chain's quick read would not apply) or the operator
    /// fails (overflow, division by zero: Rhai words the error): the pair's call is then
    /// evaluated as written.
    #[inline(never)]
    fn pair_int(&self, frame: &Frame, expr: &Expr) -> Option<IntRead> {
        let Expr::Binary { op, args, .. } = expr else {
            return self.int_read(frame, expr);
        };
        let [lhs, rhs] = &args.args;
        let (x, y) = (self.pair_int(frame, lhs)?, self.pair_int(frame, rhs)?);
        Some(IntRead {
            value: op.checked(x.value, y.value)?,
            ops: 1 + x.ops + y.ops,
        })
    }

    /// `list.push(cell(a, b))` (see [`Self::pair_in_place`]) on the array in `read`'s slot:
    /// the operations Rhai counts up to the push's call counted at once (see
    /// [`Self::count_pair_read`]), the pair's value made from its integers and pushed by
    /// [`Self::push_called`], without gathering it. `None`, with nothing
    /// counted, where the pair's site found no pair of two integers or the array takes no push
    /// (a constant, a shared value).
    #[inline(never)]
    fn pair_pushed(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        read: &PairRead,
    ) -> Option<Flow<Dynamic>> {
        if chain.array_method != Some(ArrayMethod::Push) || read.prop.is_some() {
            return None;
        }
        // The pair's value is made anew, so it is not shared: what the array's push asks of
        // an item (see `takes_array_method`) is known from its type.
        if !takes_push(&frame.values[read.i]) {
            return None;
        }
        let item = {
            let found = read.call.site.0.borrow();
            let r = found.as_ref()?;
            let pair = r.pair.as_ref().filter(|_| two_ints(&r.types))?;
            if pair.made == TypeId::of::<NativeList>() {
                return None;
            }
            (pair.make)(read.a, read.b)
        };
        if let Err(err) = self.count_pair_read(chain, read) {
            return Some(Err(err.into()));
        }
        // What the push changes, a lent state is copied first (see `chain`).
        self.before_change(frame, read.i);
        Some(self.push_called(frame, read.i, item, None, read.pos))
    }

    /// `cell(a, b)` evaluated (see [`Self::call_by_name`]) where `a` and `b` are integers where
    /// they are (variables, literals, constants) and the call's site found a pair of two
    /// integers (see [`Pair`]): the value made from them, counted as Rhai counts the call (the
    /// first argument, at the call if it is a variable, the second, then the call). `None`,
    /// with nothing counted, where that does not apply.
    #[inline]
    pub(super) fn pair_made(&mut self, frame: &Frame, call: &Call) -> Option<Flow<Dynamic>> {
        let [first, second] = call.args.as_slice() else {
            return None;
        };
        if !matches!(call.callee, Callee::Native) {
            return None;
        }
        let (a, b) = (self.int_at(frame, first)?, self.int_at(frame, second)?);
        let found = call.site.0.borrow();
        let r = found.as_ref()?;
        let pair = r.pair.as_ref().filter(|_| two_ints(&r.types))?;
        let first_pos = if call.first_local.is_some() {
            call.pos
        } else {
            Position::NONE
        };
        if let Err(err) = self.tick_3(first_pos, call.pos) {
            return Some(Err(err.into()));
        }
        Some(Ok((pair.make)(a, b)))
    }

    /// [`Self::pair_in_place`] of `read` with `plan`, where the value the method is called on
    /// is of the plan's type.
    #[inline(always)]
    fn planned_pair(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        read: &PairRead,
        plan: &PairPlan,
    ) -> Planned {
        let i = read.i;
        let before = self.global.num_operations;
        // What Rhai's call would change, a lent state is copied first (see `chain`).
        if !plan.reads_only {
            self.before_change(frame, i);
        }
        frame.touch(i);
        let target = &mut frame.values[i];
        let mut map;
        let item = match read.prop {
            None => target,
            Some(name) => {
                let Some(lock) = target.write_lock::<Map>() else {
                    return Planned::Other;
                };
                map = lock;
                let Some(item) = property_mut(&mut map, name) else {
                    return Planned::Other;
                };
                item
            }
        };
        // Rhai calls a function that would change a constant (it words that error).
        if !plan.pure && item.is_read_only() {
            return Planned::Other;
        }
        if let Some(reader) = plan.reader {
            return self.pair_reader_called(chain, read, reader, item);
        }
        if item.is_map() || item.type_id() != plan.receiver {
            return Planned::Other;
        }
        if let Err(err) = self.count_pair_read(chain, read) {
            return Planned::Done(Err(err.into()));
        }
        // The form reads its arguments where they are; where it cannot, the chain is read as
        // before, from its start.
        let Some(result) = (plan.taker)(&mut [&mut *item], read.a, read.b) else {
            self.set_operations(before);
            return Planned::Declined;
        };
        let checked: Result<Dynamic, Error> =
            self.checked_native_result(result, Some(item), read.pos);
        Planned::Done(checked.map_err(Stop::from))
    }

    /// [`Self::planned_pair`] by the method's [`PairReader`] (`reader`) on `item`: the integer
    /// it reads, with the operations Rhai counts before the call; nothing counted where `item`
    /// is not of the reader's type. The reader changes nothing: it is called before they are
    /// counted, its value or error given after.
    #[inline(always)]
    fn pair_reader_called(
        &mut self,
        chain: &Chain,
        read: &PairRead,
        reader: PairReader,
        item: &Dynamic,
    ) -> Planned {
        let Some(value) = reader(item, read.a, read.b) else {
            return Planned::Other;
        };
        if let Err(err) = self.count_pair_read(chain, read) {
            return Planned::Done(Err(err.into()));
        }
        Planned::Done(match value {
            Ok(value) => Ok(Dynamic::from_int(value)),
            Err(err) => Err(with_position_if_none(err, read.pos).into()),
        })
    }

    /// Counts what Rhai counts reading `chain` (see [`Self::pair_in_place`]) as `read` reads
    /// it, up to its method's call (see [`pair_read_ops`]), as [`Self::pair_compared`] counts.
    #[inline(always)]
    fn count_pair_read(&mut self, chain: &Chain, read: &PairRead) -> Result<(), Error> {
        self.tick_at_each_of(pair_read_ops(chain, read) as usize, |_| Position::NONE)
    }

    /// Evaluates `call` (see [`Self::pair_argument`]) as an argument of a chain, as Rhai does:
    /// its two integers if it makes a pair from them, else its value.
    #[inline(never)]
    pub(super) fn pair_call(
        &mut self,
        frame: &mut Frame,
        call: &Call,
    ) -> Flow<Result<Pending, Dynamic>> {
        // Rhai counts the argument's expression, then evaluates the call as `call_by_name`
        // does: the second argument, then a first that is a variable (counted first).
        self.tick(Position::NONE)?;
        let first = match call.first_local {
            Some(_) => {
                self.tick(call.pos)?;
                None
            }
            None => Some(self.expr(frame, &call.args[0])?),
        };
        // A second argument that is an integer where it is (a variable, a literal) is read
        // there: its expression's operation is counted.
        let (second, b) = match self.int_at(frame, &call.args[1]) {
            Some(b) => {
                self.tick(Position::NONE)?;
                (None, Some(b))
            }
            None => {
                let second = self.expr(frame, &call.args[1])?;
                let b = second.as_int().ok();
                (Some(second), b)
            }
        };
        let a = match (&first, call.first_local) {
            (Some(value), _) => value.as_int().ok(),
            (None, Some(slot)) => frame.values[frame.index(slot)].as_int().ok(),
            (None, None) => None,
        };
        if let (Some(a), Some(b)) = (a, b) {
            let pair = call
                .site
                .0
                .borrow()
                .as_ref()
                .and_then(|r| r.pair.as_ref().filter(|_| two_ints(&r.types)).cloned());
            if let Some(pair) = pair {
                // Rhai counts the call.
                self.tick(call.pos)?;
                return Ok(Ok(Pending { pair, a, b }));
            }
        }
        // The second argument read in place is copied, as evaluating it copies it.
        let second = match second {
            Some(second) => second,
            None => self.peek(frame, &call.args[1]).cloned().unwrap_or_default(),
        };
        let values: StaticVec<Dynamic> = first.into_iter().chain([second]).collect();
        Ok(Err(self.call_native(frame, call, values, List::No)?))
    }

    /// `chain`'s method called on the variable in slot `i` (or its property) with the `pending`
    /// pair's integers for its first argument (`values` holds the others after a place for
    /// it), where its site found a form taking them for these types. `None`, having counted
    /// nothing, where it did not: the pair's value is then made and the chain walked.
    #[inline(never)]
    pub(super) fn pair_taken(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        i: usize,
        pending: &Pending,
        values: &mut [Dynamic],
    ) -> Option<Flow<Dynamic>> {
        let (prop, method) = match chain.steps.as_slice() {
            [method] => (None, method),
            [Step::Prop { name, .. }, method] => (Some(name), method),
            _ => return None,
        };
        let Step::Method {
            name,
            args,
            script: false,
            pos,
            site,
        } = method
        else {
            return None;
        };
        let (pos, args) = (*pos, *args);
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let taker = r.pair_taker.as_ref()?;
        let types = r.types.as_slice();
        let fits = r.method
            && types.len() == args + 1
            && types[1] == pending.pair.made
            && (args == 1
                || types[2..]
                    .iter()
                    .zip(&values[1..args])
                    .all(|(t, v)| *t == v.type_id()));
        if !fits {
            return None;
        }
        // Rhai calls a function that needs its context, or one that would change a constant
        // (it words that error).
        // The site's function is kept borrowed until it is called (the form calls nothing
        // of the walker's).
        let (of, reads_only, context, pure) = (r.types[0], r.reads_only, r.context, r.pure);
        // What Rhai's call would change, a lent state is copied first (see `chain`).
        if self.lent_unchanged(frame, i) && !reads_only {
            self.before_change(frame, i);
        }
        frame.touch(i);
        let target = &mut frame.values[i];
        let mut map;
        let item = match prop {
            None if target.is_map() => return None,
            None => target,
            Some(name) => {
                map = target.write_lock::<Map>()?;
                property_mut(&mut map, name).filter(|item| !item.is_map())?
            }
        };
        if item.type_id() != of || context || (!pure && item.is_read_only()) {
            return None;
        }
        // Rhai counts the property's look-up, then the call.
        let counted = match prop {
            Some(_) => self.tick(Position::NONE).and_then(|()| self.tick(pos)),
            None => self.tick(pos),
        };
        if let Err(err) = counted {
            return Some(Err(err.into()));
        }
        let rest = &mut values[1..args];
        let (a, b) = (pending.a, pending.b);
        let Some(result) = with_args(item, rest, |refs| taker(refs, a, b)) else {
            drop(resolved);
            // The form could not read its arguments: the call as written.
            self.untick();
            values[0] = pending.make();
            let called = with_args(item, &mut values[..args], |refs| {
                self.native(site, name, true, refs, pos, List::No)
            });
            return Some(called.map_err(Stop::from));
        };
        drop(resolved);
        let checked: Result<Dynamic, Error> = self.checked_native_result(result, Some(item), pos);
        Some(checked.map_err(Stop::from))
    }
}
