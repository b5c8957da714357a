//! The runtime's plain forms of primitives and cells kept as their coordinates
//! (`g.get(cell(x, y))`, see `run/pairs.rs`) against Rhai's interpreter: the same values, errors
//! (text and position) and operations counted, on the first call (which finds the functions)
//! and on the calls after (which take the short ways), and where the short way does not apply
//! (other types: the call goes on as Rhai's).

use rhai::Array;

use super::{load, Both};
use crate::script::game::caller::OPERATIONS;

/// A call's result through `fast` or `slow`, with the operations it counted.
fn counted(both: &Both, fast: bool, name: &str, args: &Array) -> String {
    let caller = if fast { &both.fast } else { &both.slow };
    let result = both.call(caller, name, args);
    format!("{result}, in {} operations", OPERATIONS.get())
}

/// Makes each call of `calls` (a function and its arguments as a Rhai array) on `script`,
/// three times over, through the walker and through Rhai, and asserts they agree.
pub(super) fn assert_alike(script: &str, calls: &[(&str, &str)]) {
    assert_alike_in(script, calls, 3);
}

/// [`assert_alike`], each call made `rounds` times.
pub(super) fn assert_alike_in(script: &str, calls: &[(&str, &str)], rounds: usize) {
    let both = load(script, true, None);
    for (name, args) in calls {
        let args: Array = both
            .engine
            .eval(args)
            .unwrap_or_else(|e| panic!("arguments {args}: {e}"));
        for round in 0..rounds {
            let walker = counted(&both, true, name, &args);
            let rhai = counted(&both, false, name, &args);
            assert_eq!(walker, rhai, "{name}{args:?}, round {round}\n{script}");
        }
    }
}

#[test]
fn reading_and_setting_a_grid_at_a_cell_made_in_place_agree() {
    assert_alike(
        r#"
        fn local(n) {
            let g = grid(3, 3);
            let s = 0;
            for i in 0..n { g.set(cell(i % 3, i / 3 % 3), i); s += g.get(cell(i % 3, 1)); }
            s + g.get_or(cell(2, 2), 7) + g.get_or(cell(5, 5), 7)
        }
        fn state(n) {
            let state = #{ board: grid(4, 2), turn: 0 };
            for x in 0..n { state.board.set(cell(x % 4, 1), x + 1); }
            let y = 1;
            [state, state.board.get(cell(3, y)), state.board.contains(cell(y, 9))]
        }
        fn variables(x, y) { let g = grid(5, 5); g.set(cell(x, y), 4); g.get(cell(x, 2 * y - 2)) }
        fn plain(x) { let c = cell(x, 1); let g = grid(3, 3); [c.x, c.y, g.width, g.height, g.get(c), g.contains(c)] }
        fn captured() { let g = grid(2, 2); let f = || g.get(cell(1, 1)); g.set(cell(1, 1), 3); [f.call(), g.get(cell(1, 1))] }
        fn constant() { const g = grid(2, 2); g.set(cell(0, 0), 1); g.get(cell(0, 0)) }
        "#,
        &[
            ("local", "[0]"),
            ("local", "[20]"),
            ("state", "[6]"),
            ("variables", "[1, 2]"),
            ("variables", "[4, 3]"),
            ("plain", "[2]"),
            ("plain", "[7]"),
            ("captured", "[]"),
            ("constant", "[]"),
        ],
    );
}

#[test]
fn a_cell_off_the_board_fails_as_in_rhai() {
    assert_alike(
        r#"
        fn read(x) { let g = grid(3, 3); g.get(cell(x, 0)) }
        fn write(x) { let state = #{ board: grid(3, 3) };
                    state.board.set(cell(0, 0), 1);
                    state.board.set(cell(x, 1), 2); state }
        fn nested(x) { let g = grid(2, 2); [1, g.get(cell(0, 0)) + g.get(cell(x, x))] }
        "#,
        &[
            ("read", "[1]"),
            ("read", "[3]"),
            ("read", "[-1]"),
            ("write", "[2]"),
            ("write", "[-4]"),
            ("nested", "[1]"),
            ("nested", "[2]"),
        ],
    );
}

#[test]
fn other_types_take_rhais_way_as_the_chain_is_written() {
    assert_alike(
        r#"
        fn on(g, x) { g.get(cell(x, 0)) }
        fn set_on(g, x) { g.set(cell(x, 0), 5); g }
        fn prop(m) { m.board.get(cell(0, 0)) }
        "#,
        &[
            ("on", "[grid(2, 2), 1]"),
            ("on", "[grid(2, 2), 1.5]"),
            ("on", r#"[grid(2, 2), "a"]"#),
            ("on", "[[1, 2], 0]"),
            ("on", r#"["ab", 0]"#),
            ("on", "[#{ get: 1 }, 0]"),
            ("on", "[grid(2, 2), 0]"),
            ("on", "[hex_grid(2, 2), 1]"),
            ("set_on", "[grid(2, 2), 1]"),
            ("set_on", "[[1, 2], 1]"),
            ("set_on", "[grid(2, 2), 1]"),
            ("prop", "[#{ board: grid(2, 2) }]"),
            ("prop", "[#{ board: [7] }]"),
            ("prop", "[#{ board: #{ a: 1 } }]"),
            ("prop", "[#{}]"),
            ("prop", "[#{ board: grid(2, 2) }]"),
        ],
    );
    // A script's own `get` comes before the runtime's.
    assert_alike(
        r#"
        fn get(g, c) { 42 }
        fn script_get() { let g = grid(2, 2); g.get(cell(0, 0)) + g.get(cell(1, 0)) }
        "#,
        &[("script_get", "[]")],
    );
}

#[test]
fn the_operations_limit_stops_a_short_call_where_rhai_stops() {
    // The limit falls at each operation of the loop's body in turn, as `pad` moves it.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let g = grid(3, 3);
            let x = 1;
            loop { state.board.set(cell(x, 2), g.get(cell(x, 0)) + state.board.get(cell(2, x))); }
        }
    "#;
    // Every place of the limit among the operations between two reports to the budget.
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    // The loop's first round finds the functions: the rounds after take the short ways.
    assert_alike_in(script, &calls, 1);
}

#[test]
fn pushed_pairs_getters_and_literal_loops_agree() {
    // `list.push(cell(x, y))` on an array (the cell made, no pair-taking form tried) and on
    // other values; getters read in place (`c.x`) and where their form does not apply; loops
    // over an array literal, its items copied as their rounds come.
    assert_alike(
        r#"
        fn pushed(n) { let list = []; for x in 0..n { list.push(cell(x, 1)); } list }
        fn pushed_on(v) { v.push(cell(1, 2)); v }
        fn getters(x) { let c = cell(x, 2); let g = grid(3, 4); [c.x + c.y, g.width, g.height] }
        fn getter_on(v) { v.x }
        fn literal(n) { let s = 0; for d in [-1, 0, 1] { for e in [[d, 1], [2, d]] { s += e[0] * n + e[1]; } } s }
        fn literal_changed() { let s = []; for d in [[1], [2]] { d.push(3); s += d; } s }
        "#,
        &[
            ("pushed", "[0]"),
            ("pushed", "[5]"),
            ("pushed_on", "[[1]]"),
            ("pushed_on", "[grid(2, 2)]"),
            ("pushed_on", "[#{ a: 1 }]"),
            ("pushed_on", "[7]"),
            ("getters", "[1]"),
            ("getters", "[-3]"),
            ("getter_on", "[cell(4, 5)]"),
            ("getter_on", "[#{ x: 2 }]"),
            ("getter_on", "[grid(2, 2)]"),
            ("getter_on", "[3]"),
            ("literal", "[2]"),
            ("literal_changed", "[]"),
        ],
    );
}

#[test]
fn the_budget_stops_a_pair_read_and_a_getter_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the body in turn.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let c = cell(1, 2);
            let s = 0;
            loop { for d in [1, 2] { let x = c.x; s += state.board.get(cell(x, d)) + c.y; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn the_budget_stops_a_pushed_pair_where_rhai_stops() {
    // `list.push(cell(x, y))`, the item made and pushed without the general checks of a push,
    // and `list.len` on a list emptied: the limit and the reports to the budget fall at each
    // operation of the body in turn.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let list = [];
            let x = 1;
            loop { list.push(cell(x, 2)); list.push(cell(2, x)); if list.len > 5 { list = []; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn a_pair_read_kept_for_one_type_meets_others_as_rhai_does() {
    // The first read of each chain keeps what its sites found (the method's form for a grid):
    // the reads after meet grids of other sizes, cells off them, other values (a map, an
    // array, a string, a constant grid changed) and grids again, in one call and over calls.
    assert_alike(
        r#"
        fn mixed(n) {
            let things = [grid(2, 2), hex_grid(3, 3), #{ board: grid(1, 1) }, grid(4, 1)];
            let s = 0;
            for i in 0..n { let t = things[i % 4]; if type_of(t) != "map" { s += t.get(cell(i % 2, 0)); } }
            s
        }
        fn read(t, x) { t.get(cell(x, 0)) }
        fn state_read(s, x) { s.board.get(cell(x, 0)) }
        fn write(t, x) { t.set(cell(x, 0), 3); t }
        fn constant(x) { const g = grid(2, 2); let h = grid(2, 2); h.set(cell(x, 1), 1); g.set(cell(x, 0), 2); g }
        "#,
        &[
            ("mixed", "[9]"),
            ("read", "[grid(3, 3), 2]"),
            ("read", "[hex_grid(3, 3), 1]"),
            ("read", "[grid(3, 3), 5]"),
            ("read", "[[1, 2], 1]"),
            ("read", r#"["abc", 1]"#),
            ("read", "[#{ get: 2 }, 1]"),
            ("read", "[grid(2, 2), 1]"),
            ("state_read", "[#{ board: grid(3, 1) }, 2]"),
            ("state_read", "[#{ board: [1, 2] }, 1]"),
            ("state_read", "[#{ board: grid(3, 1) }, 3]"),
            ("state_read", "[#{ turn: 0 }, 1]"),
            ("state_read", "[#{ board: grid(2, 2) }, 1]"),
            ("write", "[grid(2, 1), 1]"),
            ("write", "[[1], 0]"),
            ("write", "[grid(2, 1), 0]"),
            ("constant", "[1]"),
            ("constant", "[0]"),
        ],
    );
}

#[test]
fn a_read_by_the_methods_integer_form_agrees_in_each_shape() {
    // `get` on a grid at a cell has a form reading the integer (no value made, no Rhai
    // function): compared with a constant, kept with `let`, summed, on a variable and on a
    // property, on cells off the board (Rhai's error, at the method's position), on a constant
    // or captured grid, and where the board changes type between reads.
    assert_alike(
        r#"
        const EMPTY = 0;
        fn shapes(n) {
            let state = #{ board: grid(3, 3), turn: 0 };
            let v = grid(3, 3);
            v.set(cell(1, 1), 2);
            state.board.set(cell(2, 0), 1);
            let s = 0;
            let empty = 0;
            for y in 0..n {
                for x in 0..3 {
                    if state.board.get(cell(x, y % 3)) == EMPTY { empty += 1; }
                    if v.get(cell(x, y % 3)) != EMPTY { s += 10; }
                    let k = state.board.get(cell(y % 3, x));
                    s += v.get(cell(x, y % 3)) + k;
                }
            }
            [s, empty]
        }
        fn off(x, y) { let state = #{ board: grid(3, 3) }; if state.board.get(cell(x, y)) == EMPTY { 1 } else { 2 } }
        fn off_local(x) { let g = hex_grid(2, 2); let k = g.get(cell(x, 1)); k }
        fn constant(x) { const g = grid(2, 2); let s = 0; for i in 0..3 { s += g.get(cell(x, i % 2)); } s }
        fn captured(x) { let g = grid(2, 2); let f = || g.get(cell(x, 1)); g.set(cell(x, 1), 5); [f.call(), g.get(cell(x, 1))] }
        fn changing(n) {
            let state = #{ board: grid(2, 2) };
            let s = 0;
            for i in 0..n {
                s += state.board.get(cell(1, 1));
                if i == 1 { state.board = [4, 5]; }
                if i == 2 { state.board = #{ a: 1 }; }
                if i == 3 { state.board = hex_grid(2, 2); }
                if i == 4 { state.board = "text"; }
            }
            s
        }
        "#,
        &[
            ("shapes", "[0]"),
            ("shapes", "[5]"),
            ("off", "[1, 1]"),
            ("off", "[3, 1]"),
            ("off", "[1, -1]"),
            ("off_local", "[1]"),
            ("off_local", "[2]"),
            ("constant", "[1]"),
            ("constant", "[2]"),
            ("captured", "[1]"),
            ("captured", "[-1]"),
            ("changing", "[1]"),
            ("changing", "[2]"),
            ("changing", "[3]"),
            ("changing", "[4]"),
            ("changing", "[5]"),
        ],
    );
}

#[test]
fn a_script_of_its_own_get_or_cell_is_not_read_by_the_integer_form() {
    assert_alike(
        r#"
        fn cell(x, y) { [y, x] }
        fn read(x) { let g = grid(3, 3); g.get(cell(x, 0)) }
        "#,
        &[("read", "[0]"), ("read", "[1]")],
    );
    assert_alike(
        r#"
        fn get(g, c) { 42 }
        fn read(x) { let state = #{ board: grid(3, 3) }; state.board.get(cell(x, 0)) == 0 }
        "#,
        &[("read", "[0]"), ("read", "[7]")],
    );
}

#[test]
fn the_budget_stops_a_read_by_the_integer_form_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the comparison, the
    // `let` and the sum in turn, as `pad` moves them.
    let script = r#"
        const EMPTY = 0;
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let g = grid(3, 3);
            let s = 0;
            let x = 1;
            loop {
                if state.board.get(cell(x, 2)) == EMPTY { s += 1; }
                let k = g.get(cell(2, x));
                s += state.board.get(cell(k, x)) + k;
            }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn reads_and_pushes_at_a_cell_of_read_integers_agree() {
    // The pair's arguments read where they are through chains and operators (walker17a) in
    // a read kept with `let`, summed, set and pushed: `cell(p[0], p[1])`, `cell(b.x, b.y - 1)`,
    // `cell(c.x + d[0], c.y + d[1])`; the errors and other types as Rhai gives them.
    assert_alike(
        r#"
        fn sides(s, b) {
            let n = s.board.get(cell(b.x, b.y - 1)) + s.board.get(cell(b.x, b.y + 1))
                + s.board.get(cell(b.x - 1, b.y)) + s.board.get(cell(b.x + 1, b.y));
            let there = s.board.get(cell(b.x, b.y));
            [n, there]
        }
        fn walk(g, c, d) {
            let list = [];
            for k in 0..4 {
                let v = g.get(cell(c.x + d[0] * k, c.y + d[1] * k));
                list.push(cell(c.x + d[0], c.y + d[1] * k));
                g.set(cell(c.x + d[0] * k, c.y), v + 1);
                list.push(v);
            }
            [list, g]
        }
        fn items(g, p) { let v = g.get(cell(p[0], p[1])); let list = []; list.push(cell(p[1], p[0])); [v, list] }
        "#,
        &[
            ("sides", "[#{ board: grid(3, 3) }, cell(1, 1)]"),
            ("sides", "[#{ board: grid(3, 3) }, cell(0, 1)]"),
            ("sides", "[#{ board: grid(3, 3) }, cell(1, 2)]"),
            ("sides", "[#{ board: grid(3, 3) }, #{ x: 1, y: 1 }]"),
            ("sides", "[#{ board: [1, 2] }, cell(1, 1)]"),
            ("walk", "[grid(5, 5), cell(0, 0), [1, 1]]"),
            ("walk", "[grid(5, 5), cell(1, 1), [1, 0]]"),
            ("walk", "[grid(5, 5), cell(0, 0), [1, 2]]"),
            ("walk", "[grid(5, 5), cell(0, 0), [1, -1]]"),
            ("walk", "[grid(5, 5), cell(0, 0), [1.0, 1]]"),
            ("walk", "[grid(5, 5), cell(0, 0), [9223372036854775807, 2]]"),
            ("walk", "[grid(5, 5), cell(0, 0), [1]]"),
            ("items", "[grid(3, 3), [1, 2]]"),
            ("items", "[grid(3, 3), [1, 3]]"),
            ("items", "[grid(3, 3), [-1, -2]]"),
            ("items", "[grid(3, 3), [1]]"),
            ("items", r#"[grid(3, 3), ["1", 2]]"#),
        ],
    );
}

#[test]
fn the_budget_stops_reads_at_read_integers_where_rhai_stops() {
    // The limit and the reports to the budget fall at each operation of the body in turn.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let b = cell(1, 1);
            let p = [2, 0];
            let list = [];
            loop {
                let s = state.board.get(cell(b.x, b.y - 1)) + state.board.get(cell(p[0], p[1]));
                list.push(cell(b.x + p[1], b.y));
                if list.len > 5 { list = []; }
            }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn reads_at_a_variables_cell_as_values_agree() {
    // `board.get(c)` and `state.board.get(c)`, `c` a variable's cell, read as a value (a
    // `let`, a function's argument, a sum) by the method's integer form (`Runner::split_read`);
    // other types, cells off the board, constants and captured values as Rhai gives them.
    assert_alike(
        r#"
        fn owns(p, v) { v == p + 1 }
        fn values(s, g, c) {
            let there = s.board.get(c);
            let here = g.get(c);
            [there, here, owns(0, s.board.get(c)), owns(1, g.get(c)), g.get(c) + s.board.get(c)]
        }
        fn constant(c) { const g = grid(2, 2); let v = g.get(c); v }
        fn captured(c) { let g = grid(2, 2); let f = || g.get(c); let v = g.get(c); [v, f.call()] }
        "#,
        &[
            ("values", "[#{ board: grid(3, 3) }, grid(3, 3), cell(1, 1)]"),
            ("values", "[#{ board: grid(3, 3) }, grid(2, 2), cell(2, 2)]"),
            (
                "values",
                "[#{ board: grid(3, 3) }, grid(3, 3), cell(-1, 1)]",
            ),
            (
                "values",
                "[#{ board: hex_grid(3, 3) }, grid(3, 3), cell(0, 1)]",
            ),
            ("values", "[#{ board: [1, 2] }, grid(3, 3), 1]"),
            (
                "values",
                "[#{ board: grid(3, 3) }, grid(3, 3), #{ x: 1, y: 1 }]",
            ),
            ("values", "[#{}, grid(3, 3), cell(1, 1)]"),
            ("values", "[#{ board: grid(3, 3) }, grid(3, 3), cell(0, 0)]"),
            ("constant", "[cell(1, 1)]"),
            ("constant", "[cell(2, 1)]"),
            ("captured", "[cell(1, 0)]"),
        ],
    );
}

#[test]
fn the_budget_stops_reads_at_a_variables_cell_where_rhai_stops() {
    // `Runner::split_read`: the limit and the reports to the budget fall at each operation of
    // the body in turn.
    let script = r#"
        fn owns(p, v) { v == p }
        fn t(pad) {
            for i in 0..pad { }
            let state = #{ board: grid(3, 3) };
            let g = grid(3, 3);
            let c = cell(1, 2);
            let n = 0;
            loop { let v = state.board.get(c); if owns(n, g.get(c)) { n += v; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}

#[test]
fn comparisons_at_a_variables_cell_meet_other_types_as_rhai_does() {
    // `g.get(c) == n` (`Runner::split_compared`) where the site found a grid and a cell, then
    // meets other types in turn (the method's integer form and the cell's integers give
    // nothing for them: the comparison is made as Rhai makes it), and back.
    assert_alike(
        r#"
        fn get(a, c) { a.len() }
        fn compared(g, c) { if g.get(c) == 0 { 1 } else { 2 } }
        fn state(s, c) { if s.board.get(c) != 1 { 3 } else { 4 } }
        "#,
        &[
            ("compared", "[grid(3, 3), cell(1, 1)]"),
            ("compared", "[hex_grid(3, 3), cell(2, 0)]"),
            ("compared", "[[1, 2], cell(1, 1)]"),
            ("compared", "[grid(3, 3), #{ x: 1, y: 1 }]"),
            ("compared", "[grid(3, 3), [1, 1]]"),
            ("compared", "[grid(3, 3), cell(3, 1)]"),
            ("compared", "[#{ board: 1 }, cell(1, 1)]"),
            ("compared", "[grid(2, 2), cell(1, 0)]"),
            ("state", "[#{ board: grid(3, 3) }, cell(0, 0)]"),
            ("state", "[#{ board: [7] }, cell(0, 0)]"),
            ("state", "[#{ board: grid(3, 3) }, 5]"),
            ("state", "[#{ a: 1, board: grid(3, 3) }, cell(2, 2)]"),
        ],
    );
}

#[test]
fn pushed_arrays_made_in_place_agree() {
    // `list.push([cell(x, y), cell(a, b)])`: the array made and pushed with the sizes its
    // making found (see `Runner::push_called`); Rhai's limit on an array's size, met by the
    // push or by the making of the item (at the item's position), and after other changes.
    assert_alike(
        r#"
        fn big() { let a = []; a.pad(60000, 0); a }
        fn pairs(n) { let list = []; for x in 0..n { list.push([cell(x, 1), cell(1, x)]); } list }
        fn mixed(n) { let l = [0]; for x in 0..n { l.push([x, [x, "ab"], #{ a: x }]); l.push([]); } l }
        fn pushed_on(v) { v.push([cell(1, 2), 3]); v }
        fn too_large() { let a = big(); let l = []; l.push([a, 1]); l.push([a, 2]); l.len() }
        fn literal_too_large() { let a = big(); let l = [1]; l.push([1, a, a]); l.len() }
        fn after_set() { let a = big(); let l = [0]; l.push([0]); l[0] = a; l.push([a]); l.len }
        fn lent(l) { l.push([l.len, l]); l }
        "#,
        &[
            ("pairs", "[0]"),
            ("pairs", "[4]"),
            ("mixed", "[3]"),
            ("pushed_on", "[[1]]"),
            ("pushed_on", "[grid(2, 2)]"),
            ("pushed_on", "[#{ a: 1 }]"),
            ("pushed_on", "[7]"),
            ("too_large", "[]"),
            ("literal_too_large", "[]"),
            ("after_set", "[]"),
            ("lent", "[[1, [2, 3]]]"),
        ],
    );
}

#[test]
fn the_budget_stops_a_pushed_array_where_rhai_stops() {
    // `list.push([cell(x, 2), cell(2, x)])` and `list.push([x, 3])`: the limit and the reports
    // to the budget fall at each operation of the body in turn.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let list = [];
            let x = 1;
            loop { list.push([cell(x, 2), cell(2, x)]); list.push([x, 3]); if list.len > 5 { list = []; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|args| ("t", args.as_str())).collect();
    assert_alike_in(script, &calls, 1);
}
