//! The walker against Rhai's interpreter, construct by construct: each small script is loaded
//! as the host loads a rules script, and the same calls made through a [`Caller`] that runs the
//! lowered functions and through one that runs everything in Rhai must give the same values
//! (compared by their `Debug` text) and the same errors (compared by their text, positions and
//! nested calls included).

use rhai::{Array, Dynamic, Engine, EvalAltResult, Module, Scope, AST};

use super::{native_table::NativeTable, Program};
use crate::script::{api, game::caller::Caller, sandbox};

/// A script loaded twice over: `fast` runs the lowered functions, `slow` only Rhai.
struct Both {
    engine: Engine,
    ast: AST,
    fast: Caller,
    slow: Caller,
    /// The script lowered as the callers lower it, to see which functions are.
    program: Program,
}

/// Loads `script` as `host::load` does: the top level run into a scope of constants, which are
/// then published in a global module, and only the functions kept (`source`: the script's name,
/// which Rhai puts in some errors).
fn load(script: &str, with_api: bool, source: Option<&str>) -> Both {
    let mut engine = sandbox::engine();
    // The table of the runtime's natives the walker calls directly (the interpreting caller
    // gets its own, from the same registration).
    let (natives, unused) = if with_api {
        let events = api::EventSink::default();
        let natives = api::register(&mut engine, events.clone());
        (natives, api::register(&mut sandbox::engine(), events))
    } else {
        (NativeTable::default(), NativeTable::default())
    };
    let mut ast = engine
        .compile(script)
        .unwrap_or_else(|e| panic!("{e}\n{script}"));
    if let Some(source) = source {
        ast.set_source(source);
    }
    let mut constants = Scope::new();
    {
        let _call = sandbox::begin();
        engine
            .run_ast_with_scope(&mut constants, &ast)
            .unwrap_or_else(|e| panic!("{e}\n{script}"));
    }
    let mut globals = Module::new();
    for (name, _, value) in constants.iter() {
        globals.set_var(name, value);
    }
    engine.register_global_module(globals.into());
    let ast = ast.clone_functions_only();
    let program = Program::new(&ast, &constants, &natives);
    let fast = Caller::new(&ast, constants.clone(), natives);
    let slow = Caller::new(&ast, constants, unused);
    slow.set_compiled(false);
    Both {
        engine,
        ast,
        fast,
        slow,
        program,
    }
}

/// A call's result as text: the value's `Debug`, or the error's text and `Debug`.
fn show(result: Result<Dynamic, Box<EvalAltResult>>) -> String {
    match result {
        Ok(value) => format!("Ok({value:?}: {})", value.type_name()),
        Err(err) => format!("Err({err} | {err:?})"),
    }
}

impl Both {
    fn call(&self, caller: &Caller, name: &str, args: &Array) -> String {
        let _call = sandbox::begin();
        show(caller.call(&self.engine, &self.ast, name, args.clone()))
    }
}

/// One case: a script and the calls to make (a function's name and its arguments, written as
/// a Rhai array).
struct Case {
    name: &'static str,
    script: &'static str,
    calls: Calls,
    /// Whether every named function of the script must be lowered (else some may be left to
    /// Rhai; anonymous functions may always be).
    all_lowered: bool,
    /// Whether the script needs the runtime's primitives (grids, cells…).
    with_api: bool,
}

/// The calls `calls` of `script`.
type Calls = &'static [(&'static str, &'static str)];

/// A case whose functions must all be lowered.
const fn all(name: &'static str, script: &'static str, calls: Calls) -> Case {
    Case {
        name,
        script,
        calls,
        all_lowered: true,
        with_api: false,
    }
}

/// A case some of whose functions Rhai may run.
const fn part(name: &'static str, script: &'static str, calls: Calls) -> Case {
    Case {
        all_lowered: false,
        ..all(name, script, calls)
    }
}

/// A case that uses the runtime's primitives.
const fn api(name: &'static str, script: &'static str, calls: Calls) -> Case {
    Case {
        with_api: true,
        ..all(name, script, calls)
    }
}

/// The call `t()`.
const T: &[(&str, &str)] = &[("t", "[]")];

/// Makes every call of every case on both callers (each twice, so that the resolutions kept
/// from the first call are used by the second), and returns what differs.
fn disagreements(cases: &[Case], source: Option<&str>) -> Vec<String> {
    let mut found = Vec::new();
    for case in cases {
        eprintln!("case: {}", case.name);
        let both = load(case.script, case.with_api, source);
        if case.all_lowered {
            let left: Vec<String> = both
                .ast
                .iter_functions()
                .filter(|f| !f.name.starts_with("anon$"))
                .filter(|f| both.program.function(f.name, f.params.len()).is_none())
                .map(|f| format!("{}/{}", f.name, f.params.len()))
                .collect();
            if !left.is_empty() {
                found.push(format!(
                    "{}: not lowered: {} (the case would compare Rhai with itself)",
                    case.name,
                    left.join(", ")
                ));
            }
        }
        assert_eq!(both.slow.coverage(), both.fast.coverage());
        for (function, args) in case.calls {
            let args: Array = both
                .engine
                .eval(args)
                .unwrap_or_else(|e| panic!("{}: arguments {args}: {e}", case.name));
            let fast = both.call(&both.fast, function, &args);
            let slow = both.call(&both.slow, function, &args);
            let again = both.call(&both.fast, function, &args);
            let slow_again = both.call(&both.slow, function, &args);
            if fast != slow || again != slow_again {
                found.push(format!(
                    "{}: {function}({args:?})\n  compiled:    {fast}\n  interpreted: {slow}\n  \
                     compiled again:    {again}\n  interpreted again: {slow_again}",
                    case.name
                ));
            }
        }
    }
    found
}

/// Asserts that every call of `cases` agrees, for scripts loaded without a source name.
fn assert_agree(cases: &[Case]) {
    assert_agree_named(cases, None);
}

fn assert_agree_named(cases: &[Case], source: Option<&str>) {
    let found = disagreements(cases, source);
    assert!(
        found.is_empty(),
        "{} disagreement(s):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn variables_blocks_and_branches() {
    assert_agree(&[
        all(
            "let, shadowing and blocks",
            r#"fn t() {
                let x = 1;
                let x = x + 1;
                let y = { let x = 10; x += 5; x * 2 };
                { let x = 100; x -= 1; }
                let z;
                [x, y, z]
            }"#,
            T,
        ),
        all(
            "const in a function",
            r#"fn t() { const C = 3; let c = C; c += 1; [C, c] }"#,
            T,
        ),
        all(
            "if/else as an expression",
            r#"fn t(n) {
                let s = if n > 0 { "pos" } else if n < 0 { "neg" } else { "zero" };
                let u = if n > 5 { 1 };
                [s, u, if n == 0 { 'z' } else { 'n' }]
            }"#,
            &[("t", "[-4]"), ("t", "[0]"), ("t", "[9]")],
        ),
        all(
            "an if whose condition is not a bool",
            r#"fn t(c) { if c { 1 } else { 2 } }"#,
            &[
                ("t", "[1]"),
                ("t", "[()]"),
                ("t", "[\"yes\"]"),
                ("t", "[true]"),
            ],
        ),
        all(
            "a while condition that is not a bool",
            r#"fn t() { let i = 3; while i { i -= 1; } i }"#,
            T,
        ),
        all(
            "nested functions and recursion",
            r#"fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
               fn even(n) { if n == 0 { true } else { odd(n - 1) } }
               fn odd(n) { if n == 0 { false } else { even(n - 1) } }
               fn t() { [fib(15), even(10), odd(7), even(3)] }"#,
            T,
        ),
        all(
            "recursion too deep",
            r#"fn down(n) { down(n + 1) + 1 }
               fn t() { down(0) }
               fn guarded() { try { down(0) } catch (e) { `caught: ${e}` } }"#,
            &[("t", "[]"), ("down", "[5]"), ("guarded", "[]")],
        ),
        all(
            "same name, different arities",
            r#"fn f() { 0 }
               fn f(a) { a * 10 }
               fn f(a, b) { a + b }
               fn t() { [f(), f(4), f(4, 5), f(f(1), f())] }"#,
            &[("t", "[]"), ("f", "[7]"), ("f", "[1, 2]"), ("f", "[]")],
        ),
        all(
            "a function called with the wrong number of arguments",
            r#"fn f(a) { a } fn t() { f(1, 2) }"#,
            &[("t", "[]"), ("f", "[1, 2]"), ("nope", "[]")],
        ),
        all(
            "parameters are passed by value",
            r#"fn bump(x) { x += 1; x }
               fn grow(list) { list.push(9); list.len() }
               fn t() { let a = 1; let b = bump(a); let l = [1]; let n = grow(l); [a, b, l, n] }"#,
            &[("t", "[]"), ("grow", "[[1, 2]]")],
        ),
        all(
            "return, early and without a value",
            r#"fn first_even(list) { for x in list { if x % 2 == 0 { return x; } } return; }
               fn t() { [first_even([1, 3, 4, 6]), first_even([1])] }"#,
            &[("t", "[]"), ("first_even", "[[5, 8]]")],
        ),
        all(
            "an empty function and a function of one expression",
            r#"fn e() {} fn one() { 1 } fn t() { [e(), one()] }"#,
            &[("t", "[]"), ("e", "[]")],
        ),
        all(
            "arguments from the host",
            r#"fn t(a, b, c, d, e) { [type_of(a), b.len(), c.x, d + 1, e] }"#,
            &[
                ("t", "[1, [1, 2], #{ x: 5 }, 2.5, ()]"),
                ("t", "[\"s\", \"abc\", #{}, 'c', true]"),
            ],
        ),
    ]);
}

#[test]
fn loops() {
    assert_agree(&[
        all(
            "while with break and continue",
            r#"fn t() {
                let i = 0; let sum = 0;
                while i < 20 { i += 1; if i % 2 == 0 { continue; } if i > 15 { break; } sum += i; }
                [i, sum]
            }"#,
            T,
        ),
        all(
            "loop with a break value",
            r#"fn t() { let i = 0; let r = loop { i += 1; if i > 5 { break i * 10; } }; [r, i] }"#,
            T,
        ),
        all(
            "while with a break value",
            r#"fn t() { let i = 0; let r = while i < 10 { i += 1; if i == 4 { break "four"; } }; [r, while false {}] }"#,
            T,
        ),
        all(
            "do-while and do-until with continue",
            r#"fn t() {
                let a = 0; let n = 0;
                do { a += 1; if a == 2 { continue; } n += a; } while a < 5;
                let b = 10;
                do { b -= 3; } until b < 0;
                let c = 0;
                do { c += 1; } while false;
                let d = do { break 7; } while true;
                [a, n, b, c, d]
            }"#,
            T,
        ),
        all(
            "for over arrays and ranges",
            r#"fn t() {
                let out = [];
                for x in [3, 1, 2] { out.push(x * 2); }
                for i in 0..3 { out.push(i); }
                for i in 5..=7 { out.push(i); }
                for i in 3..1 { out.push("never"); }
                for i in -2..0 { out.push(i); }
                let r = 2..4;
                for i in r { out.push(i); }
                out
            }"#,
            T,
        ),
        all(
            "for over strings and with a counter",
            r#"fn t() {
                let out = [];
                for ch in "héllo" { out.push(ch); }
                for (x, i) in [10, 20, 30] { out.push(x + i); }
                for (ch, i) in "ab" { out.push(`${i}:${ch}`); }
                for (n, i) in 7..9 { out.push([n, i]); }
                out
            }"#,
            T,
        ),
        all(
            "for over a native iterator and map keys",
            r#"fn t() {
                let out = [];
                for i in range(0, 10, 3) { out.push(i); }
                let m = #{ b: 2, a: 1 };
                for k in m.keys() { out.push(k); }
                for v in m.values() { out.push(v); }
                for b in 5.bits() { out.push(b); }
                out
            }"#,
            T,
        ),
        all(
            "for with break value, continue and a changed loop variable",
            r#"fn t() {
                let found = for x in [1, 5, 8, 9] { if x > 4 { break x; } };
                let none = for x in [1] { };
                let out = [];
                for x in 0..6 { if x == 2 { continue; } x *= 10; out.push(x); }
                let x = "outer";
                for x in 0..2 {}
                [found, none, out, x]
            }"#,
            T,
        ),
        all(
            "for over what cannot be iterated",
            r#"fn t(v) { let n = 0; for x in v { n += 1; } n }"#,
            &[
                ("t", "[5]"),
                ("t", "[#{ a: 1 }]"),
                ("t", "[()]"),
                ("t", "[1.5]"),
                ("t", "[[1, 2]]"),
                ("t", "[\"abc\"]"),
            ],
        ),
        all(
            "break and continue inside a for over a string (run by Rhai)",
            r#"fn t() {
                let out = "";
                for ch in "abcdef" { if ch == 'b' { continue; } if ch == 'e' { break; } out += ch; }
                let got = for ch in "xyz" { if ch == 'y' { break ch; } };
                [out, got]
            }"#,
            T,
        ),
        all(
            "return from inside loops",
            r#"fn t(n) {
                for i in 0..10 { let j = 0; while true { j += 1; if i * j == n { return [i, j]; } if j > i { break; } } }
                "none"
            }"#,
            &[("t", "[6]"), ("t", "[7]"), ("t", "[1000]")],
        ),
    ]);
}

/// Whether each `for` loop of the lowered function `name` (in the order they start) lends its
/// items to its variable (see `ForLoop::lend`).
fn lending_loops(program: &Program, name: &str, arity: usize) -> Vec<bool> {
    fn in_block(block: &[super::Stmt], found: &mut Vec<bool>) {
        for stmt in block {
            in_stmt(stmt, found);
        }
    }
    fn in_stmt(stmt: &super::Stmt, found: &mut Vec<bool>) {
        use super::Stmt;
        match stmt {
            Stmt::For(for_loop) => {
                found.push(for_loop.lend);
                in_block(&for_loop.body, found);
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                in_block(then, found);
                in_block(otherwise, found);
            }
            Stmt::While { body, .. } | Stmt::Do { body, .. } | Stmt::Block(body) => {
                in_block(body, found);
            }
            _ => (),
        }
    }
    let function = program.function(name, arity).expect("lowered");
    let mut found = Vec::new();
    in_block(&function.body, &mut found);
    found
}

/// The shape of the first chain the lowered function `name` holds as a statement or as a
/// `let`'s value (see `Chain::shape`).
fn chain_shape(program: &Program, name: &str, arity: usize) -> Option<super::Shape> {
    use super::{Expr, Stmt};
    let body = &program.function(name, arity)?.body;
    body.iter().find_map(|stmt| match stmt {
        Stmt::Expr(Expr::Chain(chain))
        | Stmt::Call(Expr::Chain(chain))
        | Stmt::Let {
            value: Expr::Chain(chain),
            ..
        } => Some(chain.shape.get()),
        _ => None,
    })
}

#[test]
fn a_chains_quick_read_is_chosen_by_its_shape_when_lowered() {
    use super::Shape::{General, InPlace, Pair, Property};
    let both = load(
        r#"
        fn prop(s) { s.turn }
        fn index(a) { a[0] }
        fn prop_index(s, i) { s.pits[i] }
        fn in_place(g, c) { let v = g.get(c); v }
        fn prop_in_place(s, c) { let v = s.board.set(c, 1); v }
        fn returned(g, c) { g.get(c) }
        fn pair(g, x, y) { g.get(cell(x, y)) }
        fn prop_pair(s, x, y) { s.board.get(cell(x, y)) }
        fn push_pair(l, x, y) { l.push(cell(x, y)) }
        fn computed(g, c) { g.get(c + 1) }
        fn two_props(s) { s.a.b }
        fn of_value(a) { [a].len() }
        fn no_plain_form(t, p) { let v = t.take(p); v }
        fn prop_no_plain_form(s, p) { let v = s.pits.take(p); v }
        "#,
        true,
        None,
    );
    let shapes = [
        ("prop", 1, Property),
        ("index", 1, InPlace),
        ("prop_index", 2, InPlace),
        ("in_place", 2, InPlace),
        ("prop_in_place", 2, InPlace),
        // Returned, it may be the host's list form, which the call in place does not make.
        ("returned", 2, General),
        ("pair", 3, Pair),
        ("prop_pair", 3, Pair),
        ("push_pair", 3, Pair),
        ("computed", 2, General),
        ("two_props", 1, General),
        ("of_value", 1, General),
        // A method without a plain form (for any types) is never called in place.
        ("no_plain_form", 2, General),
        ("prop_no_plain_form", 2, General),
    ];
    for (name, arity, shape) in shapes {
        assert_eq!(
            chain_shape(&both.program, name, arity),
            Some(shape),
            "{name}"
        );
    }
}

#[test]
fn a_call_site_found_without_a_plain_form_stops_trying_the_call_in_place() {
    use super::Shape::{General, InPlace};
    // `get` has a plain form on a grid, none on a track: the chain is lowered to try it.
    let both = load(
        r#"
        fn on_grid(g, c) { let v = g.get(c); v }
        fn on_track(t, p) { let v = t.get(p); v }
        fn prop_on_track(s, p) { let v = s.pits.get(p); v }
        "#,
        true,
        None,
    );
    let calls = [
        ("on_grid", "[grid(3, 3), cell(1, 2)]"),
        ("on_track", "[track(4, 2), 1]"),
        ("prop_on_track", "[#{ pits: track(4, 3) }, 2]"),
    ];
    let program = both.fast.program();
    for (name, _) in calls {
        assert_eq!(chain_shape(program, name, 2), Some(InPlace), "{name}");
    }
    // Twice: the first call finds the site's function, the second looks at its plain form.
    for _ in 0..2 {
        for (name, args) in calls {
            let args: Array = both.engine.eval(args).expect("arguments");
            let fast = both.call(&both.fast, name, &args);
            assert_eq!(fast, both.call(&both.slow, name, &args), "{name}");
        }
    }
    let shapes = [
        ("on_grid", InPlace),
        ("on_track", General),
        ("prop_on_track", General),
    ];
    for (name, shape) in shapes {
        assert_eq!(chain_shape(program, name, 2), Some(shape), "{name}");
    }
}

/// Whether each `x op= n` the lowered function `name` holds on integers where they are (see
/// `IntAssign`) may skip the look for a constant, in the order they come.
fn int_steps(program: &Program, name: &str, arity: usize) -> Vec<bool> {
    fn in_block(block: &[super::Stmt], found: &mut Vec<bool>) {
        for stmt in block {
            in_stmt(stmt, found);
        }
    }
    fn in_stmt(stmt: &super::Stmt, found: &mut Vec<bool>) {
        use super::Stmt;
        match stmt {
            Stmt::IntAssign(assign) => found.push(assign.writable),
            Stmt::For(for_loop) => in_block(&for_loop.body, found),
            Stmt::If {
                then, otherwise, ..
            } => {
                in_block(then, found);
                in_block(otherwise, found);
            }
            Stmt::While { body, .. } | Stmt::Do { body, .. } | Stmt::Block(body) => {
                in_block(body, found);
            }
            _ => (),
        }
    }
    let function = program.function(name, arity).expect("lowered");
    let mut found = Vec::new();
    in_block(&function.body, &mut found);
    found
}

#[test]
fn integer_steps_in_place_know_the_variables_let_declares() {
    let both = load(
        r#"fn t(p) {
            let a = 0; a += 1; p += a;
            const c = 1; let b = c; b -= 1;
            for i in 0..3 { i += 1; a *= i; }
            let b = 2; b /= a; b += "x".len();
            { const q = 1; let q = q; q += 1; }
            a -= 1;
            [a, b]
        }"#,
        false,
        None,
    );
    // `a`, `p` (a parameter), `b`, `i` (a loop's variable), `a`, `b` (declared again), `q`
    // (declared again after a constant of that name), `a`; `b += "x".len()` is not one.
    assert_eq!(
        int_steps(&both.program, "t", 1),
        [true, false, true, false, true, true, true, true]
    );
}

#[test]
fn integer_steps_in_place_agree() {
    assert_agree(&[
        all(
            "steps on locals, parameters, loop variables and literals, in loops and branches",
            r#"fn t(n, d) {
                let k = 0; let s = 0;
                while k < n { k += 1; if k % 2 == 0 { s += k; } else { s -= d; } }
                for i in 0..n { i *= 2; s += i; }
                do { n -= 1; s %= 1000; } while n > 0;
                n += d; d /= 1;
                [k, s, n, d]
            }"#,
            &[("t", "[10, 3]"), ("t", "[0, -2]"), ("t", "[5, 0]")],
        ),
        all(
            "steps that fail, on other values, and on constants",
            r#"fn over(n) { let a = 9223372036854775807; a += n; a }
               fn zero(n) { let a = 7; a /= n; a }
               fn rest(n) { let a = 7; a %= n; a }
               fn other(n) { let a = "x"; a += n; let f = 1.5; f *= n; let u = (); u -= n; [a, f, u] }"#,
            &[
                ("over", "[1]"),
                ("over", "[-1]"),
                ("zero", "[0]"),
                ("zero", "[2]"),
                ("rest", "[0]"),
                ("other", "[2]"),
            ],
        ),
        part(
            "a step on a tagged integer, and on a variable a closure shares",
            r#"fn tag(n) { let a = 5; a.tag = 3; a += n; [a, a.tag] }
               fn captured(n) { let a = 1; let f = || { a += n; a }; let b = [1, 2].map(|x| { a += x; a }); a += n; [a, b] }"#,
            &[("tag", "[1]"), ("captured", "[2]")],
        ),
    ]);
}

/// For each `let` at the top of the lowered function `name`, whether it makes its value as an
/// empty array literal (which may take an array kept from a block that ended, see
/// `Runner::spare_array`) rather than copying a constant.
fn lets_made_anew(program: &Program, name: &str, arity: usize) -> Vec<bool> {
    let function = program.function(name, arity).expect("lowered");
    function
        .body
        .iter()
        .filter_map(|stmt| match stmt {
            super::Stmt::Let { value, .. } => {
                Some(matches!(value, super::Expr::Array(items) if items.is_empty()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn an_empty_array_declared_is_made_anew() {
    let script = "fn t() { let a = []; let b = [1]; let c = [[]]; let d = []; [a, b, c, d] }";
    let both = load(script, false, None);
    assert_eq!(
        lets_made_anew(&both.program, "t", 0),
        [true, false, false, true]
    );
    assert_agree(&[all("empty arrays declared", script, T)]);
}

#[test]
fn loops_lend_their_items_where_nothing_can_change_them() {
    let cases = [
        all(
            "a constant's arrays lent, and the arrays in them",
            r#"const LINES = [[[0, 0], [1, 0]], [[0, 1], [1, 1]], [[2, 2], ()]];
            fn t() {
                let out = [];
                for line in LINES { let n = 0; for p in line { if p != () { n += p[0] + p[1]; } } out.push(n); }
                for (line, i) in LINES { out.push([i, line.len]); }
                for line in LINES { }
                out
            }"#,
            T,
        ),
        all(
            "a lent item returned, a break with a value, an error: the constant is intact after",
            r#"const LINES = [[1, 2], [3, 4], (), [5]];
            fn first(k) { for line in LINES { if line != () && line[0] == k { return line; } } "none" }
            fn found(k) { let got = for line in LINES { if line == () { continue; } if line[0] >= k { break line; } }; got }
            fn fails(k) { for line in LINES { if line[0] == k { throw line; } } }
            fn all_of() { let out = []; for line in LINES { out.push(line); } out }"#,
            &[
                ("first", "[3]"),
                ("all_of", "[]"),
                ("first", "[5]"),
                ("found", "[2]"),
                ("all_of", "[]"),
                ("fails", "[1]"),
                ("fails", "[9]"),
                ("all_of", "[]"),
            ],
        ),
        all(
            "a loop over a constant running again inside itself (recursion)",
            r#"const ITEMS = [[1], [2], [3]];
            fn t(depth) { let n = 0; for item in ITEMS { n += item[0]; if depth > 0 { n += t(depth - 1); } } n }"#,
            &[("t", "[0]"), ("t", "[2]"), ("t", "[3]")],
        ),
        all(
            "a local variable's array lent when the body never reads it",
            r#"fn t(list) { let n = []; for x in list { for y in x { n.push(y * 2); } if x.len > 1 { return x; } } n }
            fn u(list) { let n = 0; for x in list { n += list.len; } for x in list { x.push(1); n += x.len; } [n, list] }
            fn v(list) { for x in list { x = 0; } for x in list { x[0] = 5; } for x in list { let x = 1; x } list }"#,
            &[
                ("t", "[[[1], [2]]]"),
                ("t", "[[[1], [2, 3], [4]]]"),
                ("u", "[[[1], [2]]]"),
                ("v", "[[[1], [2]]]"),
            ],
        ),
    ];
    assert_agree(&cases);
    // Which loops lend their items (the proof), and which copy them as before.
    let lent = |case: usize, name: &str, arity: usize| {
        lending_loops(&load(cases[case].script, false, None).program, name, arity)
    };
    assert_eq!(lent(0, "t", 0), [true, true, true, true]);
    assert_eq!(lent(1, "first", 1), [true]);
    assert_eq!(lent(2, "t", 1), [true]);
    // Reads `x` (a method call may change it, as `len` might), then the iterated variable.
    assert_eq!(lent(3, "t", 1), [true, true]);
    assert_eq!(lent(3, "u", 1), [false, false]);
    assert_eq!(lent(3, "v", 1), [false, false, true]);
}

#[test]
fn a_constant_returned_as_it_is_gives_a_copy_that_may_change() {
    assert_agree(&[all(
        "a constant local, and a lent item of one, returned",
        r#"fn kept(v) { const k = v; k }
        fn first_of_constant(v) { const l = v; for x in l { return x; } }
        fn t() { let r = first_of_constant([[1], [2]]); r.push(9); let c = kept([7]); c.push(8); [r, c] }"#,
        T,
    )]);
}

#[test]
fn endless_loops_stop_both_ways() {
    let both = load(
        r#"fn t() { loop {} }
           fn w() { let i = 0; while true { i += 1; } }
           fn f() { let n = 0; for i in 0..1000000000 { n += i % 7; } n }
           fn d() { let l = []; do { l.push(1); l.pop(); } while true; }"#,
        false,
        None,
    );
    assert_eq!(both.fast.coverage(), (4, 4));
    let mut messages = Vec::new();
    for f in ["t", "w", "f", "d"] {
        let fast = both.call(&both.fast, f, &Array::new());
        let slow = both.call(&both.slow, f, &Array::new());
        assert!(fast.starts_with("Err("), "{f}: compiled gave {fast}");
        assert!(slow.starts_with("Err("), "{f}: interpreted gave {slow}");
        messages.push((f, fast, slow));
    }
    for (f, fast, slow) in messages {
        if fast != slow {
            // Allowed (an operations limit against a time limit), but worth seeing.
            eprintln!("{f}: compiled {fast}\n   interpreted {slow}");
        }
    }
}

#[test]
fn operators() {
    assert_agree(&[
        all(
            "integer arithmetic",
            r#"fn t(a, b) { [a + b, a - b, a * b, a / b, a % b, a ** 2, a & b, a | b, a ^ b, a << 2, a >> 1, -a, +a] }"#,
            &[
                ("t", "[17, 5]"),
                ("t", "[-17, 5]"),
                ("t", "[17, -5]"),
                ("t", "[0, 3]"),
            ],
        ),
        all(
            "overflow",
            r#"fn add(a, b) { a + b } fn sub(a, b) { a - b } fn mul(a, b) { a * b }
               fn div(a, b) { a / b } fn rem(a, b) { a % b } fn neg(a) { -a } fn pow(a, b) { a ** b }
               fn shl(a, b) { a << b }"#,
            &[
                ("add", "[9223372036854775807, 1]"),
                ("sub", "[-9223372036854775807 - 1, 1]"),
                ("mul", "[4611686018427387904, 2]"),
                ("div", "[-9223372036854775807 - 1, -1]"),
                ("rem", "[-9223372036854775807 - 1, -1]"),
                ("neg", "[-9223372036854775807 - 1]"),
                ("neg", "[-9223372036854775807]"),
                ("pow", "[2, 64]"),
                ("pow", "[2, -1]"),
                ("shl", "[1, 64]"),
                ("shl", "[1, -1]"),
            ],
        ),
        all(
            "division and modulo by zero",
            r#"fn div(a, b) { a / b } fn rem(a, b) { a % b }
               fn t() { let z = 0; 10 / z }"#,
            &[
                ("div", "[1, 0]"),
                ("rem", "[1, 0]"),
                ("div", "[0, 0]"),
                ("div", "[1.0, 0.0]"),
                ("rem", "[1.5, 0.0]"),
                ("div", "[1, 0.0]"),
                ("div", "[1.0, 0]"),
                ("t", "[]"),
            ],
        ),
        all(
            "floats and mixed numbers",
            r#"fn t(a, b) { [a + b, a - b, a * b, a / b, a < b, a == b, a >= b, -a] }"#,
            &[
                ("t", "[1.5, 2]"),
                ("t", "[7, 2.0]"),
                ("t", "[0.1, 0.2]"),
                ("t", "[2.0, 2]"),
            ],
        ),
        all(
            "comparisons of every built-in type",
            r#"fn eq(a, b) { [a == b, a != b] }
               fn lt(a, b) { [a < b, a <= b, a > b, a >= b] }"#,
            &[
                ("eq", "[1, 1]"),
                ("eq", "[1, \"a\"]"),
                ("eq", "[(), 1]"),
                ("eq", "[(), ()]"),
                ("eq", "[1, ()]"),
                ("eq", "[true, 1]"),
                ("eq", "[true, false]"),
                ("eq", "['a', \"a\"]"),
                ("eq", "[\"ab\", \"ab\"]"),
                ("eq", "[[1, 2], [1, 2]]"),
                ("eq", "[#{ a: 1 }, #{ a: 1 }]"),
                ("eq", "[#{ a: 1 }, ()]"),
                ("eq", "[2.0, 2]"),
                ("lt", "[1, 2.5]"),
                ("lt", "[3, 2]"),
                ("lt", "[\"a\", \"b\"]"),
                ("lt", "['a', 'b']"),
                ("lt", "['a', \"b\"]"),
                ("lt", "[1, \"a\"]"),
                ("lt", "[(), ()]"),
                ("lt", "[true, false]"),
                ("lt", "[[1], [2]]"),
            ],
        ),
        all(
            "not, and, or",
            r#"fn not(a) { !a }
               fn and(a, b) { a && b }
               fn or(a, b) { a || b }
               fn three(a, b, c) { a && b && c || !a }"#,
            &[
                ("not", "[true]"),
                ("not", "[1]"),
                ("not", "[()]"),
                ("and", "[true, false]"),
                ("and", "[1, true]"),
                ("and", "[true, 1]"),
                ("and", "[false, 1]"),
                ("or", "[true, 1]"),
                ("or", "[false, 1]"),
                ("or", "[\"x\", true]"),
                ("three", "[true, true, false]"),
                ("three", "[false, 1, 2]"),
                ("three", "[true, true, ()]"),
            ],
        ),
        all(
            "unary minus and plus on other types",
            r#"fn neg(a) { -a } fn pos(a) { +a }"#,
            &[
                ("neg", "[2.5]"),
                ("neg", "[\"a\"]"),
                ("neg", "[()]"),
                ("neg", "[true]"),
                ("pos", "[\"a\"]"),
                ("pos", "[3]"),
            ],
        ),
        all(
            "ranges as values",
            r#"fn t(a, b) { let r = a..b; let s = a..=b; [r, s, r.contains(a), s.contains(b), r.len(), type_of(r)] }"#,
            &[("t", "[1, 4]"), ("t", "[4, 1]"), ("t", "[1, 2.5]")],
        ),
        all(
            "operators on strings and chars",
            r#"fn t(s, c) { [s + c, c + s, s + 1, 1 + s, s + (), s * 2, c + c, s.len, s.len()] }"#,
            &[("t", "[\"ab\", 'c']"), ("t", "[\"\", 'é']")],
        ),
    ]);
}

#[test]
fn assignments() {
    assert_agree(&[
        all(
            "operator assignment on integers",
            r#"fn t(b) { let a = 17; a += b; let c = a; c -= b; let d = c; d *= b; let e = d; e /= b;
                        let f = e; f %= 3; let g = f; g **= 2; let h = g; h <<= 1; h |= 1; h &= 7; h ^= 2; h >>= 1;
                        [a, c, d, e, f, g, h] }"#,
            &[("t", "[3]"), ("t", "[-3]"), ("t", "[0]")],
        ),
        all(
            "operator assignment that overflows",
            r#"fn add(b) { let a = 9223372036854775807; a += b; a }
               fn sub(b) { let a = -9223372036854775807; a -= b; a }
               fn mul(b) { let a = 4611686018427387904; a *= b; a }"#,
            &[
                ("add", "[1]"),
                ("add", "[-1]"),
                ("sub", "[2]"),
                ("mul", "[2]"),
                ("mul", "[-2]"),
            ],
        ),
        all(
            "operator assignment on strings, arrays, floats, mixed",
            r#"fn t() {
                let s = "a"; s += "b"; s += 'c'; s += 1; s += (); s -= "b";
                let l = [1]; l += [2, 3]; l += 4; l += ["x"];
                let f = 1.5; f += 1; f *= 2.0; f -= 0.5; f /= 2;
                let i = 3; i += 1.5;
                let m = #{ a: 1 }; m += #{ b: 2 };
                [s, l, f, i, m]
            }"#,
            T,
        ),
        all(
            "operator assignment a type refuses",
            r#"fn t(a, b) { a += b; a }"#,
            &[
                ("t", "[1, \"x\"]"),
                ("t", "[1, ()]"),
                ("t", "[(), 1]"),
                ("t", "[true, true]"),
                ("t", "[#{ a: 1 }, 1]"),
                ("t", "['a', 'b']"),
            ],
        ),
        all(
            "assignment to a constant",
            r#"fn t() { const C = [1]; let x = C; x.push(2); C.len() + x.len() }
               fn u() { const C = [[1]]; C[0][0] = 2; C }
               fn v() { const C = [1]; C[0] += 1; C }"#,
            &[("t", "[]"), ("u", "[]"), ("v", "[]")],
        ),
        all(
            "method calls changing a local, function-call style too",
            r#"fn t() {
                let l = [3, 1, 2];
                l.push(4);
                push(l, 5);
                l.sort();
                l.insert(0, 0);
                let popped = l.pop();
                let s = "ab"; s.append("cd"); append(s, "e");
                let m = #{}; m.set_x = 1;
                [l, popped, s, len(l), l.len(), m]
            }"#,
            T,
        ),
        all(
            "non-pure methods on a constant",
            r#"fn t() { const C = [1, 2]; C.push(3); C }
               fn u() { const C = [1, 2]; push(C, 3); C }
               fn v() { const C = [3, 1]; C.len() + C.contains(1).to_string().len() }
               fn w() { const S = "ab"; S.clear(); S }"#,
            &[("t", "[]"), ("u", "[]"), ("v", "[]"), ("w", "[]")],
        ),
        all(
            "data too large",
            r#"fn grow() { let s = "x"; for i in 0..21 { s += s; } s.len() }
               fn cat() { let s = "x"; for i in 0..21 { s = s + s; } s.len() }
               fn pad() { let a = []; a.pad(100001, 0); a.len() }
               fn doubled() { let a = [0]; for i in 0..17 { a += a; } a.len() }
               fn literal() { let a = []; a.pad(99999, 0); [a, a].len() }
               fn big() { let a = []; a.pad(60000, 0); a }
               fn bigs() { let s = "x"; for i in 0..19 { s += s; } s }
               fn arr_set() { let a = big(); let l = [0, 0]; l[0] = a; l[1] = a; l.len() }
               fn push() { let a = big(); let l = []; l.push(a); l.push(a); l.len() }
               fn push_call() { let a = big(); let l = []; push(l, a); push(l, a); l.len() }
               fn map_push() { let a = big(); let m = #{ l: [] }; m.l.push(a); m.l.push(a); m.l.len() }
               fn str_set() { let s = bigs(); let m = #{}; m.a = s; m.b = s; m.a.len() }
               fn str_op() { let s = bigs(); let m = #{ a: "", b: "" }; m.a += s; m.b += s; m.a.len() }
               fn str_arr() { let s = bigs(); let l = ["", ""]; l[0] += s; l[1] += s; l.len() }
               fn plain() { let a = big(); let b = a; b += a; b.len() }
               fn nested_op() { let a = big(); let l = [[], []]; l[0] += a; l[1] += a; l.len() }
               fn string_literal() { let s = bigs(); [s, s].len() }
               fn map_literal() { let s = bigs(); #{ a: s, b: s }.len() }"#,
            &[
                ("grow", "[]"),
                ("cat", "[]"),
                ("pad", "[]"),
                ("doubled", "[]"),
                ("literal", "[]"),
                ("arr_set", "[]"),
                ("push", "[]"),
                ("push_call", "[]"),
                ("map_push", "[]"),
                ("str_set", "[]"),
                ("str_op", "[]"),
                ("str_arr", "[]"),
                ("plain", "[]"),
                ("nested_op", "[]"),
                ("string_literal", "[]"),
                ("map_literal", "[]"),
            ],
        ),
        all(
            // The walker keeps the sizes of an array it pushes onto (a push measures only its
            // item): whatever else changes the variable must make it measure it again.
            "data too large, after pushes and other changes",
            r#"fn big() { let a = []; a.pad(60000, 0); a }
               fn push_set() { let a = big(); let l = [0]; l.push(0); l[0] = a; l.push(a); l.len }
               fn push_item() { let a = big(); let l = [[]]; l.push(0); l[0].push(a); l.push(a) }
               fn push_rhai() {
                   let a = big(); let l = [0]; l.push(0);
                   switch 1 { 1 => { l[0] = a; } }
                   l.push(a); l.len()
               }
               fn push_call_between() { let a = big(); let l = [0]; l.push(0); pop(l); push(l, a); l.push(a) }
               fn push_blocks() {
                   let a = big();
                   { let l = []; l.push(0); l.push(0); }
                   { let l = [a, 0]; l.push(a); }
               }
               fn push_assigned() { let a = big(); let l = []; l.push(0); l.push(0); l = [a, 0]; l.push(a) }
               fn push_loop() {
                   let a = big();
                   for l in [[], [a]] { if l.is_empty() { l.push(0); } else { l.push(a); } }
               }
               fn pushes() { let l = []; for i in 0..300 { l.push([i, "ab"]); } [l.len, l.is_empty(), l[299]] }"#,
            &[
                ("push_set", "[]"),
                ("push_item", "[]"),
                ("push_rhai", "[]"),
                ("push_call_between", "[]"),
                ("push_blocks", "[]"),
                ("push_assigned", "[]"),
                ("push_loop", "[]"),
                ("pushes", "[]"),
            ],
        ),
    ]);
}

#[test]
fn chains() {
    assert_agree(&[
        all(
            "chains on a call's result or another expression's value",
            r#"fn list(n) { let l = []; for i in 0..n { l.push(i); } l }
               fn nest() { #{ p: [7, 8, #{ q: 9 }], s: "abc" } }
               fn boom(x) { throw x; }
               fn t() {
                   let a = list(3).len;
                   let b = list(4)[2] + list(5).len() + nest().p[2].q + nest()["s"].len;
                   let c = list(6).contains(4) && !list(2).is_empty();
                   let d = [1, 2, 3].len() + "abcd".len + (a + 1).to_string().len();
                   let e = list(3).map(|x| x * 2);
                   [a, b, c, d, e, nest().p, list(0).len, nest().missing]
               }
               fn order() { boom(1).get(boom(2)) }
               fn root_throws() { boom(3).len }
               fn out_of_bounds() { list(2)[5] }
               fn not_indexable() { nest().s.x }
               fn negative() { list(3)[-1] + list(3)[-3] }
               fn method_error() { list(2).get("a") }"#,
            &[
                ("t", "[]"),
                ("order", "[]"),
                ("root_throws", "[]"),
                ("out_of_bounds", "[]"),
                ("not_indexable", "[]"),
                ("negative", "[]"),
                ("method_error", "[]"),
            ],
        ),
        all(
            "map properties: read, assign, operator assign, missing",
            r#"fn t() {
                let m = #{ a: #{ b: 1 }, n: 5 };
                let before = m.a.b;
                m.a.b = 2;
                m.a.b += 10;
                m.n *= 3;
                m.c = "new";
                m.a.d = [1];
                [before, m, m.missing, m.a.missing, m["a"]["b"], m["c"]]
            }"#,
            T,
        ),
        all(
            "a property of a missing property",
            r#"fn read() { let m = #{}; m.x.y }
               fn write() { let m = #{}; m.x.y = 1; m }
               fn index() { let m = #{}; m.x[0] }
               fn op() { let m = #{ a: () }; m.a += 1; m }
               fn op_missing() { let m = #{}; m.a += 1; m }"#,
            &[
                ("read", "[]"),
                ("write", "[]"),
                ("index", "[]"),
                ("op", "[]"),
                ("op_missing", "[]"),
            ],
        ),
        all(
            "indexing maps by strings",
            r#"fn t(k) {
                let m = #{ a: 1, "two words": 2 };
                m[k] = 7;
                m["a"] += 1;
                m["x" + "y"] = [m[k]];
                [m, m["two words"], m["nope"]]
            }
            fn bad(k) { let m = #{ a: 1 }; m[k] }"#,
            &[
                ("t", "[\"two words\"]"),
                ("t", "[\"z\"]"),
                ("bad", "[1]"),
                ("bad", "['a']"),
                ("bad", "[()]"),
            ],
        ),
        all(
            "array indexes",
            r#"fn get(a, i) { a[i] }
               fn set(a, i, v) { a[i] = v; a }
               fn add(a, i, v) { a[i] += v; a }
               fn t() { let a = [[1, 2], [3, [4]]]; a[1][0] = 5; a[1][1][0] += 1; a[0][-1] = "z"; a }"#,
            &[
                ("get", "[[1, 2, 3], 0]"),
                ("get", "[[1, 2, 3], -1]"),
                ("get", "[[1, 2, 3], -3]"),
                ("get", "[[1, 2, 3], -4]"),
                ("get", "[[1, 2, 3], 10]"),
                ("get", "[[1, 2, 3], 3]"),
                ("get", "[[1, 2, 3], \"x\"]"),
                ("get", "[[1, 2, 3], 1.5]"),
                ("get", "[[], 0]"),
                ("get", "[(), 0]"),
                ("set", "[[1, 2, 3], 1, 9]"),
                ("set", "[[1, 2, 3], -1, 9]"),
                ("set", "[[1, 2, 3], 3, 9]"),
                ("add", "[[1, 2, 3], 0, 5]"),
                ("add", "[[1, 2, 3], 0, \"s\"]"),
                ("add", "[[9223372036854775807], 0, 1]"),
                ("add", "[[1], 5, 1]"),
                ("t", "[]"),
            ],
        ),
        all(
            "indexing into what is not an array",
            r#"fn t() { let a = [1, 2]; a[0][0] = 5; a }
               fn u() { let a = [1, "x"]; a[1][0] }
               fn v() { let a = [#{}, ()]; a[1][0] = 1; a }"#,
            &[("t", "[]"), ("u", "[]"), ("v", "[]")],
        ),
        all(
            "string indexes",
            r#"fn get(s, i) { s[i] }
               fn set(s, i, c) { s[i] = c; s }"#,
            &[
                ("get", "[\"héllo\", 0]"),
                ("get", "[\"héllo\", 1]"),
                ("get", "[\"héllo\", -1]"),
                ("get", "[\"héllo\", 10]"),
                ("get", "[\"héllo\", -10]"),
                ("get", "[\"\", 0]"),
                ("set", "[\"abc\", 1, 'x']"),
                ("set", "[\"abc\", 5, 'x']"),
                ("set", "[\"abc\", 0, \"x\"]"),
            ],
        ),
        all(
            "bits of integers",
            r#"fn get(n, i) { n[i] }
               fn set(n, i, b) { n[i] = b; n }"#,
            &[
                ("get", "[5, 0]"),
                ("get", "[5, 1]"),
                ("get", "[5, 63]"),
                ("get", "[-1, 63]"),
                ("get", "[5, 64]"),
                ("get", "[5, -1]"),
                ("get", "[5, -65]"),
                ("set", "[0, 3, true]"),
                ("set", "[15, 0, false]"),
                ("set", "[0, 64, true]"),
                ("set", "[0, 1, 1]"),
            ],
        ),
        all(
            "nested indexes and properties",
            r#"fn t(i) {
                let a = [#{ x: 1, l: [1, 2] }, #{ x: 2, l: [] }];
                let before = a[i].x;
                a[i].x = 10;
                a[i].x += 5;
                a[i].l.push(i);
                a[i]["l"][0] = "first";
                [before, a, a[i].l.len(), a[i].l[0]]
            }"#,
            &[("t", "[0]"), ("t", "[1]"), ("t", "[2]"), ("t", "[-1]")],
        ),
        all(
            "methods in chains",
            r#"fn t() {
                let m = #{ list: [3, 1, 2], s: "abc", inner: #{ l: [] } };
                let n = m.list.len();
                m.list.push(4);
                m.inner.l.push("x");
                m.list.sort();
                let big = m.list.filter(|x| x > 1).len();
                let first = m.list.filter(|x| x > 1)[0];
                let doubled = m.list.map(|x| x * 2).filter(|x| x > 4);
                let chars = m.s.to_upper().len();
                let popped = m.list.pop();
                [n, m, big, first, doubled, chars, popped, m.list.len, m.s.len]
            }"#,
            T,
        ),
        all(
            "a method through a method's result cannot change the variable",
            r#"fn t() { let m = #{ l: [1] }; m.l.map(|x| x).push(5); m }
               fn u() { let l = [[1], 2]; l.filter(|x| true)[0].push(9); l }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
        all(
            "chains on what has no such property or method",
            r#"fn prop(v) { v.foo }
               fn method(v) { v.foo(1) }
               fn deep(v) { v.a.b.c }
               fn set(v) { v.foo = 1; v }"#,
            &[
                ("prop", "[1]"),
                ("prop", "[[1]]"),
                ("prop", "[\"s\"]"),
                ("prop", "[()]"),
                ("method", "[#{}]"),
                ("method", "[1]"),
                ("deep", "[#{ a: #{ b: 1 } }]"),
                ("deep", "[#{ a: 1 }]"),
                ("set", "[1]"),
                ("set", "[[1]]"),
                ("set", "[#{}]"),
            ],
        ),
        all(
            "methods of script functions",
            r#"fn add(a, b) { a + b }
               fn grow(l) { l.push(9); l.len() }
               fn t() { let x = 1; let l = []; [x.add(2), l.grow(), l, "a".add("b")] }"#,
            T,
        ),
        part(
            "script methods with this",
            r#"fn double() { this * 2 }
               fn bump() { this += 1; }
               fn t() { let x = 4; let a = x.double(); x.bump(); x.bump(); [a, x] }"#,
            T,
        ),
        all(
            "object-map methods",
            r#"fn t() {
                let m = #{ n: 1, f: |x| x + 1, inc: || { this.n += 1; this.n } };
                let a = m.f(2);
                let b = m.inc();
                m.inc();
                let c = m.f.call(10);
                [a, b, c, m.n]
            }
            fn u() { let m = #{ f: 1 }; m.f(2) }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
    ]);
}

#[test]
fn native_values() {
    assert_agree(&[
        api(
            "properties of cells and grids",
            r#"fn t() {
                let c = cell(1, 2);
                let g = grid(3, 4);
                g.set(c, 7);
                let m = #{ g: grid(2, 2), c: cell(0, 1) };
                m.g.set(m.c, 5);
                [c.x, c.y, cell(3, 4).x, g.width, g.height, g.get(c), m.g.get(cell(0, 1)), m.c.y, m.g.width]
            }"#,
            T,
        ),
        api(
            "what native values do not have",
            r#"fn prop() { let c = cell(1, 2); c.z }
               fn set() { let c = cell(1, 2); c.x = 5; c }
               fn index() { let g = grid(2, 2); g[0] }
               fn method() { let g = grid(2, 2); g.nope() }
               fn off() { let g = grid(2, 2); g.get(cell(5, 5)) }
               fn wrong() { let g = grid(2, 2); g.get(1) }
               fn nested() { let m = #{ g: grid(2, 2) }; m.g.width = 3; m }"#,
            &[
                ("prop", "[]"),
                ("set", "[]"),
                ("index", "[]"),
                ("method", "[]"),
                ("off", "[]"),
                ("wrong", "[]"),
                ("nested", "[]"),
            ],
        ),
        api(
            "the runtime's primitives with right and wrong arguments",
            r#"fn prim(f) {
                let t = track(8, 2);
                let g = grid(3, 3, 1);
                let m = #{ t: track(4), g: grid(2, 2) };
                switch f {
                    0 => { t.set_kind(0, "store"); t.set_owner(0, 1); [t.kind(0), t.owner(0), t.pits(1), t.pits(1, "store"), t.seeds(0)] }
                    1 => t.set_kind(0, 's'),
                    2 => t.sow(1, 3, 1, [0]),
                    3 => t.sow(1, 3, 1, 0),
                    4 => t.sow(1, 3, 1, "x"),
                    5 => t.get(-1),
                    6 => t.get(1.0),
                    7 => [highlight("k", 'c'), highlight("k", "s")],
                    8 => highlight('k', "s"),
                    9 => { emit("x"); emit("y", #{}); recording() }
                    10 => { let r = rng(1); [r.int(5), r.int(5)] }
                    11 => rng(1).int(0),
                    12 => [g.format_cell(cell(0, 0), "xy"), g.parse_cell("1 1", "xy"), g.count(1)],
                    13 => g.parse_cell("zz", "xy"),
                    14 => g.format_cell(cell(0, 0), "nope"),
                    15 => { m.t.add(1, 5); m.g.set(cell(1, 1), 3); [m.t.get(1), m.t.take(1), m.t.get(1), m.g.get(cell(1, 1))] }
                    16 => m.t.take(99),
                    17 => take(m.t, 1),
                    18 => { let x = track(3, 1); add(x, 0, 4); set(x, 1, 9); [get(x, 0), x.values(), x.total(), x.len] }
                    19 => track(0),
                    20 => grid(-1, 2),
                    21 => cell(1),
                    22 => cell("a", 1),
                    23 => t.nothing(1),
                    24 => [t == track(8, 2), t != t, g == g],
                    _ => t.next(0, 1, 2)
                }
            }"#,
            &[
                ("prim", "[0]"),
                ("prim", "[1]"),
                ("prim", "[2]"),
                ("prim", "[3]"),
                ("prim", "[4]"),
                ("prim", "[5]"),
                ("prim", "[6]"),
                ("prim", "[7]"),
                ("prim", "[8]"),
                ("prim", "[9]"),
                ("prim", "[10]"),
                ("prim", "[11]"),
                ("prim", "[12]"),
                ("prim", "[13]"),
                ("prim", "[14]"),
                ("prim", "[15]"),
                ("prim", "[16]"),
                ("prim", "[17]"),
                ("prim", "[18]"),
                ("prim", "[19]"),
                ("prim", "[20]"),
                ("prim", "[21]"),
                ("prim", "[22]"),
                ("prim", "[23]"),
                ("prim", "[24]"),
                ("prim", "[25]"),
            ],
        ),
        api(
            "primitives called outside switch (lowered calls, not Rhai's)",
            r#"fn kind(t, c) { t.set_kind(0, c); t.kind(0) }
               fn sow(t, skip) { let last = t.sow(1, 3, 1, skip); [last, t.values()] }
               fn hl(a, b) { highlight(a, b) }
               fn get(t, p) { t.get(p) }
               fn fmt(g, c, n) { g.format_cell(c, n) }
               fn events() { emit("x"); emit("y", #{ a: 1 }); emit(1); recording() }
               fn in_map(p) { let m = #{ t: track(4, 1) }; m.t.add(p, 5); [m.t.get(p), m.t.take(p), m.t] }
               fn call_style(p) { let t = track(3, 1); add(t, p, 4); [get(t, p), t.total(), t.len] }"#,
            &[
                ("kind", "[track(3), \"store\"]"),
                ("kind", "[track(3), 's']"),
                ("kind", "[track(3), 1]"),
                ("sow", "[track(8, 2), [0]]"),
                ("sow", "[track(8, 2), 0]"),
                ("sow", "[track(8, 2), \"x\"]"),
                ("sow", "[track(8, 2), [\"x\"]]"),
                ("hl", "[\"k\", 'c']"),
                ("hl", "[\"k\", \"s\"]"),
                ("hl", "['k', \"s\"]"),
                ("hl", "[1, 2]"),
                ("get", "[track(3), -1]"),
                ("get", "[track(3), 1.0]"),
                ("get", "[track(3), 2]"),
                ("get", "[grid(2, 2), cell(0, 0)]"),
                ("get", "[#{}, 1]"),
                ("fmt", "[grid(3, 3), cell(0, 0), \"xy\"]"),
                ("fmt", "[grid(3, 3), cell(0, 0), \"nope\"]"),
                ("fmt", "[grid(3, 3), 0, \"xy\"]"),
                ("events", "[]"),
                ("in_map", "[1]"),
                ("in_map", "[9]"),
                ("call_style", "[0]"),
                ("call_style", "[5]"),
            ],
        ),
        api(
            "native values from the host",
            r#"fn t(c, g) { g.set(c, c.x + c.y); [g.get(c), g.count(0), c == cell(1, 1), c != cell(0, 0)] }"#,
            &[
                ("t", "[cell(1, 1), grid(2, 2)]"),
                ("t", "[cell(9, 9), grid(2, 2)]"),
            ],
        ),
    ]);
}

#[test]
fn closures_switch_try_and_keywords() {
    assert_agree(&[
        part(
            "closures capturing variables",
            r#"fn t() { let k = 3; let f = |x| x + k; k = 10; [f.call(2), f.call(k)] }
               fn u() { let total = 0; [1, 2, 3].for_each(|| total += this); total }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
        all(
            "closures capturing nothing",
            r#"fn t() { let f = |x| x * 2; let g = |a, b| a + b; [f.call(3), g.call(1, 2), [1, 2].map(f), call(f, 5)] }"#,
            T,
        ),
        all(
            "a function pointer called as a function",
            r#"fn t() { let f = |x| x * 2; f(3) }
               fn u() { let f = Fn("twice"); f(4) }
               fn twice(x) { 2 * x }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
        all(
            "Fn, call and curry",
            r#"fn twice(x) { 2 * x }
               fn add(a, b) { a + b }
               fn t() {
                   let f = Fn("twice");
                   let g = Fn("add").curry(10);
                   [f.call(3), call(f, 4), g.call(5), f.name, type_of(f), Fn("add").call(1, 2)]
               }
               fn missing() { Fn("nope").call(1) }
               fn bad_name() { Fn("no way") }
               fn arity() { Fn("twice").call(1, 2) }"#,
            &[
                ("t", "[]"),
                ("missing", "[]"),
                ("bad_name", "[]"),
                ("arity", "[]"),
            ],
        ),
        all(
            "switch, with return, break and continue inside",
            r#"fn name(x) {
                   switch x {
                       1 => return "one",
                       2 | 3 => { return "two or three"; }
                       "s" => "a string",
                       10 if x > 10 => "never",
                       11 if x > 10 => "eleven",
                       _ => "other"
                   }
               }
               fn t() {
                   let out = [];
                   for i in 0..8 {
                       switch i { 1 => continue, 5 => break, _ => out.push(i) }
                       out.push(name(i));
                   }
                   let n = switch out.len() { 0 => 0, _ => out.len() * 2 };
                   [out, n]
               }"#,
            &[
                ("name", "[1]"),
                ("name", "[3]"),
                ("name", "[\"s\"]"),
                ("name", "[11]"),
                ("name", "[()]"),
                ("t", "[]"),
            ],
        ),
        all(
            "try and catch",
            r#"fn thrower(v) { throw v; }
               fn t(v) {
                   let a = (); let b = (); let c = (); let d = (); let e = ();
                   try { thrower(v); a = "not thrown"; } catch (err) { a = ["caught", err]; }
                   try { let z = 0; b = 1 / z; } catch (err) { b = [type_of(err), err]; }
                   try { c = [1][5]; } catch (err) { c = err.message; }
                   try { throw; } catch (err) { d = err; }
                   try { e = 7; } catch { e = 8; }
                   [a, b, c, d, e]
               }
               fn ret() { for i in 0..3 { try { if i == 1 { return i * 100; } } catch { } } -1 }
               fn brk() { let n = 0; loop { try { n += 1; if n > 2 { break; } } catch {} } n }
               fn rethrow() { try { throw "inner"; } catch (e) { throw `outer ${e}`; } }"#,
            &[
                ("t", "[42]"),
                ("t", "[#{ a: 1 }]"),
                ("t", "[()]"),
                ("t", "[1.5]"),
                ("ret", "[]"),
                ("brk", "[]"),
                ("rethrow", "[]"),
            ],
        ),
        all(
            "throw",
            r#"fn t(v) { if v == () { throw; } throw v; }
               fn nested(v) { t(v) }"#,
            &[
                ("t", "[\"message\"]"),
                ("t", "[5]"),
                ("t", "[#{ a: [1] }]"),
                ("t", "[()]"),
                ("nested", "[\"deep\"]"),
            ],
        ),
        all(
            "errors inside nested calls",
            r#"fn a(x) { x / 0 }
               fn b(x) { let l = [x]; l[x] }
               fn c(x) { a(x) + b(x) }
               fn d(x) { c(x) }
               fn e(x) { x.nope }"#,
            &[("d", "[1]"), ("b", "[3]"), ("c", "[1]"), ("e", "[1]")],
        ),
        all(
            "string interpolation",
            r#"fn t(x) { let s = `a${x}b${x + 1}c${[x]}`; [s, `${}`, `plain`, `${`${x}`}`] }"#,
            &[("t", "[1]"), ("t", "[\"s\"]"), ("t", "[()]")],
        ),
        all(
            "type_of and is_def_var",
            r#"const G = 1;
               fn t(v) { let x = 1; [type_of(v), v.type_of(), type_of(x), is_def_var("x"), is_def_var("y"), is_def_var("G"), is_def_var("v")] }
               fn u() { t(1.5) }"#,
            &[("t", "[1]"), ("t", "[\"s\"]"), ("t", "[#{}]"), ("u", "[]")],
        ),
        all(
            "is_def_fn, print and debug",
            r#"fn f(a) { a }
               fn t() { print("x"); debug(1); [is_def_fn("f", 1), is_def_fn("f", 2), is_def_fn("g", 0)] }"#,
            T,
        ),
    ]);
}

#[test]
fn constants_and_literals() {
    assert_agree(&[
        all(
            "global constants in functions called from functions",
            r#"const K = 10;
               const L = [1, 2, 3];
               const M = #{ a: #{ b: 2 }, list: [5] };
               const S = "str";
               fn a() { K * 2 }
               fn b() { a() + K + L[1] + L.len() + M.a.b + M["a"]["b"] + S.len() }
               fn c() { b() }
               fn shadow() { let K = 5; K + 1 }"#,
            &[("a", "[]"), ("b", "[]"), ("c", "[]"), ("shadow", "[]")],
        ),
        all(
            "copies of global constants",
            r#"const L = [1, 2];
               const M = #{ a: [1] };
               fn copy() { let l = L; l.push(3); l += [4]; l[0] = 9; [l, L] }
               fn copy_map() { let m = M; m.a.push(2); m.b = 1; [m, M] }
               fn pass() { copy() }
               fn through(l) { l.push(0); l }
               fn arg() { through(L) }"#,
            &[
                ("copy", "[]"),
                ("copy_map", "[]"),
                ("pass", "[]"),
                ("arg", "[]"),
            ],
        ),
        all(
            "changing global constants",
            r#"const L = [1, 2];
               const M = #{ a: [1] };
               const N = 5;
               fn push() { L.push(3); L }
               fn push_call() { push(L, 3); L }
               fn set() { L[0] = 7; L }
               fn set_map() { M.a = 2; M }
               fn push_map() { M.a.push(2); M }
               fn assign() { N = 6; N }
               fn op() { N += 1; N }
               fn nested() { [push(), set(), set_map(), push_map()] }"#,
            &[
                ("push", "[]"),
                ("push_call", "[]"),
                ("set", "[]"),
                ("set_map", "[]"),
                ("push_map", "[]"),
                ("assign", "[]"),
                ("op", "[]"),
                ("nested", "[]"),
                ("push", "[]"),
            ],
        ),
        all(
            "array and map literals with expressions",
            r#"fn t(x) {
                let a = [x, x + 1, [x * 2, [x]], #{ a: x }, "s", 'c', (), true, 1.5, -x];
                let m = #{ a: x, "b c": x + 1, c: [x, #{ d: x * 3 }], d: #{}, e: [] };
                let empty = [];
                [a, m, empty, #{}, [a.len(), m.len()], m.c[1].d]
            }"#,
            &[("t", "[2]"), ("t", "[-9]")],
        ),
        all(
            "literals the parser folds",
            r#"fn t() { [1 + 2, "a" + "b", 2 * 3.0, !true, -(-5), [1, 2][0], #{ a: 1 }.a, 1 < 2] }"#,
            T,
        ),
        all(
            "standard library calls",
            r#"fn t() {
                let s = "Hello, World";
                [s.to_lower(), s.index_of('o'), s.sub_string(1, 3), s.split(", "), parse_int("42"),
                 s.contains("World"), [3, 1, 2].sort(), [1, 2, 3].reduce(|a, b| a + b, 0), abs(-3),
                 max(2, 7), min(1.5, 2.5), 7.to_string(), "x".pad(3, '-'), [1, 2].index_of(2)]
            }
            fn bad() { parse_int("x") }"#,
            &[("t", "[]"), ("bad", "[]")],
        ),
    ]);
}

#[test]
fn evaluation_order_and_fallbacks_sharing_the_frame() {
    assert_agree(&[
        all(
            "arguments that change the first argument's variable",
            r#"fn f(a, b) { [a, b] }
               fn t() { let x = 1; let r = f(x, { x += 1; x }); [r, x] }
               fn u() { let x = 1; let r = f(x + 0, { x += 1; x }); [r, x] }
               fn v() { let l = [1]; push(l, { l.push(2); 3 }); l }
               fn w() { let l = [1]; l.push({ l.push(2); 3 }); l }
               fn m() { let x = 5; let r = x.f({ x = 6; 7 }); [r, x] }"#,
            &[
                ("t", "[]"),
                ("u", "[]"),
                ("v", "[]"),
                ("w", "[]"),
                ("m", "[]"),
            ],
        ),
        all(
            "locals changed inside switch, interpolation and try",
            r#"fn t(x) {
                let a = 1;
                switch x { 1 => { let b = 2; a += b; } 2 => a = "two", _ => {} }
                let s = `${ { a += 10; a } }`;
                try { a += 100; throw a; } catch (e) { a = [a, e]; }
                let c = 3;
                [a, s, c]
            }"#,
            &[("t", "[1]"), ("t", "[2]"), ("t", "[3]")],
        ),
        all(
            "return from inside a for over a string and inside switch in a loop",
            r#"fn t(s) { for (ch, i) in s { if ch == 'x' { return i; } } -1 }
               fn u() { let n = 0; while true { n += 1; switch n { 3 => return n * 10, _ => () } } }
               fn v() { let out = []; for ch in "abc" { switch ch { 'b' => continue, _ => out.push(ch) } } out }"#,
            &[
                ("t", "[\"abxd\"]"),
                ("t", "[\"ab\"]"),
                ("u", "[]"),
                ("v", "[]"),
            ],
        ),
        all(
            "parameters shadowing constants, and shadowing parameters",
            r#"const K = 1;
               fn t(K) { K + 1 }
               fn u(a) { let a = a * 2; let K = a + K; [a, K] }"#,
            &[("t", "[10]"), ("u", "[3]")],
        ),
        all(
            "script functions with the names of natives",
            r#"fn len(x) { 42 }
               fn contains(a, b) { "mine" }
               fn t() { let l = [1, 2]; [l.len(), len(l), l.len, l.contains(1), contains(l, 1), "ab".len()] }"#,
            T,
        ),
        all(
            "optional chaining",
            r#"fn t(m) { [m?.a, m?.a?.b, m?["a"]] }"#,
            &[("t", "[#{ a: #{ b: 1 } }]"), ("t", "[()]"), ("t", "[#{}]")],
        ),
        all(
            "exit",
            r#"fn inner() { exit(42); 1 }
               fn t() { let x = inner(); x + 1 }
               fn u() { exit(); }"#,
            &[("t", "[]"), ("inner", "[]"), ("u", "[]")],
        ),
        all(
            "global:: paths",
            r#"const K = 7;
               fn t() { global::K }"#,
            T,
        ),
        part(
            "recursion through a function Rhai runs",
            r#"fn a(n) { let k = n; let f = || k; b(n + 1) }
               fn b(n) { a(n + 1) }
               fn t() { b(0) }"#,
            &[("t", "[]"), ("a", "[0]")],
        ),
        part(
            "recursion that reaches the limit exactly",
            r#"fn depth(n) { if n == 0 { 0 } else { 1 + depth(n - 1) } }
               fn closure(n) { let k = n; let f = || k; if n == 0 { 0 } else { 1 + closure(n - 1) } }"#,
            &[
                ("depth", "[62]"),
                ("depth", "[64]"),
                ("closure", "[62]"),
                ("closure", "[63]"),
                ("closure", "[64]"),
            ],
        ),
    ]);
}

#[test]
fn operations_are_counted_as_rhai_counts_them() {
    assert_agree(&[all(
        "loops near the operations limit",
        r#"fn w(n) { let i = 0; while i < n { i += 1; } i }
           fn c(n) { let s = 0; for i in 0..n { s += g(i); } s }
           fn g(x) { x * 2 }
           fn m(n) { let m = #{ a: [0] }; for i in 0..n { m.a[0] += 1; } m.a[0] }"#,
        &[("w", "[1000000]"), ("c", "[700000]"), ("m", "[1000000]")],
    )]);
}

#[test]
fn conditions_counted_at_once_stop_at_the_limit_where_rhai_stops() {
    // Comparisons of integers and assignments count their operations at once, and an `if`
    // statement's with its condition's: the budget must still stop each loop at the operation
    // where Rhai stops it (the rounds cost 9 to 27 operations, so the limit falls at different
    // points of them).
    let cases = [all(
        "conditions near the operations limit",
        r#"fn a(n) { let i = 0; while i < n && i >= 0 { i += 1; } i }
           fn b(n) { let i = 0; let j = 0; while i < n && j >= 0 && i != -1 { i += 1; j = i; } i }
           fn c(n) { let i = 0; while i < n { if i >= 0 && i < n || i == -1 { i += 1; } } i }
           fn d(n) { let i = 0; while !(i >= n) { let k = i + 1; i = k; } i }
           fn e(n) { let i = 0; loop { if i > n || i < 0 { break; } i += 2; i -= 1; } i }
           fn f(n) {
               let i = 0;
               let a = [1, 2];
               while i < n {
                   if a[i % 2] == 1 { i += 1; } else if i % 3 == 1 || a[0] > 5 { i += 2; }
                   else { i += 1; }
               }
               i
           }
           fn g(n) { let i = 0; let on = true; while i < n { if on { i += 1; } if !on { i -= 5; } } i }
           fn h(n) { let i = 0; for k in 0..n { if k < n { i += 1; } } i }"#,
        &[
            ("a", "[1000000]"),
            ("b", "[1000000]"),
            ("c", "[1000000]"),
            ("d", "[1000000]"),
            ("e", "[1000000]"),
            ("f", "[1000000]"),
            ("g", "[1000000]"),
            ("h", "[1000000]"),
        ],
    )];
    assert_agree(&cases);
    assert_same_operations(&cases);
}

#[test]
fn call_depth_is_limited_as_rhai_limits_it() {
    assert_agree(&[all(
        "recursion to the limit",
        r#"fn depth(n) { if n == 0 { 0 } else { 1 + depth(n - 1) } }
           fn d2(n) { depth(n) }
           fn via_map(n) { [n].map(|x| depth(x))[0] }"#,
        &[("depth", "[63]"), ("d2", "[62]"), ("via_map", "[60]")],
    )]);
}

#[test]
fn data_size_is_checked_after_assigning_a_property() {
    assert_agree(&[all(
        "arrays assigned to properties",
        r#"fn big() { let a = []; a.pad(60000, 0); a }
           fn map_set() { let a = big(); let m = #{}; m.x = a; m.y = a; m.x.len() + m.y.len() }"#,
        &[("map_set", "[]")],
    )]);
}

#[test]
fn native_methods_on_constants_change_them_as_in_rhai() {
    assert_agree(&[api(
        "natives on constants",
        r#"const G = grid(2, 2);
           const C = cell(0, 0);
           const M = #{ g: grid(2, 2) };
           fn t() { G.set(C, G.get(C) + 1); G.get(C) }
           fn v() { M.g.set(C, M.g.get(C) + 1); M.g.get(C) }
           fn x() { set(G, C, 5); G.get(C) }
           fn read() { let g = G; g.get(C) }
           fn in_switch(n) { switch n { 1 => G.set(C, 7), _ => () } G.count(7) }"#,
        &[
            ("t", "[]"),
            ("v", "[]"),
            ("x", "[]"),
            ("read", "[]"),
            ("in_switch", "[1]"),
            ("read", "[]"),
            ("t", "[]"),
            ("read", "[]"),
        ],
    )]);
}

#[test]
fn native_methods_on_constants_from_other_functions_agree() {
    // Called from a script function, a constant is a copy both ways.
    assert_agree(&[api(
        "natives on constants, one call down",
        r#"const G = grid(2, 2);
           const C = cell(0, 0);
           const M = #{ g: grid(2, 2) };
           fn t() { G.set(C, G.get(C) + 1); G.get(C) }
           fn u() { t() }
           fn v() { M.g.set(C, M.g.get(C) + 1); M.g.get(C) }
           fn w() { v() }
           fn y() { let g = G; g.set(C, 9); g.get(C) }"#,
        &[("u", "[]"), ("w", "[]"), ("y", "[]"), ("u", "[]")],
    )]);
}

/// The calls whose errors name the script: nested calls that fail, and an error caught whole.
const ERRORS_WITH_SOURCES: &[Case] = &[
    all(
        "an error caught as a map",
        r#"fn t() { let e = (); try { let z = 0; e = 1 / z; } catch (err) { e = err; } e }"#,
        T,
    ),
    all(
        "errors inside nested calls",
        r#"fn a(x) { x / 0 }
           fn c(x) { a(x) + 1 }
           fn d(x) { c(x) }
           fn thrower(v) { throw v; }
           fn nested(v) { thrower(v) }"#,
        &[
            ("d", "[1]"),
            ("c", "[1]"),
            ("a", "[1]"),
            ("nested", "[\"deep\"]"),
        ],
    ),
];

#[test]
fn errors_without_a_source_name_agree() {
    assert_agree(ERRORS_WITH_SOURCES);
}

#[test]
fn errors_name_the_script_as_rhai_does() {
    assert_agree_named(ERRORS_WITH_SOURCES, Some("test.rhai"));
}

/// Whether two states `#{ board, n }` are equal.
fn same_state(a: &Dynamic, b: &Dynamic) -> bool {
    let parts = |s: &Dynamic| {
        let map = s.read_lock::<rhai::Map>().expect("a map");
        let board = map["board"].clone().cast::<crate::runtime::Grid>();
        (board, map["n"].as_int().ok(), map.len())
    };
    parts(a) == parts(b)
}

#[test]
fn a_list_for_the_host_is_the_array_rhai_gives_compact_where_returned_as_it_is() {
    let both = load(
        r#"
        fn state(n) { #{ board: grid(n, n), n: n } }
        fn tail(s) { s.board.cells_with(0) }
        fn early(s) { if s.n > 5 { return []; } return s.board.cells_with(0); }
        fn branches(s) { if s.n == 4 { s.board.cells_with(1) } else { s.board.cells_with(0) } }
        fn call_style(s) { cells_with(s.board, 0) }
        fn pairs(s) { s.board.piece_steps(0, [[0, 1], [1, 0]], [0]) }
        fn in_loop(s) { for i in 0..3 { if i == 1 { return s.board.cells_with(0); } } [] }
        fn kept(s) { let m = s.board.cells_with(0); m }
        fn used(s) { s.board.cells_with(0).len() }
        fn nested(s) { tail(s) }
        fn bad(s) { s.board.cells_with("x") }
        fn changes(s) { s.n = 99; s.board.cells_with(0) }
        fn reads(s) { if s.board.count(1) > 99 || s.board.get(cell(0, 0)) > 9 { return []; } s.board.cells_with(0) }
        fn replaces(s) { s = again(s); s.board.cells_with(0) }
        fn again(s) { s.n += 1; s.board.set(cell(1, 1), 2); s }
        fn sets(s) { s.board.set(cell(0, 0), 1); s.board.cells_with(0) }
        fn drops(s) { s.board.drop_piece(0, 1, 0) }
        fn counted(s) { s.board.count(0) }
        fn no_arguments(s) { recording() }
        fn local_drop(s) { let b = s.board; drop_piece(b, 0, 1, 0) }
        fn replaced(s) { s = 5; [s] }
        fn interpolated(s) { let t = `${s.n}`; s.board.cells_with(0) }
        fn fails(s) { s.n = 1; throw "no moves today"; }
        fn deep(s) { deep(s) }
        "#,
        true,
        None,
    );
    let cases = [
        ("tail", 4, true),
        ("early", 4, true),
        ("early", 6, false),
        ("branches", 4, true),
        ("call_style", 4, true),
        ("pairs", 3, true),
        ("in_loop", 4, true),
        ("kept", 4, false),
        ("used", 4, false),
        ("nested", 4, false),
        ("bad", 4, false),
        // More cells than Rhai lets an array hold: the same error both ways.
        ("tail", 400, false),
        // The state is lent to the call: what changes it changes a copy.
        ("changes", 4, true),
        ("sets", 4, true),
        ("reads", 4, true),
        ("replaces", 4, true),
        ("drops", 4, false),
        ("counted", 4, false),
        ("no_arguments", 4, false),
        ("local_drop", 4, false),
        ("replaced", 4, false),
        ("interpolated", 4, true),
        ("fails", 4, false),
        ("deep", 4, false),
    ];
    for (function, n, compact) in cases {
        let _call = sandbox::begin();
        let state = both
            .fast
            .call(&both.engine, &both.ast, "state", (n as rhai::INT,))
            .unwrap();
        let mut lent = state.clone();
        let listed = both
            .fast
            .call_for_list(&both.engine, &both.ast, function, &mut lent);
        assert!(
            same_state(&lent, &state),
            "{function}({n}) changed the state"
        );
        let gave_list = listed
            .as_ref()
            .is_ok_and(|v| v.is::<crate::walker::lists::NativeList>());
        let listed =
            listed.map(
                |v| match v.try_cast_result::<crate::walker::lists::NativeList>() {
                    Ok(list) => Dynamic::from_array(list.into_array()),
                    Err(v) => v,
                },
            );
        let rhai = show(both.slow.call(&both.engine, &both.ast, function, (state,)));
        assert_eq!(show(listed), rhai, "{function}({n})");
        let fails = ["bad", "fails", "deep"].contains(&function) || n == 400;
        assert_eq!(rhai.starts_with("Err"), fails, "{function}({n}): {rhai}");
        assert_eq!(gave_list, compact, "{function}({n}) gave a compact list");
    }
}

#[test]
fn returned_variables_are_moved_out_of_the_frame_unchanged() {
    assert_agree(&[all(
        "returned variables",
        r#"
        fn t() { let a = [1, 2]; let b = a; b.push(3); a }
        fn u(x) { if x > 1 { let y = [x]; return y; } x }
        fn v(x) { for i in 0..5 { let z = i * x; if i == 3 { return z; } } -1 }
        fn w(m) { m.k = 1; m }
        fn c() { const K = [1]; K }
        fn nested() { let m = #{ a: 1 }; let n = w(m); [m, n] }
        fn blocks(x) { { let y = x + 1; y } }
        fn returned_const_changed() { let k = c(); k.push(2); k }
        "#,
        &[
            ("t", "[]"),
            ("u", "[3]"),
            ("u", "[1]"),
            ("v", "[2]"),
            ("w", "[#{}]"),
            ("c", "[]"),
            ("nested", "[]"),
            ("blocks", "[4]"),
            ("returned_const_changed", "[]"),
        ],
    )]);
}

#[test]
fn a_variable_a_call_replaces_is_handed_to_it_unchanged() {
    assert_agree(&[all(
        "x = f(x, …)",
        r#"
        fn add(list, x) { list.push(x); list }
        fn fail(list) { throw `no: ${list}`; }
        fn t() { let a = [1]; a = add(a, a.len()); a = add(a, a[0]); a }
        fn u() { let a = [1]; let b = a; a = add(a, 2); [a, b] }
        fn w() { let a = [1]; for i in 0..3 { a = add(a, i); } a }
        fn x() { let a = [1]; a = fail(a); a }
        fn param(a) { a = add(a, 5); a }
        "#,
        &[
            ("t", "[]"),
            ("u", "[]"),
            ("w", "[]"),
            ("x", "[]"),
            ("param", "[[7]]"),
        ],
    )]);
}

#[test]
fn script_calls_evaluate_their_arguments_as_rhai_does() {
    assert_agree(&[all(
        "script calls: arguments calling script functions, changing the first, failing",
        r#"
        fn pair(a, b) { [a, b] }
        fn fail(x) { throw `no: ${x}`; }
        fn deep(n) { if n == 0 { 0 } else { pair(n, deep(n - 1))[0] + deep(n - 1) } }
        fn nested() { let a = 1; pair(pair(a, 2), pair(a, pair(3, a))) }
        fn first_read_last() { let a = 1; pair(a, { a = 5; a + 1 }) }
        fn taken() { let a = [1]; a = pair(a, { a.push(2); a.len() }); a }
        fn failing() { let a = 1; pair(a, fail(a)) }
        fn param(a) { pair(a, { a += 1; a }) }
        "#,
        &[
            ("deep", "[4]"),
            ("nested", "[]"),
            ("first_read_last", "[]"),
            ("taken", "[]"),
            ("failing", "[]"),
            ("param", "[7]"),
        ],
    )]);
}

#[test]
fn short_chains_agree() {
    assert_agree(&[api(
        "x.p, x.p = v and x.p.f(…) on constants and variables",
        r#"
        fn assign() { const m = #{ g: grid(1, 1) }; m.a = 2; m }
        fn op() { let m = #{ a: 1 }; m.a += 2; m.a *= 5; m }
        fn method() { const m = #{ g: grid(2, 2) }; m.g.set(cell(0, 0), 1); m.g.get(cell(0, 0)) }
        fn read() { const m = #{ a: 1 }; m.a + m.b.len() }
        fn missing() { let m = #{ a: 1 }; m.b = 5; m.c.get(cell(0, 0)) }
        fn not_map() { let g = grid(2, 2); g.width + g.get(cell(1, 1)) }
        fn too_big() { let m = #{ a: [] }; let big = []; big.pad(60000, 0); m.b = big; m.c = big; m }
        "#,
        &[
            ("assign", "[]"),
            ("op", "[]"),
            ("method", "[]"),
            ("read", "[]"),
            ("missing", "[]"),
            ("not_map", "[]"),
            ("too_big", "[]"),
        ],
    )]);
}

#[test]
fn loops_over_arrays_and_appends_agree() {
    assert_agree(&[all(
        "a loop over an array the body may change or not, over a constant's, and +=",
        r#"
        const D = [[0, 1], [1, 0]];
        fn reads() { let a = [[1], [2]]; let t = 0; for e in a { t += e[0] + a.len(); } t }
        fn pushes() { let a = [1, 2]; let n = 0; for e in a { a.push(e); n += 1; } [n, a] }
        fn assigns() { let a = [1, 2, 3]; let n = 0; for e in a { a = [9]; n += e; } [n, a] }
        fn by_ref() { let a = [1, 2]; let n = 0; for e in a { push(a, 5); n += 1; } [n, a] }
        fn appends_inside() { let a = [1, 2]; for e in a { a += [e]; } a }
        fn in_rhai() {
            let a = [1, 2]; let n = 0;
            for e in a { switch e { 1 => a.push(7), _ => () } n += 1; }
            [n, a]
        }
        fn nested() { let a = [[1, 2], [3]]; let t = 0; for r in a { for e in r { t += e; } } t }
        fn constant() { let t = 0; for d in D { t += d[0] * 10 + d[1]; } t }
        fn changes_constant() { D.push([5, 5]); let n = 0; for d in D { n += 1; } n }
        fn appends() {
            let a = []; a += [1, 2]; a += [];
            let b = [0]; b += a; b += [[3]]; b.push(4);
            [a, b, b.len]
        }
        fn append_too_big() { let a = []; a.pad(99999, 0); a += [1, 2]; a += [3]; 0 }
        "#,
        &[
            ("reads", "[]"),
            ("pushes", "[]"),
            ("assigns", "[]"),
            ("by_ref", "[]"),
            ("appends_inside", "[]"),
            ("in_rhai", "[]"),
            ("nested", "[]"),
            ("constant", "[]"),
            ("changes_constant", "[]"),
            ("appends", "[]"),
            ("append_too_big", "[]"),
        ],
    )]);
}

#[test]
fn rhais_array_length_push_and_string_equality_agree() {
    assert_agree(&[all(
        "len, is_empty, push and == on strings, done in place",
        r#"
        fn t() {
            let a = [];
            a.push(1); a.push("x"); a.push([2]); push(a, 3);
            [a.len, a.len(), len(a), a.is_empty, a.is_empty(), [].is_empty(), a]
        }
        fn strings(x) { [x == "ab", x != "ab", "a" + "b" == x, x == 1, x != ()] }
        fn constant() { const C = [1]; C.push(2); C }
        fn too_big() { let a = []; a.pad(99999, 0); a.push(1); a.push(2); a.len }
        fn nested() { let m = #{ list: [] }; m.list.push(1); m.list.len }
        "#,
        &[
            ("t", "[]"),
            ("strings", "[\"ab\"]"),
            ("strings", "[\"b\"]"),
            ("constant", "[]"),
            ("too_big", "[]"),
            ("nested", "[]"),
        ],
    )]);
}

#[test]
fn lists_passed_to_a_native_taking_them_agree() {
    assert_agree(&[Case {
        with_api: true,
        ..part(
        "r.pick(g.cells_with(v)) and the like: a compact list where pick takes one, else an array",
        r#"
        fn local() {
            let g = grid(5, 5); g.set(cell(1, 1), 1); let r = rng(7);
            let a = r.pick(g.cells_with(0)); let b = r.pick(g.cells_with(1));
            [a.x, a.y, b.x, b.y, r.int(100)]
        }
        fn in_state() {
            let s = #{ board: grid(4, 4), rng: rng(3) };
            let c = s.rng.pick(s.board.cells_with(0)); s.board.set(c, 1);
            let d = s.rng.pick(s.board.cells_with(0));
            [c.x, c.y, d.x, d.y, s.board.count(1), s.rng.int(9)]
        }
        fn pairs() {
            let g = grid(3, 3); g.set(cell(0, 0), 1); g.set(cell(2, 2), 1); let r = rng(5);
            let p = r.pick(g.reachable_pairs(0));
            [p[0].x, p[0].y, p[1].x, p[1].y]
        }
        fn pits() { let t = track(6, 1); t.set(2, 0); let r = rng(2); r.pick(t.pits_with_seeds(0)) }
        fn empty() { let r = rng(1); let g = grid(2, 2); r.pick(g.cells_with(5)) }
        fn not_an_rng() { let a = [1, 2]; let g = grid(2, 2); a.pick(g.cells_with(0)) }
        fn a_map_method() { let m = #{ pick: |l| l.len() }; let g = grid(3, 3); m.pick(g.cells_with(0)) }
        fn too_big() { let r = rng(1); let g = grid(400, 300); r.pick(g.cells_with(0)) }
        fn constant() { const R = rng(4); let g = grid(3, 3); let c = R.pick(g.cells_with(0)); [c.x, c.y, R.int(50)] }
        "#,
        &[
            ("local", "[]"),
            ("in_state", "[]"),
            ("pairs", "[]"),
            ("pits", "[]"),
            ("empty", "[]"),
            ("not_an_rng", "[]"),
            ("a_map_method", "[]"),
            ("too_big", "[]"),
            ("constant", "[]"),
        ],
    )
    }]);
}

#[test]
fn a_sizeless_property_replacing_another_agrees() {
    assert_agree(&[api(
        "properties that hold no size (integers, (), cells) replaced, and the sizes after",
        r#"
        fn t() {
            let s = #{ n: 1, last: (), c: cell(0, 0), list: [1] };
            s.n = 2; s.last = cell(1, 1); s.c = (); s.n += 5; s.last = 3;
            s.list = 4; s.n = "text"; s.n = 7;
            s
        }
        fn grow() {
            let s = #{ n: 1 }; let big = []; big.pad(60000, 0);
            s.n = big; s.m = 1; s.m = 2; s.k = big;
            s.m
        }
        "#,
        &[("t", "[]"), ("grow", "[]")],
    )]);
}

#[test]
fn closures_as_break_values_are_left_to_rhai() {
    // Rhai's own walk of a function does not enter a `break`'s value: a closure there, sharing
    // a variable, once crashed the walker ("shared values discovered within data") or gave
    // the value the variable had when the closure was made.
    assert_agree(&[
        part(
            "in try",
            r#"fn t() { let v = 1; try { loop { break || v; } } catch {} [v] }"#,
            T,
        ),
        part(
            "in a switch arm",
            r#"fn t(x) { let v = 1; let r = switch x { 1 => loop { break || v; }, _ => 0 }; v = 10; [v, r.call()] }"#,
            &[("t", "[1]"), ("t", "[2]")],
        ),
        part(
            "in interpolation",
            r#"fn t() { let v = 1; let s = `${loop { break || v; }}`; v = 10; [v, s] }"#,
            T,
        ),
        part(
            "called after the variable changed",
            r#"fn t() { let v = 1; let f = 0; try { f = loop { break || v; }; } catch { 0 } v = 10; f.call() }"#,
            T,
        ),
    ]);
}

#[test]
fn calls_in_the_callers_scope_agree() {
    // Rhai's tests of `f!()`: the function sees its caller's variables.
    assert_agree(&[
        part(
            "reading the caller's variables",
            r#"fn foo() { hello + bar } fn t() { let hello = 42; let bar = 123; foo!() }"#,
            T,
        ),
        part(
            "changing them",
            r#"fn foo() { hello = 0; hello + bar } fn t() { let hello = 42; let bar = 123; [foo!(), hello] }"#,
            T,
        ),
        part(
            "shadowing them",
            r#"fn foo() { let hello = bar + 42; hello } fn t() { let bar = 999; let hello = 123; [foo!(), hello] }"#,
            T,
        ),
        part(
            "with arguments",
            r#"fn foo(y) { x += y; x } fn t() { let x = 41; let y = 999; foo!(1) + x }"#,
            T,
        ),
    ]);
}

#[test]
fn an_index_out_of_bounds_is_reported_where_rhai_reports_it() {
    assert_agree(&[all(
        "indexes past the end",
        r#"fn t() { let a = [1, 2]; a[a.len()] }
           fn u() { let a = [1, 2]; let i = 5; a[i] }
           fn w() { let m = #{a: [1]}; m.a[1 + 2] }
           fn x() { let a = [[1]]; a[0][(2)] }"#,
        &[("t", "[]"), ("u", "[]"), ("w", "[]"), ("x", "[]")],
    )]);
}

#[test]
fn arguments_are_evaluated_in_rhais_order() {
    // Rhai evaluates a call's other arguments before it looks up a variable passed first.
    assert_agree(&[
        part(
            "a missing variable passed first",
            r#"fn t() { max(nope, 1 / 0) } fn u() { foo(nope, 1 / 0) } fn foo(a, b) { a }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
        all(
            "a local passed first, changed by another argument",
            r#"fn t() { let x = 1; max(x, { x = 5; 2 }) }
               fn u() { let a = [1]; push(a, { a = [7]; 3 }); a }"#,
            &[("t", "[]"), ("u", "[]")],
        ),
    ]);
}

/// Operations `name(args)` counts through the walker (`fast`) or Rhai.
fn operations(both: &Both, fast: bool, name: &str, args: &Array) -> u64 {
    let caller = if fast { &both.fast } else { &both.slow };
    let _ = both.call(caller, name, args);
    crate::script::game::caller::OPERATIONS.get()
}

/// Asserts that every call of `cases` counts as many operations in the walker as in Rhai.
fn assert_same_operations(cases: &[Case]) {
    let mut found = Vec::new();
    for case in cases {
        let both = load(case.script, case.with_api, None);
        for (function, args) in case.calls {
            let args: Array = both.engine.eval(args).unwrap();
            let fast = operations(&both, true, function, &args);
            let slow = operations(&both, false, function, &args);
            if fast != slow {
                found.push(format!(
                    "{}: {function}({args:?}): walker {fast}, Rhai {slow}",
                    case.name
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn operations_around_switch_try_and_calls_are_counted_as_rhai_counts_them() {
    assert_same_operations(&[
        all(
            "switch",
            r#"fn t(x) { switch x { 1 => 10, 2 if x > 0 => 20, 3..5 => 30, _ => 0 } }
               fn u(x) { let y = switch x { 1 => { let z = 2; z * 2 }, _ => { 5 } }; y + 1 }"#,
            &[
                ("t", "[1]"),
                ("t", "[2]"),
                ("t", "[4]"),
                ("t", "[9]"),
                ("u", "[1]"),
                ("u", "[3]"),
            ],
        ),
        all(
            "try",
            r#"fn t() { try { throw 1 } catch (e) { e } }
               fn u() { let a = 0; try { a = 1 / 0; } catch { a = 2; } a }
               fn w() { let a = 0; try { a += 1; } catch { a = 2; } a }"#,
            &[("t", "[]"), ("u", "[]"), ("w", "[]")],
        ),
        all(
            "calls as statements",
            r#"fn t(n) { n + 1 } fn u(n) { n + 1; } fn w(n) { g(n); g(n) } fn g(n) { n * 2 }
               fn y(n) { ; n }"#,
            &[("t", "[1]"), ("u", "[1]"), ("w", "[1]"), ("y", "[1]")],
        ),
    ]);
}

#[test]
fn operations_in_loops_chains_and_methods_are_counted_as_rhai_counts_them() {
    assert_same_operations(&[
        all(
            "loops",
            r#"fn t() { let x = 0; loop { x += 1; if x > 3 { break; } } x }
               fn u() { let x = 0; for i in 0..4 { x += i; } for i in 0..3 {} x }
               fn w() { let x = 0; do { x += 1; } while x < 3; do {} until true; x }
               fn y() { let n = 0; while n < 3 { n += 1; } while n < 5 { n += 1; continue; } n }
               fn z() { let s = 0; for (v, i) in [4, 5, 6] { if i == 1 { continue; } s += v; } s }"#,
            &[
                ("t", "[]"),
                ("u", "[]"),
                ("w", "[]"),
                ("y", "[]"),
                ("z", "[]"),
            ],
        ),
        all(
            "chains",
            r#"fn t(n) { let m = #{a: [1, 2], b: #{c: 3}}; m.a[0] += n; m.a[1] = n; m.b.c += n; m }
               fn u(n) { let m = #{a: [1, 2], b: #{c: 3}}; let x = m.a[1] + m.b.c; x + m.a.len() }
               fn w(n) { let arr = [[1], [2, 3]]; arr[1][0] += n; arr[0].push(n); arr }
               fn y(n) { let m = #{a: [1, 2]}; m.a.push(n); m["a"][0] = n; m }
               fn z(n) { let arr = [1, 2, 3]; arr[n] }"#,
            &[
                ("t", "[2]"),
                ("u", "[2]"),
                ("w", "[2]"),
                ("y", "[2]"),
                ("z", "[1]"),
                ("z", "[3]"),
                ("z", "[-1]"),
            ],
        ),
        all(
            "constant arguments and chains on values",
            r#"fn t(n) { let a = [1, 2, 3, 4]; a.extract(1..3).len() + a.index_of(n) }
               fn u(n) { let s = "hello"; s.sub_string(1..n).len() + s.sub_string(1, 2).len() }
               fn w(n) { let a = [[1, 2], [3]]; a.contains([3]) && [n, 1][0] > 0 }
               fn y(n) { mk(n).len() + mk(n)[0] } fn mk(n) { [n, n + 1] }"#,
            &[("t", "[2]"), ("u", "[3]"), ("w", "[2]"), ("y", "[4]")],
        ),
        part(
            "this methods",
            r#"fn inc(n) { this += n; this } fn get() { this.a }
               fn t(n) { let x = 1; x.inc(n); x.inc(n) + x }
               fn u(n) { let m = #{a: n}; m.get() + n }"#,
            &[("t", "[2]"), ("u", "[2]")],
        ),
    ]);
}

mod arrays;
mod calls;
mod cells;
mod closures;
mod compared;
mod constants;
mod differential;
mod items;
mod jumps;
mod junctions;
mod memo;
mod pairs;
mod pointers;
mod profile;
mod reads;
mod reports;
