//! Loops' rounds and statements the walker runs in short ways (walker18a): `if … { continue; }`
//! and `if … { break; }` (the jump made without running its block), `let` of an arithmetic
//! operator on two integers where they are (`let tx = x + dx`, computed without a value made
//! for the operator), and `for` over a literal array or a constant's (each item copied as its
//! round comes), against Rhai's interpreter: the same values, errors (text and position) and
//! operations counted, and with the operations limit falling at each operation of a round.

use super::pairs::{assert_alike, assert_alike_in};

#[test]
fn jumps_integer_lets_and_literal_loops_agree() {
    assert_alike(
        r#"
        const STEPS = [-1, 0, 1];
        fn jumps(n) {
            let s = [];
            for y in 0..n {
                if y % 2 == 1 { continue; }
                for x in 0..n { if x > y { break; } if x == 1 { continue; } s.push([x, y]); }
                if y > 6 { break; }
            }
            s
        }
        fn lets(x, d) {
            let a = x + d;
            let b = a * d;
            let c = b - x;
            let q = c / d;
            let r = c % d;
            const k = x + 1;
            [a, b, c, q, r, k]
        }
        fn reused(n) { let t = 0; for i in 0..n { let t = i + t; let u = t - 1; } n }
        fn literal(x) {
            let list = [];
            for dx in [-1, 0, 1] {
                let tx = x + dx;
                if tx < 0 || tx > 7 { continue; }
                list.push(tx);
            }
            for (d, i) in [2, "two", 2.5, (), [1]] { list.push([d, i]); }
            for d in STEPS { list.push(d * 2); }
            list
        }
        fn changed(x) { let all = []; for d in [1, 2] { d += x; all.push(d); } all }
        fn while_jumps(n) {
            let i = 0;
            let s = 0;
            while true { i += 1; if i > n { break; } if i % 3 == 0 { continue; } s += i; }
            loop { if s < 100 { break; } s -= 100; }
            do { s += 1; if s % 2 == 0 { continue; } } while s < 11;
            s
        }
        fn valued(n) { let r = loop { if n > 0 { break n * 2; } }; r }
        "#,
        &[
            ("jumps", "[0]"),
            ("jumps", "[5]"),
            ("jumps", "[12]"),
            ("lets", "[7, 3]"),
            ("lets", "[-7, 2]"),
            // Overflow and division by zero: Rhai words the error, at its position.
            ("lets", "[9223372036854775807, 1]"),
            ("lets", "[5, 0]"),
            ("lets", "[-9223372036854775807, -1]"),
            // Operands other than integers: the operator as Rhai's.
            ("lets", "[1.5, 2]"),
            ("lets", r#"["a", 2]"#),
            ("lets", "[(), 2]"),
            ("reused", "[4]"),
            ("literal", "[0]"),
            ("literal", "[4]"),
            ("literal", "[7]"),
            ("literal", r#"["x"]"#),
            ("changed", "[3]"),
            ("while_jumps", "[10]"),
            ("while_jumps", "[40]"),
            ("valued", "[3]"),
        ],
    );
}

#[test]
fn the_operations_limit_stops_jumps_and_integer_lets_where_rhai_stops() {
    // Loops that run until the operations limit stops them: the limit and the reports to the
    // budget fall at each operation of a round in turn, as `pad` moves them.
    let script = r#"
        fn t(pad) {
            for i in 0..pad { }
            let k = 0;
            loop { k = 0; for dx in [-1, 0, 1] { let tx = k + dx; if tx < 0 { continue; } k = tx; } }
        }
        fn u(pad) {
            for i in 0..pad { }
            let n = 0;
            while n >= 0 { for x in 0..8 { let y = x * 2; if y > 6 { break; } n = y; } }
        }
        fn w(pad) {
            for i in 0..pad { }
            loop { for x in 0..3 { if x != 1 { continue; } const c = x + 1; } }
        }
    "#;
    let calls: Vec<String> = (0..16).map(|pad| format!("[{pad}]")).collect();
    let calls: Vec<(&str, &str)> = calls
        .iter()
        .flat_map(|args| {
            [
                ("t", args.as_str()),
                ("u", args.as_str()),
                ("w", args.as_str()),
            ]
        })
        .collect();
    assert_alike_in(script, &calls, 1);
}
