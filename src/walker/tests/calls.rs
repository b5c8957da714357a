//! Calls of script functions (`Runner::call_script`): arrays, native values and variables'
//! properties (`state.board`) lent to the callee rather than copied, and functions of one
//! expression evaluated in the caller's frame, give what Rhai gives (values, errors with their
//! chain of calls, operations, the depth of calls), whatever the callee does with its
//! parameters.

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

/// Properties of variables' maps and native values lent to the callee (see `Call::late`).
const LENT_PROPERTIES: &[Case] = &[
    all(
        "a map's array property lent to callees that read it, change it, keep it",
        r#"fn side(pits, p) { let t = 0; for i in p..p + 3 { t += pits[i]; } t }
           fn pushed(a) { a.push(9); a.len() }
           fn set(a) { a[0] = 7; a }
           fn assigned(a) { a = [5]; a }
           fn same(a) { a }
           fn two(a, b) { a.push(1); [a, b] }
           fn mixed(a, s, n) { a.push(n); [a, s.pits, s.turn] }
           fn t() {
               let s = #{ pits: [1, 2, 3, 4, 5, 6], turn: 1 };
               let r = [side(s.pits, 0), side(s.pits, s.turn), pushed(s.pits), set(s.pits),
                        assigned(s.pits), same(s.pits), two(s.pits, s.pits), two(s.pits, s.turn)];
               [r, s]
           }
           fn u(s) { let r = [pushed(s.pits), mixed(s.pits, s, s.turn), same(s.pits)]; [r, s] }
           fn keep(s, p) { s.n = p.len(); p.push(1); s }
           fn w(s) { s = keep(s, s.pits); s }
           fn x() { let a = [1]; a = two(a, a); a }
           fn y(s) { let n = side(s.pits, s.pits.len() - 3); [n, s] }
           fn z(s) { let r = two(s.pits, s.pits.pop()); [r, s] }
           fn missing(s) { [same(s.none), same(s.turn), s] }"#,
        &[
            ("t", "[]"),
            ("u", "[#{ pits: [1, 2], turn: 3 }]"),
            ("w", "[#{ pits: [1, 2] }]"),
            ("x", "[]"),
            ("y", "[#{ pits: [1, 2, 3, 4] }]"),
            ("z", "[#{ pits: [1, 2, 3] }]"),
            ("missing", "[#{ turn: 4 }]"),
        ],
    ),
    all(
        "a lent property in errors, recursion, and the call depth",
        r#"fn fails(a, i) { a.push(1); a[i] }
           fn throws(a) { throw a; }
           fn deep(s, n) { if n == 0 { s.a.len() } else { deep(s, n - 1) + count(s.a) } }
           fn count(a) { a.len() }
           fn down(a) { down(a) }
           fn t(i) { let s = #{ a: [1, 2] }; let e = (); try { fails(s.a, i); } catch (x) { e = x; } [s, e] }
           fn u() { let s = #{ a: [3] }; let e = (); try { throws(s.a); } catch (x) { e = x; } [s, e] }
           fn v(s, i) { fails(s.a, i) }
           fn w(n) { let s = #{ a: [1, 2, 3] }; [deep(s, n), s] }
           fn x(s) { down(s.a) }"#,
        &[
            ("t", "[1]"),
            ("t", "[9]"),
            ("u", "[]"),
            ("v", "[#{ a: [4] }, 0]"),
            ("v", "[#{ a: [4] }, 5]"),
            ("v", "[#{ a: 4 }, 5]"),
            ("w", "[5]"),
            ("x", "[#{ a: [] }]"),
        ],
    ),
    api(
        "a grid property and a cell variable lent to helpers reading and changing them",
        r#"fn count_from(board, c, dx, dy) {
               let me = board.get(c);
               let n = 0;
               let x = c.x + dx;
               let y = c.y + dy;
               while x >= 0 && y >= 0 && x < board.width && y < board.height && board.get(cell(x, y)) == me {
                   n += 1; x += dx; y += dy;
               }
               n
           }
           fn marked(board, c) { board.set(c, 5); board.get(c) }
           fn moved(c) { c = cell(0, 0); c }
           fn same(board) { board }
           fn t() {
               let s = #{ board: grid(4, 4), turn: 1 };
               let c = cell(1, 1);
               s.board.set(c, 1);
               s.board.set(cell(2, 2), 1);
               let d = [1, 1];
               let line = 1 + count_from(s.board, c, d[0], d[1]) + count_from(s.board, c, -d[0], -d[1]);
               let r = [line, marked(s.board, c), s.board.get(c), moved(c), c, same(s.board) == s.board];
               [r, s.board.get(c), c]
           }"#,
        &[("t", "[]")],
    ),
    part(
        "a property of a constant, of a shared variable, and of a variable a closure changes",
        r#"const S = #{ a: [1, 2] };
           fn pushed(a) { a.push(9); a.len() }
           fn t() { [pushed(S.a), S] }
           fn u() { let s = #{ a: [1] }; let f = || s.a.push(2); let n = pushed(s.a); f.call(); [n, s] }
           fn w() { let s = #{ a: [1] }; let r = [1, 2].map(|x| pushed(s.a) + x); [r, s] }"#,
        &[("t", "[]"), ("u", "[]"), ("w", "[]")],
    ),
];

#[test]
fn lent_properties_agree() {
    assert_agree(LENT_PROPERTIES);
}

#[test]
fn lent_properties_and_native_values_count_operations_as_rhai() {
    assert_same_operations(LENT_PROPERTIES);
}

#[test]
fn arguments_are_read_late_only_where_the_later_ones_leave_them_alone() {
    let both = super::load(
        r#"fn f(a, b, c) { a }
           fn t(s, c, d) {
               [f(s.board, c, d[0]), f(s.board, s.turn, -d[1]), f(c, d.x, c), f(s.board, s, 1),
                f(s.board, s.board.pop(), 1), f(s.board, d, g(s)), f(c, push(c, 1), 1),
                f(s.board, cell(d, s.board.x), 2), f(c, 1, { c = 1; 2 })]
           }
           fn g(s) { s }"#,
        true,
        None,
    );
    let program = &both.program;
    let t = program.function("t", 3).expect("t is lowered");
    let Some(crate::walker::Stmt::Expr(crate::walker::Expr::Array(items))) = t.body.last() else {
        panic!("t ends in an array");
    };
    let late: Vec<u64> = items
        .iter()
        .map(|(item, _)| match item {
            crate::walker::Expr::Call(call) => call.late,
            _ => panic!("an item is a call"),
        })
        .collect();
    assert_eq!(late, [0b011, 0b011, 0b111, 0b010, 0, 0b010, 0, 0, 0]);
}

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
