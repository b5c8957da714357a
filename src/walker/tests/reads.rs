//! The reads a chain does in place (`run/reads.rs`: `d[0]`, `a[i]`, `state.pits[i]`, `c.x`,
//! `board.get(c)`, `seen.set(n, 1)`) against Rhai's interpreter: the same values, errors (text
//! and position) and operations counted, on the first call (which finds the functions) and the
//! calls after (which read in place), and where the read in place does not apply (other types,
//! an index out of bounds or from the end, the same variable twice, a constant changed).

use super::pairs::{assert_alike, assert_alike_in};

#[test]
fn items_read_in_place_agree() {
    assert_alike(
        r#"
        fn literal(a) { let d = [1, [2], "three"]; [d[0], d[1], d[2], a[0], a[1]] }
        fn variable(a, i) { let k = i; [a[i], a[k]] }
        fn property(s, i) { [s.pits[i], s.pits[1], s.pits[i] + s.pits[0]] }
        fn nested(a) { let r = []; for d in a { r.push(d[0] + d[1]); } r }
        "#,
        &[
            ("literal", "[[4, 5]]"),
            ("literal", "[[4]]"),
            ("literal", "[[]]"),
            ("literal", r#"["ab"]"#),
            ("literal", "[#{ a: 1 }]"),
            ("literal", "[42]"),
            ("variable", "[[1, 2, 3], 2]"),
            ("variable", "[[1, 2, 3], 3]"),
            ("variable", "[[1, 2, 3], -1]"),
            ("variable", "[[1, 2, 3], -4]"),
            ("variable", r#"[[1, 2, 3], "a"]"#),
            ("variable", r#"["abc", 1]"#),
            ("variable", r#"[#{ a: 1 }, "a"]"#),
            ("variable", "[[1, 2, 3], 1.0]"),
            ("property", "[#{ pits: [4, 5, 6] }, 2]"),
            ("property", "[#{ pits: [4, 5, 6] }, 5]"),
            ("property", "[#{ pits: [4, 5, 6] }, -1]"),
            ("property", "[#{ pits: \"abc\" }, 1]"),
            ("property", "[#{ other: [1, 2] }, 1]"),
            ("property", "[#{ pits: #{ a: 1 } }, 1]"),
            ("property", "[[1, 2], 1]"),
            ("nested", "[[[1, 2], [3, 4]]]"),
            ("nested", "[[[1, 2], [3]]]"),
        ],
    );
}

#[test]
fn getters_and_methods_read_in_place_agree() {
    assert_alike(
        r#"
        fn coords(c) { [c.x, c.y] }
        fn get(g, c) { g.get(c) }
        fn get_or(g, c, d) { [g.get_or(c, d), g.get_or(c, 7)] }
        fn set(g, c, v) { g.set(c, v); g.set(c, 2); [g.get(c), g] }
        fn same(g) { g.get(g) }
        fn constant(c) { const g = grid(2, 2); g.set(c, 1); g.get(c) }
        fn sizes(g) { [g.width, g.height] }
        "#,
        &[
            ("coords", "[cell(2, 3)]"),
            ("coords", "[#{ x: 1, y: 2 }]"),
            ("coords", "[grid(2, 2)]"),
            ("coords", "[[1, 2]]"),
            ("coords", "[5]"),
            ("get", "[grid(3, 3), cell(1, 2)]"),
            ("get", "[grid(3, 3), cell(4, 0)]"),
            ("get", "[grid(3, 3), 5]"),
            ("get", "[[1, 2], 1]"),
            ("get", "[#{ get: 1 }, cell(0, 0)]"),
            ("get_or", "[grid(3, 3), cell(1, 1), 9]"),
            ("get_or", "[grid(3, 3), cell(5, 5), 9]"),
            ("get_or", r#"[grid(3, 3), cell(5, 5), "x"]"#),
            ("set", "[grid(3, 3), cell(1, 1), 4]"),
            ("set", "[grid(3, 3), cell(3, 1), 4]"),
            ("set", r#"[grid(3, 3), cell(1, 1), "a"]"#),
            ("same", "[grid(2, 2)]"),
            ("constant", "[cell(1, 1)]"),
            ("sizes", "[grid(4, 2)]"),
            ("sizes", "[#{ width: 3 }]"),
        ],
    );
}

#[test]
fn the_operations_limit_stops_reads_in_place_where_rhai_stops() {
    // The limit falls at each operation of the loop's body in turn, as `pad` moves it.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let d = [1, 2];
            let s = #{ pits: [3, 4] };
            let g = grid(3, 3);
            let c = cell(1, 1);
            let k = 1;
            loop { g.set(c, d[0] + d[k] + s.pits[k] + c.x + g.get(c) + g.get_or(c, 2)); }
        }
    "#;
    let calls: Vec<String> = (0..12).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    // The loop's first round finds the functions: the rounds after read in place.
    assert_alike_in(script, &calls, 1);
}

#[test]
fn methods_of_a_property_read_in_place_agree() {
    assert_alike(
        r#"
        fn get(s, c) { [s.board.get(c), s.board.get(c)] }
        fn set(s, c, v) { s.board.set(c, v); s.board.set(c, 2); [s.board.get(c), s] }
        fn get_or(s, c, d) { [s.board.get_or(c, d), s.board.get_or(c, 7)] }
        fn same(s) { s.board.get(s) }
        fn constant(c) { const s = #{ board: grid(2, 2) }; s.board.set(c, 1); s.board.get(c) }
        "#,
        &[
            ("get", "[#{ board: grid(3, 3) }, cell(1, 2)]"),
            ("get", "[#{ board: grid(3, 3) }, cell(4, 0)]"),
            ("get", "[#{ board: grid(3, 3) }, 5]"),
            ("get", "[#{ board: [1, 2] }, 1]"),
            ("get", "[#{ board: #{ get: 1 } }, cell(0, 0)]"),
            ("get", "[#{ other: 1 }, cell(0, 0)]"),
            ("get", "[grid(2, 2), cell(0, 0)]"),
            ("set", "[#{ board: grid(3, 3) }, cell(1, 1), 4]"),
            ("set", "[#{ board: grid(3, 3) }, cell(3, 1), 4]"),
            ("set", r#"[#{ board: grid(3, 3) }, cell(1, 1), "a"]"#),
            ("get_or", "[#{ board: grid(3, 3) }, cell(1, 1), 9]"),
            ("get_or", "[#{ board: grid(3, 3) }, cell(5, 5), 9]"),
            ("same", "[#{ board: grid(2, 2) }]"),
            ("constant", "[cell(1, 1)]"),
        ],
    );
}

#[test]
fn the_operations_limit_stops_methods_of_a_property_where_rhai_stops() {
    // The limit falls at each operation of the loop's body in turn, as `pad` moves it.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let s = #{ turn: 1, board: grid(3, 3) };
            let c = cell(1, 1);
            let k = 2;
            loop { s.board.set(c, s.board.get(c) + s.board.get_or(c, k)); }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn integer_fields_read_by_their_kept_reader_agree() {
    // Each chain's first read keeps the getter's field reader (`FieldPlan`); the values after
    // it are of the same type, of others (a map, another native type, an array), constants,
    // shared by a closure, in a loop over mixed values.
    assert_alike(
        r#"
        fn fields(c) { [c.x, c.y] }
        fn sizes(g) { [g.width, g.height] }
        fn mixed(a) { let r = []; for c in a { r.push(c.x); } r }
        fn constant() { const c = cell(4, 5); const g = grid(2, 3); [c.x, c.y, g.width, g.height] }
        fn captured(c) { let f = || c.x; [c.x, f.call(), c.y] }
        fn run_values() {
            let g = grid(4, 1);
            g.set(cell(0, 0), 1); g.set(cell(1, 0), 1); g.set(cell(2, 0), 1);
            let r = [];
            for run in g.runs(2, 0) { r.push(run.value); r.push(run.len); }
            r
        }
        fn changed(c) { let d = c; let n = d.x; d = cell(n + 1, 0); [n, d.x, c.x] }
        "#,
        &[
            ("fields", "[cell(2, 3)]"),
            ("fields", "[cell(-1, 7)]"),
            ("fields", "[#{ x: 1, y: 2 }]"),
            ("fields", "[#{ x: 1 }]"),
            ("fields", "[grid(2, 2)]"),
            ("fields", "[[1, 2]]"),
            ("fields", "[()]"),
            ("fields", "[cell(0, 0)]"),
            ("sizes", "[grid(4, 2)]"),
            ("sizes", "[cell(1, 1)]"),
            ("sizes", "[#{ width: 3, height: 1 }]"),
            ("sizes", "[grid(1, 1)]"),
            (
                "mixed",
                "[[cell(1, 2), cell(3, 4), #{ x: 9 }, cell(5, 6), 7]]",
            ),
            ("mixed", "[[#{ x: 1 }, cell(2, 2), #{ x: 3 }]]"),
            ("constant", "[]"),
            ("captured", "[cell(3, 1)]"),
            ("run_values", "[]"),
            ("changed", "[cell(2, 0)]"),
        ],
    );
}

#[test]
fn the_operations_limit_stops_field_reads_where_rhai_stops() {
    // The limit falls at each operation of the loop's body in turn, as `pad` moves it: the
    // first round keeps the readers, the rounds after read by them.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let g = grid(3, 2);
            let c = cell(1, 2);
            let n = 0;
            loop { n += c.x + c.y + g.width + g.height; }
        }
    "#;
    let calls: Vec<String> = (0..14).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

/// Whether each operator a `let` of the lowered function `name` declares reads its operands as
/// integers where they are, a chain among them (`Operands::int_reads`), in the order they come.
fn int_reads(both: &super::Both, name: &str, arity: usize) -> Vec<bool> {
    use crate::walker::{Expr, Stmt};
    let function = both.program.function(name, arity).expect("lowered");
    let operands = function.body.iter().filter_map(|stmt| match stmt {
        Stmt::Let {
            value: Expr::Binary { args, .. },
            ..
        } => Some(args.int_reads),
        _ => None,
    });
    operands.collect()
}

#[test]
fn operators_on_integer_reads_are_known_when_lowered() {
    let both = super::load(
        r#"fn t(c, d, x) {
            let a = c.x + d[0]; let b = x - d[1]; let e = d[0] * 2; let f = c.x < c.y;
            let g = x + 1; let h = d[x] + 1; let i = c.p.q + 1; let j = d.len + 1;
            let k = d[0] + c.x.y; let l = f(x) + d[0]; let m = d[0][1] + 1;
            [a, b, e, f, g, h, i, j, k, l, m]
        }"#,
        true,
        None,
    );
    // Items at a literal index or a variable's and properties of variables, with integers
    // where they are; not two integers where they are (`x + 1`), a property's property, an
    // array's `len`, a call, an item's item.
    assert_eq!(
        int_reads(&both, "t", 3),
        [true, true, true, true, false, true, false, false, false, false, false]
    );
}

#[test]
fn operators_on_integer_reads_agree() {
    // Items and fields read as integers where they are, and where they are not: other types
    // (a float, a string, a map's property, an array's), an index out of bounds, a failing
    // operator, a variable changed to another type, a shared variable, constants.
    assert_alike(
        r#"
        fn ops(c, d, x) {
            [c.x + d[0], d[1] - c.y, x * d[0], c.x + x, d[0] + d[1], c.x < d[0], c.y == x,
             d[0] / c.x, d[1] % c.y, d[0] & x, c.x..d[1], c.x..=d[1]]
        }
        fn mixed(a) { let r = []; for d in a { r.push(d[0] + d[1]); r.push(d[1] * 2); } r }
        fn changed(c) {
            let d = [c.x, 2]; let r = d[0] + c.x;
            d = ["a", "b"]; c = #{ x: "x" };
            [r, d[0] + d[1], c.x + d[1]]
        }
        fn captured(d) { let f = || d[0] + 1; [d[0] + d[1], f.call(), d[1] - d[0]] }
        fn constant() { const d = [1, 2]; const c = cell(3, 4); [d[0] + c.x, c.y - d[1]] }
        "#,
        &[
            ("ops", "[cell(1, 2), [3, 4], 5]"),
            ("ops", "[cell(2, 5), [-3, 7], -1]"),
            ("ops", "[cell(0, 0), [0, 0], 0]"),
            ("ops", "[cell(1, 2), [9223372036854775807, 4], 5]"),
            ("ops", "[cell(1, 2), [-9223372036854775808, -1], -1]"),
            ("ops", "[cell(1, 2), [1.5, 4], 5]"),
            ("ops", r#"[cell(1, 2), ["a", 4], 5]"#),
            ("ops", "[cell(1, 2), [3], 5]"),
            ("ops", "[cell(1, 2), [3, 4], 2.5]"),
            ("ops", "[#{ x: 1, y: 2 }, [3, 4], 5]"),
            ("ops", "[#{ x: 1.5, y: 2 }, [3, 4], 5]"),
            ("ops", "[[1, 2], [3, 4], 5]"),
            ("ops", "[grid(2, 2), [3, 4], 5]"),
            ("ops", "[cell(1, 2), #{ a: 1 }, 5]"),
            ("ops", r#"[cell(1, 2), "ab", 5]"#),
            ("ops", "[cell(3, 4), [3, 4], 5]"),
            ("mixed", "[[[1, 2], [3, 4], [5, 6]]]"),
            ("mixed", r#"[[[1, 2], ["a", 4], [5], [1.0, 2], [7, 8]]]"#),
            ("changed", "[cell(1, 1)]"),
            ("captured", "[[1, 2]]"),
            ("captured", "[[1.5, 2]]"),
            ("constant", "[]"),
        ],
    );
}

#[test]
fn the_budget_stops_operators_on_integer_reads_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the body (of fewer
    // than 48) in turn, as `pad` moves them: the first round keeps the fields' readers, the
    // rounds after read by them. Where the budget stops is seen by the count only (see
    // `a_budget_stop_is_seen_at_the_call_not_at_its_operation`).
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let d = [1, 2];
            let c = cell(1, 2);
            let k = 1;
            let s = 0;
            loop { s = c.x + d[0]; s = d[1] * k; s = k - c.y; s = c.x + c.y; s = d[0] + d[1]; }
        }
    "#;
    let calls: Vec<String> = (0..48).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn a_budget_stop_is_seen_at_the_call_not_at_its_operation() {
    // Rhai gives a budget's error (a system exception, which no script catches) the position
    // of the function's call as it leaves the function: wherever the limit falls in the body
    // (a getter's call, which has a position, among them), the host sees the top call's, none.
    // `Runner::int_reads` counts its operations without their positions for that reason.
    let script = r#"
        fn g(c, d) { let s = 0; loop { s = c.x + d[0]; s = d[1] - c.y; } }
        fn t(pad) { for i in 0..pad { } g(cell(1, 2), [3, 4]) }
    "#;
    let both = super::load(script, true, None);
    for pad in 0..12 {
        let args: rhai::Array = both.engine.eval(&format!("[{pad}]")).expect("arguments");
        for caller in [&both.slow, &both.fast] {
            assert_eq!(
                both.call(caller, "t", &args),
                "Err(Too many operations | ErrorTooManyOperations(none))",
                "t({pad})"
            );
        }
    }
}
