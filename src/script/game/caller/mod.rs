//! Calls of a loaded script's functions: through the runtime's walker of lowered functions
//! ([`compiled`]) when the function could be lowered, else through Rhai, keeping Rhai's function
//! resolutions from one call to the next.
//!
//! `Engine::call_fn` begins every call with empty caches, so each call resolves every function
//! it meets from scratch: the script's own functions, then every registered module, then the
//! `Dynamic` wildcard forms. In a game most of a call's functions are met once or twice a call,
//! so that search was a tenth of a playout's time. The functions a loaded script can reach do
//! not change (the engine and the script's functions are fixed once it is loaded), and the
//! functions of an imported module (`base::f`) resolve theirs in caches of their own
//! ([`crate::script::imported`]), so a resolution stays true for its whole life: [`Caller`]
//! keeps them.

use std::{
    cell::{Cell, RefCell},
    rc::Rc,
};

use rhai::{
    Caches, Dynamic, Engine, EvalAltResult, EvalContext, FuncArgs, ImmutableString, Position,
    Scope, StaticVec, AST,
};

use crate::{
    script::sandbox,
    walker::{native_table::NativeTable, HandedToRhai, Imports, Program, Runner},
};

#[cfg(test)]
thread_local! {
    /// The operations the last call on this thread counted (to compare the walker with Rhai).
    pub(crate) static OPERATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Calls the functions of one loaded script, lowered or through Rhai, with the script's
/// constants in scope and the function resolutions of earlier calls kept.
pub struct Caller {
    /// The scope each call runs in: the constants the script's top level defines.
    scope: RefCell<Scope<'static>>,
    /// Rhai's function-resolution caches, kept between calls.
    caches: RefCell<Caches>,
    /// The script's source name, which Rhai puts in the errors of nested calls.
    source: Option<ImmutableString>,
    /// The script's functions lowered for the host's own walker.
    program: Program,
    /// The runtime's native functions, which lowered functions call directly.
    natives: NativeTable,
    /// Whether calls go through [`Self::program`] (else all through Rhai's interpreter).
    compiled: Cell<bool>,
    /// The walker's frames, kept empty from call to call (see [`Runner::new`]).
    frames: RefCell<Vec<Vec<Dynamic>>>,
    /// Who makes the lowered functions' calls of imported scripts (`base::f(…)`), if anyone.
    imports: Option<Rc<dyn Imports>>,
}

impl Caller {
    /// A caller for `ast`, whose top level left `constants`, in an engine with `natives`.
    pub fn new(ast: &AST, constants: Scope<'static>, natives: NativeTable) -> Self {
        Caller {
            program: Program::new(ast, &constants, &natives),
            natives,
            scope: RefCell::new(constants),
            caches: RefCell::new(Caches::new()),
            source: ast.source().map(ImmutableString::from),
            compiled: Cell::new(true),
            frames: RefCell::default(),
            imports: None,
        }
    }

    /// Lets the lowered functions' calls of imported scripts' functions (`base::f(…)`) be made
    /// by `imports` rather than by Rhai.
    pub fn set_imports(&mut self, imports: Rc<dyn Imports>) {
        self.imports = Some(imports);
    }

    /// Runs calls through the lowered functions (`true`, the default) or all through Rhai's
    /// interpreter (to compare the two).
    pub fn set_compiled(&self, on: bool) {
        self.compiled.set(on);
    }

    /// How many of the script's functions run lowered, of how many.
    pub fn coverage(&self) -> (usize, usize) {
        self.program.coverage()
    }

    /// Lowers `ast`'s functions again, each statement recording its cost when it runs (see
    /// [`crate::walker::profile`]): for `boardrules profile`.
    pub fn profile(&mut self, ast: &AST) {
        self.program = Program::profiled(ast, &self.scope.borrow(), &self.natives);
    }

    /// The lowered functions the calls run (for tests to look at what the walker kept).
    #[cfg(test)]
    pub(crate) fn program(&self) -> &Program {
        &self.program
    }

    /// What Rhai's interpreter runs rather than the walker, and why.
    pub fn handed_to_rhai(&self) -> &[HandedToRhai] {
        self.program.handed_to_rhai()
    }

    /// Calls the script function `name` with `args`, as `Engine::call_fn` would (without
    /// running the top level again): the same result and the same errors. `engine` and `ast`
    /// are the ones the script was loaded into and the caller made for: the kept resolutions
    /// are theirs.
    pub fn call(
        &self,
        engine: &Engine,
        ast: &AST,
        name: &str,
        args: impl FuncArgs,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let mut values = StaticVec::<Dynamic>::new();
        args.parse(&mut values);
        self.call_with(engine, ast, name, Args::Values(values))
    }

    /// [`Self::call`] of `name(state)` for a list of moves. Where a lowered function returns a
    /// primitive's list as it is (`state.board.cells_with(EMPTY)`), the result is a
    /// [`crate::walker::lists::NativeList`] of the same items rather than an array. `state` is
    /// lent to a lowered function rather than copied (see [`Runner::call_lending`]), and is as
    /// it was afterwards.
    pub fn call_for_list(
        &self,
        engine: &Engine,
        ast: &AST,
        name: &str,
        state: &mut Dynamic,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        self.call_with(engine, ast, name, Args::Lent(state))
    }

    fn call_with(
        &self,
        engine: &Engine,
        ast: &AST,
        name: &str,
        args: Args,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let arity = match &args {
            Args::Values(values) => values.len(),
            Args::Lent(_) => 1,
        };
        let lowered = self
            .program
            .function(name, arity)
            .filter(|_| self.compiled.get());
        if lowered.is_none() && ast.shared_lib().get_script_fn(name, arity).is_none() {
            return Err(EvalAltResult::ErrorFunctionNotFound(name.into(), Position::NONE).into());
        }
        let mut global = engine.new_global_runtime_state();
        global.lib.push(ast.shared_lib().clone());
        global.source.clone_from(&self.source);
        let mut caches = self.caches.borrow_mut();
        let mut scope = self.scope.borrow_mut();
        let result = match lowered {
            Some(function) => {
                let mut frames = self.frames.borrow_mut();
                let mut runner = Runner::new(
                    engine,
                    &self.program,
                    &self.natives,
                    &mut global,
                    &mut caches,
                    &mut scope,
                    &mut frames,
                    sandbox::progress,
                )
                .with_imports(self.imports.as_deref())
                .with_charges(sandbox::CHARGES);
                match args {
                    Args::Values(values) => runner.call(function, values),
                    Args::Lent(state) => runner.call_lending(function, state),
                }
            }
            None => {
                let mut values = match args {
                    Args::Values(values) => values,
                    Args::Lent(state) => std::iter::once(state.clone()).collect(),
                };
                let mut args: StaticVec<&mut Dynamic> = values.iter_mut().collect();
                EvalContext::new(engine, &mut global, &mut caches, &mut scope, None)
                    .call_fn_raw(name, false, false, &mut args)
            }
        };
        #[cfg(test)]
        OPERATIONS.set(global.num_operations);
        // A call that failed half-way may leave an inner layer (pushed for an import) behind.
        caches.rewind_fn_resolution_caches(1);
        result.or_else(|err| match *err {
            EvalAltResult::Exit(value, ..) => Ok(value),
            EvalAltResult::ErrorInFunctionCall(called, _, inner, _) if called == name => Err(inner),
            _ => Err(err),
        })
    }
}

/// The arguments of a call.
enum Args<'s> {
    Values(StaticVec<Dynamic>),
    /// The host's state, lent to a lowered function (copied for Rhai).
    Lent(&'s mut Dynamic),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller_for(script: &str) -> (Engine, AST, Caller) {
        let engine = crate::script::sandbox::engine();
        let ast = engine.compile(script).unwrap();
        let caller = Caller::new(&ast, Scope::new(), NativeTable::default());
        (engine, ast, caller)
    }

    const SCRIPT: &str = r#"
        fn twice(x) { 2 * x }
        fn sum(list) { let n = 0; for x in list { n += twice(x); } n }
        fn fail(x) { if x > 1 { throw `too big: ${x}`; } twice(x) }
    "#;

    #[test]
    fn calls_give_what_call_fn_gives_and_keep_giving_it() {
        let (engine, ast, caller) = caller_for(SCRIPT);
        let list: rhai::Array = vec![1.into(), 2.into(), 3.into()];
        for _ in 0..3 {
            let ours = caller.call(&engine, &ast, "sum", (list.clone(),)).unwrap();
            let rhai: rhai::INT = engine
                .call_fn(&mut Scope::new(), &ast, "sum", (list.clone(),))
                .unwrap();
            assert_eq!(ours.as_int().unwrap(), rhai);
        }
    }

    #[test]
    fn a_failed_call_reports_as_call_fn_does_and_the_next_call_works() {
        let (engine, ast, caller) = caller_for(SCRIPT);
        let ours = caller
            .call(&engine, &ast, "fail", (5 as rhai::INT,))
            .unwrap_err();
        let rhai = engine
            .call_fn::<Dynamic>(&mut Scope::new(), &ast, "fail", (5 as rhai::INT,))
            .unwrap_err();
        assert_eq!(ours.to_string(), rhai.to_string());
        let after = caller
            .call(&engine, &ast, "fail", (1 as rhai::INT,))
            .unwrap();
        assert_eq!(after.as_int().unwrap(), 2);
    }

    #[test]
    fn a_function_the_script_does_not_define_is_not_found() {
        let (engine, ast, caller) = caller_for(SCRIPT);
        // `to_string` is a native function: only the script's own functions are called.
        let err = caller
            .call(&engine, &ast, "to_string", (1 as rhai::INT,))
            .unwrap_err();
        assert!(
            matches!(*err, EvalAltResult::ErrorFunctionNotFound(ref name, _) if name == "to_string")
        );
        let err = caller.call(&engine, &ast, "twice", ()).unwrap_err();
        assert!(matches!(*err, EvalAltResult::ErrorFunctionNotFound(..)));
    }
}
