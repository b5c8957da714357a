//! Calls of function pointers (`run/pointers.rs`): `f.call(…)` on a variable and `call(f, …)`,
//! with pointers made by closures, by a function's name and by `Fn("name")`, give what Rhai
//! gives (values, errors, operations, the depth of calls), and run the function pointed to in
//! the walker; the pointers the walker does not call are Rhai's.

use super::{
    all, assert_agree, assert_agree_named, assert_same_operations, closures::profiled_t, Case,
};

const CASES: &[Case] = &[
    all(
        "closures in variables, called",
        r#"fn t(a, b) {
               let better = |x, y| x > y;
               let pick = |f, x, y| if f.call(x, y) { x } else { y };
               let twice = |x| x * 2;
               [better.call(a, b), call(better, b, a), pick.call(better, a, b), twice.call(twice.call(a)),
                call(|x| x + 1, a), call(twice, b)]
           }"#,
        &[
            ("t", "[3, 5]"),
            ("t", "[5, 3]"),
            ("t", "[\"a\", \"b\"]"),
            ("t", "[1, ()]"),
        ],
    ),
    all(
        "Fn, a function's name, called",
        r#"fn twice(x) { 2 * x }
           fn add(a, b) { a + b }
           fn t(a) {
               let f = Fn("twice");
               let g = add;
               let h = twice;
               [f.call(a), call(f, a), g.call(a, 1), call(g, a, a), h.call(3), call(Fn("add"), a, 2)]
           }
           fn first(v) { let f = Fn("add"); call(f, v, 10) }
           fn changed(v) { let f = Fn("push_it"); call(f, v, 9); v }
           fn push_it(list, x) { list.push(x); list }
           fn order(a) {
               let f = Fn("add");
               let g = add;
               let x = a;
               let y = a;
               [call(f, x, { x = 5; 1 }), call(g, y, { y = 7; 1 }), x, y]
           }"#,
        &[
            ("t", "[4]"),
            ("t", "[\"a\"]"),
            ("first", "[1]"),
            ("changed", "[[1, 2]]"),
            ("order", "[1]"),
        ],
    ),
    all(
        "comparators and callbacks",
        r#"fn by_size(a, b) { a.len() - b.len() }
           fn t(list) {
               let cmp = Fn("by_size");
               let out = [];
               for x in list { for y in list { out.push(cmp.call(x, y)); } }
               let smaller = |a, b| a < b;
               let best = list[0];
               for x in list { if smaller.call(x.len(), best.len()) { best = x; } }
               [out, best, list.sort(by_size), list]
           }"#,
        &[("t", r#"[["abc", "a", "ab"]]"#)],
    ),
    all(
        "errors inside the function pointed to",
        r#"fn boom(x) { if x > 1 { throw "boom " + x; } x / 0 }
           fn t(a) { let f = Fn("boom"); f.call(a) }
           fn u(a) { let f = |x| boom(x) + 1; call(f, a) }
           fn w(a) { let f = boom; f.call(a) + call(f, a) }"#,
        &[
            ("t", "[1]"),
            ("t", "[5]"),
            ("u", "[1]"),
            ("u", "[7]"),
            ("w", "[0]"),
        ],
    ),
    all(
        "pointers Rhai calls",
        r#"fn twice(x) { 2 * x }
           fn add(a, b) { a + b }
           fn t(a) {
               let c = Fn("add").curry(10);
               let k = 3;
               let n = Fn("max");
               let s = "twice";
               [c.call(a), call(c, a), n.call(a, 7), call(n, 1, a), call(Fn(s), a)]
           }
           fn missing(a) { let f = Fn("nope"); f.call(a) }
           fn arity(a) { let f = Fn("twice"); f.call(a, 2) }
           fn closure_arity(a) { let f = |x| x; call(f, a, a) }
           fn not_a_pointer(a) { let f = 3; f.call(a) }
           fn not_a_pointer_either(a) { call(a, 1) }
           fn named_by_argument(a) { let f = |x| x + 1; f.call({ f = |x| x * 10; a }) }"#,
        &[
            ("t", "[1]"),
            ("missing", "[1]"),
            ("arity", "[1]"),
            ("closure_arity", "[1]"),
            ("not_a_pointer", "[1]"),
            ("not_a_pointer_either", "[1]"),
            ("named_by_argument", "[1]"),
        ],
    ),
    all(
        "calls through pointers as deep as Rhai allows",
        r#"fn down(n) { if n <= 0 { 0 } else { Fn("down").call(n - 1) + 1 } }
           fn linked(n) { if n <= 0 { 0 } else { let f = linked; call(f, n - 1) + 1 } }
           fn closure(n) { let f = |k| if k <= 0 { 0 } else { down(k - 1) + 1 }; f.call(n) }"#,
        &[
            ("down", "[10]"),
            ("down", "[100]"),
            ("down", "[1000]"),
            ("linked", "[10]"),
            ("linked", "[40]"),
            ("linked", "[1000]"),
            ("closure", "[5]"),
            ("closure", "[1000]"),
        ],
    ),
];

#[test]
fn pointers_called_give_what_rhai_gives() {
    assert_agree(CASES);
    assert_agree_named(CASES, Some("pointers"));
}

#[test]
fn pointers_called_count_operations_as_rhai_counts_them() {
    assert_same_operations(CASES);
}

#[test]
fn calls_near_the_operations_limit_stop_where_rhai_stops() {
    assert_agree(&[all(
        "pointers called in long loops",
        r#"fn inc(x) { x + 1 }
           fn a(n) { let f = Fn("inc"); let i = 0; while i < n { i = f.call(i); } i }
           fn b(n) { let f = |x| x + 1; let i = 0; while i < n { i = call(f, i); } i }
           fn c(n) { let f = inc; let i = 0; while i < n { i = call(f, i) + f.call(0) - 1; } i }"#,
        &[("a", "[1000000]"), ("b", "[1000000]"), ("c", "[1000000]")],
    )]);
}

/// The function a pointer leads to runs in the walker: its statements are profiled, which
/// only the walker does.
#[test]
fn the_function_pointed_to_runs_in_the_walker() {
    let script = "fn big(x) {
 x > 1
}
fn t() {
 let f = Fn(\"big\");
 let g = |a, b| a + b;
 [f.call(1), call(f, 2), big.call(3), g.call(1, 2), call(g, 3, 4)]
}";
    let (value, lines, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[false, true, true, 3, 7]");
    let runs = |f: &dyn Fn(&str) -> bool| -> u64 {
        lines
            .iter()
            .filter(|l| f(&l.function))
            .map(|l| l.runs)
            .sum()
    };
    assert_eq!(runs(&|f| f == "big"), 3, "{lines:?}");
    assert_eq!(runs(&|f| f.starts_with("anon$")), 2, "{lines:?}");
    assert!(
        caller.handed_to_rhai().is_empty(),
        "{:?}",
        caller.handed_to_rhai()
    );
}

/// The pointers' calls Rhai makes are listed, and why, for `boardrules profile`.
#[test]
fn the_calls_rhai_makes_say_why() {
    let script = "fn add(a, b) {
 a + b
}
fn t() {
 let c = Fn(\"add\").curry(1);
 let m = #{ f: Fn(\"add\") };
 [c.call(2), m.f.call(1, 2)]
}";
    let (value, _, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[3, 3]");
    let why = |line: usize| {
        caller
            .handed_to_rhai()
            .iter()
            .find(|h| h.line == line)
            .map(|h| h.why.clone())
            .unwrap_or_default()
    };
    assert!(why(5).contains("`curry`"), "{:?}", caller.handed_to_rhai());
    assert!(
        why(7).contains("not on a variable (`m.f.call(…)`"),
        "{:?}",
        caller.handed_to_rhai()
    );
}
