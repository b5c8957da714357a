//! The walker reports its count to the budget at the operations Rhai's interpreter reports it
//! at (every [`REPORT_EVERY`]), and a budget that stops the call at one of them stops both at
//! the same one: operations counted several at once (a statement and its expression, a
//! comparison and its operands) stop at the report among them.

use std::cell::RefCell;

use rhai::{Caches, Dynamic, Scope};

use super::{super::run::Runner, api, sandbox, NativeTable, Program};
use crate::walker::REPORT_EVERY;

thread_local! {
    /// The counts reported so far, and the count at which the budget stops the call.
    static REPORTS: RefCell<(Vec<u64>, u64)> = const { RefCell::new((Vec::new(), u64::MAX)) };
}

/// A budget that records the counts it is told at (those it looks at, as the sandbox looks
/// at every [`REPORT_EVERY`]) and stops the call at the count set.
fn record(operations: u64) -> Option<Dynamic> {
    if !operations.is_multiple_of(REPORT_EVERY) {
        return None;
    }
    REPORTS.with_borrow_mut(|(reports, stop)| {
        reports.push(operations);
        (operations >= *stop).then(|| "stopped".into())
    })
}

/// Starts recording, with the budget stopping the call at `stop`.
fn start(stop: u64) {
    REPORTS.with_borrow_mut(|r| *r = (Vec::new(), stop));
}

/// The counts reported since [`start`].
fn reported() -> Vec<u64> {
    REPORTS.with_borrow(|(reports, _)| reports.clone())
}

const SCRIPT: &str = r#"
    fn f() {
        let n = 0;
        for i in 0..60 {
            if i % 3 == 0 && i > 4 { n += i * 2; } else { n -= 1; }
            let x = [i, n];
            n += x[0] + x.len();
            while n > 100 { n -= 7; }
        }
        n
    }"#;

/// Conditions of each kind in `if` statements, whose operations the walker counts with the
/// statement's: comparisons of integers where they are, of a computed value with a literal,
/// `&&` and `||`, a variable, a call.
const CONDITIONS: &str = r#"
    fn even(k) { k % 2 == 0 }
    fn f() {
        let n = 0;
        let a = [0, 1, 2];
        for i in 0..60 {
            let on = i % 5 == 0;
            if i < 30 { n += 1; }
            if a[i % 3] == 2 { n += 2; } else { n -= 1; }
            if i > 2 && a[1] == 1 || i == 7 { n += 3; }
            if on { n -= 2; }
            if even(i) { n += 1; }
            if (i + n) % 4 == 1 { n += 5; }
        }
        n
    }"#;

/// `f()` of `script` run by Rhai's interpreter and by the walker, each under a budget stopping
/// at `stop`: what each gave and the counts each reported.
fn both(script: &str, stop: u64) -> [(String, Vec<u64>); 2] {
    both_in(script, stop, false)
}

/// [`both`], with the runtime's functions registered (`with_api`).
fn both_in(script: &str, stop: u64, with_api: bool) -> [(String, Vec<u64>); 2] {
    let mut engine = sandbox::engine();
    engine.on_progress(record);
    let natives = if with_api {
        api::register(&mut engine, api::EventSink::default())
    } else {
        NativeTable::default()
    };
    let ast = engine.compile(script).expect("compiles");
    let program = Program::new(&ast, &Scope::new(), &natives);

    start(stop);
    let rhai = engine.call_fn::<Dynamic>(&mut Scope::new(), &ast, "f", ());
    let rhai = (format!("{rhai:?}"), reported());

    start(stop);
    let mut global = engine.new_global_runtime_state();
    global.lib.push(ast.shared_lib().clone());
    let (mut caches, mut frames, mut constants) = (Caches::new(), Vec::new(), Scope::new());
    let function = program.function("f", 0).expect("lowered");
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
    .call(function, [])
    .map_err(|err| match *err {
        rhai::EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => inner,
        _ => err,
    });
    [rhai, (format!("{walked:?}"), reported())]
}

#[test]
fn the_walker_reports_at_every_count_rhai_reports() {
    let [rhai, walked] = both(SCRIPT, u64::MAX);
    assert!(rhai.1.len() > 20, "{rhai:?}");
    assert_eq!(rhai.1, walked.1);
    let every: Vec<u64> = (1..=rhai.1.len() as u64)
        .map(|k| k * REPORT_EVERY)
        .collect();
    assert_eq!(walked.1, every);
}

#[test]
fn a_budget_stops_the_walker_at_the_report_rhai_stops_at() {
    stops_agree(SCRIPT, 3);
}

#[test]
fn a_budget_stops_conditions_counted_with_their_statement_where_rhai_stops() {
    stops_agree(CONDITIONS, 1);
}

#[test]
fn a_budget_stops_reads_at_cells_compared_where_rhai_stops() {
    // Reads of grids at cells compared with integers (`Runner::pair_compared`,
    // `Runner::split_compared`), their operations counted with their conditions'.
    stops_agree_in(READS_COMPARED, 1, true);
}

/// Conditions comparing a grid's read at a cell with an integer, the cell made in place or a
/// variable's.
const READS_COMPARED: &str = r#"
    fn f() {
        let g = grid(3, 3);
        let state = #{ board: grid(3, 3), turn: 0 };
        let n = 0;
        for i in 0..60 {
            let c = cell(i % 3, i / 3 % 3);
            if g.get(c) == 0 { n += 1; }
            if state.board.get(cell(i % 3, 1)) != i && g.get(cell(1, i % 3)) < 2 { n += 2; }
            while n > 0 && g.get(c) == 1 { n -= 5; }
            g.set(c, i % 2);
        }
        n
    }"#;

/// Under a budget stopping at every `step`th report Rhai makes running `f()` of `script`, the
/// walker reports the same counts and stops at the same one.
fn stops_agree(script: &str, step: usize) {
    stops_agree_in(script, step, false);
}

/// [`stops_agree`], with the runtime's functions registered (`with_api`).
fn stops_agree_in(script: &str, step: usize, with_api: bool) {
    let [all, _] = both_in(script, u64::MAX, with_api);
    assert!(all.1.len() > 20, "{all:?}");
    for stop in all.1.iter().copied().step_by(step) {
        let [rhai, walked] = both_in(script, stop, with_api);
        assert!(rhai.0.contains("stopped"), "{rhai:?}");
        assert_eq!(rhai.1.last(), Some(&stop));
        assert_eq!(walked.1, rhai.1, "stopping at {stop}");
        assert!(walked.0.contains("stopped"), "{walked:?}");
    }
}

#[test]
fn a_budget_stops_jumps_and_integer_lets_where_rhai_stops() {
    // `if … { continue; }` and `if … { break; }` (the jump counted without its block), `let`
    // of an operator on two integers (counted with the statement's operations), and loops
    // over a literal array.
    stops_agree(JUMPS, 1);
}

/// Loops whose rounds jump, declare integers computed in place and iterate literal arrays.
const JUMPS: &str = r#"
    fn f() {
        let n = 0;
        for i in 0..40 {
            if i % 4 == 1 { continue; }
            for d in [-1, 0, 1] {
                let k = i + d;
                if k < 0 { continue; }
                if k > 30 { break; }
                n += k;
            }
        }
        n
    }"#;
