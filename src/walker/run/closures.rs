//! Rhai's array methods that take a closure (`list.filter(|c| c.x != 7)`), run by the walker
//! with the closure's lowered function.
//!
//! Each method is done as Rhai's array package does it (`rhai::packages::array_basic`), with
//! the closure called as `FnPtr::call_raw_with_extra_args` calls it: the element alone, or with
//! its index, or (for `reduce`) the result so far, the element and its index, as many as the
//! closure takes; `for_each` binds the element to `this` (a closure using `this` is not
//! lowered) and passes the index alone; `sort` and `dedup` pass two elements to a comparer
//! taking exactly two, and take any error or other answer as Rhai does (the order of the
//! elements' types; not a duplicate). `retain`, `drain`, `sort`, `dedup` and `for_each` change
//! the array in place, element by element, as Rhai's do. The closure runs as `Engine::call_script_fn` runs it (two levels below the
//! caller: Rhai's call of the method is one, the closure's another; one operation counted,
//! its error wrapped with the closure's name), in a copy of Rhai's runtime
//! state that Rhai then drops: the operations the closure counts are not the caller's. An
//! error is wrapped again with the method's name, at the method's position, as Rhai's native
//! call gives it.
//!
//! Only a closure whose function the walker lowered is run here (with the values it captured
//! first, as Rhai passes them: see `Lower::capture` for the closures that capture variables);
//! any other call goes to Rhai as before. A captured variable the closure may change is a
//! shared value, as in Rhai: its content is lent to each call and put back into it after the
//! method, so that the calls after and the function that made the closure see the changes
//! (the function makes the variable a plain value again when the chain ends: `share` and
//! `unshare` below).

use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Position, INT};

use super::{Error, Frame, Function, Program, Runner, Slot};

/// How a method passes each element to its closure (`call_raw_with_extra_args`' arguments).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Passing {
    /// The element, then its index, as many as the closure takes (`filter`, `map`…).
    Element,
    /// The result so far, the element, then its index (`reduce`).
    Reduce,
    /// The index alone, the element bound to `this` (`for_each`).
    Index,
    /// Two elements, both always (`sort`, `dedup`).
    Pair,
}

/// What the method does with the closure's answers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Filter,
    Map,
    Some,
    All,
    IndexOf,
    Find,
    FindMap,
    Reduce,
    ReduceRev,
    Retain,
    Drain,
    ForEach,
    Sort,
    Dedup,
}

impl Method {
    /// The method `name` with `args` arguments (the array and the closure included).
    fn of(name: &str, args: usize) -> Option<Method> {
        Some(match (name, args) {
            ("filter", 2) => Method::Filter,
            ("map", 2) => Method::Map,
            ("some", 2) => Method::Some,
            ("all", 2) => Method::All,
            ("index_of", 2) => Method::IndexOf,
            ("find", 2) => Method::Find,
            ("find_map", 2) => Method::FindMap,
            ("reduce", 2 | 3) => Method::Reduce,
            ("reduce_rev", 2 | 3) => Method::ReduceRev,
            ("retain", 2) => Method::Retain,
            ("drain", 2) => Method::Drain,
            ("for_each", 2) => Method::ForEach,
            ("sort" | "sort_by", 2) => Method::Sort,
            ("dedup", 2) => Method::Dedup,
            _ => return None,
        })
    }

    fn passing(self) -> Passing {
        match self {
            Method::Reduce | Method::ReduceRev => Passing::Reduce,
            Method::ForEach => Passing::Index,
            Method::Sort | Method::Dedup => Passing::Pair,
            _ => Passing::Element,
        }
    }

    /// Whether the method changes its array (Rhai refuses it on a constant).
    fn changes_array(self) -> bool {
        matches!(
            self,
            Method::Retain | Method::Drain | Method::ForEach | Method::Sort | Method::Dedup
        )
    }

    /// The name Rhai wraps the closure's errors with (`find` is Rhai's `index_of`).
    fn caller_name(self) -> &'static str {
        match self {
            Method::Filter => "filter",
            Method::Map => "map",
            Method::Some => "some",
            Method::All => "all",
            Method::IndexOf | Method::Find => "index_of",
            Method::FindMap => "find_map",
            Method::Reduce => "reduce",
            Method::ReduceRev => "reduce_rev",
            Method::Retain => "retain",
            Method::Drain => "drain",
            Method::ForEach => "for_each",
            // Their closures' errors never reach the caller.
            Method::Sort => "sort",
            Method::Dedup => "dedup",
        }
    }
}

/// Whether `name` with `args` arguments (the array's included) is an array method whose
/// closure the walker runs.
pub(in crate::walker) fn takes_closure(name: &str, args: usize) -> bool {
    Method::of(name, args).is_some()
}

/// Whether `name` with `args` arguments (the array's included) is one of Rhai's array methods
/// that only read the array: those taking a closure that change nothing, `len`, `is_empty`.
pub(in crate::walker) fn only_reads_array(name: &str, args: usize) -> bool {
    match Method::of(name, args) {
        Some(method) => !method.changes_array(),
        None => matches!((name, args), ("len" | "is_empty", 1)),
    }
}

/// The lowered function of the closure `value` points to, if it is an anonymous function of
/// `program` taking its captured values (`curry`) and a number of parameters `passing` gives
/// it, with those values as the pointer holds them (shared for the variables the closure may
/// change, see `Lower::capture`).
fn lowered_closure<'p>(
    program: &'p Program,
    engine: &Engine,
    value: &Dynamic,
    passing: Passing,
) -> Option<(&'p Function, Vec<Dynamic>)> {
    let ptr = value.read_lock::<FnPtr>()?;
    if !ptr.is_anonymous() && !runs_as_closure(program, engine, &ptr) {
        return None;
    }
    let arities = program.by_name.get(ptr.fn_name())?;
    let [(arity, index)] = arities.as_slice() else {
        return None;
    };
    let takes = match passing {
        Passing::Element => 0..=2,
        Passing::Reduce => 1..=3,
        Passing::Index => 0..=1,
        Passing::Pair => 2..=2,
    };
    let captured = ptr.curry().len();
    if !arity
        .checked_sub(captured)
        .is_some_and(|own| takes.contains(&own))
    {
        return None;
    }
    let function = program.functions[*index].as_ref()?;
    Some((function, ptr.iter_curry().cloned().collect()))
}

/// Whether the closure `function` may change its `i`th parameter (a captured variable).
fn changes(function: &Function, i: usize) -> bool {
    function.changes.get(i).copied().unwrap_or(false)
}

/// The values the calls of the closure `function` are lent, for its `curry` values (a copy of
/// the pointer's): a plain value is moved out of `curry`, a shared one copied, but for a
/// shared variable the closure may change, whose content is taken out (the calls change it
/// there, and nothing else reads it while they run); `None`, with nothing taken, when such a
/// shared value is in use elsewhere.
fn lent_values(function: &Function, curry: &mut [Dynamic]) -> Option<Vec<Dynamic>> {
    let taken = |i: usize, v: &Dynamic| v.is_shared() && changes(function, i);
    if curry
        .iter()
        .enumerate()
        .any(|(i, v)| taken(i, v) && v.read_lock::<Dynamic>().is_none())
    {
        return None;
    }
    curry
        .iter_mut()
        .enumerate()
        .map(|(i, v)| {
            if taken(i, v) {
                v.write_lock::<Dynamic>()
                    .map(|mut cell| std::mem::take(&mut *cell))
            } else if v.is_shared() {
                Some(v.flatten_clone())
            } else {
                // The pointer's copy of a plain value, which nothing reads again.
                Some(std::mem::take(v))
            }
        })
        .collect()
}

/// Puts the values lent to the calls of the closure `function` back into the shared values
/// of its `curry` they were taken from.
fn give_back(function: &Function, curry: &mut [Dynamic], lent: Vec<Dynamic>) {
    for (i, (v, value)) in curry.iter_mut().zip(lent).enumerate() {
        if v.is_shared() && changes(function, i) {
            if let Some(mut cell) = v.write_lock::<Dynamic>() {
                *cell = value;
            }
        }
    }
}

/// Whether `ptr`, a pointer to a named function (`list.filter(open)`), is called by Rhai as a
/// closure is, so that the walker may run it so: Rhai made it from the function's name, linked
/// to the script's own function of that name (`Fn*`; one made with `Fn("open")` is called
/// through Rhai's search for the function, a level deeper), in a function the host calls (whose
/// script's functions come first in Rhai's `global.lib`), and no native function has that name
/// (Rhai's first try with the element as `this` would reach it).
fn runs_as_closure(program: &Program, engine: &Engine, ptr: &FnPtr) -> bool {
    let name = rhai::ImmutableString::from(ptr.fn_name());
    program.own_lib
        && format!("{ptr:?}").starts_with("Fn*(")
        && !program.native_named(engine, &name)
}

impl Runner<'_> {
    /// Rhai's array method `name` with `args` (an array and a closure the walker lowered, and
    /// for `reduce` a first result), done here with the same checks around it as Rhai's native
    /// call makes; `None`, with nothing done, for any other call.
    pub(super) fn closure_method(
        &mut self,
        name: &str,
        is_ref_mut: bool,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Option<Result<Dynamic, Error>> {
        let method = Method::of(name, args.len())?;
        if !args[0].is_array() || args.iter().any(|a| a.is_shared()) {
            return None;
        }
        if method.changes_array() && args[0].is_read_only() {
            return None;
        }
        let program = self.program;
        let (function, mut curry) =
            lowered_closure(program, self.engine, args[1], method.passing())?;
        // A closure that may return a shared variable's value as it is (moving it out of its
        // frame) is Rhai's.
        if function.moves_out && function.changes.contains(&true) {
            return None;
        }
        let mut captured = lent_values(function, &mut curry)?;
        // Rhai counts an operation for the native call.
        if let Err(err) = self.tick(pos) {
            give_back(function, &mut curry, captured);
            return Some(Err(err));
        }
        let initial = args.get(2).map_or(Dynamic::UNIT, |v| (**v).clone());
        let result = if method.changes_array() {
            let mut array = args[0].write_lock::<Array>().expect("an array");
            self.change_array(method, function, &mut captured, &mut array, pos)
        } else {
            let array = args[0].read_lock::<Array>().expect("an array");
            self.run_method(method, function, &mut captured, &array, initial, pos)
        };
        give_back(function, &mut curry, captured);
        let changed = if is_ref_mut { Some(&*args[0]) } else { None };
        Some(self.checked_native_result(result, changed, pos))
    }

    /// The method's value over `array`.
    fn run_method(
        &mut self,
        method: Method,
        function: &Function,
        captured: &mut [Dynamic],
        array: &Array,
        initial: Dynamic,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        // The captured values come first.
        let own = function.arity - captured.len();
        let mut call = |runner: &mut Self, args: &mut dyn Iterator<Item = Dynamic>| {
            runner
                .closure(function, captured, args, pos)
                .map_err(|err| wrapped(method, runner, err))
        };
        let element = |item: &Dynamic, i: usize| [item.clone(), index(i)].into_iter().take(own);
        Ok(match method {
            Method::Filter => {
                let mut kept = Array::new();
                for (i, item) in array.iter().enumerate() {
                    if truthy(&call(self, &mut element(item, i))?) {
                        kept.push(item.clone());
                    }
                }
                Dynamic::from_array(kept)
            }
            Method::Map => {
                let mut mapped = Array::with_capacity(array.len());
                for (i, item) in array.iter().enumerate() {
                    mapped.push(call(self, &mut element(item, i))?);
                }
                Dynamic::from_array(mapped)
            }
            Method::Some | Method::All => {
                let want = method == Method::Some;
                for (i, item) in array.iter().enumerate() {
                    if truthy(&call(self, &mut element(item, i))?) == want {
                        return Ok(want.into());
                    }
                }
                (!want).into()
            }
            Method::IndexOf | Method::Find => {
                for (i, item) in array.iter().enumerate() {
                    if truthy(&call(self, &mut element(item, i))?) {
                        return Ok(match method {
                            Method::Find => item.clone(),
                            _ => index(i),
                        });
                    }
                }
                match method {
                    Method::Find => Dynamic::UNIT,
                    _ => Dynamic::from_int(-1),
                }
            }
            Method::FindMap => {
                for (i, item) in array.iter().enumerate() {
                    let value = call(self, &mut element(item, i))?;
                    if !value.is_unit() {
                        return Ok(value);
                    }
                }
                Dynamic::UNIT
            }
            Method::Reduce | Method::ReduceRev => {
                let order: Box<dyn Iterator<Item = (usize, &Dynamic)>> = if method == Method::Reduce
                {
                    Box::new(array.iter().enumerate())
                } else {
                    Box::new(array.iter().enumerate().rev())
                };
                let mut result = initial;
                for (i, item) in order {
                    // The result so far, then the element and its index, as the closure takes.
                    let mut args = [result, item.clone(), index(i)].into_iter().take(own);
                    result = call(self, &mut args)?;
                }
                result
            }
            _ => unreachable!("a method changing its array"),
        })
    }

    /// The value of a method changing `array` (in place, as Rhai's does).
    fn change_array(
        &mut self,
        method: Method,
        function: &Function,
        captured: &mut [Dynamic],
        array: &mut Array,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let own = function.arity - captured.len();
        let mut call = |runner: &mut Self, args: &mut dyn Iterator<Item = Dynamic>| {
            runner.closure(function, captured, args, pos)
        };
        let element = |item: &Dynamic, i: usize| [item.clone(), index(i)].into_iter().take(own);
        Ok(match method {
            Method::Retain | Method::Drain => {
                if array.is_empty() {
                    return Ok(Dynamic::from_array(Array::new()));
                }
                let keep = method == Method::Retain;
                let mut removed = if keep {
                    Array::new()
                } else {
                    Array::with_capacity(array.len())
                };
                let (mut i, mut x) = (0, 0);
                while x < array.len() {
                    let answer = call(self, &mut element(&array[x], i))
                        .map_err(|err| wrapped(method, self, err))?;
                    if truthy(&answer) == keep {
                        x += 1;
                    } else {
                        removed.push(array.remove(x));
                    }
                    i += 1;
                }
                Dynamic::from_array(removed)
            }
            Method::ForEach => {
                for i in 0..array.len() {
                    // The element is `this` (unused: the closure is lowered), the index its
                    // parameter if it takes one.
                    let mut args = std::iter::once(index(i)).take(own);
                    let _ = call(self, &mut args).map_err(|err| wrapped(method, self, err))?;
                }
                Dynamic::UNIT
            }
            Method::Sort => {
                if array.len() <= 1 {
                    return Ok(Dynamic::UNIT);
                }
                let sort = || {
                    array.sort_by(|x, y| {
                        call(self, &mut [x.clone(), y.clone()].into_iter())
                            .ok()
                            .and_then(|v| {
                                v.as_int()
                                    .or_else(|_| v.as_bool().map(|v| if v { -1 } else { 1 }))
                                    .ok()
                            })
                            .map_or_else(|| x.type_id().cmp(&y.type_id()), |v| v.cmp(&0))
                    });
                };
                // Rust's sort panics on a comparer that is not a total order: Rhai catches it.
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(sort)).map_err(|_| {
                    EvalAltResult::ErrorRuntime(
                        "error in comparer for sorting".into(),
                        Position::NONE,
                    )
                })?;
                Dynamic::UNIT
            }
            Method::Dedup => {
                if !array.is_empty() {
                    array.dedup_by(|x, y| {
                        call(self, &mut [y.clone(), x.clone()].into_iter())
                            .unwrap_or(Dynamic::FALSE)
                            .as_bool()
                            .unwrap_or(false)
                    });
                }
                Dynamic::UNIT
            }
            _ => unreachable!("a method reading its array"),
        })
    }

    /// Calls the closure's `function` with its `captured` values, then `args`, as Rhai calls a
    /// function pointer's script function: in a copy of the runtime state whose operations are
    /// then dropped. The captured values are lent to the call and taken back, rather than
    /// copied for each element (a change the closure makes to one is seen by its later calls,
    /// and given back to the shared variable after the method: see `closure_method`), unless
    /// the function may move one out (returning it as it is).
    fn closure(
        &mut self,
        function: &Function,
        captured: &mut [Dynamic],
        args: &mut dyn Iterator<Item = Dynamic>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let operations = self.global.num_operations;
        // Rhai's call of the method went a level deeper, and the closure runs below it.
        self.global.level += 1;
        let result = if function.moves_out || captured.is_empty() {
            let mut all = captured.iter().cloned().chain(args);
            self.function(function, &mut all, pos, false)
        } else {
            self.lending_captured(function, captured, args, pos)
        };
        self.global.level -= 1;
        self.set_operations(operations);
        result
    }

    /// Runs `function` with `captured` lent to its frame, then `args`, and takes them back.
    fn lending_captured(
        &mut self,
        function: &Function,
        captured: &mut [Dynamic],
        args: &mut dyn Iterator<Item = Dynamic>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let mut values = self.frames.pop().unwrap_or_default();
        values.reserve(function.frame_size);
        values.extend(captured.iter_mut().map(std::mem::take));
        values.extend(args);
        let mut frame = Frame::new(values, false, 0);
        let result = self.run_function(function, &mut frame, pos);
        for (kept, value) in captured.iter_mut().zip(frame.values.iter_mut()) {
            *kept = std::mem::take(value);
        }
        frame.values.clear();
        self.frames.push(frame.values);
        result
    }
}

impl Runner<'_> {
    /// Rhai's `share` of the variables in `slots`: each becomes a shared value (as the host
    /// may have lent the state there, it is copied first for the host).
    pub(super) fn share(&mut self, frame: &mut Frame, slots: &[Slot]) {
        for &slot in slots {
            let i = frame.index(slot);
            self.before_change(frame, i);
            frame.touch(i);
            let value = &mut frame.values[i];
            if !value.is_shared() {
                *value = std::mem::take(value).into_shared();
            }
        }
    }

    /// Every variable of `frame` Rhai shared with closures that have ended becomes a plain
    /// value again.
    pub(super) fn unshare_all(&mut self, frame: &mut Frame) {
        frame.measured = None;
        for value in frame.values.iter_mut().filter(|v| v.is_shared()) {
            *value = std::mem::take(value).flatten();
        }
    }

    /// The variables in `slots`, shared while the closures holding them lived, become plain
    /// values again (with what the closures left in them).
    pub(super) fn unshare(&mut self, frame: &mut Frame, slots: &[Slot]) {
        for &slot in slots {
            let i = frame.index(slot);
            frame.touch(i);
            let value = &mut frame.values[i];
            if value.is_shared() {
                *value = std::mem::take(value).flatten();
            }
        }
    }
}

/// The closure's error as the array method reports it: in a call of the method.
fn wrapped(method: Method, runner: &Runner, err: Error) -> Error {
    EvalAltResult::ErrorInFunctionCall(
        method.caller_name().to_string(),
        runner.global.source.as_deref().unwrap_or("").to_string(),
        err,
        Position::NONE,
    )
    .into()
}

/// Whether the closure said yes (Rhai takes anything but `true` as no).
fn truthy(value: &Dynamic) -> bool {
    value.as_bool().unwrap_or(false)
}

/// An index as the closure gets it.
fn index(i: usize) -> Dynamic {
    Dynamic::from_int(INT::try_from(i).unwrap_or(INT::MAX))
}
