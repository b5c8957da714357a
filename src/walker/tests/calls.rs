//! Calls of script functions (`Runner::call_script`): arrays lent to the callee rather than
//! copied, and functions of one expression evaluated in the caller's frame, give what Rhai
//! gives (values, errors with their chain of calls, operations, the depth of calls), whatever
//! the callee does with its parameters.

use super::{all, api, assert_agree, assert_same_operations, part, Case};

const CASES: &[Case] = &[
    all(
        "an array lent to a callee that changes it",
        r#"fn pushed(a) { a.push(9); a.len() }
           fn set(a) { a[0] = 7; a }
           fn assigned(a) { a = [5]; a }
           fn added(a) { a += [4]; a.len() }
           fn reads(a, i) { a[i] + a.len() }
           fn t() { let a = [1, 2]; let r = [pushed(a), set(a), assigned(a), added(a), reads(a, 1)]; [r, a] }
           fn u() { let a = [1, 2]; let b = [3]; let r = [pushed(a), pushed(b), set(b)]; [r, a, b] }"#,
        &[("t", "[]"), ("u", "[]")],
    ),
    all(
        "an array lent twice, last among pure arguments, and on to another call",
        r#"fn two(a, b) { a.push(0); [a, b] }
           fn tail(n, a) { a.push(n); a }
           fn inner(a) { a.push(1); a }
           fn outer(a) { let r = inner(a); [r, a] }
           fn read_on(a) { reads(a) }
           fn reads(a) { a.len() }
           fn t() { let a = [1]; let r = [two(a, a), tail(2, a), outer(a), read_on(a)]; [r, a] }
           fn u(a) { [two(a, a), tail(3, a), outer(a), a] }"#,
        &[("t", "[]"), ("u", "[[8, 9]]")],
    ),
    all(
        "a lent array returned as it is, and changed after an error",
        r#"fn same(a) { a }
           fn fails(a) { a.push(1); throw a.len(); }
           fn t() { let a = [1, 2]; let b = same(a); b.push(3); [a, b] }
           fn u() { let a = [1]; let e = 0; try { fails(a); } catch (x) { e = x; } [a, e] }"#,
        &[("t", "[]"), ("u", "[]")],
    ),
    all(
        "functions of one expression: values, errors inside, the depth of calls",
        r#"fn add(a, b) { a + b }
           fn on_board(x, y) { x >= 0 && y >= 0 && x < 8 && y < 8 }
           fn div(a, b) { a / b }
           fn nested(a, b) { add(a, div(a, b)) }
           fn deep(n) { deep(n + 1) }
           fn first(a) { a[0] }
           fn t(x, y) { [add(x, y), on_board(x, y), nested(x, y), first([x, y])] }
           fn u(n) { deep(n) }"#,
        &[
            ("t", "[3, 4]"),
            ("t", "[3, 0]"),
            ("t", "[9, -1]"),
            ("t", "[\"a\", 1]"),
            ("u", "[0]"),
        ],
    ),
];

#[test]
fn lent_arrays_and_calls_of_one_expression_agree() {
    assert_agree(CASES);
}

#[test]
fn lent_arrays_and_calls_of_one_expression_count_operations_as_rhai() {
    assert_same_operations(CASES);
}

#[test]
fn functions_of_one_expression_with_closures_constants_and_grids_agree() {
    assert_agree(&[
        part(
            "a closure capturing a parameter, in a function of one expression",
            r#"fn above(list, n) { list.filter(|x| x > n) }
               fn t(n) { let a = [1, 5, 9]; [above(a, n), a] }"#,
            &[("t", "[4]"), ("t", "[10]")],
        ),
        all(
            "a constant read by a function of one expression called from the host's call",
            r#"const K = 5;
               fn plus(x) { x + K }
               fn t(a) { [plus(a), K] }"#,
            &[("t", "[1]")],
        ),
        api(
            "a grid passed to a helper reading it",
            r#"fn at(board, x, y) { board.get(cell(x, y)) }
               fn t() { let b = grid(3, 3); b.set(cell(1, 1), 4); [at(b, 1, 1), at(b, 0, 0), at(b, 5, 5)] }"#,
            &[("t", "[]")],
        ),
    ]);
}

#[test]
fn native_calls_of_variables_and_literals_agree() {
    // Read where they are (`Runner::plain_native`): a first argument that is a variable, a
    // constant one, one passed twice, literals, other types than the site's, and the limit on
    // operations falling at each of the call's counts.
    let cases = [
        api(
            "native calls of variables and literals",
            r#"fn t(x, y) { const k = 2; let c = cell(x, y); [c, cell(1, y), cell(x, x), cell(k, k), cell(x, 7).x] }
               fn u(x) { let n = 0; for i in 0..3 { n += cell(i, x).y; } n }
               fn v(x) { let list = []; list.push(cell(x, 1)); list.push(cell(x, x)); list }"#,
            &[
                ("t", "[3, 4]"),
                ("t", "[\"a\", 1]"),
                ("t", "[1, ()]"),
                ("u", "[2]"),
                ("u", "[\"b\"]"),
                ("v", "[5]"),
            ],
        ),
        api(
            "native calls of variables near the operations limit",
            r#"fn a(n) { let c = (); for i in 0..n { c = cell(i, 1); } c }
               fn b(n) { let c = (); for i in 0..n { c = cell(1, i); c = cell(i, i); } c }
               fn d(n) { let c = (); let k = 0; for i in 0..n { k += 1; c = cell(k, 2); } c }"#,
            &[("a", "[1000000]"), ("b", "[1000000]"), ("d", "[1000000]")],
        ),
    ];
    assert_agree(&cases);
    assert_same_operations(&cases);
}
