//! `boardrules analyze`: its numbers on games whose answer is known, its chart, and its errors.

mod common;

use common::boardrules;

const GAME: &str = "tests/fixtures/first_wins.rhai";

fn analyze(args: &[&str]) -> String {
    let out = boardrules()
        .arg("analyze")
        .arg(GAME)
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8 output")
}

/// The cells of the report's row `name`, one per variant.
fn row(report: &str, name: &str) -> Vec<String> {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("no row {name} in\n{report}"));
    line.split('|')
        .skip(2)
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The interval `[lo, hi]` of a win-rate cell, in percent.
fn interval(cell: &str) -> (f64, f64) {
    let inside = cell.split('[').nth(1).unwrap().trim_end_matches(']');
    let (lo, hi) = inside.split_once(", ").unwrap();
    (lo.parse().unwrap(), hi.parse().unwrap())
}

#[test]
fn a_first_move_win_is_always_the_first_players() {
    let report = analyze(&["--games", "60", "--jobs", "2", "--seed", "5"]);
    assert_eq!(row(&report, "games"), ["60"]);
    let rate = &row(&report, "first player wins (95 % CI)")[0];
    assert!(rate.starts_with("100.0 %"), "{rate}");
    let (lo, hi) = interval(rate);
    assert!(lo > 90.0 && hi == 100.0, "{rate}");
    assert_eq!(row(&report, "draws"), ["0.0 %"]);
    assert_eq!(row(&report, "mean length (plies)"), ["1.0"]);
    assert_eq!(row(&report, "mean branching factor"), ["3.0"]);
    assert_eq!(row(&report, "decisive-move share"), ["100.0 %"]);
}

#[test]
fn a_script_that_recurses_deep_in_rhai_runs_on_the_game_threads() {
    // 58 calls deep through 20-deep expressions: the 2 MiB a spawned thread has by default
    // overflowed (the process aborted); the game threads have the main thread's stack.
    let out = boardrules()
        .args(["analyze", "tests/fixtures/deep_recursion.rhai"])
        .args(["--games", "4", "--jobs", "2", "--seed", "1"])
        .assert()
        .success();
    let report = String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8 output");
    assert_eq!(row(&report, "games"), ["4"]);
}

#[test]
fn a_draw_only_variant_side_by_side_differs_significantly() {
    let report = analyze(&["--games", "40", "--compare", "draw=true", "--seed", "1"]);
    assert_eq!(row(&report, "draws"), ["0.0 %", "100.0 %"]);
    let rate = row(&report, "first player wins (95 % CI)");
    assert!(rate[1].starts_with("0.0 % [0.0, "), "{rate:?}");
    assert_eq!(row(&report, "mean length (plies)"), ["1.0", "4.0"]);
    assert_eq!(row(&report, "decisive-move share"), ["100.0 %", "0.0 %"]);
    let test = &row(&report, "first-player wins vs the first column")[1];
    assert!(
        test.contains("(significant)") && test.contains("p = 0.000"),
        "{test}"
    );
    // The length histogram: every game of the first variant is 1 ply, of the second 4.
    assert!(
        report.contains("| 1 | ████████████████████ 40 | 0 |"),
        "{report}"
    );
}

#[test]
fn the_report_does_not_depend_on_the_number_of_jobs() {
    let args = ["--games", "12", "--compare", "-o draw=true", "--seed", "9"];
    let one = analyze(&[&args[..], &["--jobs", "1"]].concat());
    let three = analyze(&[&args[..], &["--jobs", "3"]].concat());
    assert_eq!(one, three);
}

/// The texts of an SVG's `<text>` elements, with their font sizes.
fn texts(svg: &str) -> Vec<(String, f64)> {
    use svg::parser::Event;
    let mut out = Vec::new();
    let mut size = None;
    for event in svg::read(svg).unwrap() {
        match event {
            Event::Tag("text", svg::node::element::tag::Type::Start, attrs) => {
                size = attrs.get("font-size").map(|v| v.parse::<f64>().unwrap());
            }
            Event::Text(t) => {
                if let Some(s) = size.take() {
                    out.push((t.trim().to_string(), s));
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_chart_names_each_bar_shows_draws_and_reads_from_the_back_of_a_room() {
    let dir = tempfile::tempdir().unwrap();
    let (path, png) = (dir.path().join("lab.svg"), dir.path().join("lab.png"));
    analyze(&[
        "--games",
        "10",
        "--compare",
        "draw=true",
        "--svg",
        path.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--size",
        "1920x1080",
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
    assert!(tree.is_ok(), "the chart parses: {:?}", tree.err());
    let size = tree.unwrap().size();
    assert_eq!((size.width(), size.height()), (1920.0, 1080.0));
    let image = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&png).unwrap()).unwrap();
    assert_eq!((image.width(), image.height()), (1920, 1080));
    let texts = texts(&svg);
    let named = |name: &str| texts.iter().filter(|(t, _)| t == name).count();
    // Each variant's bar and line are named (the bar's label and the lengths' legend).
    assert_eq!(named("#1 tests/fixtures/first_wins.rhai"), 2, "{texts:?}");
    assert_eq!(named("#2 draw=true"), 2, "{texts:?}");
    // Draws have their part of each bar, in the legend.
    assert_eq!(named("draw"), 1, "{texts:?}");
    assert!(
        texts.iter().any(|(t, _)| t.contains("win rate"))
            && texts.iter().any(|(t, _)| t.contains("Game length"))
    );
    // Large type throughout: 20 px or more on a chart 1280 px wide.
    assert!(texts.iter().all(|&(_, s)| s >= 20.0), "{texts:?}");
    // The plies axis is ticked in whole numbers.
    let ticks: Vec<&String> = texts
        .iter()
        .map(|(t, _)| t)
        .filter(|t| t.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .collect();
    assert!(!ticks.is_empty());
    assert!(ticks.iter().all(|t| !t.contains('.')), "{ticks:?}");
}

#[test]
fn bad_options_and_variants_are_reported() {
    let err = |args: &[&str]| {
        let out = boardrules()
            .arg("analyze")
            .arg(GAME)
            .args(args)
            .assert()
            .failure();
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };
    let e = err(&["--compare", "nosuch=1"]);
    assert!(e.contains("bad option") && e.contains("nosuch"), "{e}");
    let e = err(&["--compare", "a.rhai b.rhai"]);
    assert!(
        e.contains("bad --compare") && e.contains("one variant script"),
        "{e}"
    );
    let e = err(&["--compare", "tests/fixtures/no_such_variant.rhai"]);
    assert!(e.contains("no_such_variant"), "{e}");
    let e = err(&["--games", "0"]);
    assert!(e.contains("--games must be at least 1"), "{e}");
    let e = err(&["--level", "godlike"]);
    assert!(e.contains("godlike"), "{e}");
    let e = err(&["-o", "draw=maybe"]);
    assert!(e.contains("bad option"), "{e}");
}
