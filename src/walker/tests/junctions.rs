//! `&&` and `||` whose first operands compare integers where they are (read in one loop, see
//! `Runner::junction`), and comparisons of a computed value with an integer where it is
//! (`board.get(c) == theirs`, see `Runner::computed_comparison`), against Rhai's interpreter:
//! the same values, errors (text and position) and operations counted, where the operands are
//! integers and where they are not (other types, shared values, a left operand that fails),
//! and with the operations limit falling at each operation of such a condition.

use super::pairs::{assert_alike, assert_alike_in};

#[test]
fn junctions_of_integer_comparisons_agree() {
    assert_alike(
        r#"
        const SIZE = 3;
        fn inside(x, y) { if x >= 0 && y >= 0 && x < SIZE && y < SIZE { "in" } else { "out" } }
        fn outside(x, y) { if x < 0 || y < 0 || x >= SIZE || y >= SIZE { "out" } else { "in" } }
        fn value(x, y) { let both = x >= 0 && y < 3; let either = x == 1 || y == 1; [both, either] }
        fn mixed(x, b) { x > 0 && b || x < -5 }
        fn nested(x, y) { (x > 0 || y > 0) && (x < 9 && y < 9) }
        fn counted(n) { let i = 0; let k = 0; while i >= 0 && i < n && k <= i { i += 1; k += 1; } [i, k] }
        "#,
        &[
            ("inside", "[1, 2]"),
            ("inside", "[-1, 2]"),
            ("inside", "[1, 3]"),
            ("inside", "[2, 2]"),
            ("inside", r#"["a", 2]"#),
            ("inside", r#"[1, "b"]"#),
            ("inside", "[1.5, 2]"),
            ("inside", "[(), 2]"),
            ("inside", "[1, true]"),
            ("outside", "[1, 2]"),
            ("outside", "[5, 2]"),
            ("outside", "[1, -2]"),
            ("outside", r#"[1, "b"]"#),
            ("outside", "[1, 2.5]"),
            ("value", "[1, 2]"),
            ("value", "[-1, 1]"),
            ("value", "[-1, 5]"),
            ("value", r#"["x", 1]"#),
            ("value", r#"[1, "y"]"#),
            ("mixed", "[1, true]"),
            ("mixed", "[1, false]"),
            ("mixed", "[-9, false]"),
            ("mixed", "[1, 7]"),
            ("mixed", "[0, 7]"),
            ("nested", "[1, 0]"),
            ("nested", "[0, 10]"),
            ("nested", "[0, 0]"),
            ("counted", "[40]"),
        ],
    );
}

#[test]
fn comparisons_of_computed_values_agree() {
    assert_alike(
        r#"
        const EMPTY = 0;
        fn at(g, x, y) { if g.get(cell(x, y)) == EMPTY { "empty" } else { "taken" } }
        fn item(a, i, n) { if a[i] < n { 1 } else { 2 } }
        fn called(x, n) { if twice(x) >= n && twice(x) != 7 { "yes" } else { "no" } }
        fn twice(x) { x * 2 }
        fn fails(x) { if throws(x) == 1 { 1 } else { 2 } }
        fn throws(x) { if x > 0 { throw "no"; } x }
        fn popped(a) { let r = []; while a.pop() == a { r.push(1); } r }
        fn changes(n) { let k = n; if ({ k += 1; k }) == k { "same" } else { "other" } }
        fn strings(s) { if s.len() == "3" { 1 } else { 2 } }
        fn ordered(s) { if s.sub_string(0, 1) < 2 { 1 } else { 2 } }
        "#,
        &[
            ("at", "[grid(3, 3), 1, 1]"),
            ("at", "[grid(3, 3), 5, 1]"),
            ("item", "[[1, 2, 3], 1, 3]"),
            ("item", "[[1, 2, 3], 5, 3]"),
            ("item", r#"[[1, "b", 3], 1, 3]"#),
            ("item", "[[1, 2.5, 3], 1, 3]"),
            ("item", "[[1, (), 3], 1, 3]"),
            ("item", r#"[[1, 2, 3], 1, "n"]"#),
            ("item", "[[1, 2, 3], 1, 2.0]"),
            ("called", "[2, 4]"),
            ("called", "[2, 5]"),
            ("called", "[2.5, 4]"),
            ("called", r#"["a", 4]"#),
            ("fails", "[0]"),
            ("fails", "[1]"),
            ("popped", "[[1, 2]]"),
            ("popped", "[[]]"),
            ("changes", "[1]"),
            ("strings", r#"["abc"]"#),
            ("ordered", r#"["abc"]"#),
        ],
    );
}

#[test]
fn shared_operands_agree() {
    // A closure changing a captured variable makes its slot a shared value while it lives.
    assert_alike(
        r#"
        fn inside(n) {
            let a = 0;
            let r = [1, 2, 3, 4].map(|x| { a += x; if a >= 3 && x < n && [x].len() == 1 { a } else { -a } });
            [a, r]
        }
        fn compared(n) {
            let a = 1;
            let r = [1, 2, 3].filter(|x| { a += 1; [x].len() == a || x > n });
            [a, r]
        }
        "#,
        &[
            ("inside", "[3]"),
            ("inside", "[9]"),
            ("compared", "[1]"),
            ("compared", "[9]"),
        ],
    );
}

#[test]
fn the_operations_limit_stops_a_junction_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the loop's condition
    // in turn, as `pad` moves them.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let g = grid(3, 3);
            let x = 1;
            let y = 1;
            while x >= 0 && y >= 0 && x < 3 && g.get(cell(x, y)) == 0 || y == -7 { x = 1; }
        }
        fn u(pad) {
            for i in 0..pad { }
            let a = [4];
            let n = 0;
            loop { let ok = n >= 0 && a[0] > n && n != 7; if !ok || a[0] < 0 { break; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls
        .iter()
        .flat_map(|args| [("t", args.as_str()), ("u", args.as_str())])
        .collect();
    assert_alike_in(script, &calls, 1);
}
