//! Calls of imported scripts' functions, `base::moves(state)`: the arguments evaluated by the
//! walker as Rhai evaluates them for a call through a module path, and the call made by the
//! host's [`super::Imports`].

use rhai::{Dynamic, StaticVec};

use super::{Flow, Frame, Runner};
use crate::walker::ImportedCall;

impl Runner<'_> {
    /// `call`, whose expression's operation is counted already: made by the host if it makes
    /// it, else evaluated by Rhai as a node handed over.
    pub(super) fn imported(&mut self, frame: &mut Frame, call: &ImportedCall) -> Flow<Dynamic> {
        let arity = call.args.len();
        let imports = self
            .imports
            .filter(|imports| imports.makes(&call.namespace, &call.name, arity));
        let Some(imports) = imports else {
            // Rhai counts the call's expression itself.
            self.untick();
            return self.fallback(frame, &call.rhai.expr, &call.rhai.names);
        };
        // As `make_qualified_function_call`: a first argument that is a variable is counted
        // where it is and read after the others are evaluated; the others are evaluated.
        if let Some(pos) = call.first_variable {
            self.tick(pos)?;
        }
        let mut values: StaticVec<Dynamic> = StaticVec::new();
        let skip = usize::from(call.first_variable.is_some());
        for arg in &call.args[skip..] {
            values.push(self.expr(frame, arg)?);
        }
        if skip == 1 {
            let first = self.eval(frame, &call.args[0])?;
            values.insert(0, first);
        }
        let mut args: StaticVec<&mut Dynamic> = values.iter_mut().collect();
        let value = imports.call(
            self.engine,
            self.global,
            &call.namespace,
            &call.name,
            &mut args,
            call.pos,
        )?;
        self.check_size_of(&value, call.pos)?;
        Ok(value)
    }
}
