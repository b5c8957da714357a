//! Closures in Rhai's array methods, run by the walker (`run/closures.rs`): the same values,
//! errors and operations as Rhai's, and the closure's statements run by the walker.

use rhai::{Dynamic, Scope};

use super::{all, assert_agree, assert_agree_named, assert_same_operations, Case, T};
use crate::{
    script::{game::caller::Caller, sandbox},
    walker::{native_table::NativeTable, profile},
};

/// Each method with closures taking each number of parameters it may pass (closures capture
/// nothing: a script constant named in a closure is captured too).
const METHODS: &[Case] = &[
    all(
        "filter, map, some, all",
        r#"fn t(a) {
               [a.filter(|x| x > 2), a.filter(|x, i| x > i), a.filter(|| true),
                a.map(|x| x * 2), a.map(|x, i| [x, i]), a.map(|| 0),
                a.some(|x| x == 2), a.some(|x, i| x == i), a.all(|x| x > 0), a.all(|x, i| x > i),
                a.filter(|x| x), a.filter(|x| if x > 3 { 1 } else { true })]
           }"#,
        &[
            ("t", "[[3, 1, 4, 1, 5, 9, 2, 6]]"),
            ("t", "[[]]"),
            ("t", "[[0, 2, 1]]"),
        ],
    ),
    all(
        "index_of, find, find_map",
        r#"fn t(a) {
               [a.index_of(|x| x == 4), a.index_of(|x, i| x == i), a.find(|x| x > 4),
                a.find(|x, i| x + i > 4), a.find_map(|x| if x > 4 { x * 10 }),
                a.find_map(|x, i| if i == 4 { [x] })]
           }"#,
        &[
            ("t", "[[3, 1, 4, 1, 5]]"),
            ("t", "[[]]"),
            ("t", "[[0, 1, 1, 1, 9]]"),
        ],
    ),
    all(
        "reduce and reduce_rev",
        r#"fn t(a, n) {
               [a.reduce(|s, x| s + x, n), a.reduce(|s, x| if s == () { x } else { s * x }),
                a.reduce(|s, x, i| s + x * i, 0), a.reduce(|s| s + 1, n),
                a.reduce_rev(|s, x| `${s}${x}`, ""), a.reduce_rev(|s, x, i| s + i, n)]
           }"#,
        &[
            ("t", "[[1, 2, 3, 4], 0]"),
            ("t", "[[1, 2, 3, 4], 10]"),
            ("t", "[[], 5]"),
        ],
    ),
    all(
        "closures calling functions, nested closures",
        r#"fn twice(x) { 2 * x }
           fn t() {
               let grid = [[1, 2], [3, 4], [5, 6]];
               let rows = grid.filter(|row| row.some(|x| x > 2)).map(|row| row.map(|x| twice(x)));
               let cells = grid.map(|row, y| row.map(|x| #{x: x, y: 0})).reduce(|all, r| all + r, []);
               [rows, cells.filter(|c| c.x != 3).len(), LIST.filter(|x| x != 2)]
           }
           const LIST = [1, 2, 3];"#,
        T,
    ),
    all(
        "retain, drain, for_each",
        r#"fn t(a) {
               let b = a; let r = b.retain(|x| x > 2);
               let c = a; let d = c.drain(|x, i| x > i);
               let e = a; let f = e.retain(|| false);
               let g = a; g.for_each(|i| i * 2);
               let h = a; h.for_each(|| 1);
               let k = 3; let l = a; let n = l.drain(|x| x == k);
               [b, r, c, d, e, f, g, h, l, n]
           }"#,
        &[
            ("t", "[[3, 1, 4, 1, 5, 9, 2, 6]]"),
            ("t", "[[]]"),
            ("t", "[[0, 2, 1, 3]]"),
        ],
    ),
    all(
        "sort and dedup with comparers",
        r#"fn t(a) {
               let b = a; b.sort(|x, y| y - x);
               let c = a; c.sort(|x, y| x < y);
               let d = a; d.sort_by(|x, y| if x == y { 0 } else { () });
               let e = a; e.dedup(|x, y| x == y);
               let f = a; f.dedup(|x, y| x + 1 >= y);
               let g = a; g.sort(|x, y| x.nope);
               let h = a; h.dedup(|x, y| x.nope);
               let k = 2; let l = a; l.sort(|x, y| x % k - y % k);
               [b, c, d, e, f, g, h, l]
           }
           fn bad(n) { let a = []; for i in 0..n { a.push((i * 7) % 13); } a.sort(|x, y| 1); a }"#,
        &[
            ("t", "[[3, 1, 4, 1, 5, 9, 2, 6, 6, 6, 5]]"),
            ("t", "[[]]"),
            ("t", "[[2]]"),
            ("t", "[[0, 2, 1, \"a\", 3.5, 1]]"),
            ("bad", "[3]"),
            ("bad", "[40]"),
        ],
    ),
];

#[test]
fn array_methods_with_closures_give_what_rhai_gives() {
    assert_agree(METHODS);
    assert_agree_named(METHODS, Some("closures"));
}

#[test]
fn array_methods_with_closures_count_operations_as_rhai_counts_them() {
    assert_same_operations(METHODS);
    assert_same_operations(&[all(
        "long closures",
        r#"fn t(n) { let a = []; a.pad(n, 1); a.map(|x| { let s = 0; for i in 0..50 { s += x; } s }).len() }"#,
        &[("t", "[10]"), ("t", "[1000]")],
    )]);
}

#[test]
fn errors_in_closures_are_reported_as_rhai_reports_them() {
    let failing = [all(
        "errors inside closures",
        r#"fn thrower(x) { if x > 2 { throw `too big: ${x}`; } x }
           fn t(a) { a.map(|x| thrower(x + 1)) }
           fn u(a) { a.filter(|x| x / (x - 2) > 0) }
           fn w(a) { a.reduce(|s, x| s + x + "a" * 2, 0) }
           fn y(a) { a.find(|x| x.nope == 1) }
           fn z(a) { a.all(|x| { if x == 3 { throw x; } true }) }
           fn deep(n) { if n == 0 { [1].map(|x| deep(x - 1 - x)) } else { [n].map(|x| deep(x - 1))[0] } }
           fn spin(a) { a.some(|x| { loop { x += 1; } }) }
           fn r(a) { a.retain(|x| x / (x - 2) > 0); a }
           fn d(a) { a.drain(|x, i| thrower(x + i)) }
           fn e(a) { a.for_each(|i| 10 / i); a }
           fn s(a) { a.sort(|x, y| { loop { x += 1; } }); a }"#,
        &[
            ("t", "[[0, 1, 2]]"),
            ("t", "[[5]]"),
            ("u", "[[1, 2, 3]]"),
            ("w", "[[1]]"),
            ("y", "[[1]]"),
            ("z", "[[1, 2, 3]]"),
            ("deep", "[19]"),
            ("deep", "[20]"),
            ("deep", "[21]"),
            ("deep", "[40]"),
            ("spin", "[[1]]"),
            ("r", "[[1, 2, 3]]"),
            ("r", "[[3, 4]]"),
            ("d", "[[0, 1, 2]]"),
            ("e", "[[4, 5]]"),
            ("s", "[[2, 1]]"),
        ],
    )];
    assert_agree(&failing);
    assert_agree_named(&failing, Some("closures"));
}

#[test]
fn closures_the_walker_does_not_run_are_left_to_rhai() {
    assert_agree(&[all(
        "closures taking too many parameters, or `this`, and methods not done here",
        r#"fn t() {
               let a = [3, 1, 2];
               let b = a.map(|| this * 2);
               let c = [a.reduce(|| 1, 0)];
               a.sort(|x, y| x - y);
               [a, b, c, a.dedup(|x, y| x == y), a.filter(Fn("big"))]
           }
           fn big(x) { x > 1 }
           fn u() { [1, 2].map(|x, i, j| x) }"#,
        &[("t", "[]"), ("u", "[]")],
    )]);
}

/// Script functions named as the methods' closures (`a.filter(big)`): Rhai makes a pointer
/// linked to the function, which it calls as it calls a closure. `abs` is also a native
/// function (Rhai's first try with the element as `this` reaches it) and `Fn("big")` is found
/// by Rhai's search, a level deeper: those stay with Rhai.
const NAMED: &[Case] = &[all(
    "named functions as closures",
    r#"fn big(x) { x > 1 }
       fn pair(x, i) { [x, i] }
       fn add(s, x) { s + x }
       fn cmp(x, y) { y - x }
       fn abs(x) { x + 100 }
       fn thrower(x) { if x > 2 { throw `too big: ${x}`; } x }
       fn deep(n) { if n <= 0 { 0 } else { [n - 1].map(deep)[0] + 1 } }
       fn t(a) {
           let b = a; b.retain(big); let c = a; c.sort(cmp);
           [a.filter(big), a.map(pair), a.reduce(add, 0), a.all(big), a.some(big), a.map(abs),
            a.filter(Fn("big")), b, c]
       }
       fn u(a) { a.map(thrower) }
       fn w(n) { deep(n) }"#,
    &[
        ("t", "[[3, 1, 4, 1, 5]]"),
        ("t", "[[]]"),
        ("u", "[[1, 2, 3]]"),
        ("w", "[10]"),
        ("w", "[20]"),
        ("w", "[21]"),
        ("w", "[22]"),
        ("w", "[40]"),
    ],
)];

#[test]
fn named_functions_as_closures_give_what_rhai_gives() {
    assert_agree(NAMED);
    assert_agree_named(NAMED, Some("closures"));
    assert_same_operations(NAMED);
}

/// Closures capturing values, which the walker lends to each call and takes back: those
/// returning a captured value as it is (`|x| k`) get a copy each.
const LENT: &[Case] = &[all(
    "captured values for every element",
    r#"fn t(a) {
           let k = [1, 2]; let m = #{p: 3};
           [a.map(|x| k), a.map(|x| m.p + x), a.filter(|x| k[0] == x || k[1] == x),
            a.map(|x| if x > 2 { k } else { m }), a.reduce(|s, x| s + k.len + m.p, 0),
            a.map(|x| { let t = k; t }), a.map(|x| [k, m]), a.map(|x| get(m, x)),
            a.filter(|x| get(m, x) > 4)]
       }
       fn get(m, x) { m.p = x; m.p + x }"#,
    &[("t", "[[1, 2, 3]]"), ("t", "[[]]")],
)];

#[test]
fn captured_values_are_the_same_for_every_element() {
    assert_agree(LENT);
    assert_same_operations(LENT);
}

#[test]
fn a_named_function_as_a_closure_runs_in_the_walker() {
    let script = "fn big(x) {
 x > 1
}
fn t() {
 [1, 2, 3].filter(big)
}";
    let (value, lines, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[2, 3]");
    let runs: u64 = lines
        .iter()
        .filter(|l| l.function == "big")
        .map(|l| l.runs)
        .sum();
    assert_eq!(runs, 3, "{lines:?}");
    assert_eq!(caller.coverage(), (2, 2));
}

/// Runs `t()` of `script` with its functions lowered for profiling: the value, the cost of
/// each line, and the caller (which tells what it hands to Rhai).
pub(super) fn profiled_t(script: &str) -> (Dynamic, Vec<profile::LineCost>, Caller) {
    let engine = sandbox::engine();
    let ast = engine.compile(script).unwrap();
    let mut caller = Caller::new(&ast, Scope::new(), NativeTable::default());
    caller.profile(&ast);
    profile::start();
    let value = {
        let _call = sandbox::begin();
        caller.call(&engine, &ast, "t", ()).unwrap()
    };
    (value, profile::finish(), caller)
}

#[test]
fn closures_in_array_methods_run_in_the_walker() {
    let script =
        "fn t() {\n let k = 10;\n [1, 2, 3].filter(|x| x > 1).map(|x| x * k).reduce(|s, x| s + x, 0)\n}";
    let (value, lines, _) = profiled_t(script);
    assert_eq!(value.as_int().unwrap(), 50);
    // Each closure's one statement ran in the walker (the one capturing `k` too): 3 filters,
    // 2 maps, 2 reductions.
    let closure_runs: u64 = lines
        .iter()
        .filter(|l| l.function.starts_with("anon$"))
        .map(|l| l.runs)
        .sum();
    assert_eq!(closure_runs, 7, "{lines:?}");
}

#[test]
fn closures_of_methods_changing_their_array_run_in_the_walker() {
    let script = "fn t() {\n let a = [3, 1, 2, 2];\n a.sort(|x, y| x - y);\n a.dedup(|x, y| x == y);\n a.retain(|x| x != 2);\n a.for_each(|i| i);\n let d = a.drain(|x| x > 2);\n [a, d]\n}";
    let (value, lines, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[[1], [3]]");
    // Each method's closure (one a line: `sort` on line 3 … `drain` on line 7) ran in the
    // walker.
    for line in 3..=7 {
        assert!(
            lines
                .iter()
                .any(|l| l.function.starts_with("anon$") && l.line == line && l.runs > 0),
            "line {line}: {lines:?}"
        );
    }
    // (A closure capturing variables would hand Rhai its `curry`, which makes it.)
    assert!(
        caller.handed_to_rhai().is_empty(),
        "{:?}",
        caller.handed_to_rhai()
    );
}

#[test]
fn closures_capturing_variables_they_only_read_give_what_rhai_gives() {
    let cases = [all(
        "closures capturing locals and parameters",
        r#"fn t(a, n) {
               let k = n + 1;
               let big = a.filter(|x| x > k);
               let pairs = a.map(|x, i| [x, i, k, n]);
               let m = #{ p: n };
               let any = a.some(|x| x == m.p) || a.all(|x| [k, n].contains(x));
               let total = a.reduce(|s, x| s + x * k, n);
               k += 1;
               [big, pairs, any, total, k, a.filter(|x| x < k), m, n]
           }
           fn u(a, n) {
               let out = [];
               for i in 0..3 { out.push(a.filter(|x| x != i).len() + n); }
               out
           }
           fn w(a, n) { a.map(|row| row.filter(|x| x != n).map(|x| x * n)) }
           fn y(a, n) { let f = 0; f = a.find(|x| x > n); [f, a.index_of(|x| x == n), a.find_map(|x| if x == n { n })] }"#,
        &[
            ("t", "[[1, 2, 3, 4], 1]"),
            ("t", "[[], 0]"),
            ("u", "[[0, 1, 1, 2], 5]"),
            ("w", "[[[1, 2], [2, 3]], 2]"),
            ("y", "[[1, 5, 3], 2]"),
            ("y", "[[1, 5, 3], 3]"),
        ],
    )];
    assert_agree(&cases);
    assert_agree_named(&cases, Some("closures"));
    assert_same_operations(&cases);
}

#[test]
fn closures_keeping_captured_variables_are_left_to_rhai() {
    // Rhai shares a captured variable: a closure that lives on after a later change sees the
    // change, and `is_shared` tells; the walker would not, so Rhai runs these functions (or
    // the closure, for `y`). A closure changing a variable inside an assignment's target
    // would leave it shared after the statement.
    let cases = [super::part(
        "closures keeping captures",
        r#"fn w(a) { let k = 1; let f = |x| x + k; k = 10; a.map(f) }
           fn y(a) { let k = 1; a.map(|x| is_shared(k)) }
           fn race(a) { a.map(|x| x * a.len()) }
           fn race2(a) { let m = #{ l: a }; m.l.filter(|x| x != m.l[0]) }
           fn set(a) { let n = 0; let b = [0]; b[a.filter(|x| { n += 1; true }).len() - 1] = n; b }
           const C = 2;
           fn z(a) { a.filter(|x| x > C) }
           fn zz(a) { helper(a) } fn helper(a) { a.filter(|x| x > C) }"#,
        &[
            ("w", "[[1, 2]]"),
            ("y", "[[1]]"),
            ("z", "[[1, 2, 3]]"),
            ("zz", "[[1, 2, 3]]"),
            ("race", "[[1, 2]]"),
            ("race2", "[[1, 2]]"),
            ("set", "[[1, 2]]"),
        ],
    )];
    assert_agree(&cases);
    assert_same_operations(&cases);
    let both = super::load(cases[0].script, false, None);
    for (name, lowered) in [
        ("w", false),
        ("y", true),
        ("z", true),
        ("race", false),
        ("race2", false),
        ("set", false),
    ] {
        let why = both.program.handed_to_rhai();
        assert_eq!(
            both.program.function(name, 1).is_some(),
            lowered,
            "{name}: {why:?}"
        );
    }
}

/// Closures changing variables they capture (Rhai shares each such variable between the
/// closure and the function): counting, keeping the best, pushing, nested closures, two
/// closures of one chain sharing a variable, errors half-way, a captured constant, the
/// host's state.
const CHANGING: &[Case] = &[all(
    "closures changing captured variables",
    r#"fn t(a) { let n = 0; a.for_each(|x| n += x); a.filter(|x| { n += 1; x > n }); n }
       fn u(a) { let k = [0]; let b = a.filter(|x| { k.push(x); true }); [k, b] }
       fn best(a) {
           let best = (); let top = -1;
           a.filter(|x| { if x * 2 > top { top = x * 2; best = x; } false });
           [best, top]
       }
       fn steps(a) { let calls = 0; let s = a.reduce(|acc, x| { calls += 1; acc + x }, 0); [s, calls] }
       fn nested(a) { let n = 0; a.for_each(|i| [1, 2].for_each(|j| n += i * j)); n }
       fn nested_read(a) { let n = 0; a.map(|x| [x].map(|y| { n += y; y }).len() + n) }
       fn two(a) { let n = 0; let b = a.filter(|x| { n += 1; x > 1 }).map(|x| x + n); [n, b] }
       fn after(a) { let n = 0; a.filter(|x| { n += x; true }).len() + n }
       fn inside(a) { let n = 0; [a.map(|x| { n += x; n }), n] }
       fn thrown(a) { let n = 0; a.for_each(|i| { n += 1; if i == 1 { throw n; } }); n }
       fn typed(a) { let n = 0; a.for_each(|i| n += "x"); n }
       fn constant(a) { const n = 0; a.for_each(|i| n += 1); n }
       fn sorted(a) { let n = 0; a.sort(|x, y| { n += 1; x - y }); [a, n > 0] }
       fn looped(a) { let out = []; for x in a { let c = 0; a.map(|y| { c += y; y }); out.push(c + x); } out }
       fn state(s) { [1, 2, 3].for_each(|i| s.count += i); s.seen = [1, 2].map(|x| { s.count += x; x }); s }
       fn moves(s) { let m = []; [3, 1, 2].for_each(|i| m.push(i + s.count)); m }"#,
    &[
        ("t", "[[1, 2, 3]]"),
        ("t", "[[]]"),
        ("u", "[[1, 2, 3]]"),
        ("best", "[[3, 1, 4, 1, 5, 9, 2]]"),
        ("steps", "[[1, 2, 3]]"),
        ("nested", "[[1, 2, 3]]"),
        ("nested_read", "[[1, 2, 3]]"),
        ("two", "[[1, 2, 3]]"),
        ("after", "[[1, 2, 3]]"),
        ("inside", "[[1, 2, 3]]"),
        ("thrown", "[[5, 6, 7]]"),
        ("typed", "[[1, 2]]"),
        ("constant", "[[1, 2]]"),
        ("sorted", "[[3, 1, 2]]"),
        ("looped", "[[1, 2]]"),
        ("state", "[#{count: 0}]"),
        ("moves", "[#{count: 10}]"),
    ],
)];

#[test]
fn closures_changing_captured_variables_give_what_rhai_gives() {
    assert_agree(CHANGING);
    assert_agree_named(CHANGING, Some("closures"));
    assert_same_operations(CHANGING);
    let both = super::load(CHANGING[0].script, false, None);
    for name in [
        "t", "u", "best", "steps", "nested", "two", "after", "thrown", "typed", "sorted",
    ] {
        let why = both.program.handed_to_rhai();
        assert!(both.program.function(name, 1).is_some(), "{name}: {why:?}");
    }
}

/// Closures capturing both variables and script constants (Rhai shares the constants where
/// it finds them: the host's scope, or nowhere for a function called from the script).
const WITH_CONSTANTS: &[Case] = &[all(
    "closures capturing variables and script constants",
    r#"const EMPTY = 0;
       const LIST = [1, 2];
       fn t(a) { let k = 1; [a.filter(|x| x != EMPTY && x != k), a.map(|x| x + LIST[0] + k)] }
       fn u(a) { let n = 0; let b = a; b.for_each(|i| if b0(i) != EMPTY { n += i }); n }
       fn b0(i) { i }
       fn v(a) { t(a) }
       fn w(a) { let n = 0; a.filter(|x| { n += LIST[1]; x > EMPTY }).len() + n }"#,
    &[
        ("t", "[[0, 1, 2, 3]]"),
        ("u", "[[0, 1, 2, 3]]"),
        ("v", "[[0, 1, 2]]"),
        ("w", "[[0, 1, 2]]"),
    ],
)];

#[test]
fn closures_capturing_variables_and_constants_give_what_rhai_gives() {
    assert_agree(WITH_CONSTANTS);
    assert_same_operations(WITH_CONSTANTS);
}

#[test]
fn closures_changing_captured_variables_run_in_the_walker() {
    let script = "fn t() {\n let n = 0;\n let best = 0;\n [3, 5, 4].for_each(|i| n += i);\n [3, 5, 4].filter(|x| { if x > best { best = x; } false });\n [n, best]\n}";
    let (value, lines, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[3, 5]");
    // Both closures ran in the walker, once an element: line 4's one statement 3 times,
    // line 5's `if` and `false` 3 times each and its assignment twice.
    for (line, statements) in [(4, 3), (5, 8)] {
        let runs: u64 = lines
            .iter()
            .filter(|l| l.function.starts_with("anon$") && l.line == line)
            .map(|l| l.runs)
            .sum();
        assert_eq!(runs, statements, "line {line}: {lines:?}");
    }
    assert_eq!(caller.coverage(), (3, 3), "{:?}", caller.handed_to_rhai());
}

#[test]
fn closures_capturing_locals_are_made_by_the_walker() {
    let script = "fn t() {\n let k = 10;\n let n = 0;\n [1, 2, 3].for_each(|i| n += i * k);\n [[1, 2].map(|x| x + k), n]\n}";
    let (value, _, caller) = profiled_t(script);
    assert_eq!(value.to_string(), "[[11, 12], 30]");
    // Each closure's `curry` (its captured values) ran in the walker, not in Rhai.
    assert!(
        caller.handed_to_rhai().is_empty(),
        "{:?}",
        caller.handed_to_rhai()
    );
}

/// Closures calling a method of the runtime's that only reads (a grid's `get`) on a variable
/// they capture, or on a part of it, which the function reads elsewhere in the same chain;
/// and closures calling one that changes it (`set`), which Rhai runs.
const READING_METHODS: Case = Case {
    with_api: true,
    ..super::part(
        "closures calling reading methods on captured variables",
        r#"fn cols(g) { let all = []; all.pad(g.width, 0); all.map(|v, x| x) }
           fn open(s) { cols(s.board).filter(|x| s.board.get(cell(x, 0)) == 0) }
           fn count(s) {
               let n = 0;
               cols(s.board).for_each(|x| if s.board.get(cell(x, 0)) == 0 { n += 1 });
               [n, s.board.contains(cell(9, 0))]
           }
           fn direct(g) { cols(g).filter(|x| g.get(cell(x, 1)) == 1 && g.get_or(cell(x, 9), 2) == 2) }
           fn called(g) { cols(g).filter(|x| get(g, cell(x, 1)) == 1) }
           fn setting(s) {
               cols(s.board).filter(|x| { s.board.set(cell(x, 0), 1); true }).len() + s.board.get(cell(1, 0))
           }
"#,
        &[
            ("open", "[#{ board: grid(3, 2) }]"),
            ("open", "[#{ board: grid(4, 2, 1) }]"),
            ("open", "[#{ board: [1, 2] }]"),
            ("count", "[#{ board: grid(3, 2) }]"),
            ("direct", "[grid(3, 2, 1)]"),
            ("called", "[grid(3, 2, 1)]"),
            ("setting", "[#{ board: grid(3, 2) }]"),
        ],
    )
};

#[test]
fn closures_calling_reading_methods_on_captured_variables_give_what_rhai_gives() {
    let cases = [READING_METHODS];
    assert_agree(&cases);
    assert_same_operations(&cases);
    let both = super::load(cases[0].script, true, None);
    let why = both.program.handed_to_rhai();
    for (name, lowered) in [
        ("open", true),
        ("count", true),
        ("direct", true),
        ("called", true),
        ("setting", false),
    ] {
        assert_eq!(
            both.program.function(name, 1).is_some(),
            lowered,
            "{name}: {why:?}"
        );
    }
}

#[test]
fn closures_calling_a_method_the_script_defines_on_captured_variables_are_left_to_rhai() {
    // The script's `get` (found before the runtime's) changes `this`: the captured map is
    // shared, and the chain reads it besides.
    let cases = [Case {
        with_api: true,
        ..super::part(
            "closures calling the script's method on captured variables",
            r#"fn mine(m) { [m.seen].map(|x| m.get(cell(x, 0))).len() + m.seen }
               fn get(c) { this.seen += 1; 0 }"#,
            &[("mine", "[#{ seen: 0 }]")],
        )
    }];
    assert_agree(&cases);
    assert_same_operations(&cases);
    let both = super::load(cases[0].script, true, None);
    assert!(both.program.function("mine", 1).is_none());
}
