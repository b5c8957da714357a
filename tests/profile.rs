//! `boardrules profile`: the hot function and line of a small script, what Rhai runs, the
//! primitive that fits, as text and as JSON.

mod common;

use common::run;

const SCRIPT: &str = "tests/fixtures/profile_hot.rhai";

#[test]
fn the_json_names_the_hot_function_and_line() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(
        &home,
        &["profile", SCRIPT, "--seconds", "0.3", "--json"],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let profile: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert!(profile["playouts"].as_u64().unwrap() > 0, "{profile}");
    assert_eq!(profile["functions"][0]["name"], "busy", "{profile}");
    let top = &profile["lines"][0];
    assert_eq!(
        (&top["function"], &top["line"], &top["code"]),
        (
            &"busy".into(),
            &9.into(),
            &"let t = 0; for i in 0..300 { t += i; }".into()
        ),
        "{profile}"
    );
    // Every statement counts at least its own operation; the loop's statement runs 300 times
    // for each run of the line's first two.
    let runs = top["runs"].as_u64().unwrap();
    assert!(top["operations"].as_u64().unwrap() >= runs, "{top}");
    assert!(runs >= 300, "{top}");
    let shares: f64 = profile["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["share"].as_f64().unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-6, "{shares}");
    assert!(
        profile["rhai"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["function"] == "format_move"
                && r["line"] == 36
                && r["why"].as_str().unwrap().contains("string interpolation")),
        "{profile}"
    );
    assert!(
        profile["hints"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["function"] == "moves"
                && h["line"] == 21
                && h["primitive"] == "g.open_columns(EMPTY)"),
        "{profile}"
    );
}

#[test]
fn the_report_shows_the_hot_line_in_the_script() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(&home, &["profile", SCRIPT, "--seconds", "0.3"], "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let out = &ran.stdout;
    let functions = out.split("functions").nth(1).unwrap();
    let first = functions.lines().nth(2).unwrap();
    assert!(first.ends_with(" busy"), "{out}");
    assert!(out.contains("Advice: where the time goes"), "{out}");
    assert!(out.contains("profile_hot.rhai:9:5"), "{out}");
    assert!(
        out.contains("Advice: `g.open_columns(EMPTY)` fits a loop of `moves`"),
        "{out}"
    );
    assert!(out.contains("format_move: a node"), "{out}");
}

#[test]
fn a_bad_length_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(&home, &["profile", SCRIPT, "--seconds", "0"], "");
    assert_eq!(ran.code, 1);
    assert!(
        ran.stderr.contains("--seconds must be more than 0"),
        "{}",
        ran.stderr
    );
}
