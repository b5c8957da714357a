//! Every trace file under tests/traces replays without a mismatch.

use std::path::{Path, PathBuf};

use boardrules::{script::Library, trace};

fn trace_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            trace_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "trace") {
            out.push(path);
        }
    }
}

#[test]
fn golden_traces_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    trace_files(&root.join("tests/traces"), &mut files);
    assert!(
        files.len() >= 15,
        "expected the golden traces, found {}",
        files.len()
    );
    let library = Library::with_rules_dir(root.join("rules"));
    let mut failures = Vec::new();
    for file in &files {
        let report = trace::run_file(&library, file, false);
        assert!(report.checks > 0, "{} checks nothing", file.display());
        if !report.passed() {
            failures.push(format!(
                "{}:\n{}",
                file.display(),
                report.failures.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_wrong_expectation_fails_with_a_diff() {
    let library = Library::with_rules_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"));
    let text = "game: caro\noption: size=5\n> 3c\n   a b c d e\n 5 . . . . .   5\n";
    let report = trace::run_text(&library, "t.trace", text, false);
    assert!(!report.passed());
    let all = report.failures.join("\n");
    assert!(
        all.contains("the rendering after move '3c' differs"),
        "{all}"
    );
    assert!(all.contains("+  3 . .[X]. .   3"), "{all}");

    let wrong_result = "game: caro\n> 9h\nresult: X wins\n";
    let report = trace::run_text(&library, "t.trace", wrong_result, false);
    assert!(report
        .failures
        .join("\n")
        .contains("expected 'X wins', got 'none'"));

    let accepted = "game: caro\n> 9h\nerror: taken\n";
    assert!(!trace::run_text(&library, "t.trace", accepted, false).passed());
}
