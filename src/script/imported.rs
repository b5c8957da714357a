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

use std::any::TypeId;

use rhai::{
    Caches, Dynamic, EvalAltResult, EvalContext, FnAccess, FuncRegistration, Module,
    NativeCallContext, RhaiFunc, Scope, Shared,
};

use super::sandbox;

/// `module` (a rules script evaluated as a module) with each public script function replaced by
/// a native one that runs it with function-resolution caches of its own; its variables and
/// sub-modules as they are.
pub fn with_own_resolutions(module: Shared<Module>) -> Module {
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
    for (namespace, access, name, arity, _) in module.iter_script_fn_info() {
        if access == FnAccess::Private {
            continue;
        }
        let name = name.to_string();
        let call = {
            let (module, name) = (module.clone(), name.clone());
            move |context: Option<NativeCallContext>, args: &mut [&mut Dynamic]| {
                let context = context.expect("registered with a context");
                call_script_fn(&context, &module, &name, args)
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
/// pure, so Rhai copied the first argument), with empty caches.
fn call_script_fn(
    context: &NativeCallContext,
    module: &Shared<Module>,
    name: &str,
    args: &mut [&mut Dynamic],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut global = context.global_runtime_state().clone();
    // Rhai's call of a module's script function runs it one level below the caller (where
    // this native function is); `call_fn_raw` and the call it makes each go one level deeper.
    global.level = global.level.saturating_sub(2);
    global.source = module.id().map(Into::into);
    // The module's own function `name` (its functions then see the module's script first).
    global.lib.push(module.clone());
    let before = global.num_operations;
    let mut caches = Caches::new();
    let mut scope = Scope::new();
    let result = EvalContext::new(context.engine(), &mut global, &mut caches, &mut scope, None)
        .call_fn_raw(name, false, false, args);
    let ran = global.num_operations.saturating_sub(before);
    let result = result.map_err(|mut err| {
        if err.position().is_none() {
            err.set_position(context.call_position());
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
        for walker in [true, false] {
            let reused = Caller::new(
                &script.ast,
                script.constants.clone(),
                NativeTable::default(),
            );
            reused.set_compiled(walker);
            for n in 0..300 {
                round(&script, &reused, n);
                let fresh = Caller::new(
                    &script.ast,
                    script.constants.clone(),
                    NativeTable::default(),
                );
                fresh.set_compiled(walker);
                round(&script, &fresh, n);
            }
        }
    }
}
