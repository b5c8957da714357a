//! Walking chains of properties, indexes and method calls (`state.pits.take(p)`), and
//! handing Rhai a chain the walker does not finish.

use std::any::TypeId;

use rhai::{
    ASTFlags, Array, BinaryExpr, Dynamic, EvalAltResult, Expr as RhaiExpr, ImmutableString, Map,
    Position, StaticVec, INT,
};

use super::{
    assigns_itself, data_sizes, has_no_size, materialise, plain, with_args, Error, Flow, Frame,
    List, Measured, Runner, Stop, Walked,
};
use crate::walker::lists::NativeList;
use crate::walker::{ArrayMethod, Chain, Expr, Fallback, Gathering, OpAssign, Root, Shape, Step};

impl Runner<'_> {
    /// Evaluates a chain, or (`assign`) assigns to its end: a read of the shapes the chain's
    /// lowering found quick ways for (see [`Shape`]) is tried first, without the machinery of
    /// [`Self::walked_chain`]. Any other chain goes straight there.
    #[inline(always)]
    pub(super) fn chain(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        assign: Option<(Dynamic, Option<&OpAssign>, Position)>,
        stmt: Option<&Fallback>,
    ) -> Flow<Dynamic> {
        // A push has an argument to gather: the quick ways below, or the walk, take it.
        let bare = chain.array_method.filter(|m| *m != ArrayMethod::Push);
        if let (None, Some(method)) = (&assign, bare) {
            if let Some(done) = self.bare_array_method(frame, chain, method) {
                return done;
            }
        }
        if assign.is_none() && chain.shape.get() != Shape::General {
            if let Some(done) = self.quick_chain(frame, chain) {
                return done;
            }
        }
        self.walked_chain(frame, chain, assign, stmt)
    }

    /// A read of `chain`, of a shape other than [`Shape::General`], done the quick way its
    /// shape allows; `None`, with nothing counted or changed, where the values do not fit.
    #[inline(never)]
    fn quick_chain(&mut self, frame: &mut Frame, chain: &Chain) -> Option<Flow<Dynamic>> {
        // The commonest chain, a map's property read (`state.turn`).
        if let (Shape::Property, Root::Local(slot), [Step::Prop { name, pos, .. }]) =
            (chain.shape.get(), &chain.root, chain.steps.as_slice())
        {
            // A native value's integer field (`c.x`), as its first read found it.
            if let Some(plan) = chain.field_plan.get() {
                if let Some(done) = self.field_read(&frame.values[frame.index(*slot)], *pos, plan) {
                    return Some(done);
                }
            }
            if let Some(map) = frame.values[frame.index(*slot)].read_lock::<Map>() {
                let value = property(&map, name).map_or(Dynamic::UNIT, plain::copy);
                drop(map);
                // Rhai counts the variable and the property's look-up.
                return Some(self.tick_n(2).map(|()| value).map_err(Into::into));
            }
        }
        match chain.shape.get() {
            Shape::Property | Shape::InPlace => self.quick_read(frame, chain),
            Shape::Pair => self.pair_in_place(frame, chain),
            Shape::General => None,
        }
    }

    /// [`Self::chain`] walked, its values gathered as Rhai gathers them.
    #[inline(never)]
    pub(super) fn walked_chain(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        assign: Option<(Dynamic, Option<&OpAssign>, Position)>,
        stmt: Option<&Fallback>,
    ) -> Flow<Dynamic> {
        let pair_read = match (chain.shape.get(), &assign) {
            (Shape::Pair, None) => self.pair_read(frame, chain),
            (_, None) if chain.array_method == Some(ArrayMethod::Push) => self.pushed(frame, chain),
            _ => None,
        };
        let gathered = match pair_read {
            Some(gathered) => gathered,
            None => self.gather(frame, chain, assign.is_some()),
        };
        let (mut values, before, gathered) = match gathered {
            Gathered::Done(done) => return done,
            Gathered::Values(values, counted) => (values, counted.before, counted.gathered),
        };
        let mut assign = assign;
        let list = if chain.returned && self.listing(frame) {
            List::ForHost
        } else if chain.argument {
            List::ForArgument
        } else {
            List::No
        };
        let walked = match &chain.root {
            Root::Local(slot) => {
                let i = frame.index(*slot);
                // Methods may change the variable, except readers and a list form called for
                // the host.
                if self.lent_unchanged(frame, i) {
                    let changes = assign.is_some()
                        || (chain.calls_methods()
                            && !(list == List::ForHost && chain.calls_only_at_end())
                            && !self.only_reads(chain, 0, &frame.values[i], &values, 0));
                    if changes {
                        self.before_change(frame, i);
                    }
                }
                if let (Some(method), None, false) =
                    (chain.array_method, &assign, list == List::ForHost)
                {
                    if let Some(done) = self.array_method(frame, i, chain, method, &mut values) {
                        return done;
                    }
                }
                frame.touch(i);
                let target = &mut frame.values[i];
                if assign.is_none() {
                    if let Some(done) = self.one_step(chain, target, &mut values, list) {
                        return done;
                    }
                }
                if let Some(done) = self.short_chain(chain, target, &mut values, &mut assign, list)
                {
                    return done;
                }
                let mut walk = Walk::new(chain, &mut values, &mut assign, list);
                let walked = self.walk(&mut walk, target, true, 0, 0, true);
                // A map's property assigned: Rhai checks the size of the whole variable.
                match (walked, walk.check_root) {
                    (Ok(value), Some(pos)) => self
                        .check_size_of(&frame.values[i], pos)
                        .map(|()| value)
                        .map_err(Walked::from),
                    (walked, _) => walked,
                }
            }
            // Called from the host, Rhai finds a constant in the host's scope, and a native
            // method changes it there for the calls after: Rhai runs such a chain.
            Root::Constant(..) if frame.top && chain.may_change_constant() => Err(Walked::Whole),
            Root::Constant(name, value, from_host) => {
                // Otherwise a read of the constant (called from a script, Rhai finds a copy in
                // a module).
                let value = self.constant(frame, name, value, *from_host);
                let (mut target, by_ref) = if frame.top {
                    (value.into_read_only(), true)
                } else {
                    (value, false)
                };
                let mut walk = Walk::new(chain, &mut values, &mut assign, list);
                self.walk(&mut walk, &mut target, by_ref, 0, 0, true)
            }
            // A value made for the chain, after its arguments, as Rhai makes it: the chain is
            // never run again from its root (that would make the value again), and a method
            // gets it as a value, not a variable.
            Root::Value(root) => {
                let mut target = self.expr(frame, root)?.flatten();
                let mut walk = Walk::new(chain, &mut values, &mut assign, list);
                self.walk(&mut walk, &mut target, false, 0, 0, false)
            }
        };
        match walked {
            Ok(value) => Ok(value),
            Err(Walked::Stop(stop)) => Err(stop),
            Err(Walked::Whole) => {
                // Nothing has changed yet: Rhai runs the chain from its root, with the values
                // computed so far in place of the expressions that gave them. It counts the
                // chain again, gathering those values as it does literals: the count becomes
                // what Rhai counts for the chain as written.
                let recounted = rhai_gathers(chain, 0, values.len());
                // Rhai counts the expression again, or the assignment and the value assigned.
                let again = if stmt.is_some() { 2 } else { 1 };
                self.set_operations(before + gathered);
                let mut whole = chain.whole.clone();
                // Rhai gets arrays, not compact lists.
                materialise(values.iter_mut());
                substitute_whole(&mut whole, &mut values.into_iter());
                let result = match (assign, stmt) {
                    (Some((value, ..)), Some(stmt)) => {
                        let mut block = stmt.expr.clone();
                        if let RhaiExpr::Stmt(b) = &mut block {
                            if let Some(rhai::Stmt::Assignment(x)) = b.statements_mut().first_mut()
                            {
                                let pos = x.1.rhs.position();
                                x.1.lhs = whole;
                                x.1.rhs = RhaiExpr::DynamicConstant(Box::new(value), pos);
                            }
                        }
                        self.fallback(frame, &block, &stmt.names)
                    }
                    _ => self.fallback(frame, &whole, &chain.names),
                };
                self.set_operations(self.global.num_operations.saturating_sub(again + recounted));
                result
            }
        }
    }

    /// `list.push(x)` on an array in a variable: `x` gathered as [`Self::gather`] gathers it
    /// (the link counted, `x` evaluated, then the variable counted), then pushed as
    /// [`Self::array_method_on`] pushes it, without the walk's set-up. `Done` where pushed;
    /// the values gathered where the array takes no push once `x` is evaluated (the variable
    /// changed, `x` shared or a compact list): the walk goes on with them. `None`, with nothing
    /// counted, for any other chain or value.
    #[inline(never)]
    fn pushed(&mut self, frame: &mut Frame, chain: &Chain) -> Option<Gathered> {
        let (
            Root::Local(slot),
            [arg],
            [Step::Method {
                args: 1,
                script: false,
                pos,
                ..
            }],
        ) = (&chain.root, chain.args.as_slice(), chain.steps.as_slice())
        else {
            return None;
        };
        let fits = chain.gathering == Gathering::PerLink
            && !chain.argument
            && !(chain.returned && self.listing(frame))
            && takes_array_method(
                &frame.values[frame.index(*slot)],
                ArrayMethod::Push,
                Some(&Dynamic::UNIT),
            );
        if !fits {
            return None;
        }
        let before = self.global.num_operations;
        if let Err(err) = self.tick(Position::NONE) {
            return Some(Gathered::Done(Err(err.into())));
        }
        // An array made here (`list.push([from, to])`) comes with its sizes.
        let made = match arg {
            Expr::Array(items) if !items.is_empty() => self
                .tick(Position::NONE)
                .map_err(Stop::from)
                .and_then(|()| self.array_made(frame, items))
                .map(|(item, sizes)| (item, Some(sizes))),
            _ => self.expr(frame, arg).map(|item| (item, None)),
        };
        let (item, sizes) = match made {
            Ok(made) => made,
            Err(stop) => return Some(Gathered::Done(Err(stop))),
        };
        let gathered = self.global.num_operations - before;
        if let Err(err) = self.tick(Position::NONE) {
            return Some(Gathered::Done(Err(err.into())));
        }
        let i = frame.index(*slot);
        if !takes_array_method(&frame.values[i], ArrayMethod::Push, Some(&item)) {
            let mut values = StaticVec::new();
            values.push(item);
            return Some(Gathered::Values(values, Counted { before, gathered }));
        }
        // What the push changes, a lent state is copied first (see `walked_chain`).
        self.before_change(frame, i);
        // Rhai counts an operation for the call.
        if let Err(err) = self.tick(*pos) {
            return Some(Gathered::Done(Err(err.into())));
        }
        Some(Gathered::Done(
            self.push_called(frame, i, item, sizes, *pos),
        ))
    }

    /// Gathers `chain`'s arguments and indexes as Rhai does (as [`Gathering`] says), then
    /// counts its variable; a read whose method takes a pair's integers is done there
    /// (see [`Self::pair_taken`]).
    #[inline(always)]
    fn gather(&mut self, frame: &mut Frame, chain: &Chain, assign: bool) -> Gathered {
        let mut values: StaticVec<Dynamic> = StaticVec::new();
        let before = self.global.num_operations;
        // A pair's call as the method's first argument may stay its integers (see `pairs`).
        let pair_call = self.pair_argument(frame, chain, assign);
        let mut pending = None;
        if chain.gathering == Gathering::PerLink {
            let mut args = chain.args.iter();
            for step in &chain.steps {
                if let Err(err) = self.tick(Position::NONE) {
                    return Gathered::Done(Err(err.into()));
                }
                for arg in args.by_ref().take(step.values()) {
                    let value = match pair_call {
                        Some(call) if values.is_empty() => match self.pair_call(frame, call) {
                            Ok(Ok(pair)) => {
                                pending = Some(pair);
                                Dynamic::UNIT
                            }
                            Ok(Err(value)) => value,
                            Err(stop) => return Gathered::Done(Err(stop)),
                        },
                        _ => match self.expr(frame, arg) {
                            Ok(value) => value,
                            Err(stop) => return Gathered::Done(Err(stop)),
                        },
                    };
                    values.push(value);
                }
            }
        } else {
            for arg in &chain.args {
                match self.expr(frame, arg) {
                    Ok(value) => values.push(value),
                    Err(stop) => return Gathered::Done(Err(stop)),
                }
            }
        }
        if chain.gathering == Gathering::LiteralIndex {
            self.set_operations(before);
        }
        let gathered = self.global.num_operations - before;
        // Rhai counts an operation for finding a variable (an expression counts its own).
        if !matches!(chain.root, Root::Value(_)) {
            if let Err(err) = self.tick(Position::NONE) {
                return Gathered::Done(Err(err.into()));
            }
        }
        if let (Some(pending), Root::Local(slot)) = (pending, &chain.root) {
            let i = frame.index(*slot);
            if let Some(done) = self.pair_taken(frame, chain, i, &pending, &mut values) {
                return Gathered::Done(done);
            }
            values[0] = pending.make();
        }
        Gathered::Values(values, Counted { before, gathered })
    }

    /// A read of one step on a variable's value that [`Self::walk`] would finish without
    /// handing the whole chain to Rhai: a native method (`board.get(c)`) or a getter (`c.x`)
    /// on a value that is not a map, or an array's item at an index within it (`d[0]`), done
    /// as the walk does them without its general machinery. `None`, with nothing done, for any
    /// other chain or value.
    #[inline]
    fn one_step(
        &mut self,
        chain: &Chain,
        target: &mut Dynamic,
        values: &mut StaticVec<Dynamic>,
        list: List,
    ) -> Option<Flow<Dynamic>> {
        match chain.steps.as_slice() {
            [Step::Method {
                name,
                args,
                script: false,
                pos,
                site,
            }] if !target.is_map() => {
                let called = with_args(target, &mut values[..*args], |refs| {
                    self.native(site, name, true, refs, *pos, list)
                });
                Some(called.map_err(Stop::from))
            }
            [Step::Prop { .. }] if !target.is_map() => self.getter(chain, target),
            [Step::Index] => {
                let index = usize::try_from(values[0].as_int().ok()?).ok()?;
                let item = target.read_lock::<Array>()?.get(index)?.clone();
                // Rhai counts the item's look-up.
                Some(self.tick(Position::NONE).map(|()| item).map_err(Stop::from))
            }
            _ => None,
        }
    }

    /// The getter of `chain`'s one step, a property of a native value (`c.x`), on `target`;
    /// Rhai tries an indexer by the property's name after (the walk does too).
    pub(super) fn getter(&mut self, chain: &Chain, target: &mut Dynamic) -> Option<Flow<Dynamic>> {
        let [Step::Prop {
            getter, pos, site, ..
        }] = chain.steps.as_slice()
        else {
            return None;
        };
        let got = self.native(site, getter, true, &mut [&mut *target], *pos, List::No);
        Some(self.or_indexer(chain, target, got))
    }

    /// What the getter of `chain`'s one step gave on `target` (`got`), or where it reported no
    /// such property, what Rhai's indexer by the property's name gives (its error, where the
    /// value has no indexer, the getter's).
    pub(super) fn or_indexer(
        &mut self,
        chain: &Chain,
        target: &mut Dynamic,
        got: Result<Dynamic, Error>,
    ) -> Flow<Dynamic> {
        let got = match (got, chain.steps.as_slice()) {
            (Err(err), [Step::Prop { name, .. }])
                if matches!(*err, EvalAltResult::ErrorDotExpr(..)) =>
            {
                let mut prop = Dynamic::from(name.clone());
                let op_pos = chain.rests[0].pos;
                self.rhai_native("index$get$", true, &mut [target, &mut prop], op_pos)
                    .map_err(|e| match *e {
                        EvalAltResult::ErrorIndexingType(..) => err,
                        _ => e,
                    })
            }
            (got, _) => got,
        };
        got.map_err(Stop::from)
    }

    /// The chains most of a rules script is made of, on a map in a variable: `x.p = v` (or
    /// `x.p op= v`) and `x.p.f(args)` with a native `f` (`state.board.get(c)`; a read of
    /// `x.p` never gets here: [`Self::chain`] reads it first), walked as [`Self::walk`] would
    /// walk them, without its general machinery. `None`, with nothing done, for any other
    /// chain or value: the general walk then takes it.
    fn short_chain(
        &mut self,
        chain: &Chain,
        target: &mut Dynamic,
        values: &mut StaticVec<Dynamic>,
        assign: &mut Option<(Dynamic, Option<&OpAssign>, Position)>,
        list: List,
    ) -> Option<Flow<Dynamic>> {
        match chain.steps.as_slice() {
            [Step::Prop { name, .. }] => {
                let pos = assign.as_ref()?.2;
                let mut map = target.write_lock::<Map>()?;
                // Rhai assigns with an operator the walker does not compute itself (the walk
                // hands it the chain).
                let unit = Dynamic::UNIT;
                if !integers(property(&map, name).unwrap_or(&unit), assign.as_ref()?) {
                    return None;
                }
                // Rhai counts the property's look-up.
                if let Err(err) = self.tick(Position::NONE) {
                    return Some(Err(err.into()));
                }
                let Some(assigned) = self.assign_property(&mut map, name, assign) else {
                    self.untick();
                    return None;
                };
                let resized = match assigned {
                    Ok(resized) => resized,
                    Err(err) => return Some(Err(err.into())),
                };
                drop(map);
                // A map's property assigned: Rhai checks the size of the whole variable.
                Some(match resized {
                    true => self
                        .check_size_of(target, pos)
                        .map(|()| Dynamic::UNIT)
                        .map_err(Stop::from),
                    false => Ok(Dynamic::UNIT),
                })
            }
            [Step::Prop { name, .. }, Step::Method {
                name: method,
                args,
                script: false,
                pos,
                site,
            }] if assign.is_none() => {
                let mut map = target.write_lock::<Map>()?;
                let item = property_mut(&mut map, name).filter(|item| !item.is_map())?;
                // Rhai counts the property's look-up.
                if let Err(err) = self.tick(Position::NONE) {
                    return Some(Err(err.into()));
                }
                let called = with_args(item, &mut values[..*args], |refs| {
                    self.native(site, method, true, refs, *pos, list)
                });
                Some(called.map_err(Stop::from))
            }
            _ => None,
        }
    }

    /// `list.len`, `list.is_empty()` or `list.pop()` (an array method taking no argument, see
    /// [`Chain::array_method`]) on an array in a variable, without gathering: Rhai counts the
    /// variable's look-up, then calls the method ([`Self::array_method_on`]). `None`, with
    /// nothing counted, for any other value (or a chain giving the host a list form).
    #[inline(never)]
    fn bare_array_method(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        method: ArrayMethod,
    ) -> Option<Flow<Dynamic>> {
        let (Root::Local(slot), Some(pos)) = (&chain.root, array_method_pos(chain)) else {
            return None;
        };
        let i = frame.index(*slot);
        if method == ArrayMethod::Push
            || (chain.returned && self.listing(frame))
            || !takes_array_method(&frame.values[i], method, None)
        {
            return None;
        }
        if let Err(err) = self.tick(Position::NONE) {
            return Some(Err(err.into()));
        }
        match method {
            ArrayMethod::Pop => self.before_change(frame, i),
            ArrayMethod::Len | ArrayMethod::IsEmpty => {
                if let Some(done) = self.array_read(frame, i, method, pos) {
                    return Some(done);
                }
            }
            ArrayMethod::Push => (),
        }
        Some(self.array_method_on(frame, i, method, None, pos))
    }

    /// `list.len` or `list.is_empty` (`method`, called at `pos`) on the array in slot `i`
    /// whose sizes need no measuring (it is empty, or they are known: see [`Measured`]), as
    /// [`Self::array_method_on`] does it (the call counted, then Rhai's check of the variable's
    /// sizes, which known sizes may fail: an append keeps them unchecked), without writing to
    /// the array or keeping its sizes again: they do not change. `None`, with nothing counted,
    /// where they would need measuring.
    #[inline(always)]
    fn array_read(
        &mut self,
        frame: &Frame,
        i: usize,
        method: ArrayMethod,
        pos: Position,
    ) -> Option<Flow<Dynamic>> {
        let array = frame.values[i].read_lock::<Array>()?;
        let len = array.len();
        let sizes = match frame.measured {
            _ if len == 0 => (0, 0, 0),
            Some(m) if m.index == i && m.len == len => m.sizes,
            _ => return None,
        };
        let value = match method {
            ArrayMethod::Len => Dynamic::from_int(len_int(&array)),
            _ => Dynamic::from_bool(len == 0),
        };
        drop(array);
        Some(
            self.tick(pos)
                .and_then(|()| self.check_sizes(sizes, pos))
                .map(|()| value)
                .map_err(Into::into),
        )
    }

    /// `list.push(x)`, `list.pop()`, `list.len()`, `list.is_empty()` (or `list.len`,
    /// `list.is_empty`) on an array in slot `i` of `frame`, its argument gathered (`values`):
    /// see [`Self::array_method_on`]. `None`, with nothing done, for any other chain or value
    /// (the general walk then takes it).
    #[inline(never)]
    fn array_method(
        &mut self,
        frame: &mut Frame,
        i: usize,
        chain: &Chain,
        method: ArrayMethod,
        values: &mut StaticVec<Dynamic>,
    ) -> Option<Flow<Dynamic>> {
        let pos = array_method_pos(chain)?;
        let item = values.first_mut();
        if !takes_array_method(&frame.values[i], method, item.as_deref()) {
            return None;
        }
        Some(self.array_method_on(frame, i, method, item, pos))
    }

    /// Array method `method` (called at `pos`, with `item` for a push) on the array in slot `i`
    /// of `frame` (see [`takes_array_method`]), done as [`Runner::array_builtin`] does it: an
    /// operation counted for the call, then the checks Rhai makes after one, of the value (a
    /// popped item) and of the whole variable, the latter answered from what is measured of it
    /// ([`Measured`]): a push or a pop measures only its item.
    fn array_method_on(
        &mut self,
        frame: &mut Frame,
        i: usize,
        method: ArrayMethod,
        item: Option<&mut Dynamic>,
        pos: Position,
    ) -> Flow<Dynamic> {
        // Rhai counts an operation for the call.
        self.tick(pos)?;
        self.array_method_called(frame, i, method, item, pos)
    }

    /// [`Self::array_method_on`] once the call's operation is counted: the method done, then
    /// the checks Rhai makes after the call.
    pub(super) fn array_method_called(
        &mut self,
        frame: &mut Frame,
        i: usize,
        method: ArrayMethod,
        item: Option<&mut Dynamic>,
        pos: Position,
    ) -> Flow<Dynamic> {
        if method == ArrayMethod::Push {
            let item = item.map(std::mem::take).unwrap_or_default();
            return self.push_called(frame, i, item, None, pos);
        }
        let known = frame.measured.take().filter(|m| m.index == i);
        let target = &mut frame.values[i];
        let mut array = target.write_lock::<Array>().expect("an array");
        let known = known.filter(|m| m.len == array.len()).map(|m| m.sizes);
        let (value, sizes) = match method {
            ArrayMethod::Push => unreachable!("pushed by push_called"),
            ArrayMethod::Pop => match array.pop() {
                Some(item) => {
                    let (a, m, s) = data_sizes(&item);
                    let sizes = known.map(|(ka, km, ks)| (ka - 1 - a, km - m, ks - s));
                    (item, sizes)
                }
                None => (Dynamic::UNIT, known),
            },
            ArrayMethod::Len => (Dynamic::from_int(len_int(&array)), known),
            ArrayMethod::IsEmpty => (Dynamic::from_bool(array.is_empty()), known),
        };
        let len = array.len();
        drop(array);
        // Rhai checks the value (a popped item), then the whole variable after a method call
        // on it.
        self.check_size_of(&value, pos)?;
        // An empty array has no sizes to measure (`list.len` on a list not measured yet, which
        // is most often empty).
        let sizes = match sizes {
            Some(sizes) => sizes,
            None if len == 0 => (0, 0, 0),
            None => data_sizes(target),
        };
        self.keep_checked_sizes(frame, i, len, sizes, pos)?;
        Ok(value)
    }

    /// [`Self::array_method_called`] of a push of `item` (taken by value: nothing is left to
    /// drop): the array's sizes kept up to date from what is measured of it, `item` measured
    /// only where its sizes are not given (`sizes`: an array just made, see
    /// [`Self::array_made`]) and it has a size of its own (an integer or a native value such
    /// as a cell adds one item and nothing else), then Rhai's check of the whole variable (a
    /// push's value, `()`, has no size to check).
    #[inline(never)]
    pub(super) fn push_called(
        &mut self,
        frame: &mut Frame,
        i: usize,
        item: Dynamic,
        sizes: Option<(usize, usize, usize)>,
        pos: Position,
    ) -> Flow<Dynamic> {
        let known = frame.measured.take().filter(|m| m.index == i);
        let target = &mut frame.values[i];
        let mut array = target.write_lock::<Array>().expect("an array");
        let known = known.filter(|m| m.len == array.len()).map(|m| m.sizes);
        let (a, m, s) = match sizes {
            Some(sizes) => sizes,
            None if has_no_size(&item) => (0, 0, 0),
            None => data_sizes(&item),
        };
        array.push(item);
        let len = array.len();
        drop(array);
        let sizes = match known {
            Some((ka, km, ks)) => (ka + 1 + a, km + m, ks + s),
            None => data_sizes(target),
        };
        self.keep_checked_sizes(frame, i, len, sizes, pos)?;
        Ok(Dynamic::UNIT)
    }

    /// Rhai's check of the whole variable after a method call on it, from `sizes` (what is
    /// measured of the array in slot `i`, `len` items long), then `sizes` kept for the next
    /// call on it ([`Measured`]).
    #[inline]
    fn keep_checked_sizes(
        &mut self,
        frame: &mut Frame,
        i: usize,
        len: usize,
        sizes: (usize, usize, usize),
        pos: Position,
    ) -> Flow<()> {
        self.check_sizes(sizes, pos)?;
        frame.measured = Some(Measured {
            index: i,
            len,
            sizes,
        });
        Ok(())
    }

    /// Whether walking `chain` from step `k` on `target` (`cursor`: the first of `values` the
    /// steps use) leaves `target` as it is: the steps up to the first method call read, and
    /// that call's function is a reader (the steps after it act on the value it makes). An
    /// answer `true` may also mean that the walk hands the chain to Rhai, which
    /// [`Runner::fallback`] guards on its own.
    fn only_reads(
        &self,
        chain: &Chain,
        k: usize,
        target: &Dynamic,
        values: &[Dynamic],
        cursor: usize,
    ) -> bool {
        match chain.steps.get(k) {
            None => true,
            Some(Step::Prop { name, .. }) => match target.read_lock::<Map>() {
                Some(map) => property(&map, name)
                    .is_some_and(|part| self.only_reads(chain, k + 1, part, values, cursor)),
                // A native value's getter, a reader.
                None => true,
            },
            Some(Step::Index) => {
                let index = &values[cursor];
                if let (Some(map), Some(key)) = (
                    target.read_lock::<Map>(),
                    index.read_lock::<ImmutableString>(),
                ) {
                    return property(&map, &key).is_some_and(|part| {
                        self.only_reads(chain, k + 1, part, values, cursor + 1)
                    });
                }
                match (target.read_lock::<Array>(), index.as_int()) {
                    (Some(array), Ok(i)) => usize::try_from(i)
                        .ok()
                        .and_then(|i| array.get(i))
                        .is_some_and(|part| {
                            self.only_reads(chain, k + 1, part, values, cursor + 1)
                        }),
                    _ => false,
                }
            }
            Some(Step::Method {
                name,
                args,
                script,
                site,
                ..
            }) => {
                if *script {
                    return false;
                }
                let values = &values[cursor..cursor + args];
                // The site's function, where it was found for these types (no list of them
                // made), else the table's answer.
                if let Some(r) = &*site.0.borrow() {
                    if let [of, others @ ..] = r.types.as_slice() {
                        let same = *of == target.type_id()
                            && others.len() == values.len()
                            && others.iter().zip(values).all(|(t, v)| *t == v.type_id());
                        if same {
                            return r.reads_only;
                        }
                    }
                }
                let mut types: StaticVec<TypeId> = StaticVec::new();
                types.push(target.type_id());
                types.extend(values.iter().map(Dynamic::type_id));
                self.natives.is_reader(name, &types)
            }
        }
    }

    /// Walks `walk.chain` from step `k` on `target` (`by_ref`: a variable, or a part of one,
    /// rather than a value made on the way); `cursor`: the first of the values steps `k…`
    /// use; `pure`: no method has been called on the way (Rhai may still run it all).
    fn walk(
        &mut self,
        walk: &mut Walk,
        target: &mut Dynamic,
        by_ref: bool,
        k: usize,
        cursor: usize,
        pure: bool,
    ) -> Result<Dynamic, Walked> {
        let chain = walk.chain;
        let last = k + 1 == chain.steps.len();
        match &chain.steps[k] {
            Step::Prop {
                name,
                getter,
                pos,
                site,
            } => {
                if target.is_map() {
                    return self.map_entry(walk, target, name.as_str(), k, cursor, pure);
                }
                if !last || walk.assign.is_some() {
                    return self.rest(walk, target, k, cursor, pure);
                }
                // A native value's getter; Rhai tries an indexer by the property's name after.
                let op_pos = chain.rests[k].pos;
                match self.native(site, getter, by_ref, &mut [&mut *target], *pos, List::No) {
                    Ok(value) => Ok(value),
                    Err(err) if matches!(*err, EvalAltResult::ErrorDotExpr(..)) => {
                        let mut prop = Dynamic::from(name.clone());
                        self.rhai_native("index$get$", true, &mut [target, &mut prop], op_pos)
                            .map_err(|e| match *e {
                                EvalAltResult::ErrorIndexingType(..) => err,
                                _ => e,
                            })
                            .map_err(Walked::from)
                    }
                    Err(err) => Err(err.into()),
                }
            }
            Step::Index => {
                let key = target
                    .is_map()
                    .then(|| {
                        let index = &walk.values[cursor];
                        index
                            .is_string()
                            .then(|| index.clone().cast::<ImmutableString>())
                    })
                    .flatten();
                if let Some(key) = key {
                    return self.map_entry(walk, target, key.as_str(), k, cursor + 1, pure);
                }
                let index = &walk.values[cursor];
                let in_bounds = match (index.is_int(), target.read_lock::<Array>()) {
                    (true, Some(array)) => index
                        .as_int()
                        .ok()
                        .and_then(|i| usize::try_from(i).ok())
                        .filter(|&i| i < array.len()),
                    _ => None,
                };
                let Some(i) = in_bounds else {
                    return self.rest(walk, target, k, cursor, pure);
                };
                let Some(mut array) = target.write_lock::<Array>() else {
                    return self.rest(walk, target, k, cursor, pure);
                };
                // Rhai counts the item's look-up.
                self.tick(Position::NONE)?;
                let item = &mut array[i];
                if !last {
                    return self.walk(walk, item, true, k + 1, cursor + 1, pure);
                }
                match walk.assign.take() {
                    None => Ok(item.clone()),
                    Some(assign) if item.is_read_only() => {
                        *walk.assign = Some(assign);
                        drop(array);
                        // Rhai counts the look-up when it runs the rest.
                        self.untick();
                        self.rest(walk, target, k, cursor, pure)
                    }
                    // Rhai assigns with an operator the walker does not compute itself.
                    Some(assign) if pure && !integers(item, &assign) => {
                        *walk.assign = Some(assign);
                        drop(array);
                        self.untick();
                        Err(Walked::Whole)
                    }
                    Some((value, op, pos)) => {
                        self.assign(item, op, value, pos)?;
                        self.check_size_of(item, pos)?;
                        Ok(Dynamic::UNIT)
                    }
                }
            }
            Step::Method {
                name,
                args,
                script,
                pos,
                site,
            } => {
                // A map's property holding a function is called as a method by Rhai.
                let oop = target
                    .read_lock::<Map>()
                    .is_some_and(|map| property(&map, name).is_some_and(Dynamic::is_fnptr));
                if oop {
                    return self.rest(walk, target, k, cursor, pure);
                }
                let args = *args;
                // The arguments are passed in place (a function may take them: they are not
                // needed after the call).
                let list = if last { walk.list } else { List::No };
                let value = with_args(target, &mut walk.values[cursor..cursor + args], |refs| {
                    if *script {
                        self.rhai_call(name, by_ref, true, refs, *pos)
                    } else {
                        self.native(site, name, by_ref, refs, *pos, list)
                    }
                });
                let value = value?;
                if last {
                    return Ok(value);
                }
                let mut value = value;
                self.walk(walk, &mut value, false, k + 1, cursor + args, false)
            }
        }
    }

    /// A map's property `name` at step `k` (a `.name` or a `["name"]`), `cursor` past its index.
    fn map_entry(
        &mut self,
        walk: &mut Walk,
        target: &mut Dynamic,
        name: &str,
        k: usize,
        cursor: usize,
        pure: bool,
    ) -> Result<Dynamic, Walked> {
        let last = k + 1 == walk.chain.steps.len();
        let step_start = cursor - usize::from(matches!(walk.chain.steps[k], Step::Index));
        let Some(mut map) = target.write_lock::<Map>() else {
            return self.rest(walk, target, k, step_start, pure);
        };
        // Rhai counts the property's look-up.
        self.tick(Position::NONE)?;
        if !last {
            return match property_mut(&mut map, name) {
                Some(item) => self.walk(walk, item, true, k + 1, cursor, pure),
                None => {
                    let mut unit = Dynamic::UNIT;
                    self.walk(walk, &mut unit, false, k + 1, cursor, pure)
                }
            };
        }
        let Some(&(_, _, pos)) = walk.assign.as_ref() else {
            return Ok(property(&map, name).cloned().unwrap_or(Dynamic::UNIT));
        };
        // Rhai assigns with an operator the walker does not compute itself.
        if let Some(assign) = walk.assign.as_ref() {
            let unit = Dynamic::UNIT;
            let item = property(&map, name).unwrap_or(&unit);
            if pure && !integers(item, assign) {
                drop(map);
                self.untick();
                return Err(Walked::Whole);
            }
        }
        let Some(resized) = self.assign_property(&mut map, name, walk.assign) else {
            drop(map);
            // Rhai counts the look-up when it runs the rest.
            self.untick();
            return self.rest(walk, target, k, step_start, pure);
        };
        if resized? {
            if matches!(walk.chain.steps[k], Step::Index) {
                let item = property(&map, name).expect("assigned");
                self.check_size_of(item, pos)?;
            } else {
                walk.check_root = Some(pos);
            }
        }
        Ok(Dynamic::UNIT)
    }

    /// Assigns `assign` (taking it) to property `name` of `map`, adding the property if the map
    /// has none. `None`, with nothing done, when the property is a constant (Rhai words that
    /// error); else whether the assignment may have changed the sizes Rhai's limits count.
    fn assign_property(
        &mut self,
        map: &mut Map,
        name: &str,
        assign: &mut Option<(Dynamic, Option<&OpAssign>, Position)>,
    ) -> Option<Result<bool, Error>> {
        match property_mut(map, name) {
            Some(item) if item.is_read_only() => None,
            Some(item) => {
                let (value, op, pos) = assign.take()?;
                // A value without a size in place of another leaves the sizes as they were
                // (within the limits: whatever makes a value larger is checked).
                let sizeless = has_no_size(item);
                let assigned = self.assign(item, op, value, pos);
                Some(assigned.map(|()| !(sizeless && has_no_size(item))))
            }
            None => {
                let (value, op, pos) = assign.take()?;
                let mut item = Dynamic::UNIT;
                let assigned = self.assign(&mut item, op, value, pos);
                map.insert(name.into(), item);
                Some(assigned.map(|()| true))
            }
        }
    }

    /// Hands the chain from step `k` (its values from `cursor`) to Rhai: the whole chain if
    /// nothing has happened on the way, else the rest of it on the value reached.
    fn rest(
        &mut self,
        walk: &mut Walk,
        target: &mut Dynamic,
        k: usize,
        cursor: usize,
        pure: bool,
    ) -> Result<Dynamic, Walked> {
        if pure {
            return Err(Walked::Whole);
        }
        // After a method call the target is the call's result: a value, never assigned to.
        let rest = &walk.chain.rests[k];
        let mut rhs = rest.rhs.clone();
        materialise(walk.values[cursor..].iter_mut());
        let mut values = walk.values[cursor..].iter_mut().map(std::mem::take);
        substitute(rest.dot, rest.flags, &mut rhs, &mut values);
        let lhs = RhaiExpr::DynamicConstant(Box::new(target.clone()), Position::NONE);
        let binary = Box::new(BinaryExpr { lhs, rhs });
        let expr = if rest.dot {
            RhaiExpr::Dot(binary, rest.flags, rest.pos)
        } else {
            RhaiExpr::Index(binary, rest.flags, rest.pos)
        };
        // Rhai counts the expression, gathers its values (counted once already) and counts
        // the value it starts from: none of which it counts for the chain as written.
        let again = 2 + rhai_gathers(walk.chain, k, walk.values.len() - cursor);
        let result = self.detached(&expr);
        self.set_operations(self.global.num_operations.saturating_sub(again));
        Ok(result?)
    }
}

/// A chain's arguments and indexes gathered ([`Runner::gather`]), or the chain done.
pub(super) enum Gathered {
    Done(Flow<Dynamic>),
    Values(StaticVec<Dynamic>, Counted),
}

/// The operations count before a chain's gathering, and the operations the gathering counted.
pub(super) struct Counted {
    pub(super) before: u64,
    pub(super) gathered: u64,
}

/// A chain being walked: its values, and what is assigned to its end.
struct Walk<'c, 'o> {
    chain: &'c Chain,
    values: &'c mut StaticVec<Dynamic>,
    assign: &'c mut Option<(Dynamic, Option<&'o OpAssign>, Position)>,
    /// Where to report the whole variable too large after a map property was assigned.
    check_root: Option<Position>,
    /// Whether the chain's value may be a list form (see [`List`]).
    list: List,
}

impl<'c, 'o> Walk<'c, 'o> {
    /// A walk of `chain` with its `values`, assigning `assign` (if any) to its end; `list`: see
    /// the field.
    fn new(
        chain: &'c Chain,
        values: &'c mut StaticVec<Dynamic>,
        assign: &'c mut Option<(Dynamic, Option<&'o OpAssign>, Position)>,
        list: List,
    ) -> Self {
        Walk {
            chain,
            values,
            assign,
            check_root: None,
            list,
        }
    }
}

/// Whether the walker assigns `assign` to `item` itself (see [`assigns_itself`]).
fn integers(item: &Dynamic, assign: &(Dynamic, Option<&OpAssign>, Position)) -> bool {
    assigns_itself(item, assign.1, &assign.0)
}

/// The operations Rhai counts gathering the values of `chain` from step `k` on when they are
/// literals (`values` of them): as [`Gathering`] says, for the chain from that step.
fn rhai_gathers(chain: &Chain, k: usize, values: usize) -> u64 {
    let links = chain.steps.len() - k;
    match &chain.steps[k] {
        _ if links > 1 => (links + values) as u64,
        Step::Prop { .. } | Step::Index => 0,
        Step::Method { args: 0, .. } => 0,
        Step::Method { args, .. } => 1 + *args as u64,
    }
}

/// Puts `values` in place of the arguments and indexes of the chain `whole`.
fn substitute_whole(whole: &mut RhaiExpr, values: &mut impl Iterator<Item = Dynamic>) {
    match whole {
        RhaiExpr::Dot(x, flags, _) => substitute(true, *flags, &mut x.rhs, values),
        RhaiExpr::Index(x, flags, _) => substitute(false, *flags, &mut x.rhs, values),
        _ => (),
    }
}

/// Puts `values` in place of the arguments and indexes of `rhs`, the right side of a `Dot`
/// (`dot`) or `Index` with `flags`, in the order Rhai evaluates them.
fn substitute(
    dot: bool,
    flags: ASTFlags,
    rhs: &mut RhaiExpr,
    values: &mut impl Iterator<Item = Dynamic>,
) {
    let continues = !flags.intersects(ASTFlags::BREAK)
        && matches!(rhs, RhaiExpr::Dot(..) | RhaiExpr::Index(..));
    if !continues {
        replace_link(dot, rhs, values);
        return;
    }
    let (x, next_dot, next_flags) = match rhs {
        RhaiExpr::Dot(x, f, _) => (x, true, *f),
        RhaiExpr::Index(x, f, _) => (x, false, *f),
        _ => return,
    };
    replace_link(dot, &mut x.lhs, values);
    substitute(next_dot, next_flags, &mut x.rhs, values);
}

fn replace_link(dot: bool, link: &mut RhaiExpr, values: &mut impl Iterator<Item = Dynamic>) {
    let constant = |value: Option<Dynamic>, pos| {
        RhaiExpr::DynamicConstant(Box::new(value.unwrap_or_default()), pos)
    };
    match link {
        RhaiExpr::MethodCall(call, _) if dot => {
            for arg in call.args.iter_mut() {
                *arg = constant(values.next(), arg.start_position());
            }
        }
        _ if dot => (),
        // Rhai reports an index where its expression starts (`a[a.len()]`: at the inner `a`).
        _ => *link = constant(values.next(), link.start_position()),
    }
}

/// The largest map searched key by key rather than through the tree (a map this small is one
/// node of it): comparing lengths and first letters first finds a script's few properties in
/// about two thirds of the instructions of the tree's ordered comparisons (a five-in-a-row game's state).
/// The first key is looked at before the search starts (the map's first entry is found without
/// an iterator): a state's `board` usually comes first, and a search after it starts one key on.
/// Per look-up of a map of three keys (`board`, `turn`, `winner`), in instructions: 43 fewer for
/// the first, 33 fewer for the others than a search from the first key.
const SMALL_MAP: usize = 11;

/// Property `name` of `map`. The first key is looked at where this is called (a state's
/// `board` usually comes first: about 20 instructions fewer than a call), the others in
/// [`property_after_first`].
#[inline(always)]
pub(super) fn property<'m>(map: &'m Map, name: &str) -> Option<&'m Dynamic> {
    match map.first_key_value() {
        Some((key, value)) if same_key(key, name) => Some(value),
        _ => property_after_first(map, name),
    }
}

/// [`property`] of a key that is not `map`'s first.
#[inline(never)]
fn property_after_first<'m>(map: &'m Map, name: &str) -> Option<&'m Dynamic> {
    if map.len() > SMALL_MAP {
        return map.get(name);
    }
    map.iter()
        .skip(1)
        .find(|(key, _)| same_key(key, name))
        .map(|(_, value)| value)
}

/// Property `name` of `map`, to change.
pub(super) fn property_mut<'m>(map: &'m mut Map, name: &str) -> Option<&'m mut Dynamic> {
    if map.len() > SMALL_MAP {
        return map.get_mut(name);
    }
    if map
        .first_key_value()
        .is_some_and(|(key, _)| same_key(key, name))
    {
        return map.first_entry().map(|entry| entry.into_mut());
    }
    map.iter_mut()
        .skip(1)
        .find(|(key, _)| same_key(key, name))
        .map(|(_, value)| value)
}

/// Whether a map's key is `name`: lengths and first bytes first, which tell most keys apart.
#[inline]
fn same_key(key: &str, name: &str) -> bool {
    key.len() == name.len() && key.as_bytes().first() == name.as_bytes().first() && key == name
}

/// Where `chain`'s one step, an array method's call (see [`Chain::array_method`]), is.
fn array_method_pos(chain: &Chain) -> Option<Position> {
    match chain.steps.as_slice() {
        [Step::Method { pos, .. } | Step::Prop { pos, .. }] => Some(*pos),
        _ => None,
    }
}

/// Whether the walker does array method `method` on `target` (with `item` for a push): an
/// array not shared; a push or a pop not on a constant (Rhai refuses to change one, in its own
/// words), and a push of an item neither shared nor a compact list (which becomes its array
/// first, see `native`).
#[inline]
pub(super) fn takes_array_method(
    target: &Dynamic,
    method: ArrayMethod,
    item: Option<&Dynamic>,
) -> bool {
    if !target.is_array() || target.is_shared() {
        return false;
    }
    match method {
        ArrayMethod::Push => {
            !target.is_read_only()
                && item
                    .is_some_and(|v| !(v.is_shared() || (v.is_variant() && v.is::<NativeList>())))
        }
        ArrayMethod::Pop => !target.is_read_only(),
        ArrayMethod::Len | ArrayMethod::IsEmpty => true,
    }
}

/// Whether `target` is an array the walker pushes onto itself (see [`takes_array_method`]):
/// one of the script's own (not shared), not a constant.
#[inline]
pub(super) fn takes_push(target: &Dynamic) -> bool {
    target.is_array() && !target.is_shared() && !target.is_read_only()
}

/// The length of `array` as Rhai's `len` gives it.
fn len_int(array: &Array) -> INT {
    INT::try_from(array.len()).unwrap_or(INT::MAX)
}
