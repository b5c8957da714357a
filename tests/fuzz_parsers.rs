//! Fuzzing every parser that reads what a user types or a file holds, with arbitrary text and
//! bytes (proptest): the trace format, the REPL's command line, saved games, and moves and
//! positions as the command line passes them to a game. None may panic, and every error must
//! render (ariadne, with its span inside the text). Each target runs a bounded number of cases —
//! `FUZZ_CASES` (default 256; scripted targets a quarter of it) — so CI time stays bounded; set
//! it higher for a longer campaign: `FUZZ_CASES=20000 cargo test --release --test fuzz_parsers`.

use boardrules::{
    diag::Diagnostic,
    driver::MoveList,
    game_args::PositionArgs,
    repl::{command, save},
    script::{Library, ScriptedGame},
    trace::syntax,
};
use proptest::prelude::*;

/// The number of cases of a cheap target.
fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// An error must render, and point inside its text.
fn renders(d: &Diagnostic) {
    if let Some(p) = &d.pointer {
        assert!(p.span.start <= p.span.end && p.span.end <= p.text.len());
        assert!(p.text.is_char_boundary(p.span.start) && p.text.is_char_boundary(p.span.end));
    }
    assert!(!d.render(false).is_empty());
}

/// Text that looks like the language being fuzzed: pieces of a real sample, cut, repeated and
/// mixed with arbitrary characters (plain arbitrary strings rarely get past the first token).
fn near(sample: &'static str) -> impl Strategy<Value = String> {
    let pieces: Vec<&'static str> = sample.split_inclusive([' ', '\n', ':']).collect();
    let piece = prop_oneof![
        4 => proptest::sample::select(pieces),
        1 => proptest::sample::select(vec!["\n", ":", " ", "\t", "é", "\u{202e}", "\u{1b}", "#", ">", "\r"]),
    ];
    prop_oneof![
        proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat()),
        any::<String>(),
    ]
}

const TRACE: &str = include_str!("traces/caro/edge.trace");

proptest! {
    #![proptest_config(config(cases()))]

    #[test]
    fn the_trace_parser_never_panics(text in near(TRACE)) {
        if let Err(d) = syntax::parse("fuzz.trace", &text) {
            renders(&d);
        }
    }

    #[test]
    fn the_repl_command_parser_never_panics(
        line in near("9h 10h\nundo 2\nredo\nsave g.toml\nload g.toml\nreplay @f.txt\nset exact=false\nvariant my.rhai\nhint hard\nvs easy\nclock 60\nhelp undo\n"),
    ) {
        if let Err(d) = command::parse(&line) {
            renders(&d);
        }
    }

    #[test]
    fn the_save_file_reader_never_panics(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..400),
            near("game = \"caro\"\nseed = 3\nmoves = [\"9h\", \"10h\"]\nchecksums = [\"00ff\"]\n[options]\nexact = false\n[clock]\nbudget_ms = 60000\nremaining_ms = [1, 2]\n")
                .prop_map(String::into_bytes),
        ],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        std::fs::write(&path, &bytes).unwrap();
        if let Err(d) = save::read(&path) {
            renders(&d);
        }
    }
}

thread_local! {
    /// Caro, loaded once per test thread for the scripted targets.
    static CARO: ScriptedGame = {
        let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
        ScriptedGame::load(&library, "caro").unwrap_or_else(|d| panic!("{}", d[0]))
    };
}

proptest! {
    #![proptest_config(config((cases() / 4).max(1)))]

    #[test]
    fn move_lists_from_the_command_line_never_panic(
        args in proptest::collection::vec(near("13n10n12n 8e 7k9f 9h 16a 0z x"), 0..4),
    ) {
        match CARO.with(|caro| MoveList::from_args(caro, &args)) {
            Ok(list) => {
                for (mv, span) in &list.moves {
                    prop_assert!(span.end <= list.text.len());
                    prop_assert!(!mv.is_empty());
                }
            }
            Err(d) => renders(&d),
        }
    }

    #[test]
    fn positions_from_the_command_line_never_panic(
        text in near(" a b c\n15 . X O . 15\n 9 . [X] . 9\n"),
        to_move in proptest::option::of(near("1 2 X O")),
    ) {
        let args = PositionArgs { position: Some(text), to_move, cells: None };
        if let Err(ds) = CARO.with(|caro| args.start(caro)) {
            ds.iter().for_each(renders);
        }
    }
}
