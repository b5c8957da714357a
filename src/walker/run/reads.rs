//! The commonest reads through a chain from a variable, done in place before the chain's
//! general machinery ([`Runner::chain`]) is set up: an array's item by a literal or a
//! variable's integer (`d[0]`, `line[i]`, `state.pits[i]`), a native value's getter (`c.x`),
//! and a native method whose arguments are variables or literals, through its plain form
//! (`board.get(c)`, `seen.set(n, 1)`: see [`crate::walker::native_table::Typed`]). Nothing is
//! copied but the value read, no argument list is built, and each counts the operations Rhai
//! counts for the chain as written. Each looks first, without counting or changing anything,
//! whether it applies (the types, the index within the array, the function the call site
//! found); where it does not, the chain is walked as before.

use rhai::{Array, Dynamic, Map, Position, INT};

use super::{
    chain::{property, property_mut},
    plain, set_int, with_args, with_first_copied, Flow, Frame, List, Runner,
};
use crate::walker::{
    native_table::Typed, Chain, Expr, FieldPlan, Gathering, IntOp, OpAssign, Resolved, Root, Shape,
    Slot, Step,
};

/// The most arguments of a method called in place (more go through the general walk).
const MOST_ARGS: usize = 2;

/// An operator's operand read as an integer where it is (see [`Runner::int_reads`]).
pub(super) struct IntRead {
    pub(super) value: INT,
    /// The operations Rhai counts evaluating the operand, its expression's own included.
    pub(super) ops: u64,
}

impl Runner<'_> {
    /// `chain`, a read from a variable, done in place where it has one of the shapes above;
    /// `None`, with nothing counted or changed, where it has not.
    #[inline]
    pub(super) fn quick_read(&mut self, frame: &mut Frame, chain: &Chain) -> Option<Flow<Dynamic>> {
        let Root::Local(slot) = chain.root else {
            return None;
        };
        let i = frame.index(slot);
        match chain.steps.as_slice() {
            [Step::Index] => self.item(frame, chain, i),
            [Step::Prop { name, .. }, Step::Index] => self.property_item(frame, chain, i, name),
            [Step::Prop { .. }] if chain.array_method.is_none() => {
                if frame.values[i].is_map() {
                    return None;
                }
                if let Some(done) = self.getter_in_place(frame, chain, i) {
                    return Some(done);
                }
                if let Some(done) = self.call_in_place(frame, chain, i) {
                    return Some(done);
                }
                // Rhai counts the variable, then calls the getter.
                if let Err(err) = self.tick(Position::NONE) {
                    return Some(Err(err.into()));
                }
                frame.touch(i);
                self.getter(chain, &mut frame.values[i])
            }
            // A reader at a variable's cell first (`board.get(c)`, see `Runner::split_read`).
            [Step::Method { script: false, .. }] if chain.array_method.is_none() => self
                .split_read(frame, chain, i)
                .or_else(|| self.call_in_place(frame, chain, i)),
            [Step::Prop { name, .. }, Step::Method { script: false, .. }] => self
                .split_read(frame, chain, i)
                .or_else(|| self.property_call_in_place(frame, chain, i, name)),
            _ => None,
        }
    }

    /// `x[k]` on an array in slot `i`, `k` a literal or a variable holding an index within it.
    #[inline]
    fn item(&mut self, frame: &Frame, chain: &Chain, i: usize) -> Option<Flow<Dynamic>> {
        // Rhai takes a literal index as written; it counts the link and the expression of any
        // other. Then it counts the variable.
        let (index, counted) = match (chain.gathering, chain.args.as_slice()) {
            (Gathering::LiteralIndex, [Expr::Value(index)]) => (index, 1),
            (Gathering::PerLink, [Expr::Local(at)]) => (&frame.values[frame.index(*at)], 3),
            _ => return None,
        };
        let index = usize::try_from(index.as_int().ok()?).ok()?;
        let item = plain::copy(frame.values[i].read_lock::<Array>()?.get(index)?);
        // And the item's look-up.
        Some(self.tick_n(counted + 1).map(|()| item).map_err(Into::into))
    }

    /// `x.p` on a native value in slot `i` (not a map) whose getter has a plain form found
    /// at its site (`c.x`): [`Self::call_in_place`] of a call without arguments, with less to
    /// look at. `None`, with nothing counted, where the form does not apply or gives an error
    /// (`call_in_place` then reads it).
    #[inline]
    fn getter_in_place(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        i: usize,
    ) -> Option<Flow<Dynamic>> {
        let [Step::Prop { pos, site, .. }] = chain.steps.as_slice() else {
            return None;
        };
        if chain.argument || chain.returned || chain.gathering != Gathering::Nothing {
            return None;
        }
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let target = &mut frame.values[i];
        let fits = r.func.is_some()
            && !r.context
            && matches!(r.types.as_slice(), [t] if *t == target.type_id())
            && (r.pure || !target.is_read_only());
        if !fits {
            return None;
        }
        if let Some(reader) = r.field {
            // Kept for the reads after (see `FieldPlan`).
            let plan = FieldPlan {
                reader,
                pure: r.pure,
            };
            drop(resolved);
            chain.field_plan.set(Some(plan));
            return self.field_read(&frame.values[i], *pos, plan);
        }
        let typed = r.typed.as_ref()?;
        let before = self.global.num_operations;
        // Rhai counts the variable, then the getter's call.
        if let Err(err) = self.tick(Position::NONE).and_then(|()| self.tick(*pos)) {
            return Some(Err(err.into()));
        }
        frame.touch(i);
        let target = &mut frame.values[i];
        let Some(Ok(value)) = typed(&mut [&mut *target]) else {
            // Rhai's form, or the error's wording: read as before, from the start.
            self.set_operations(before);
            return None;
        };
        drop(resolved);
        Some(
            self.checked_native_result(Ok(value), Some(target), *pos)
                .map_err(Into::into),
        )
    }

    /// `x.p` on `target`, a variable's native value, by the getter's form reading an integer
    /// field kept in `plan` (see [`FieldPlan`]): Rhai counts the variable, then the getter's
    /// call at `pos`. The reader changes nothing and cannot fail, so nothing is checked after
    /// it. `None`, with nothing counted, where the value is not of the reader's type, is
    /// shared, or is a constant the getter (not pure) may not be called on.
    #[inline(always)]
    pub(super) fn field_read(
        &mut self,
        target: &Dynamic,
        pos: Position,
        plan: FieldPlan,
    ) -> Option<Flow<Dynamic>> {
        if target.is_shared() || (!plan.pure && target.is_read_only()) {
            return None;
        }
        let field = (plan.reader)(target)?;
        Some(
            self.tick(Position::NONE)
                .and_then(|()| self.tick(pos))
                .map(|()| Dynamic::from_int(field))
                .map_err(Into::into),
        )
    }

    /// The binary operator `op` on `args`, each an integer read where it is (a variable, a
    /// literal, a constant, or a chain of [`crate::walker::int_read_chain`]: `c.x + d[0]`):
    /// computed from the integers, the operations Rhai counts for the operands (the left's,
    /// then the right's) counted after. No operand's value is made, nor the chains' reads set
    /// up. `None`, with nothing counted, where an operand holds no integer there (or the
    /// chain's quick read would not apply) or the operator fails: the operator is then
    /// evaluated as before.
    ///
    /// The operations are counted without their positions (a getter's call has one): where
    /// the budget stops the call among them, no script or host sees where. Its errors are
    /// system exceptions, which a script cannot catch and which take the position of the
    /// function's call when they leave it (Rhai's `call_script_fn`, and the walker's
    /// `function_error`), and the budget's callback is given the count only.
    #[inline(never)]
    pub(super) fn int_reads(
        &mut self,
        frame: &Frame,
        op: IntOp,
        args: &[Expr; 2],
    ) -> Option<Flow<Dynamic>> {
        let lhs = self.int_read(frame, &args[0])?;
        let rhs = self.int_read(frame, &args[1])?;
        let value = op.apply(lhs.value, rhs.value)?;
        Some(
            self.tick_n(lhs.ops + rhs.ops)
                .map(|()| value)
                .map_err(Into::into),
        )
    }

    /// The condition `lhs op rhs`, `op` comparing and `args` as [`Self::int_reads`] reads them
    /// (`state.pits[i] > 0`, `line[k] == mark`), with `counted` operations counted first
    /// (those of the statement it is in): compared from the integers where they are, the
    /// operator's operation and those Rhai counts for the operands counted after in one
    /// [`Self::tick_n`] with `counted`. `None`, with nothing counted, where the operator does
    /// not compare or an operand holds no integer there: the condition is then evaluated as
    /// before.
    #[inline(never)]
    pub(super) fn int_reads_compared(
        &mut self,
        frame: &Frame,
        op: IntOp,
        args: &[Expr; 2],
        counted: u64,
    ) -> Option<Flow<bool>> {
        if !op.compares() {
            return None;
        }
        let lhs = self.int_read(frame, &args[0])?;
        let rhs = self.int_read(frame, &args[1])?;
        let holds = op.compare(lhs.value, rhs.value);
        Some(
            self.tick_n(counted + 1 + lhs.ops + rhs.ops)
                .map(|()| holds)
                .map_err(Into::into),
        )
    }

    /// `x op= v` on the integer variable in `slot` (at `pos`), `v` a chain reading an integer
    /// where it is (`total += pits[i]`, see [`Self::int_reads`]), the statement's operation
    /// and the value's expression's counted already: the integer read in place, the operations
    /// Rhai counts for the rest of the value and the variable's look-up counted, then the
    /// variable set in place as `Runner::int_assign` sets it. `None`, with nothing counted or
    /// changed, where the value holds no integer there, the variable holds no integer or is
    /// a constant (Rhai words the error), or the operator fails: the value is then computed
    /// as before.
    #[inline(never)]
    pub(super) fn int_read_assign(
        &mut self,
        frame: &mut Frame,
        slot: Slot,
        pos: Position,
        op: &OpAssign,
        value: &Expr,
    ) -> Option<Flow<()>> {
        let read = self.int_read(frame, value)?;
        let i = frame.index(slot);
        let target = &frame.values[i];
        let result = op.int?.checked(plain::int(target)?, read.value)?;
        if target.is_read_only() {
            return None;
        }
        if let Err(err) = self.tick_n_at(read.ops, pos) {
            return Some(Err(err.into()));
        }
        self.before_change(frame, i);
        frame.touch(i);
        set_int(&mut frame.values[i], result);
        Some(Ok(()))
    }

    /// The integer operand `expr` of [`Self::int_reads`] holds where it is, read as
    /// [`Self::expr`] would read it (without counting): a chain as its quick read
    /// ([`Self::item`], [`Self::field_read`]) reads it, under the same conditions.
    #[inline(always)]
    pub(super) fn int_read(&self, frame: &Frame, expr: &Expr) -> Option<IntRead> {
        let Expr::Chain(chain) = expr else {
            // The expression's operation only.
            return Some(IntRead {
                value: self.int_at(frame, expr)?,
                ops: 1,
            });
        };
        let Root::Local(slot) = chain.root else {
            return None;
        };
        let target = &frame.values[frame.index(slot)];
        match (chain.steps.as_slice(), chain.args.as_slice()) {
            // The expression, the variable, the item's look-up.
            ([Step::Index], [Expr::Value(index)]) if chain.gathering == Gathering::LiteralIndex => {
                let index = usize::try_from(index.as_int().ok()?).ok()?;
                let value = plain::int(target.read_lock::<Array>()?.get(index)?)?;
                Some(IntRead { value, ops: 3 })
            }
            // The expression, the variable, the getter's call.
            ([Step::Prop { .. }], []) if chain.shape.get() == Shape::Property => {
                let plan = chain.field_plan.get()?;
                if target.is_shared() || (!plan.pure && target.is_read_only()) {
                    return None;
                }
                Some(IntRead {
                    value: (plan.reader)(target)?,
                    ops: 3,
                })
            }
            _ => int_item_read(frame, chain, target),
        }
    }

    /// `x.name[k]` on a map in slot `i` whose property `name` is an array, `k` a literal or a
    /// variable holding an index within it.
    #[inline]
    fn property_item(
        &mut self,
        frame: &Frame,
        chain: &Chain,
        i: usize,
        name: &str,
    ) -> Option<Flow<Dynamic>> {
        let index = match chain.args.as_slice() {
            [Expr::Value(index)] => index,
            [Expr::Local(at)] => &frame.values[frame.index(*at)],
            _ => return None,
        };
        if chain.gathering != Gathering::PerLink {
            return None;
        }
        let index = usize::try_from(index.as_int().ok()?).ok()?;
        let map = frame.values[i].read_lock::<Map>()?;
        let item = plain::copy(property(&map, name)?.read_lock::<Array>()?.get(index)?);
        drop(map);
        // Rhai counts the two links and the index's expression, the variable, the property's
        // look-up and the item's.
        Some(self.tick_n(6).map(|()| item).map_err(Into::into))
    }

    /// `x.f(args)` (or a getter, `x.p`) on a value that is not a map in slot `i`, `f` native
    /// with a plain form for the arguments' types (found at its call site), each argument a
    /// literal or a variable other than `x` and the other argument: the plain form reads the
    /// variables where they are (it changes no argument but the first), with nothing copied.
    fn call_in_place(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        i: usize,
    ) -> Option<Flow<Dynamic>> {
        let (n, pos, site, method) = match chain.steps.as_slice() {
            [Step::Method {
                args,
                pos,
                site,
                script: false,
                ..
            }] => (*args, *pos, site, true),
            [Step::Prop { pos, site, .. }] => (0, *pos, site, false),
            _ => return None,
        };
        // A list form, or the list the host asked for, goes through the general walk.
        if n > MOST_ARGS || chain.args.len() != n || chain.argument || chain.returned {
            return None;
        }
        let slots = arg_slots(frame, chain, i)?;
        let target = &frame.values[i];
        if target.is_map() {
            return None;
        }
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let typed = plain_form(chain, r, method)?;
        let func = r.func.as_ref()?;
        let call = func.get_native_fn()?;
        let argument = |k: usize| match (&chain.args[k], slots[k]) {
            (_, Some(j)) => frame.values[j].type_id(),
            (arg, None) => arg_value(arg).type_id(),
        };
        // As `Runner::direct` calls it: Rhai calls a function that needs its context, or one
        // that would change a constant (it words that error).
        let fits = r.types.len() == n + 1
            && r.types[0] == target.type_id()
            && (0..n).all(|k| r.types[k + 1] == argument(k))
            && !r.context
            && (r.pure || !target.is_read_only());
        if !fits {
            return None;
        }
        // Rhai counts the link and the arguments' expressions (none for a method without
        // arguments), then the variable.
        let gathered = if chain.gathering == Gathering::PerLink {
            1 + n as u64
        } else {
            0
        };
        if let Err(err) = self.tick_n(gathered + 1) {
            return Some(Err(err.into()));
        }
        // What a method may change, a lent state is copied first (see `Runner::chain`).
        if method && self.lent_unchanged(frame, i) && !r.reads_only {
            self.before_change(frame, i);
        }
        frame.touch(i);
        // The call's operation.
        if let Err(err) = self.tick(pos) {
            return Some(Err(err.into()));
        }
        // Rhai's form, where the plain form cannot read the arguments: it may take them, so
        // it gets copies (and, taking its first argument by value, a copy of that too).
        let rhai_form = |args: &mut [&mut Dynamic]| {
            let [first, others @ ..] = args else {
                return call(None, args);
            };
            let mut copies: [Dynamic; MOST_ARGS] = Default::default();
            for (copy, arg) in copies.iter_mut().zip(others.iter()) {
                *copy = (**arg).clone();
            }
            with_args(first, &mut copies[..others.len()], |refs| {
                if r.method {
                    call(None, refs)
                } else {
                    with_first_copied(refs, |copied| call(None, copied))
                }
            })
        };
        // The variables' values are moved out of their slots for the call, and back.
        let result = match (&chain.args[..], slots) {
            ([], _) => {
                let args = &mut [&mut frame.values[i]];
                typed(args).unwrap_or_else(|| rhai_form(args))
            }
            ([a], [sa, _]) => {
                let mut a = take(frame, a, sa);
                let args = &mut [&mut frame.values[i], &mut a];
                let result = typed(args).unwrap_or_else(|| rhai_form(args));
                put_back(frame, sa, a);
                result
            }
            ([a, b], [sa, sb]) => {
                let (mut a, mut b) = (take(frame, a, sa), take(frame, b, sb));
                let args = &mut [&mut frame.values[i], &mut a, &mut b];
                let result = typed(args).unwrap_or_else(|| rhai_form(args));
                put_back(frame, sa, a);
                put_back(frame, sb, b);
                result
            }
            _ => unreachable!("at most {MOST_ARGS} arguments"),
        };
        drop(resolved);
        let checked = self.checked_native_result(result, Some(&frame.values[i]), pos);
        Some(match checked {
            Ok(value) => Ok(value),
            got => self.or_indexer(chain, &mut frame.values[i], got),
        })
    }
}

impl Runner<'_> {
    /// `x.p.f(args)` on a map in slot `i` whose property `p` (`prop`) is not a map, `f` native
    /// with a plain form for the arguments' types, one or two arguments, each a literal or a
    /// variable other than `x` and the other argument (`state.board.get(c)`,
    /// `state.board.set(c, v)`): as [`Self::call_in_place`], the property's value called on
    /// where it is. Everything is looked at before anything is counted.
    fn property_call_in_place(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        i: usize,
        prop: &str,
    ) -> Option<Flow<Dynamic>> {
        let [_, Step::Method {
            name,
            args: n,
            pos,
            site,
            script: false,
        }] = chain.steps.as_slice()
        else {
            return None;
        };
        let (n, pos) = (*n, *pos);
        let fits = (1..=MOST_ARGS).contains(&n)
            && chain.args.len() == n
            && chain.gathering == Gathering::PerLink
            && !chain.argument
            && !chain.returned;
        if !fits {
            return None;
        }
        let slots = arg_slots(frame, chain, i)?;
        let resolved = site.0.borrow();
        let r = resolved.as_ref()?;
        let typed = plain_form(chain, r, true)?;
        if r.func.is_none() || r.context || r.types.len() != n + 1 {
            return None;
        }
        let argument = |k: usize| match (&chain.args[k], slots[k]) {
            (_, Some(j)) => frame.values[j].type_id(),
            (arg, None) => arg_value(arg).type_id(),
        };
        if !(0..n).all(|k| r.types[k + 1] == argument(k)) {
            return None;
        }
        // What a method may change, a lent state is copied first (see `Runner::chain`).
        if self.lent_unchanged(frame, i) && !r.reads_only {
            self.before_change(frame, i);
        }
        // The variables' values are moved out of their slots for the call, and back.
        let mut taken: [Dynamic; MOST_ARGS] = Default::default();
        for k in 0..n {
            taken[k] = take(frame, &chain.args[k], slots[k]);
        }
        let mut map = frame.values[i].write_lock::<Map>();
        // Rhai calls a function that would change a constant (it words that error).
        let item = map
            .as_mut()
            .and_then(|map| property_mut(map, prop))
            .filter(|item| {
                !item.is_map() && r.types[0] == item.type_id() && (r.pure || !item.is_read_only())
            });
        let Some(item) = item else {
            drop(map);
            for (k, value) in taken.into_iter().enumerate().take(n) {
                put_back(frame, slots[k], value);
            }
            return None;
        };
        // Rhai counts the two links and the arguments' expressions, the variable, the
        // property's look-up and the call.
        let result = match self.tick_n(n as u64 + 4).and_then(|()| self.tick(pos)) {
            Err(err) => Err(err),
            Ok(()) => match with_args(item, &mut taken[..n], |refs| typed(refs)) {
                Some(result) => self.checked_native_result(result, Some(item), pos),
                // Rhai's form, where the plain form cannot read the arguments, with copies
                // of them (as gathered), the call counted again.
                None => {
                    drop(resolved);
                    self.untick();
                    let mut copies = taken.clone();
                    with_args(item, &mut copies[..n], |refs| {
                        self.native(site, name, true, refs, pos, List::No)
                    })
                }
            },
        };
        drop(map);
        for (k, value) in taken.into_iter().enumerate().take(n) {
            put_back(frame, slots[k], value);
        }
        frame.touch(i);
        Some(result.map_err(Into::into))
    }
}

/// [`Runner::int_read`] of an array's item at a variable's index (`pits[i]`), or of a map's
/// array's item (`state.pits[i]`, `state.pits[0]`), `target` the chain's variable: out of line,
/// which keeps the commonest reads' code small.
#[inline(never)]
fn int_item_read(frame: &Frame, chain: &Chain, target: &Dynamic) -> Option<IntRead> {
    match (chain.steps.as_slice(), chain.args.as_slice()) {
        // The expression, the link and the index's expression, the variable, the item's
        // look-up (as `Self::item` reads it).
        ([Step::Index], [Expr::Local(at)]) if chain.gathering == Gathering::PerLink => {
            let index = &frame.values[frame.index(*at)];
            let index = usize::try_from(index.as_int().ok()?).ok()?;
            let value = plain::int(target.read_lock::<Array>()?.get(index)?)?;
            Some(IntRead { value, ops: 5 })
        }
        // The expression, the two links and the index's expression, the variable, the
        // property's look-up and the item's (as `Self::property_item` reads it).
        ([Step::Prop { name, .. }, Step::Index], [index])
            if chain.gathering == Gathering::PerLink =>
        {
            let index = match index {
                Expr::Value(index) => index,
                Expr::Local(at) => &frame.values[frame.index(*at)],
                _ => return None,
            };
            let index = usize::try_from(index.as_int().ok()?).ok()?;
            let map = target.read_lock::<Map>()?;
            let value = plain::int(property(&map, name)?.read_lock::<Array>()?.get(index)?)?;
            Some(IntRead { value, ops: 7 })
        }
        _ => None,
    }
}

/// Where each of `chain`'s arguments (at most [`MOST_ARGS`]) is: a slot of `frame`, or a
/// literal (`None`). `None` where an argument is neither, or is the variable in slot `i` (the
/// chain's own) or the same variable as the other argument: a variable read twice is copied
/// by the general walk.
#[inline]
fn arg_slots(frame: &Frame, chain: &Chain, i: usize) -> Option<[Option<usize>; MOST_ARGS]> {
    let mut slots = [None; MOST_ARGS];
    for (slot, arg) in slots.iter_mut().zip(&chain.args) {
        *slot = match arg {
            Expr::Local(at) => Some(frame.index(*at)),
            Expr::Value(_) => None,
            _ => return None,
        };
    }
    let twice = slots[0].is_some() && slots[0] == slots[1];
    (!twice && !slots.contains(&Some(i))).then_some(slots)
}

/// The plain form of the function `r` its call site found for `chain`'s method (or getter),
/// if it has one. Where it has none, a method's chain (`method`) becomes [`Shape::General`]:
/// it is walked from then on without trying its call in place (a site whose function has no
/// plain form for one call's types seldom meets others).
#[inline]
fn plain_form<'r>(chain: &Chain, r: &'r Resolved, method: bool) -> Option<&'r Typed> {
    let typed = r.typed.as_ref();
    if typed.is_none() && method {
        chain.shape.set(Shape::General);
    }
    typed
}

/// A literal argument's value.
fn arg_value(arg: &Expr) -> &Dynamic {
    match arg {
        Expr::Value(value) => value,
        _ => &Dynamic::UNIT,
    }
}

/// An argument's value for a call: a literal's copy, or a variable's (in `slot`) moved out.
#[inline]
fn take(frame: &mut Frame, arg: &Expr, slot: Option<usize>) -> Dynamic {
    match slot {
        Some(j) => std::mem::take(&mut frame.values[j]),
        None => plain::copy(arg_value(arg)),
    }
}

/// Puts a variable's value (in `slot`) back after the call.
#[inline]
fn put_back(frame: &mut Frame, slot: Option<usize>, value: Dynamic) {
    if let Some(j) = slot {
        plain::put(&mut frame.values[j], value);
    }
}
