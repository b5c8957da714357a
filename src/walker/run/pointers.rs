//! Calls of function pointers, `f.call(args)` and `call(f, args)`, made by the walker where the
//! pointer leads to one of the script's lowered functions, as Rhai makes them
//! (`Engine::make_method_call` and `Engine::make_function_call` on `call`).
//!
//! A pointer Rhai made linked to the script's function (`Fn*`: a closure, or a function's name
//! used as a value) is called with `Engine::call_script_fn` one level down, as a call by the
//! function's name is; one made by name (`Fn("twice")`) is called as a call by that name is
//! (`twice(args)`: by `f.call`, with the arguments' values; by `call(f, x, …)`, with a
//! variable `x` counted first and read last). Either way only in a function the host calls
//! (the script's own functions are then the first Rhai looks in), for a pointer without
//! curried values, to a function of which the script has one with that name. Any other
//! pointer, or a value that is not one, is Rhai's: `f.call` is looked at before anything is
//! evaluated (the arguments do not name `f`, see `Lower::pointer_method`) and handed over
//! whole; `call(f, …)` hands Rhai the call with `f`'s value in place of its expression.

use rhai::{Dynamic, Expr as RhaiExpr, FnPtr, Position};

use super::{Flow, Frame, Runner};
use crate::walker::{Expr, Function, PointerCall, Program};

impl Runner<'_> {
    /// The value of `call`, whose expression's operation is counted already.
    pub(super) fn pointer_call(&mut self, frame: &mut Frame, call: &PointerCall) -> Flow<Dynamic> {
        if call.method {
            self.method_pointer_call(frame, call)
        } else {
            self.function_pointer_call(frame, call)
        }
    }

    /// `f.call(args)`: Rhai gathers the arguments (one operation for the link of the chain,
    /// then theirs), counts the variable, and calls the pointer it holds.
    fn method_pointer_call(&mut self, frame: &mut Frame, call: &PointerCall) -> Flow<Dynamic> {
        let program = self.program;
        let pointer = match &call.pointer {
            Expr::Local(slot) => &frame.values[frame.index(*slot)],
            Expr::Value(pointer) => pointer,
            _ => &Dynamic::UNIT,
        };
        let Some(function) = pointed(program, pointer, call.args.len()) else {
            // Rhai counts the expression it evaluates.
            self.untick();
            return self.fallback(frame, &call.rhai.expr, &call.rhai.names);
        };
        self.tick(Position::NONE)?;
        let values = self.arguments(frame, function, &call.args, true)?;
        if let Err(err) = self.tick(Position::NONE) {
            self.recycle(values);
            return Err(err.into());
        }
        Ok(self.run_in(function, values, call.pos, false)?)
    }

    /// `call(f, args)`: Rhai evaluates `f`, then the arguments, and calls the pointer. A
    /// pointer linked to the function gets each argument's value as it is; one called by its
    /// name gets them as a call by that name does: a first argument that is a variable counted
    /// first and read last (the same count, in another order), the values flattened.
    fn function_pointer_call(&mut self, frame: &mut Frame, call: &PointerCall) -> Flow<Dynamic> {
        let pointer = self.expr(frame, &call.pointer)?;
        let program = self.program;
        let Some(function) = pointed(program, &pointer, call.args.len()) else {
            return self.pointer_call_in_rhai(frame, call, pointer);
        };
        let linked = is_linked(&pointer);
        let values = match call.first_local {
            Some(slot) if !linked => {
                self.tick(call.pos)?;
                let mut values = self.arguments(frame, function, &call.args[1..], true)?;
                let at = frame.index(slot);
                frame.touch(at);
                values.insert(0, frame.values[at].flatten_clone());
                values
            }
            _ => self.arguments(frame, function, &call.args, !linked)?,
        };
        // Either way Rhai's call of the function is the one a call by its name makes.
        Ok(self.run_in(function, values, call.pos, false)?)
    }

    /// The values of `args` (flattened with `flatten`, as Rhai's gathering does), in a frame
    /// made for `function`.
    fn arguments(
        &mut self,
        frame: &mut Frame,
        function: &Function,
        args: &[Expr],
        flatten: bool,
    ) -> Flow<Vec<Dynamic>> {
        let mut values = self.frames.pop().unwrap_or_default();
        values.reserve(function.frame_size);
        for arg in args {
            match self.expr(frame, arg) {
                Ok(value) if flatten => values.push(value.flatten()),
                Ok(value) => values.push(value),
                Err(stop) => {
                    self.recycle(values);
                    return Err(stop);
                }
            }
        }
        Ok(values)
    }

    /// Puts a frame's vector back, unused.
    fn recycle(&mut self, mut values: Vec<Dynamic>) {
        values.clear();
        self.frames.push(values);
    }

    /// Rhai makes `call(f, args)` with `pointer`, `f`'s value, in place of `f`. It counts the
    /// call's expression and the pointer, a literal, again: the count is set back by those two
    /// first, so that it reaches what Rhai counts for the call as written as Rhai counts them.
    fn pointer_call_in_rhai(
        &mut self,
        frame: &mut Frame,
        call: &PointerCall,
        pointer: Dynamic,
    ) -> Flow<Dynamic> {
        let mut whole = call.rhai.expr.clone();
        if let RhaiExpr::FnCall(x, _) = &mut whole {
            if let Some(first) = x.args.first_mut() {
                let pos = first.start_position();
                *first = RhaiExpr::DynamicConstant(Box::new(pointer), pos);
            }
        }
        self.untick();
        self.untick();
        self.fallback(frame, &whole, &call.rhai.names)
    }
}

/// The lowered function of `program` a call of the pointer `value` with `args` arguments
/// runs; `None` where Rhai makes the call (see the module's documentation).
fn pointed<'p>(program: &'p Program, value: &Dynamic, args: usize) -> Option<&'p Function> {
    if !program.own_lib || value.is_shared() {
        return None;
    }
    let ptr = value.read_lock::<FnPtr>()?;
    if ptr.is_curried() {
        return None;
    }
    let [(arity, index)] = program.by_name.get(ptr.fn_name())?.as_slice() else {
        return None;
    };
    if *arity != args {
        return None;
    }
    program.functions[*index].as_ref()
}

/// Whether Rhai made the pointer `value` linked to its function (`Fn*`: a closure, or a
/// function's name used as a value) rather than to be called by its name (`Fn("name")`).
fn is_linked(value: &Dynamic) -> bool {
    value
        .read_lock::<FnPtr>()
        .is_some_and(|ptr| ptr.is_anonymous() || format!("{:?}", *ptr).starts_with("Fn*("))
}
