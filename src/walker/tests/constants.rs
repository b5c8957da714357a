//! Which script constants a host call reads in the host's scope: only those on which something
//! Rhai runs may call a native method (which changes the constant there for the calls after);
//! the others are read from the values the script loaded with, without a search by name.

use rhai::{Caches, Dynamic, Scope};

use super::{super::run::Runner, api, assert_agree, sandbox, Case, NativeTable, Program};

/// Constants changed by methods Rhai runs (a node left to it, a function it runs whole, a
/// chain on a constant it finishes), read after by the walker: the same values both ways. The
/// functions changing them come after those reading them, so the lowering of the readers
/// cannot know of the changes yet.
#[test]
fn constants_changed_by_rhai_are_seen_changed_by_the_walker() {
    assert_agree(&[Case {
        all_lowered: false,
        ..api(
            "constants changed by what Rhai runs, read by the walker",
            r#"const G = grid(2, 2);
               const H = grid(2, 2);
               const K = grid(2, 2);
               const L = grid(2, 2);
               const C = cell(0, 0);
               fn read() { let g = G; let h = H; let k = K; let l = L; [g, h, k, l].map(|b| b.get(C)) }
               fn in_switch() { switch 1 { 1 => G.set(C, 7), _ => () } }
               fn whole() { let n = 2; let f = || n; H.set(C, f.call()); }
               fn chain() { K.set(C, 5); }
               fn copy() { let l = L; l.set(C, 9); l.get(C) }"#,
            &[
                ("read", "[]"),
                ("in_switch", "[]"),
                ("read", "[]"),
                ("whole", "[]"),
                ("read", "[]"),
                ("chain", "[]"),
                ("read", "[]"),
                ("copy", "[]"),
                ("read", "[]"),
            ],
        )
    }]);
}

/// A call of `name()` in `program` by the walker, from the host, with `constants` as the host's
/// scope.
fn call(program: &Program, constants: &mut Scope<'static>, name: &str) -> String {
    let engine = sandbox::engine();
    let mut global = engine.new_global_runtime_state();
    let mut caches = Caches::new();
    let mut frames = Vec::new();
    let _call = sandbox::begin();
    let function = program.function(name, 0).expect("lowered");
    let natives = NativeTable::default();
    let mut runner = Runner::new(
        &engine,
        program,
        &natives,
        &mut global,
        &mut caches,
        constants,
        &mut frames,
        sandbox::progress,
    );
    format!("{:?}", runner.call(function, []).expect("no error"))
}

/// A constant nothing Rhai runs calls a method on is read from the value the script loaded
/// with, even when another constant is read in the host's scope: a host scope whose values
/// differ from the loaded ones shows which is read (nothing a script does can make them differ
/// for such a constant, nor costs a different number of operations).
#[test]
fn other_constants_are_read_from_the_loaded_values() {
    let engine = sandbox::engine();
    let ast = engine
        .compile(
            r#"fn a() { A }
               fn a_in_loop() { let n = 0; for x in A { n += x; } n }
               fn b() { B }
               fn change_b() { switch 1 { 1 => B.push(2), _ => () } }"#,
        )
        .unwrap();
    let mut loaded = Scope::new();
    loaded.push_constant("A", Dynamic::from_array(vec![1.into()]));
    loaded.push_constant("B", Dynamic::from_array(vec![1.into()]));
    let program = Program::new(&ast, &loaded, &NativeTable::default());
    let mut host = Scope::new();
    host.push_constant("A", Dynamic::from_array(vec![7.into()]));
    host.push_constant("B", Dynamic::from_array(vec![8.into()]));
    assert_eq!(call(&program, &mut host, "a"), "[1]");
    assert_eq!(call(&program, &mut host, "a_in_loop"), "1");
    assert_eq!(call(&program, &mut host, "b"), "[8]");
}
