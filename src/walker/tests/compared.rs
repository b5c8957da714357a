//! Conditions comparing a grid's read at a cell with an integer (`board.get(cell(x, y)) ==
//! theirs`, `board.get(c) == theirs`: `Runner::pair_compared` and `Runner::split_compared`)
//! against Rhai's interpreter: the same values, errors (text and position) and operations
//! counted, on the first call (which finds the functions) and the calls after (which read at
//! the cell's integers), and where the short way does not apply (other types, a cell off the
//! board, a variable changed to another type, a shared variable, a constant).

use super::pairs::{assert_alike, assert_alike_in};

#[test]
fn reads_at_a_cell_compared_agree() {
    assert_alike(
        r#"
        fn made(g, v) {
            let n = 0;
            for y in 0..3 { for x in 0..3 { if g.get(cell(x, y)) == v { n += 1; } } }
            n
        }
        fn state(s, v) {
            let n = 0;
            for x in 0..3 { if s.board.get(cell(x, 1)) != v { n += 10; } else { n -= 1; } }
            n
        }
        fn variable(g, c, v) { [g.get(c) == v, g.get(c) < v, g.get(c) >= 1, g.get(c) != v] }
        fn walked(g, v) {
            let x = 0;
            let n = 0;
            while x >= 0 && x < 4 && g.get(cell(x, x)) == v { n += 1; x += 1; }
            let c = cell(0, 0);
            while g.get(c) == v && n < 9 { n += 1; }
            [x, n]
        }
        fn changed(g) {
            let c = cell(1, 1);
            let a = g.get(c) == 0;
            c = 5;
            let b = g.get(c) == 0;
            [a, b]
        }
        fn retyped(g) {
            let c = cell(1, 1);
            let a = if g.get(c) == 0 { 1 } else { 2 };
            g = [1, 2, 3];
            c = 2;
            let b = if g.get(c) == 3 { 1 } else { 2 };
            [a, b]
        }
        fn captured(g) {
            let c = cell(1, 0);
            let f = || g.get(c) + 1;
            [g.get(c) == 0, f.call(), g.get(cell(1, 0)) == 0]
        }
        fn constant(v) {
            const g = grid(2, 2);
            const c = cell(1, 1);
            [g.get(c) == v, g.get(cell(0, 1)) == v]
        }
        "#,
        &[
            ("made", "[grid(3, 3), 0]"),
            ("made", "[grid(3, 3), 1]"),
            ("made", "[hex_grid(3, 3), 0]"),
            ("made", "[grid(2, 2), 0]"),
            ("made", "[grid(3, 3), 1.5]"),
            ("made", r#"[grid(3, 3), "a"]"#),
            ("made", "[[1, 2], 0]"),
            ("made", "[#{ get: 1 }, 0]"),
            ("state", "[#{ board: grid(3, 3) }, 0]"),
            ("state", "[#{ board: grid(3, 3) }, 2]"),
            ("state", "[#{ board: grid(2, 2) }, 0]"),
            ("state", "[#{ board: [1, 2, 3] }, 0]"),
            ("state", "[#{ board: #{ a: 1 } }, 0]"),
            ("state", "[#{}, 0]"),
            ("variable", "[grid(3, 3), cell(1, 2), 0]"),
            ("variable", "[grid(3, 3), cell(1, 2), 1]"),
            ("variable", "[grid(3, 3), cell(3, 0), 0]"),
            ("variable", "[grid(3, 3), cell(-1, 0), 0]"),
            ("variable", "[grid(3, 3), cell(1, 2), 1.0]"),
            ("variable", "[grid(3, 3), 4, 0]"),
            ("variable", "[grid(3, 3), #{ x: 1, y: 1 }, 0]"),
            ("variable", "[[1, 2, 3], 1, 2]"),
            ("variable", "[#{ get: 1 }, cell(0, 0), 0]"),
            ("walked", "[grid(4, 4), 0]"),
            ("walked", "[grid(3, 3), 0]"),
            ("walked", "[grid(4, 4), 1]"),
            ("walked", r#"[grid(4, 4), "a"]"#),
            ("changed", "[grid(3, 3)]"),
            ("retyped", "[grid(3, 3)]"),
            ("captured", "[grid(2, 2)]"),
            ("constant", "[0]"),
            ("constant", "[1]"),
        ],
    );
}

#[test]
fn a_set_between_reads_compared_is_seen() {
    // The grid changes between the comparisons: each reads it as it is then.
    assert_alike(
        r#"
        fn f(n) {
            let state = #{ board: grid(3, 3), turn: 0 };
            let g = grid(3, 3);
            let k = 0;
            for i in 0..n {
                let c = cell(i % 3, i / 3 % 3);
                if g.get(c) == 0 { g.set(c, i); k += 1; }
                if state.board.get(cell(i % 3, 0)) == 0 { state.board.set(cell(i % 3, 0), 1); k += 10; }
                if g.get(c) == i && state.board.get(cell(i % 3, 0)) == 1 { k += 100; }
            }
            [k, g, state]
        }
        "#,
        &[("f", "[0]"), ("f", "[5]"), ("f", "[20]")],
    );
}

#[test]
fn the_budget_stops_reads_compared_where_rhai_stops() {
    // The limit falls at each operation of the loop's body in turn, as `pad` moves it: the
    // first round finds the functions, the rounds after read at the cells' integers.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let g = grid(3, 3);
            let c = cell(1, 2);
            let x = 1;
            let n = 0;
            loop {
                if g.get(cell(x, 0)) == 0 { n += 1; }
                if state.board.get(cell(2, x)) != n && g.get(c) == 0 { n -= 1; }
                while x < 2 && g.get(c) > 0 { x += 1; }
            }
        }
    "#;
    let calls: Vec<String> = (0..40).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn reads_at_a_cell_of_read_integers_compared_agree() {
    // The pair's arguments read where they are through chains and operators (walker17a):
    // an array's item at a literal index, a cell's getters, sums of them, beside variables.
    // Errors and other types take Rhai's way: an index out of range or negative (from the
    // end, in Rhai), an item that is not an integer, a variable changed to another type, an
    // operator that overflows or divides by zero, a cell off the board.
    assert_alike(
        r#"
        const LINES = [[[0, 0], [1, 0], [2, 0]], [[0, 0], [1, 1], [2, 2]]];
        const D = [1, 0];
        fn items(g, v) {
            let n = 0;
            for line in LINES { for p in line { if g.get(cell(p[0], p[1])) == v { n += 1; } } }
            n
        }
        fn items_of(g, p, v) { [g.get(cell(p[0], p[1])) == v, g.get(cell(p[1], p[0])) != v] }
        fn state_items(s, p, v) { if s.board.get(cell(p[0], p[1])) == v { 1 } else { 2 } }
        fn getters(g, b, v) {
            [g.get(cell(b.x, b.y - 1)) == v, g.get(cell(b.x + 1, b.y)) == v,
             g.get(cell(b.x - 1, 2 * b.y - 2)) >= v, g.get(cell(b.y / 2, b.x % 2)) < v]
        }
        fn moved(s, c, d, v) {
            let n = 0;
            for k in 0..3 {
                if s.board.get(cell(c.x + d[0], c.y + d[1])) == v { n += 1; }
                c = cell(c.x + d[0], c.y + d[1]);
            }
            n
        }
        fn mixed(g, x, p, v) {
            [g.get(cell(x, p[1])) == v, g.get(cell(p[0], x)) == v, g.get(cell(x + 1, x - 1)) == v,
             g.get(cell(D[0], x)) == v, g.get(cell(x, D[1] + x)) == v]
        }
        fn retyped(g) {
            let p = [1, 1];
            let b = cell(1, 1);
            let a = [g.get(cell(p[0], p[1])) == 0, g.get(cell(b.x, b.y - 1)) == 0];
            p = [1.5, 1];
            b = #{ x: 1, y: 1 };
            a + [g.get(cell(p[1], p[1])) == 0, g.get(cell(b.x, b.y - 1)) == 0]
        }
        "#,
        &[
            ("items", "[grid(3, 3), 0]"),
            ("items", "[grid(3, 3), 1]"),
            ("items", "[grid(2, 2), 0]"),
            ("items", "[hex_grid(3, 3), 0]"),
            ("items", "[[1, 2, 3], 0]"),
            ("items_of", "[grid(3, 3), [1, 2], 0]"),
            ("items_of", "[grid(3, 3), [1, 2, 3], 0]"),
            ("items_of", "[grid(3, 3), [1], 0]"),
            ("items_of", "[grid(3, 3), [], 0]"),
            ("items_of", "[grid(3, 3), [1, -1], 0]"),
            ("items_of", "[grid(3, 3), [1, 1.0], 0]"),
            ("items_of", r#"[grid(3, 3), [1, "a"], 0]"#),
            ("items_of", "[grid(3, 3), [1, 5], 0]"),
            ("items_of", "[grid(3, 3), [1, 2], 0.5]"),
            ("items_of", "[grid(3, 3), #{ a: 1 }, 0]"),
            ("items_of", "[grid(3, 3), 7, 0]"),
            ("items_of", "[grid(3, 3), cell(1, 1), 0]"),
            ("state_items", "[#{ board: grid(3, 3) }, [2, 2], 0]"),
            ("state_items", "[#{ board: grid(3, 3) }, [3, 2], 0]"),
            ("state_items", "[#{ board: [1, 2] }, [0, 1], 0]"),
            ("state_items", "[#{}, [0, 1], 0]"),
            ("getters", "[grid(3, 3), cell(1, 1), 0]"),
            ("getters", "[grid(3, 3), cell(1, 2), 0]"),
            ("getters", "[grid(3, 3), cell(0, 0), 0]"),
            ("getters", "[grid(3, 3), cell(2, 2), 0]"),
            ("getters", "[grid(3, 3), #{ x: 1, y: 1 }, 0]"),
            ("getters", "[grid(3, 3), 4, 0]"),
            ("getters", "[grid(3, 3), cell(1, -9223372036854775808), 0]"),
            ("getters", "[grid(3, 3), cell(9223372036854775807, 1), 0]"),
            ("moved", "[#{ board: grid(5, 5) }, cell(0, 0), [1, 1], 0]"),
            ("moved", "[#{ board: grid(5, 5) }, cell(4, 0), [-1, 2], 0]"),
            ("moved", "[#{ board: grid(5, 5) }, cell(0, 0), [1, 1.0], 0]"),
            ("moved", "[#{ board: grid(5, 5) }, cell(0, 0), [1], 0]"),
            ("mixed", "[grid(3, 3), 1, [0, 2], 0]"),
            ("mixed", "[grid(3, 3), 2, [0, 2], 0]"),
            ("mixed", "[grid(3, 3), 1.5, [0, 2], 0]"),
            ("mixed", "[grid(3, 3), 1, [0], 0]"),
            ("retyped", "[grid(3, 3)]"),
        ],
    );
}

#[test]
fn the_budget_stops_reads_at_read_integers_compared_where_rhai_stops() {
    // As above, the pair's arguments read through chains and operators.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let g = grid(3, 3);
            let p = [1, 2];
            let b = cell(1, 1);
            let d = [1, 0];
            let x = 1;
            let n = 0;
            loop {
                if g.get(cell(p[0], p[1])) == 0 { n += 1; }
                if state.board.get(cell(b.x + d[0], b.y - 1)) != n && g.get(cell(x, p[0])) == 0 { n -= 1; }
            }
        }
    "#;
    let calls: Vec<String> = (0..40).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}
