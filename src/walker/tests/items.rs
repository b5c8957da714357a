//! An array's item read at a variable's index (`pits[i]`, `state.pits[i]`) as an integer
//! operand, a condition's comparison or an assignment's value, and an item assigned an integer
//! (`state.pits[last] += 1`, `pits[i] = 0`), done in place (`run/reads.rs`, `run/items.rs`),
//! against Rhai's interpreter: the same values, errors (text and position), changes and
//! operations counted, with the budget stopping at the same operation.

use super::pairs::assert_alike;
use super::{all, assert_agree, assert_same_operations, part};

/// Functions reading and assigning items at variables' indexes, each of them lowered.
const SCRIPT: &str = r#"
    fn side(pits, first) { let total = 0; for i in first..first + 6 { total += pits[i]; } total }
    fn listed(state) {
        let list = [];
        for i in 0..state.pits.len { if state.pits[i] > 0 { list.push(i); } }
        list
    }
    fn sown(state, pit) {
        let seeds = state.pits[pit];
        state.pits[pit] = 0;
        let last = pit;
        while seeds > 0 {
            last = (last + 1) % 14;
            if last == 0 { continue; }
            state.pits[last] += 1;
            seeds -= 1;
        }
        if state.pits[last] == 1 && last != 7 { state.pits[7] += state.pits[last] + state.pits[14 - last]; }
        state
    }
    fn operators(a, i) {
        let m = #{ p: a };
        [a[i] + 1, 1 - a[i], a[i] * m.p[i], m.p[0] - a[i], a[i] < m.p[i], m.p[i] != 3, a[i] % 2]
    }
    fn steps(a, i) { let x = 10; x -= a[i]; x *= a[i]; x /= a[i]; x %= a[i]; x += a[0]; x }
    fn items(a, i, v) { a[i] = v; a[0] += v; a[i] -= 1; a[i] *= 2; a }
    fn of_a_map(i, v) {
        let m = #{ p: [1, 2, 3], q: 5 };
        m.p[i] += v; m.p[0] = v; m.p[i] -= m.p[0]; m.p[2] /= 2;
        m
    }
    fn lent(a) { a[0] = 99; a[1] += 1; a }
    fn caller() { let a = [1, 2, 3]; let b = lent(a); [a, b] }
    fn constant(i) { const C = [1, 2, 3]; let s = 0; s += C[i]; if C[i] > 1 { s += 10; } s }
    fn as_rhai(a, i, v) { a[i] = v; a[i] += v; a }
    fn own(i) { let a = [1, 2, 3]; a[a[i] - 1] += a[i]; a[i] = a.len; a }
    fn unchanged(i) { let a = [4, 5]; let t = 0; t += a[i]; t += a[i]; [t, a] }
    fn to_overflow(a, i) { let x = 9223372036854775807; x += a[i]; x }
    fn item_overflow(a, i) { a[i] += 1; a }
    fn counted(n) {
        let pits = [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0];
        let state = #{ pits: pits };
        let total = 0;
        for k in 0..n {
            let i = k % 14;
            total += pits[i];
            if state.pits[i] > 3 { total -= 1; }
            state.pits[i] += 1;
            pits[i] = state.pits[i] - 1;
        }
        [total, pits, state]
    }
"#;

/// The calls of [`SCRIPT`]'s functions, with errors: indexes out of range or negative (as Rhai
/// takes them, from the end), not integers; items not integers; overflows; a map without the
/// property.
const CALLS: &[(&str, &str)] = &[
    ("side", "[[0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], 1]"),
    ("side", "[[0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], 8]"),
    ("side", "[[0, 4, 4, 4, 4, 4, 4, 0, 4], 8]"),
    (
        "side",
        "[[0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, \"x\"], 8]",
    ),
    ("side", "[[0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4.5], 8]"),
    ("side", "[[0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], -6]"),
    ("listed", "[#{ pits: [0, 4, 0, 3, 0, 1] }]"),
    ("listed", "[#{ pits: [0, 4, (), 3, \"a\", 1] }]"),
    ("listed", "[#{ pits: [] }]"),
    (
        "sown",
        "[#{ pits: [0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4] }, 3]",
    ),
    (
        "sown",
        "[#{ pits: [0, 4, 4, 4, 4, 4, 13, 0, 4, 4, 4, 4, 4, 4] }, 6]",
    ),
    (
        "sown",
        "[#{ pits: [0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 0, 9] }, 13]",
    ),
    ("sown", "[#{ pits: [0, 4, 4] }, 2]"),
    ("sown", "[#{ turn: 0 }, 2]"),
    ("operators", "[[3, 4, 5], 1]"),
    ("operators", "[[3, 4, 5], 0]"),
    ("operators", "[[3, 4, 5], -1]"),
    ("operators", "[[3, 4, 5], 3]"),
    ("operators", "[[3, 4, 5], -4]"),
    ("operators", "[[3, 4, 5], \"1\"]"),
    ("operators", "[[3, \"b\", 5], 1]"),
    ("operators", "[[3, 4.5, 5], 1]"),
    ("steps", "[[3, 4, 5], 2]"),
    ("steps", "[[3, 0, 5], 1]"),
    ("steps", "[[3, 4, 5], -2]"),
    ("steps", "[[3, 4, 5], 5]"),
    ("steps", "[[3, \"x\", 5], 1]"),
    ("items", "[[1, 2, 3], 2, 5]"),
    ("items", "[[1, 2, 3], -1, 5]"),
    ("items", "[[1, 2, 3], 3, 5]"),
    ("items", "[[1, 2, 3], -4, 5]"),
    ("items", "[[1, 2, 3], 1, \"s\"]"),
    ("items", "[[1, \"two\", 3], 1, 5]"),
    ("items", "[[1, 2, 3], 1, 2.5]"),
    ("items", "[[1, 2, 3], true, 5]"),
    ("of_a_map", "[1, 4]"),
    ("of_a_map", "[-1, 4]"),
    ("of_a_map", "[3, 4]"),
    ("of_a_map", "[1, \"v\"]"),
    ("caller", "[]"),
    ("constant", "[1]"),
    ("constant", "[0]"),
    ("constant", "[-1]"),
    ("constant", "[7]"),
    ("as_rhai", "[[\"a\", \"b\"], 1, \"c\"]"),
    ("as_rhai", "[[[1], [2]], 0, [3]]"),
    ("as_rhai", "[[1, 2], 0, ()]"),
    ("own", "[0]"),
    ("own", "[2]"),
    ("unchanged", "[1]"),
    ("to_overflow", "[[1], 0]"),
    ("to_overflow", "[[-1], 0]"),
    ("item_overflow", "[[9223372036854775807], 0]"),
    ("counted", "[30]"),
];

#[test]
fn items_at_variables_indexes_read_and_assigned_in_place_agree() {
    assert_agree(&[all("items at variables' indexes", SCRIPT, CALLS)]);
}

#[test]
fn items_at_variables_indexes_count_rhais_operations() {
    assert_alike(SCRIPT, CALLS);
}

#[test]
fn items_read_and_assigned_in_place_stop_at_the_limit_where_rhai_stops() {
    // Each round counts its operations at once in places (an item read, a comparison, an
    // item assigned): the operations limit falls at different points of them.
    let cases = [all(
        "items near the operations limit",
        SCRIPT,
        &[("counted", "[1000000]"), ("counted", "[1000001]")],
    )];
    assert_agree(&cases);
    assert_same_operations(&cases);
}

#[test]
fn items_of_shared_variables_agree() {
    // A closure changing a captured array shares it: its items are read and assigned in
    // Rhai's way (the walker's in-place reads and assignments leave shared values alone).
    let script = r#"
        fn captured(i) {
            let a = [1, 2, 3];
            let f = |x| { a[x] += 1; a[x] };
            let r = f.call(i);
            let t = 0;
            t += a[i];
            a[i] += r;
            if a[i] > 2 { t += 100; }
            [a, r, t, a[i] + 1]
        }
    "#;
    let calls: &[(&str, &str)] = &[
        ("captured", "[1]"),
        ("captured", "[0]"),
        ("captured", "[5]"),
    ];
    assert_agree(&[part("items of shared variables", script, calls)]);
    assert_alike(script, calls);
}
