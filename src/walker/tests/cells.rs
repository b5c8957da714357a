//! Cells made and pushed without Rhai's general machinery (`cell(x, y)` of two integers where
//! they are and `list.push(cell(x, y))` on a variable's array, see `run/pairs.rs`; the push of
//! any value, see `run/chain.rs`) against Rhai's interpreter: the same values, errors (text and
//! position), operations counted and changes, where the short ways apply and where they do not
//! (other types, a constant or shared array, an array at Rhai's limit, a script's own `cell` or
//! `push`), and a budget stopping at each of their operations.

use super::pairs::{assert_alike, assert_alike_in};

#[test]
fn cells_made_of_integers_where_they_are_agree() {
    assert_alike(
        r#"
        const X = 3;
        fn made(x, y) { let c = cell(x, y); [c, cell(1, y), cell(x, 2), cell(X, -4), c.x + c.y] }
        fn pairs(n) { let l = []; for x in 0..n { let t = x + 1; l.push([cell(x, 0), cell(t, x)]); } l }
        fn literal() { [cell(0, 0), cell(X, 1)] }
        fn returned(x) { cell(x, x) }
        fn others(x) { [cell(x, 1), type_of(cell(x, 1))] }
        fn computed(x) { cell(x + 1, x * 2) }
        fn lent(c) { c }
        fn caller(x) { let y = x; let c = lent(cell(x, y)); [c, x, y] }
        fn around(x) {
            let g = hex_grid(3, 3); let s = [];
            for n in g.neighbours(cell(x, 1)) { s.push(n); s.push(n.x - n.y); }
            [s, grid(3, 3).neighbours8(cell(x, 0)), grid(3, 3).neighbours(cell(x, 2)).len]
        }
        "#,
        &[
            ("made", "[1, 2]"),
            ("made", "[-5, 0]"),
            ("pairs", "[0]"),
            ("pairs", "[4]"),
            ("literal", "[]"),
            ("returned", "[7]"),
            ("others", "[2]"),
            ("others", "[1.5]"),
            ("others", r#"["a"]"#),
            ("others", "[()]"),
            ("others", "[2]"),
            ("computed", "[3]"),
            ("caller", "[4]"),
            ("around", "[0]"),
            ("around", "[1]"),
            ("around", "[5]"),
        ],
    );
}

#[test]
fn cells_pushed_onto_arrays_agree() {
    assert_alike(
        r#"
        const Y = 2;
        fn pushed(n) { let l = []; for y in 0..n { for x in 0..n { l.push(cell(x, y)); } } [l, l.len] }
        fn literals() { let l = [1]; l.push(cell(0, Y)); l.push(cell(Y, 5)); l }
        fn on(v, x) { v.push(cell(x, 1)); v }
        fn grow(l, x) { l.push(cell(x, x)); l.len }
        fn caller() { let l = [cell(0, 0)]; let n = grow(l, 3); [l, n] }
        fn constant() { const C = []; C.push(cell(1, 1)); C }
        fn captured() { let l = []; let f = || l.len; l.push(cell(1, 2)); [l, f.call()] }
        fn at_the_limit(x) { let a = []; a.pad(99998, 0); a.push(cell(x, 0)); a.push(cell(0, x)); a.push(cell(x, x)); a.len }
        fn nested_at_the_limit() { let a = []; a.pad(99997, 0); a.push([cell(1, 1)]); a.push(cell(2, 2)); a.len }
        fn popped_between(n) { let a = []; for x in 0..n { a.push(cell(x, 0)); a.push(cell(0, x)); a.pop(); } [a.len, a] }
        "#,
        &[
            ("pushed", "[0]"),
            ("pushed", "[3]"),
            ("literals", "[]"),
            ("on", "[[], 1]"),
            ("on", "[[cell(0, 0)], 2.5]"),
            ("on", "[grid(2, 2), 1]"),
            ("on", "[#{ a: 1 }, 1]"),
            ("on", "[5, 1]"),
            ("on", "[[], 1]"),
            ("caller", "[]"),
            ("constant", "[]"),
            ("captured", "[]"),
            ("at_the_limit", "[1]"),
            ("nested_at_the_limit", "[]"),
            ("popped_between", "[4]"),
        ],
    );
}

#[test]
fn other_values_pushed_onto_arrays_agree() {
    // The push of any value onto a variable's array, gathered without the walk: where the
    // array still takes it once the value is evaluated, and where it does not (the variable
    // changed by the argument, a shared value, a primitive's list).
    assert_alike(
        r#"
        fn pairs(n) { let l = []; for x in 0..n { l.push([cell(x, 1), cell(1, x)]); l.push(x + 1); l.push("ab"); } l }
        fn grow(l) { l.push([cell(0, 0)]); l.len }
        fn caller() { let l = [1]; let n = grow(l); l.push(n); [l, n] }
        fn captured_item() { let l = []; let v = [1]; let f = || v.len; l.push(v); l.push(f.call()); l }
        fn listed() { let g = grid(2, 2); g.set(cell(1, 1), 3); let l = []; l.push(g.cells_with(3)); l }
        fn changed() { let l = [1]; l.push({ l = "x"; 2 }); l }
        fn changed_to_array() { let l = 1; let m = [2]; m.push({ m = [3, 4]; 5 }); [l, m] }
        fn on(v) { v.push([7]); v }
        fn at_the_limit() { let a = []; a.pad(99998, 0); a.push(1); a.push([2]); a.len }
        "#,
        &[
            ("pairs", "[0]"),
            ("pairs", "[3]"),
            ("caller", "[]"),
            ("captured_item", "[]"),
            ("listed", "[]"),
            ("changed", "[]"),
            ("changed_to_array", "[]"),
            ("on", "[[]]"),
            ("on", "[grid(1, 1)]"),
            ("on", "[[1]]"),
            ("at_the_limit", "[]"),
        ],
    );
}

#[test]
fn a_scripts_own_cell_or_push_comes_first() {
    assert_alike(
        r#"
        fn cell(x, y) { x * 10 + y }
        fn own_cell(n) { let l = []; for x in 0..n { l.push(cell(x, 1)); } [l, cell(2, 3)] }
        "#,
        &[("own_cell", "[3]")],
    );
    assert_alike(
        r#"
        fn push(l, c) { 42 }
        fn own_push(n) { let l = []; let r = 0; for x in 0..n { r += l.push(cell(x, 1)); } [l, r] }
        "#,
        &[("own_push", "[3]")],
    );
}

#[test]
fn the_budget_stops_cells_made_and_pushed_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the body in turn.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let x = 1;
            let g = hex_grid(3, 3);
            loop {
                let l = [];
                for y in [1, 2] { l.push(cell(x, y)); let c = cell(y, 3); l.push([c, cell(x, 0)]); }
                for n in g.neighbours(cell(x, 1)) { l.push(n.y); }
            }
        }
    "#;
    let calls: Vec<String> = (0..24).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}
