//! Rhai's array methods the walker does itself on a variable (`list.push(x)`, `list.pop()`,
//! `list.len`, `list.is_empty()`), keeping the array's sizes known as it changes, against
//! Rhai's interpreter: the same values, errors (text and position), operations counted and
//! changes, where the sizes are known and where they are not, up to Rhai's limit on sizes.

use super::pairs::assert_alike;
use super::{all, assert_agree, assert_same_operations};

/// Functions using the methods on variables' arrays, each of them lowered.
const SCRIPT: &str = r#"
    fn pops() {
        let a = [1, "two", [3, 4], #{ m: [5] }];
        let r = [];
        r.push(a.pop()); r.push(a.pop()); r.push(a.len); r.push(a.pop());
        r.push(a.pop()); r.push(a.is_empty()); r.push(a.pop()); r.push(a.len());
        [r, a]
    }
    fn lent(l) { let x = l.pop(); [x, l.len, l] }
    fn caller() { let l = [1, 2, 3]; let x = lent(l); l.push(x); [x, l] }
    fn constant() { const C = [1, 2]; C.pop() }
    fn stack(n) {
        let todo = [0];
        let seen = 0;
        while todo.len > 0 {
            let s = todo.pop();
            seen += 1;
            if s < n { todo.push(s + 1); todo.push(s + 2); }
        }
        [seen, todo.is_empty]
    }
    fn at_the_limit() { let a = []; a.pad(99999, 0); a.push(1); a.pop(); a.push(2); a.push(3); a.len }
    fn nested_at_the_limit() {
        let a = []; a.pad(99996, 0);
        a.push([1, 2]); a.pop(); a.push([3]); a.push(4); a.push(5); a.push(6); a.len
    }
    fn appended_over_the_limit() { let a = []; a.pad(99999, 0); a += [1, 2]; a.len }
    fn appended_then_popped() { let a = []; a.pad(99999, 0); a += [1, 2]; a.pop(); a.pop(); a.len }
    fn changed_between() { let a = [1]; a.push(2); a[0] = "x"; a.pop(); a.push(3); [a, a.len] }
    fn strings() { let a = ["abc", "de"]; let s = a.pop(); a.push(s + s); [a.pop(), a.pop(), a.pop(), a] }
    fn of_a_map() { let m = #{ l: [1, 2] }; let l = m.l; [l.pop(), m.l.pop(), l, m] }
    fn returned(l) { l.pop() }
    fn not_an_array(x) { [x.len, x.pop()] }
    fn fresh_each_round(n) {
        let out = [];
        for i in 0..n {
            let line = [];
            out.push(line.len);
            line.push(i); line.push([i, []]);
            out.push(line);
            let big = []; big.pad(40, i);
            out.push(big.len);
            const C = [];
            out.push(C);
        }
        let last = [];
        out.push(last);
        let i = 0;
        while i < n { let l = []; l += out; out.push(l.len); i += 1; }
        out
    }
"#;

/// The calls of [`SCRIPT`]'s functions.
const CALLS: &[(&str, &str)] = &[
    ("pops", "[]"),
    ("lent", "[[1, 2]]"),
    ("lent", "[[]]"),
    ("caller", "[]"),
    ("constant", "[]"),
    ("stack", "[0]"),
    ("stack", "[5]"),
    ("at_the_limit", "[]"),
    ("nested_at_the_limit", "[]"),
    ("appended_over_the_limit", "[]"),
    ("appended_then_popped", "[]"),
    ("changed_between", "[]"),
    ("strings", "[]"),
    ("of_a_map", "[]"),
    ("returned", "[[7, 8]]"),
    ("returned", "[[]]"),
    ("not_an_array", r#"["abc"]"#),
    ("fresh_each_round", "[3]"),
];

#[test]
fn array_methods_on_variables_agree_and_are_lowered() {
    assert_agree(&[all("array methods on variables", SCRIPT, CALLS)]);
}

#[test]
fn array_methods_on_variables_count_rhais_operations() {
    assert_alike(SCRIPT, CALLS);
}

#[test]
fn a_method_the_runtime_has_on_arrays_is_left_to_it() {
    // `len` of the runtime's own is not one on arrays: the walker's `len` applies; a script
    // function of the method's name comes first.
    assert_alike(
        r#"
        fn pop(a) { 99 }
        fn shadowed() { let a = [1, 2]; [a.pop(), a] }
        fn grid_len() { let g = grid(3, 2); let r = []; r.push(g.width); [r.len, r.pop()] }
        "#,
        &[("shadowed", "[]"), ("grid_len", "[]")],
    );
}

#[test]
fn an_empty_array_not_measured_is_checked_as_rhai_checks_it() {
    // `len`, `is_empty` and `pop` on an empty array nothing has measured (a fresh `[]`, one
    // emptied by a method Rhai runs or by a pop) answer Rhai's check on sizes without a look at
    // the array, as `len` and `is_empty` on one whose sizes are known do; the loops run into
    // the operations limit among them.
    let cases = [all(
        "empty arrays not measured",
        r#"fn fresh(n) { let k = 0; while k < n { let l = []; if l.len == 0 && l.is_empty() { k += 1; } } k }
           fn emptied(n) { let k = 0; while k < n { let l = [k, [k]]; l.clear(); l.pop(); k += 1 + l.len; } k }
           fn popped(n) { let k = 0; while k < n { let l = [[k, "k"]]; l.pop(); k += 1 + l.len; } k }
           fn padded() { let a = []; let n = a.len; a.pad(99999, 0); a.clear(); [n, a.is_empty(), a.len] }
           fn over_after(n) { let a = []; a.pop(); a.pad(100000, 0); a.push(n); a.len }
           fn measured(n) {
               let k = 0; let l = [];
               while k < n { l.push([k]); if l.len > 4 && !l.is_empty() { l = []; } k += 1; }
               k
           }"#,
        &[
            ("fresh", "[3]"),
            ("fresh", "[1000000]"),
            ("emptied", "[3]"),
            ("emptied", "[1000000]"),
            ("popped", "[1000000]"),
            ("padded", "[]"),
            ("over_after", "[1]"),
            ("measured", "[7]"),
            ("measured", "[1000000]"),
        ],
    )];
    assert_agree(&cases);
    assert_same_operations(&cases);
}
