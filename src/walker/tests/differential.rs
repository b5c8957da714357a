//! The differential test: generated Rhai functions run through the walker and through Rhai's
//! interpreter must give the same value or the same error (message and position), counting
//! the same number of operations.
//!
//! The programs mix integers, floats, strings, arrays, maps, loops, `switch`, `try`,
//! closures (called, and in the array methods the walker runs them for, capturing variables or
//! not, changing captured variables or not, nested; those changing the array too: `retain`,
//! `drain`, `sort`, `dedup`, `for_each`),
//! shadowing, recursion, compound assignment on indexed and property targets, `?.`, `?[`,
//! `??`, `in` and ranges; script functions named as closures (`arr.filter(keep)`); function
//! pointers called (`f.call(…)`, `call(f, …)`; closures, functions' names, `Fn("name")`,
//! curried or not, and other values); loops over a variable's array (whose body may change it, push
//! onto it or append to it) and over a script constant's; `+=` of arrays; conditions made of
//! comparisons joined by `&&` and `||` (in `if`, `while` and as values), whose operands may
//! not be integers; `op=` on integer variables, which may overflow; a pure function called
//! twice with equal arguments (its result reused). A few hundred cases
//! run with the suite; `WALKER_CASES=N` runs
//! `N`. A failure is shrunk to the smallest differing program, printed with both results.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::{prelude::*, test_runner::Config};
use rhai::Array;

use super::{load, Both};

/// How many programs to try: `WALKER_CASES`, else a few hundred.
fn cases() -> u32 {
    std::env::var("WALKER_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

/// The variables every generated body declares first (and returns last).
const VARS: [&str; 5] = ["x", "y", "s", "arr", "m"];

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..12).prop_map(|n| n.to_string()),
        Just("9223372036854775807".to_string()),
        Just("2.5".to_string()),
        Just("-0.5".to_string()),
        Just(r#""ab""#.to_string()),
        Just(r#""""#.to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("()".to_string()),
        Just("'c'".to_string()),
    ]
}

fn variable() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("x".to_string()),
        Just("y".to_string()),
        Just("s".to_string()),
        Just("arr".to_string()),
        Just("m".to_string()),
    ]
}

fn binary_op() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("+"),
        Just("-"),
        Just("*"),
        Just("/"),
        Just("%"),
        Just("=="),
        Just("!="),
        Just("<"),
        Just(">="),
        Just("<="),
        Just(">"),
        Just("|"),
        Just("^"),
        Just("??"),
        Just("&"),
    ]
}

/// The operators that compare.
fn compare_op() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["<", "<=", ">", ">=", "==", "!="][..])
}

/// A comparison of two variables or literals, or of a computed value and one (which the
/// walker compares without making a value when both are integers, as conditions).
fn comparison() -> impl Strategy<Value = String> {
    let leaf = || prop_oneof![literal(), variable()];
    prop_oneof![
        (leaf(), compare_op(), leaf()).prop_map(|(a, op, b)| format!("{a} {op} {b}")),
        (compare_op(), leaf()).prop_map(|(op, b)| format!("arr.len() {op} {b}")),
        (compare_op(), leaf()).prop_map(|(op, b)| format!("(x + 1) {op} {b}")),
        (compare_op(), leaf()).prop_map(|(op, b)| format!("m.q {op} {b}")),
    ]
}

/// Comparisons joined by `&&` and `||` (one may fail part-way, on a value of another type).
fn condition() -> impl Strategy<Value = String> {
    prop::collection::vec((comparison(), prop::bool::ANY), 1..4).prop_map(|parts| {
        let mut text = String::new();
        for (i, (part, and)) in parts.iter().enumerate() {
            if i > 0 {
                text += if *and { " && " } else { " || " };
            }
            text += part;
        }
        text
    })
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![literal(), variable()];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), binary_op(), inner.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("-({a})")),
            inner.clone().prop_map(|a| format!("!(({a}) == 1)")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(({a}) == 0 && ({b}) != 1)")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(({a}) == 0 || ({b}) != 1)")),
            condition().prop_map(|c| format!("({c})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("#{{p: {a}, q: {b}}}")),
            inner.clone().prop_map(|i| format!("arr[{i}]")),
            inner.clone().prop_map(|i| format!("arr?[{i}]")),
            inner.clone().prop_map(|i| format!("K[{i}]")),
            Just("m.p".to_string()),
            Just("m?.q".to_string()),
            Just("m.p.len()".to_string()),
            Just("arr.len()".to_string()),
            inner.clone().prop_map(|e| format!("({e} in arr)")),
            Just(r#"("p" in m)"#.to_string()),
            inner.clone().prop_map(|e| format!("rec({e})")),
            // A pure function called again with an equal argument: its result is reused.
            inner.clone().prop_map(|e| format!("(rec({e}) + rec({e}))")),
            inner
                .clone()
                .prop_map(|e| format!("rec({e}).to_string().len()")),
            (
                inner.clone(),
                prop::sample::select(&["x", "0", "1", "2", "-1"][..])
            )
                .prop_map(|(a, i)| format!("[{a}, 1][{i}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("`${{{a}}}-${{{b}}}`")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, e)| format!("if ({c}) != 0 {{ {t} }} else {{ {e} }}")),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(v, a, b)| format!(
                "switch {v} {{ 0 => {a}, 1 | 2 => {b}, 3..6 => {a} + 1, _ => () }}"
            )),
            inner.clone().prop_map(|e| format!("(|q| q + {e}).call(1)")),
            inner.clone().prop_map(|e| format!("arr.map(|q| q * {e})")),
            // Closures in the array methods the walker runs them for: capturing the variables
            // `e` names (read only), or nothing.
            inner
                .clone()
                .prop_map(|e| format!("arr.filter(|q| q != {e})")),
            inner
                .clone()
                .prop_map(|e| format!("arr.some(|q, i| q == ({e}) || i == 2)")),
            (inner.clone(), inner.clone())
                .prop_map(|(e, f)| format!("arr.reduce(|acc, q| acc + q * ({e}), {f})")),
            inner
                .clone()
                .prop_map(|e| format!("arr.all(|q| q != ({e}))")),
            literal().prop_map(|l| format!("arr.find(|q| q == {l})")),
            literal().prop_map(|l| format!("arr.map(|q, i| [q, i, {l}]).reduce_rev(|a, p| a + p)")),
            literal().prop_map(|l| format!("arr.index_of(|q| q > {l})")),
            // Script functions named as closures (`abs` is a native function too; `Fn("keep")`
            // is Rhai's).
            Just("arr.filter(keep)".to_string()),
            // A captured variable passed first to a script function (which gets a copy).
            inner
                .clone()
                .prop_map(|e| format!("arr.map(|q| rec(x) + add(m, q) + ({e}))")),
            Just("arr.map(abs)".to_string()),
            Just(r#"arr.filter(Fn("keep"))"#.to_string()),
            inner.clone().prop_map(|e| format!("arr.reduce(add, {e})")),
            // Function pointers called: closures in variables, functions' names, `Fn("name")`
            // (`abs` is a native function too), with other numbers of arguments, curried, or
            // changed by the arguments (Rhai's), and values that are no pointers.
            inner
                .clone()
                .prop_map(|e| format!("{{ let f = |p, q| p * 2 + q; f.call({e}, 1) }}")),
            inner.clone().prop_map(|e| format!("call(|q| [q, q], {e})")),
            inner.clone().prop_map(|e| format!("call(keep, {e})")),
            inner.clone().prop_map(|e| format!("add.call(m, {e})")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let g = Fn(\"add\"); g.call({e}, x) }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let g = Fn(\"add\"); call(g, x, {e}) }}")),
            inner
                .clone()
                .prop_map(|e| format!("call(Fn(\"rec\"), {e})")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let g = Fn(\"abs\"); g.call({e}) }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let h = rec; call(h, x, {e}) }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let g = Fn(\"add\").curry(1); g.call({e}) }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let f = |q| q; f.call({{ f = |q| q * 3; {e} }}) }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let f = {e}; f.call(1) }}")),
            inner.clone().prop_map(|e| format!("{{ let x = {e}; x }}")),
            (inner.clone(), inner).prop_map(|(a, b)| format!(
                "{{ let t = 0; try {{ t = {a}; }} catch (err) {{ t = `${{err}}` + {b}; }} t }}"
            )),
        ]
    })
}

fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(&VARS[..]).prop_map(str::to_string),
        Just("a".to_string()),
        expr().prop_map(|i| format!("arr[{i}]")),
        Just("arr[0]".to_string()),
        Just("m.p".to_string()),
        Just("m.q".to_string()),
        Just("m.r".to_string()),
    ]
}

fn assign_op() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("="), Just("+="), Just("-="), Just("*="), Just("/=")]
}

fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (prop::sample::select(&VARS[..]), expr()).prop_map(|(v, e)| format!("let {v} = {e};")),
        (target(), assign_op(), expr()).prop_map(|(t, op, e)| format!("{t} {op} {e};")),
        expr().prop_map(|e| format!("arr.push({e});")),
        expr().prop_map(|e| format!("arr += [{e}, arr.len()];")),
        Just("arr += [];".to_string()),
        expr().prop_map(|e| format!("{{ let t = []; t += arr; t += [{e}]; t.push(x); arr = t; }}")),
        expr().prop_map(|e| format!("{e};")),
        expr().prop_map(|e| format!("if ({e}) == 2 {{ throw {e}; }}")),
        (condition(), expr()).prop_map(|(c, e)| format!("if {c} {{ x += {e}; }}")),
        // `op=` on an integer variable, which may overflow.
        (
            prop::sample::select(&["x", "a", "b"][..]),
            assign_op(),
            literal()
        )
            .prop_map(|(v, op, l)| format!("{v} {op} {l};")),
        // The array methods that change their array, with closures capturing what `e` names.
        expr().prop_map(|e| format!("s = arr.retain(|q| q != ({e})).len();")),
        expr().prop_map(|e| format!("arr.push(arr.drain(|q, i| i == 1 || q == ({e})));")),
        expr().prop_map(|e| format!("arr.sort(|p, q| if p == q {{ 0 }} else {{ {e} }});")),
        expr().prop_map(|e| format!("arr.dedup(|p, q| p == q || ({e}) == 1);")),
        expr().prop_map(|e| format!("arr.for_each(|i| x + i * ({e}));")),
        Just("arr.retain(keep);".to_string()),
        // Closures changing the variables they capture (Rhai shares them with the function).
        expr().prop_map(|e| format!("arr.for_each(|i| x += i * ({e}));")),
        expr().prop_map(|e| format!("s = arr.filter(|q| {{ y = q; q != ({e}) }}).len() + x;")),
        expr().prop_map(|e| format!("m.q = arr.map(|q| {{ x += q; m.p = ({e}); q }});")),
        expr().prop_map(|e| format!("arr.for_each(|i| [1, i].for_each(|j| b = j + ({e})));")),
        expr().prop_map(|e| format!(
            "x = arr.filter(|q| {{ s += \"-\"; true }}).reduce(|acc, q| {{ a = acc; acc + q * ({e}) }}, 0);"
        )),
    ];
    simple.prop_recursive(3, 12, 3, |inner| {
        let block = prop::collection::vec(inner.clone(), 0..3).prop_map(|b| b.join(" "));
        prop_oneof![
            (expr(), block.clone(), block.clone())
                .prop_map(|(c, t, e)| format!("if ({c}) != 0 {{ {t} }} else {{ {e} }}")),
            block
                .clone()
                .prop_map(|b| format!("for i in 0..3 {{ x += i; {b} }}")),
            (block.clone(), expr()).prop_map(|(b, e)| format!(
                "let n = 0; while n < 3 {{ n += 1; {b} if ({e}) == 1 {{ break; }} }}"
            )),
            block.clone().prop_map(|b| format!("loop {{ {b} break; }}")),
            (condition(), block.clone())
                .prop_map(|(c, b)| format!("let n = 0; while n < 3 && ({c}) {{ n += 1; {b} }}")),
            (block.clone(), block.clone())
                .prop_map(|(b, c)| format!("try {{ {b} }} catch (err) {{ s = `${{err}}`; {c} }}")),
            (expr(), block.clone())
                .prop_map(|(v, b)| format!("switch {v} {{ 1 => {{ {b} }}, _ => {{ x += 1; }} }}")),
            block
                .clone()
                .prop_map(|b| format!("{{ let x = 100; {b} }}")),
            // Loops over arrays: a variable's, which the body may change (or not), and a
            // constant's. Each runs three rounds at most, as `for i in 0..3` does: loops that
            // double an array, nested, would make Rhai's quadratic size checks run into the
            // time limit, which the walker (linear) may not reach.
            block
                .clone()
                .prop_map(|b| format!("for (e, i) in arr {{ if i > 2 {{ break; }} s = e; {b} }}")),
            Just("for e in arr { x += 1; }".to_string()),
            block.clone().prop_map(|b| format!(
                "for (e, i) in arr {{ if i > 2 {{ break; }} arr.push(i); {b} }}"
            )),
            block.clone().prop_map(|b| format!(
                "for (e, i) in arr {{ if i > 2 {{ break; }} arr += [e]; arr[0] = e; {b} }}"
            )),
            block.clone().prop_map(|b| format!(
                "for (e, i) in arr {{ if i > 2 {{ break; }} let arr = [e]; {b} }}"
            )),
            block.prop_map(|b| format!("for e in K {{ y = e; {b} }}")),
        ]
    })
}

/// A script whose function `t(a, b)` runs `body` over the variables of [`VARS`].
fn script(body: &[String]) -> String {
    format!(
        "const K = [1, [2, 3], \"ab\"];\n\
         fn rec(n) {{ if n <= 0 {{ 0 }} else if n > 5 {{ n }} else {{ n + rec(n - 1) }} }}\n\
         fn keep(q) {{ q != 2 }}\n\
         fn add(acc, q) {{ acc + q }}\n\
         fn abs(q) {{ q + 100 }}\n\
         fn t(a, b) {{\n    let x = 1; let y = 2.5; let s = \"s\"; let arr = [1, 2, 3]; \
         let m = #{{p: \"pq\", q: 4}};\n    {}\n    [a, b, x, y, s, arr, m]\n}}",
        body.join("\n    ")
    )
}

/// What `t(a, b)` gives through the walker and through Rhai, with the operations each counted,
/// unless the script does not compile.
fn both_ways(script: &str, args: &str) -> Option<(String, String)> {
    sandbox_compiles(script)?;
    let both: Both = load(script, false, None);
    let args: Array = both.engine.eval(args).ok()?;
    let counted = |caller| {
        let result = both.call(caller, "t", &args);
        let operations = crate::script::game::caller::OPERATIONS.get();
        format!("{result}, in {operations} operations")
    };
    Some((counted(&both.fast), counted(&both.slow)))
}

/// Whether the sandboxed engine compiles `script`.
fn sandbox_compiles(script: &str) -> Option<()> {
    match crate::script::sandbox::engine().compile(script) {
        Ok(_) => Some(()),
        Err(e) => {
            if std::env::var_os("WALKER_SHOW_SKIPPED").is_some() {
                eprintln!("not compiled: {e}\n{script}");
            }
            None
        }
    }
}

#[test]
fn generated_programs_run_alike_in_the_walker_and_in_rhai() {
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    let args = prop_oneof![
        Just("[1, 2]"),
        Just("[0, -1]"),
        Just(r#"["ab", [1, 2]]"#),
        Just("[2.5, #{p: 1}]"),
        Just("[(), 3]"),
    ];
    // What the programs came to: not compiled, a value, an error.
    let counts = [(); 3].map(|()| AtomicUsize::new(0));
    // Pure functions' results are kept from their first call (no probation), so that the
    // programs' repeated calls reuse them.
    crate::walker::memo::EAGER.set(true);
    proptest!(config, |(body in prop::collection::vec(stmt(), 1..6), args in args)| {
        let script = script(&body);
        let Some((walker, rhai)) = both_ways(&script, args) else {
            counts[0].fetch_add(1, Ordering::Relaxed);
            return Ok(());
        };
        counts[if rhai.starts_with("Ok") { 1 } else { 2 }].fetch_add(1, Ordering::Relaxed);
        prop_assert_eq!(&walker, &rhai, "t{}\n{}", args, script);
    });
    let [skipped, values, errors] = counts.map(AtomicUsize::into_inner);
    eprintln!("differential: {values} values and {errors} errors alike; {skipped} not compiled");
}
