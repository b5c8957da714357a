//! Reusing pure functions' results (`walker/memo.rs`): a reuse gives the value and the count
//! of operations Rhai's interpreter gives, impure functions are never reused, the budget stops
//! a reused call where it stops Rhai's, and what is kept stays bounded.

use std::cell::RefCell;

use rhai::{Caches, Dynamic, Scope};

use super::{super::run::Runner, load, sandbox, NativeTable, Program};
use crate::walker::{memo, Charges, REPORT_EVERY};

/// The index of the lowered function `name` taking `arity` parameters in `program`.
fn index(program: &Program, name: &str, arity: usize) -> usize {
    let &(_, i) = program.by_name[name]
        .iter()
        .find(|(a, _)| *a == arity)
        .expect("defined");
    i
}

/// Whether `program`'s function `name` of `arity` may have its results reused.
fn reusable(program: &Program, name: &str, arity: usize) -> bool {
    program
        .function(name, arity)
        .is_some_and(|f| f.memo.get().is_some())
}

const PURE: &str = r#"
    const SIDE = 4;
    fn squares(n) { let s = []; for i in 0..n { s.push(i * i); } s }
    fn total(g, v) {
        let n = 0;
        for y in 0..SIDE { for x in 0..SIDE { if g.get(cell(x, y)) == v { n += 1; } } }
        n
    }
    fn both(g) { [total(g, 0), total(g, 1), squares(SIDE).len] }
    fn t(n) {
        let g = grid(SIDE, SIDE);
        g.set(cell(1, 2), 1);
        let a = both(g) + both(g) + squares(n) + squares(n);
        g.set(cell(2, 2), 1);
        a + both(g) + [total(g, 1), squares(n + 1)]
    }
"#;

#[test]
fn reused_calls_give_rhais_values_and_counts() {
    for eager in [true, false] {
        memo::EAGER.set(eager);
        reused_alike();
    }
    memo::EAGER.set(false);
}

/// `t(n)` of [`PURE`] gives what Rhai gives, reusing `total`'s results.
fn reused_alike() {
    let both = load(PURE, true, None);
    for name in ["squares", "total", "both", "t"] {
        let arity = if name == "total" { 2 } else { 1 };
        assert!(reusable(&both.program, name, arity), "{name}");
    }
    for n in [3, 5, 3, 0, 5].repeat(4) {
        let args = vec![Dynamic::from(n as rhai::INT)];
        let fast = both.call(&both.fast, "t", &args);
        let fast_ops = crate::script::game::caller::OPERATIONS.get();
        let slow = both.call(&both.slow, "t", &args);
        let slow_ops = crate::script::game::caller::OPERATIONS.get();
        assert_eq!((fast, fast_ops), (slow, slow_ops), "t({n})");
    }
    let program = both.fast.program();
    let (lookups, hits, on) = program
        .memo
        .counts(index(program, "total", 2))
        .expect("looked up");
    assert!(hits > 0 && lookups > hits && on, "{lookups} {hits} {on}");
}

#[test]
fn impure_functions_are_never_reused() {
    let script = r#"
        const LIST = [1, 2];
        fn pure(x) { x * 2 }
        fn prints(x) { print(x); x }
        fn calls_prints(x) { pure(x) + prints(x) }
        fn records() { recording() }
        fn emits(x) { emit("e"); x }
        fn points(x) { call(Fn("pure"), x) }
        fn curried(x) { let f = |q| q + x; f.call(1) }
        fn changes_constant(x) { LIST.push(x); LIST.len }
        fn reads_constant(x) { LIST.len + x }
        fn shares(x) { let n = 0; [1, 2].for_each(|q| n += q); n + x }
        fn closure(x) { [1, 2].map(|q| q + x) }
        fn clock() { timestamp().elapsed }
    "#;
    let both = load(script, true, None);
    let program = &both.program;
    assert!(reusable(program, "pure", 1));
    assert!(
        reusable(program, "closure", 1),
        "a closure reading captures"
    );
    // The variable shared with the closure is a local of the call: nothing outside sees it.
    assert!(
        reusable(program, "shares", 1),
        "a closure changing a capture"
    );
    for (name, arity) in [
        ("prints", 1),
        ("calls_prints", 1),
        ("records", 0),
        ("emits", 1),
        ("points", 1),
        ("curried", 1),
        ("reads_constant", 1),
        ("clock", 0),
    ] {
        assert!(!reusable(program, name, arity), "{name}");
    }
}

thread_local! {
    /// The counts reported so far, and the count at which the budget stops the call.
    static REPORTS: RefCell<(Vec<u64>, u64)> = const { RefCell::new((Vec::new(), u64::MAX)) };
}

/// A budget recording the counts it looks at and stopping the call at the count set.
fn record(operations: u64) -> Option<Dynamic> {
    if !operations.is_multiple_of(REPORT_EVERY) {
        return None;
    }
    REPORTS.with_borrow_mut(|(reports, stop)| {
        reports.push(operations);
        (operations >= *stop).then(|| "stopped".into())
    })
}

const REPEATS: &str = r#"
    fn f(n) { let s = 0; for i in 0..n { s += i; } s }
    fn t() { f(30) + f(30) + f(30) }
"#;

/// No charges: the tests' budgets charge no work.
const NO_CHARGES: Charges = Charges {
    charged: || 0,
    recharge: |_, _| true,
    uncharge: |_| (),
};

/// `t()` run by Rhai and by the walker (reusing `f`'s results) under a budget stopping at
/// `stop` and a limit of `max` operations: what each gave and the counts each reported.
fn runs(stop: u64, max: u64) -> [(String, Vec<u64>); 2] {
    memo::EAGER.set(true);
    let mut engine = sandbox::engine();
    engine.on_progress(record).set_max_operations(max);
    let ast = engine.compile(REPEATS).expect("compiles");
    let program = Program::new(&ast, &Scope::new(), &NativeTable::default());
    assert!(reusable(&program, "f", 1));

    REPORTS.with_borrow_mut(|r| *r = (Vec::new(), stop));
    let rhai = engine.call_fn::<Dynamic>(&mut Scope::new(), &ast, "t", ());
    let rhai = (format!("{rhai:?}"), REPORTS.with_borrow(|r| r.0.clone()));

    REPORTS.with_borrow_mut(|r| *r = (Vec::new(), stop));
    let mut global = engine.new_global_runtime_state();
    global.lib.push(ast.shared_lib().clone());
    let (mut caches, mut frames, mut constants) = (Caches::new(), Vec::new(), Scope::new());
    let natives = NativeTable::default();
    let walked = Runner::new(
        &engine,
        &program,
        &natives,
        &mut global,
        &mut caches,
        &mut constants,
        &mut frames,
        record,
    )
    .with_charges(NO_CHARGES)
    .call(program.function("t", 0).expect("lowered"), [])
    .map_err(|err| match *err {
        rhai::EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => inner,
        _ => err,
    });
    let hits = program
        .memo
        .counts(index(&program, "f", 1))
        .map_or(0, |c| c.1);
    let walked = (
        format!("{walked:?} ({hits} hits)"),
        REPORTS.with_borrow(|r| r.0.clone()),
    );
    [rhai, walked]
}

#[test]
fn a_reuse_reports_its_last_count_and_counts_as_the_call() {
    let [rhai, walked] = runs(u64::MAX, 0);
    assert!(
        walked.0.starts_with(&rhai.0) && walked.0.ends_with("(2 hits)"),
        "{walked:?}"
    );
    // Rhai's reports, but those inside a reused call before its last one.
    assert!(
        walked.1.iter().all(|r| rhai.1.contains(r)),
        "{walked:?} {rhai:?}"
    );
    assert!(walked.1.len() < rhai.1.len());
    assert_eq!(walked.1.last(), rhai.1.last());
}

#[test]
fn a_budget_stops_a_reused_call_where_it_stops_rhais() {
    let [all, _] = runs(u64::MAX, 0);
    for &stop in &all.1 {
        let [rhai, walked] = runs(stop, 0);
        assert!(rhai.0.contains("stopped"), "{rhai:?}");
        assert!(
            walked.0.starts_with(&rhai.0),
            "stopping at {stop}: {walked:?} {rhai:?}"
        );
        assert_eq!(walked.1.last(), Some(&stop));
    }
}

#[test]
fn a_reuse_past_the_operations_limit_stops_where_rhai_does() {
    let [all, _] = runs(u64::MAX, 0);
    let total = *all.1.last().expect("reported");
    for max in (total / 3..total + 20).step_by(7) {
        let [rhai, walked] = runs(u64::MAX, max);
        assert!(
            walked.0.starts_with(&rhai.0),
            "limit {max}: {walked:?} {rhai:?}"
        );
    }
}

#[test]
fn what_is_kept_is_bounded() {
    let script = r#"
        fn f(n) { let s = 0; for i in 0..20 { s += i * n; } s }
        fn big(list) { list.len }
        fn g(n) { let s = 0; for i in 0..20 { s += i * n; } s }
        fn h(n) { n }
    "#;
    memo::EAGER.set(true);
    let both = load(script, false, None);
    let program = both.fast.program();
    for n in 0..(memo::ENTRIES as rhai::INT + 10) {
        both.call(&both.fast, "f", &vec![Dynamic::from(n)]);
    }
    assert_eq!(program.memo.kept(), (memo::ENTRIES, program.memo.kept().1));
    // An argument over the bytes one call may keep is not kept.
    let large: rhai::Array = (0..5000).map(Dynamic::from).collect();
    both.call(&both.fast, "big", &vec![Dynamic::from(large)]);
    assert_eq!(program.memo.kept().0, memo::ENTRIES);
    assert!(program.memo.kept().1 <= memo::TOTAL_BYTES);
    // Calls that do not repeat in the first quarter of their probation stop being looked up.
    memo::EAGER.set(false);
    let both = load(script, false, None);
    let program = both.fast.program();
    for n in 0..(3 * memo::WINDOW as rhai::INT) {
        both.call(&both.fast, "f", &vec![Dynamic::from(n)]);
    }
    let (lookups, hits, on) = program
        .memo
        .counts(index(program, "f", 1))
        .expect("looked up");
    assert_eq!((lookups, hits, on), (memo::WINDOW / 4, 0, false));
    assert_eq!(program.memo.kept().0, 0);
    // Calls cheaper than a look-up stop being looked up after four, repeats or not.
    for _ in 0..10 {
        both.call(&both.fast, "h", &vec![Dynamic::from_int(1)]);
    }
    let counts = program.memo.counts(index(program, "h", 1));
    assert_eq!(counts, Some((4, 3, false)));
    // Calls that repeat are kept after it.
    for n in 0..(3 * memo::WINDOW as rhai::INT) {
        both.call(&both.fast, "g", &vec![Dynamic::from(n % 2)]);
    }
    let (lookups, hits, on) = program
        .memo
        .counts(index(program, "g", 1))
        .expect("looked up");
    assert_eq!(
        (lookups, hits, on),
        (3 * memo::WINDOW, 3 * memo::WINDOW - 4, true)
    );
    assert_eq!(program.memo.kept().0, 2);
}
