//! Errors in rules scripts point at the right place and say what to do.

mod common;

use common::{boardrules_in, run};
use predicates::prelude::*;

#[test]
fn an_endless_play_is_reported_at_fn_play_not_fn_players() {
    let home = tempfile::tempdir().unwrap();
    boardrules_in(&home)
        .args(["run", "tests/fixtures/endless_play.rhai", "9h"])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("endless_play.rhai:4:1")
                .and(predicate::str::contains("fn play(state, mv)"))
                .and(predicate::str::contains("an endless loop?")),
        );
}

#[test]
fn a_data_race_is_explained() {
    let home = tempfile::tempdir().unwrap();
    boardrules_in(&home)
        .args(["moves", "tests/fixtures/data_race.rhai"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("data race on argument #1 of function 'filter'")
                .and(predicate::str::contains("a closure"))
                .and(predicate::str::contains("Copy what the closure needs")),
        );
}

#[test]
fn a_base_imported_under_another_alias_gives_one_error_with_the_fix() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(&home, &["check", "tests/fixtures/wrong_alias.rhai"], "");
    let err = ran.stderr;
    assert_eq!(ran.code, 1);
    assert_eq!(err.matches("Error:").count(), 1, "{err}");
    assert!(err.contains("`import \"caro\" as caro`"), "{err}");
    assert!(err.contains("wrong_alias.rhai:2:18"), "{err}");
    assert!(err.contains("write `import \"caro\" as base;`"), "{err}");
}

#[test]
fn a_misspelt_primitive_is_reported_with_the_name_meant() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(
        &home,
        &["moves", "tests/fixtures/misspelt_primitive.rhai"],
        "",
    );
    assert_eq!(ran.code, 1);
    let err = ran.stderr;
    assert!(err.contains("Function not found: cels_with"), "{err}");
    assert!(err.contains("did you mean `cells_with`?"), "{err}");
    assert!(err.contains("misspelt_primitive.rhai:5:"), "{err}");
}

#[test]
fn a_missing_closing_brace_is_reported_at_the_function_that_lacks_it() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(&home, &["check", "tests/fixtures/unclosed_fn.rhai"], "");
    assert_eq!(ran.code, 1);
    let err = ran.stderr;
    assert!(err.contains("`fn moves` is never closed"), "{err}");
    assert!(err.contains("unclosed_fn.rhai:4:17"), "{err}");
    assert!(err.contains("this `{` is never closed"), "{err}");
    assert_eq!(err.matches("Error:").count(), 1, "{err}");
}
