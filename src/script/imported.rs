//! What `import "NAME" as ALIAS;` gives a script: the imported rules script as a module whose
//! functions, called as `ALIAS::f(…)`, run that script as written, the same on every call.
//!
//! Rhai keeps one function-resolution cache per call, keyed by a function's name and
//! arguments only, and a module's script function runs inside its caller's cache. A base's `f`
//! calling `g`, where the variant redefines `g`, then finds whichever `g` the cache met first:
//! after one `base::f`, a plain `f` of the variant found the base's `g`, and `base::f` sometimes
//! the variant's. Here each function of the module is a native function that runs the script
//! function with caches of its own, so resolutions inside the module never meet the caller's:
//! `base::f` always runs the base's `g`, and a plain call of an inherited `f` (the variant's own
//! copy of it) always the variant's.
//!
//! The call goes as Rhai's own call of a module's script function goes (same call depth, same
//! errors and positions, the same module named as the source of what happens in it). The
//! operations it counts are Rhai's, in a copy of the caller's runtime state that Rhai does not
//! hand back, so they are charged to the call in progress as a primitive's work
//! ([`sandbox::charge`]): the budget sees every one of them.
//!
//! **In the walker.** Once the host links an imported script ([`Base::link`], with the
//! natives' table and the importing script's constants, which are what the base's functions
//! read: Rhai finds a function's constants in the engine's global module, where the host put
//! the importing script's), its functions are lowered ([`crate::walker::Program`], at the first
//! `base::` call) and `base::f` runs the lowered `f` in the runtime's walker instead of Rhai's
//! interpreter, with
//! the same runtime state, resolutions (the base's own functions) and operation counting: the
//! walker gives exactly what Rhai gives. A function the walker does not lower, a base that
//! imports scripts itself or reads `global::` constants (which Rhai finds in the base's own
//! environment), and a host running everything through Rhai ([`Base::set_compiled`]) go
//! through Rhai's interpreter as before.

use std::{
    any::TypeId,
    cell::{Cell, OnceCell, RefCell},
    rc::Rc,
};

use foldhash::HashMap;
use rhai::{
    Caches, Dynamic, Engine, EvalAltResult, EvalContext, FnAccess, FuncRegistration,
    GlobalRuntimeState, Module, NativeCallContext, Position, RhaiFunc, Scope, Shared, AST,
};

use super::sandbox;
use crate::walker::{native_table::NativeTable, Function, Imports, Program, Runner};

/// An imported rules script: its functions, lowered for the walker once the host links it.
pub struct Base {
    /// The script's functions (private ones included), as compiled.
    ast: AST,
    /// The lowered functions and the natives they call, once linked.
    linked: OnceCell<Linked>,
    /// Whether calls go through the walker (else all through Rhai's interpreter).
    compiled: Cell<bool>,
    /// The walker's frames, kept empty from call to call.
    frames: RefCell<Vec<Vec<Dynamic>>>,
    /// The script evaluated as a module, whose functions Rhai finds the module's own in (set
    /// by [`with_own_resolutions`]).
    module: OnceCell<Shared<Module>>,
}

/// What the walker runs a linked base with.
struct Linked {
    program: Program,
    natives: NativeTable,
}

impl Base {
    /// The imported script compiled as `ast` (its top level already run).
    pub fn new(ast: &AST) -> Self {
        let mut functions = ast.clone_functions_only();
        // Named as the script, which Rhai gives as the source of what happens in it.
        if let Some(source) = ast.source() {
            functions.set_source(source);
        }
        Base {
            ast: functions,
            linked: OnceCell::new(),
            compiled: Cell::new(true),
            frames: RefCell::default(),
            module: OnceCell::new(),
        }
    }

    /// Lowers the script's functions for an engine with `natives`, whose global module holds
    /// `constants` (the importing script's constants). Nothing is lowered for a script that
    /// imports others or reads `global::` constants: Rhai runs those with the script's own
    /// environment, which the walker does not model. Linking again does nothing.
    pub fn link(&self, constants: &Scope, natives: &NativeTable) {
        if self.linked.get().is_some() || needs_own_environment(&self.ast) {
            return;
        }
        let linked = Linked {
            program: Program::imported(&self.ast, constants, natives),
            natives: natives.clone(),
        };
        let _ = self.linked.set(linked);
    }

    /// Runs calls through the walker (`true`, the default) or all through Rhai's interpreter
    /// (to compare the two).
    pub fn set_compiled(&self, on: bool) {
        self.compiled.set(on);
    }

    /// The lowered function `name` with `arity` parameters, if the walker runs it.
    fn lowered(&self, name: &str, arity: usize) -> Option<(&Linked, &Function)> {
        let linked = self.linked.get().filter(|_| self.compiled.get())?;
        Some((linked, linked.program.function(name, arity)?))
    }

    /// Whether `base::name(…)` with `arity` arguments reaches a public function that runs in
    /// the walker (a private one is not found).
    fn runs_public(&self, name: &str, arity: usize) -> bool {
        self.lowered(name, arity).is_some()
            && self
                .ast
                .shared_lib()
                .get_script_fn(name, arity)
                .is_some_and(|f| f.access != FnAccess::Private)
    }
}

/// The calls of an importing script's `ALIAS::f(…)` that its walker hands to the imported
/// scripts' lowered functions ([`crate::walker::Imports`]): by alias, the imported script.
#[derive(Default)]
pub struct ImportedCalls {
    by_alias: HashMap<String, Rc<Base>>,
}

impl ImportedCalls {
    /// The calls of `aliases` (each alias with the name of the module it stands for) to the
    /// imported scripts `bases`.
    pub fn new(aliases: &[(String, String)], bases: &[Rc<Base>]) -> Self {
        let by_alias = aliases
            .iter()
            .filter_map(|(alias, id)| {
                let base = bases.iter().find(|b| b.ast.source() == Some(id.as_str()))?;
                Some((alias.clone(), base.clone()))
            })
            .collect();
        ImportedCalls { by_alias }
    }
}

impl Imports for ImportedCalls {
    fn makes(&self, namespace: &str, name: &str, arity: usize) -> bool {
        self.by_alias
            .get(namespace)
            .is_some_and(|base| base.module.get().is_some() && base.runs_public(name, arity))
    }

    fn call(
        &self,
        engine: &Engine,
        global: &mut GlobalRuntimeState,
        namespace: &str,
        name: &str,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let base = &self.by_alias[namespace];
        let module = base.module.get().expect("a module for every call made");
        #[cfg(test)]
        tests::MADE.set(tests::MADE.get() + 1);
        // Rhai calls the module's native function one level below the caller.
        global.level += 1;
        let call = Call {
            engine,
            global,
            pos,
        };
        let result = run_script_fn(&call, module, base, name, args);
        global.level -= 1;
        result
    }
}

/// Whether the functions of `ast` may need what Rhai keeps of their script's environment:
/// imports (`ALIAS::f` in a function) or `global::NAME`.
fn needs_own_environment(ast: &AST) -> bool {
    let mut found = false;
    ast.walk(&mut |path: &[rhai::ASTNode]| {
        found = match path.last() {
            Some(rhai::ASTNode::Stmt(rhai::Stmt::Import(..))) => true,
            Some(rhai::ASTNode::Stmt(rhai::Stmt::FnCall(call, ..))) => call.is_qualified(),
            Some(rhai::ASTNode::Expr(rhai::Expr::Variable(var, ..))) => !var.2.is_empty(),
            Some(rhai::ASTNode::Expr(rhai::Expr::FnCall(call, ..))) => call.is_qualified(),
            _ => false,
        };
        !found
    });
    found
}

/// `module` (the rules script `base` was compiled from, evaluated as a module) with each public
/// script function replaced by a native one that runs it with function-resolution caches of
/// its own; its variables and sub-modules as they are.
pub fn with_own_resolutions(module: Shared<Module>, base: &Rc<Base>) -> Module {
    let mut wrapped = Module::new();
    if let Some(id) = module.id() {
        wrapped.set_id(id);
    }
    for (name, value) in module.iter_var() {
        wrapped.set_var(name, value.clone());
    }
    for (name, sub) in module.iter_sub_modules() {
        wrapped.set_sub_module(name, sub.clone());
    }
    let _ = base.module.set(module.clone());
    for (namespace, access, name, arity, _) in module.iter_script_fn_info() {
        if access == FnAccess::Private {
            continue;
        }
        let name = name.to_string();
        let call = {
            let (module, base, name) = (module.clone(), base.clone(), name.clone());
            move |context: Option<NativeCallContext>, args: &mut [&mut Dynamic]| {
                let context = context.expect("registered with a context");
                call_script_fn(&context, &module, &base, &name, args)
            }
        };
        let func = RhaiFunc::Pure {
            func: Shared::new(call),
            has_context: true,
            is_pure: true,
            is_volatile: false,
        };
        FuncRegistration::new(name)
            .with_namespace(namespace)
            .set_into_module_raw(&mut wrapped, vec![TypeId::of::<Dynamic>(); arity], func);
    }
    wrapped
}

/// Runs `module`'s script function `name` with `args` (copies: the function is registered
/// pure, so Rhai copied the first argument), with empty caches: in the walker if `base` has it
/// lowered, else in Rhai's interpreter.
fn call_script_fn(
    context: &NativeCallContext,
    module: &Shared<Module>,
    base: &Base,
    name: &str,
    args: &mut [&mut Dynamic],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let call = Call {
        engine: context.engine(),
        global: context.global_runtime_state(),
        pos: context.call_position(),
    };
    run_script_fn(&call, module, base, name, args)
}

/// Who calls a module's function: the engine, the caller's runtime state as the module's
/// native function sees it (one level below the caller), and where the call is.
struct Call<'c> {
    engine: &'c Engine,
    global: &'c GlobalRuntimeState,
    pos: Position,
}

/// [`call_script_fn`] for `call`.
fn run_script_fn(
    call: &Call,
    module: &Shared<Module>,
    base: &Base,
    name: &str,
    args: &mut [&mut Dynamic],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let context = call;
    let mut global = call.global.clone();
    // Rhai's call of a module's script function runs it one level below the caller (where
    // this native function is); `call_fn_raw` and the call it makes each go one level deeper.
    global.level = global.level.saturating_sub(2);
    global.source = module.id().map(Into::into);
    // The module's own function `name` (its functions then see the module's script first).
    global.lib.push(module.clone());
    let before = global.num_operations;
    let mut caches = Caches::new();
    let mut scope = Scope::new();
    let result = match base.lowered(name, args.len()) {
        Some((linked, function)) => {
            // Rhai then runs the function with its script's functions, private ones included.
            global.lib.push(base.ast.shared_lib().clone());
            // A call made while another runs (through a closure of the caller) has frames of
            // its own.
            let mut spare = Vec::new();
            let mut kept = base.frames.try_borrow_mut();
            let frames = match kept.as_deref_mut() {
                Ok(frames) => frames,
                Err(_) => &mut spare,
            };
            Runner::new(
                context.engine,
                &linked.program,
                &linked.natives,
                &mut global,
                &mut caches,
                &mut scope,
                frames,
                sandbox::progress,
            )
            .call(function, args.iter_mut().map(|a| std::mem::take(*a)))
        }
        None => EvalContext::new(context.engine, &mut global, &mut caches, &mut scope, None)
            .call_fn_raw(name, false, false, args),
    };
    let ran = global.num_operations.saturating_sub(before);
    #[cfg(test)]
    tests::CHARGED.set(tests::CHARGED.get() + ran);
    let result = result.map_err(|mut err| {
        if err.position().is_none() {
            err.set_position(context.pos);
        }
        err
    });
    match (sandbox::charge(ran), result) {
        (Err(spent), Ok(_)) => Err(spent),
        (_, result) => result,
    }
}

#[cfg(test)]
mod tests {
    use rhai::Array;

    use crate::{
        script::{game::caller::Caller, host, Library},
        walker::native_table::NativeTable,
    };

    use super::*;

    thread_local! {
        /// The operations `base::` calls counted on this thread (charged to the budget).
        pub(super) static CHARGED: Cell<u64> = const { Cell::new(0) };
        /// The `base::` calls the walker made itself on this thread.
        pub(super) static MADE: Cell<u64> = const { Cell::new(0) };
    }

    /// The variant of `tests/fixtures/variant_calls/`, loaded as the host loads it.
    fn variant() -> host::LoadedScript {
        let library = Library::with_rules_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/variant_calls"
        ));
        let source = library.find("variant_calls").unwrap();
        host::load(sandbox::engine(), &library, source)
            .unwrap_or_else(|d| panic!("{}", d[0].message))
    }

    /// The calls made, in a different order each round, and what each must give.
    const CALLS: [(&str, Option<i64>, &str); 5] = [
        (
            "calls",
            None,
            "f(variant-g:3) / f(base-g:7) / f(variant-g:4)",
        ),
        (
            "more",
            None,
            "h(variant-g:1) / h(base-g:2) / h(variant-g:3)",
        ),
        ("f", Some(5), "f(variant-g:5)"),
        ("base_f", Some(6), "f(base-g:6)"),
        ("h", Some(8), "h(variant-g:8)"),
    ];

    /// Makes the calls of one round through `caller`.
    fn round(script: &host::LoadedScript, caller: &Caller, round: usize) {
        for i in 0..CALLS.len() {
            let (name, arg, expected) = CALLS[(round + i) % CALLS.len()];
            let args: Array = arg.map(Dynamic::from).into_iter().collect();
            let _call = sandbox::begin();
            let got = caller
                .call(&script.engine, &script.ast, name, args)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .to_string();
            assert_eq!(got, expected, "round {round}, call {name}");
        }
    }

    #[test]
    fn base_calls_run_the_base_and_plain_calls_the_variant_every_time_in_both_modes() {
        let script = variant();
        script.link(&NativeTable::default());
        for walker in [true, false] {
            script.set_compiled(walker);
            let reused = caller_of(&script, walker);
            for n in 0..300 {
                round(&script, &reused, n);
                let fresh = caller_of(&script, walker);
                round(&script, &fresh, n);
            }
        }
    }

    /// A caller of `script`'s functions, its own and its bases' in the walker (`walker`) or in
    /// Rhai's interpreter.
    fn caller_of(script: &host::LoadedScript, walker: bool) -> Caller {
        let mut caller = Caller::new(
            &script.ast,
            script.constants.clone(),
            NativeTable::default(),
        );
        caller.set_compiled(walker);
        if walker {
            caller.set_imports(script.imported_calls());
        }
        caller
    }

    /// What each call gives (value or error, as text) and the operations its `base::` calls
    /// counted, with the base's functions in the walker (`walker`) or in Rhai's interpreter.
    fn outcomes(script: &host::LoadedScript, walker: bool) -> Vec<(String, u64)> {
        script.set_compiled(walker);
        let caller = caller_of(script, walker);
        let list = || {
            vec![Dynamic::from_array(
                (0..10).map(Dynamic::from_int).collect(),
            )]
        };
        let int = |n: i64| vec![Dynamic::from_int(n)];
        let mut calls: Vec<(&str, Array)> = vec![
            ("base_sum", vec![Dynamic::from_int(0)]),
            ("base_sum", vec![Dynamic::from_int(40)]),
            ("base_kept", list()),
            ("base_captures", list()),
            ("base_fails", vec![Dynamic::from_int(2)]),
            ("base_fails", vec![Dynamic::from_int(0)]),
            ("base_fails", vec![Dynamic::from_int(5)]),
            ("base_fails", vec![Dynamic::from("text")]),
            ("base_deep", vec![Dynamic::from_int(10)]),
            ("base_deep", vec![Dynamic::from_int(200)]),
            ("base_spin", vec![]),
            ("more", vec![]),
            ("base_f", vec![Dynamic::from_int(1)]),
            ("base_args", int(4)),
            ("base_args", vec![Dynamic::from("text")]),
            ("base_statement", int(3)),
            ("base_in_closure", list()),
            ("base_private", int(3)),
        ];
        // Around the call-depth limit: the variant's calls, then the base's.
        for m in 54..=64 {
            calls.push(("base_deep", int(m)));
            calls.push((
                "nested",
                vec![Dynamic::from_int(3), Dynamic::from_int(m - 3)],
            ));
        }
        calls
            .into_iter()
            .map(|(name, args)| {
                CHARGED.set(0);
                let _call = sandbox::begin();
                let got = match caller.call(&script.engine, &script.ast, name, args) {
                    Ok(value) => format!("{value:?}"),
                    Err(err) => format!("{err} | {err:?}"),
                };
                let own = crate::script::game::caller::OPERATIONS.get();
                (format!("{name}: {got} ({own} operations)"), CHARGED.get())
            })
            .collect()
    }

    #[test]
    fn base_calls_in_the_walker_give_what_rhai_gives_with_the_same_operations() {
        let script = variant();
        let rhai = outcomes(&script, false);
        script.link(&NativeTable::default());
        MADE.set(0);
        let walker = outcomes(&script, true);
        // The walker made the `base::` calls itself (all but `base::twice`, a private function,
        // which Rhai reports as not found).
        assert!(MADE.get() >= 20, "{}", MADE.get());
        let base = &script.bases[0];
        for name in ["sum", "kept", "fails", "deep", "spin", "f"] {
            assert!(
                base.lowered(name, usize::from(name != "spin")).is_some(),
                "{name}"
            );
        }
        for (w, r) in walker.iter().zip(&rhai) {
            assert_eq!(w, r);
        }
        // The walker made the `base::` calls itself (Rhai makes none of them).
        let caller = caller_of(&script, true);
        let handed: Vec<_> = caller
            .handed_to_rhai()
            .iter()
            .filter(|h| h.why.contains("module path"))
            .map(|h| h.function.clone())
            .collect();
        assert_eq!(handed, Vec::<String>::new());
        assert!(caller.coverage().0 >= 12, "{:?}", caller.coverage());
        // The calls did run and count: the errors are the script's own.
        assert!(
            rhai.iter()
                .all(|(got, ops)| *ops > 0 || got.contains("base::twice")),
            "{rhai:?}"
        );
        assert!(
            rhai.iter().any(|(got, _)| got.contains("too big: 5")),
            "{rhai:?}"
        );
    }

    #[test]
    fn an_unlinked_base_or_one_with_imports_runs_in_rhai() {
        let script = variant();
        assert!(script.bases[0].lowered("sum", 1).is_none());
        let engine = sandbox::engine();
        let ast = engine
            .compile("import \"x\" as y; fn f() { y::g() }")
            .unwrap();
        assert!(needs_own_environment(&ast.clone_functions_only()));
        let plain = engine
            .compile("fn f() { g() } fn g() { global::X }")
            .unwrap();
        assert!(needs_own_environment(&plain));
        let fine = engine.compile("fn f() { g() } fn g() { 1 }").unwrap();
        assert!(!needs_own_environment(&fine));
    }
}
