//! `boardrules tournament`: a round robin of the example bots with their faults reported; a
//! tournament killed with `kill -9` resumes without playing a game twice and ends with the
//! standings of an uninterrupted run; two shards merged give the standings of one run; a bad
//! journal line gets a clear message.

mod common;
use common::run;
use std::{collections::HashSet, path::Path, sync::OnceLock, time::Duration};

/// Deterministic bots: two that always play the first legal move, one that writes garbage and
/// one that crashes. Games are cut at 20 plies.
const BOTS: [&str; 8] = [
    "--bot",
    "a=examples/bots/first_bot.sh",
    "--bot",
    "b=examples/bots/first_bot.sh",
    "--bot",
    "garbage=examples/bots/garbage_bot.sh",
    "--bot",
    "crash=examples/bots/crash_bot.sh",
];

/// `tournament five_step` of [`BOTS`] with `extra` arguments, its journal in `out`.
fn args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tournament",
        "five_step",
        "--max-plies",
        "20",
        "--time-ms",
        "5000",
    ];
    args.extend(BOTS);
    args.extend(["--out", out]);
    args.extend(extra);
    args
}

/// The report of one uninterrupted run of the deterministic tournament (played once).
fn full_run() -> &'static str {
    static REPORT: OnceLock<String> = OnceLock::new();
    REPORT.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let out = home.path().join("full").display().to_string();
        let ran = run(&home, &args(&out, &["--jobs", "2"]), "");
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        ran.stdout
    })
}

/// The game numbers of a journal, each once.
fn games_in(journal: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(journal).unwrap();
    let games: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    let unique: HashSet<&u64> = games.iter().collect();
    assert_eq!(
        unique.len(),
        games.len(),
        "a game was played twice: {games:?}"
    );
    games
}

/// The line of the faults table for `bot`: its timeouts, illegal moves and crashes.
fn faults(report: &str, bot: &str) -> [usize; 3] {
    let line = report
        .lines()
        .skip_while(|l| *l != "## Faults")
        .find(|l| l.starts_with(&format!("| {bot} |")))
        .unwrap_or_else(|| panic!("no faults for {bot} in\n{report}"));
    let n: Vec<usize> = line
        .split('|')
        .skip(2)
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    [n[0], n[1], n[2]]
}

#[test]
fn the_example_bots_play_a_round_robin_and_their_faults_are_reported() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    let ran = run(
        &home,
        &[
            "tournament",
            "five_step",
            "--bot",
            "rnd=examples/bots/random_bot.sh",
            "--bot",
            "bb=examples/bots/boardrules_bot.sh --time-ms 50",
            "--bot",
            "garbage=examples/bots/garbage_bot.sh",
            "--bot",
            "slow=examples/bots/slow_bot.sh",
            "--bot",
            "crash=examples/bots/crash_bot.sh",
            "--time-ms",
            "1500",
            "--max-plies",
            "30",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report = &ran.stdout;
    assert!(
        report.starts_with("# five_step tournament: 20 games, 5 bots"),
        "{report}"
    );
    let [t, i, c] = faults(report, "slow");
    assert!(t > 0 && i == 0 && c == 0, "{report}");
    let [t, i, c] = faults(report, "garbage");
    assert!(t == 0 && i > 0 && c == 0, "{report}");
    let [t, i, c] = faults(report, "crash");
    assert!(t == 0 && i == 0 && c > 0, "{report}");
    assert!(
        report.contains("| crash_bot: out of cheese"),
        "its stderr: {report}"
    );
    assert!(report.contains("played 'hello referee'"), "{report}");
    // The bots that never fault beat the ones that always do.
    let rank = |bot: &str| report.find(&format!("| {bot} |")).unwrap();
    assert!(
        rank("rnd") < rank("slow") && rank("bb") < rank("crash"),
        "{report}"
    );
    assert_eq!(games_in(&out.join("journal.jsonl")).len(), 20);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("crash_bot: out of cheese") && page.contains("<table>"));
}

#[test]
fn a_killed_tournament_resumes_without_playing_a_game_twice() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    let journal = out.join("journal.jsonl");
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, home.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args(out.to_str().unwrap(), &["--jobs", "1"]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let lines = || std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
    let start = std::time::Instant::now();
    while lines() < 3 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = games_in(&journal);
    assert!(before.len() >= 3 && before.len() < 12, "{before:?}");
    // What a crash in the middle of a write leaves: a cut-short last line.
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"game\":11,\"rules\":\"five_");
    std::fs::write(&journal, text).unwrap();

    let ran = run(&home, &args(out.to_str().unwrap(), &["--resume"]), "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stderr.contains("cut short"), "{}", ran.stderr);
    let after = games_in(&journal);
    assert_eq!(after.len(), 12);
    assert_eq!(
        after[..before.len()],
        before[..],
        "the games already played were kept"
    );
    assert_eq!(ran.stdout, full_run());

    // Resuming a finished tournament plays nothing and prints the same standings.
    let again = run(&home, &args(out.to_str().unwrap(), &["--resume"]), "");
    assert_eq!((again.code, again.stdout.as_str()), (0, full_run()));
    assert_eq!(games_in(&journal).len(), 12);
}

#[test]
fn two_shards_merged_give_the_standings_of_one_run() {
    let home = tempfile::tempdir().unwrap();
    let mut journals = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = home.path().join(shard.replace('/', "-of-"));
        let ran = run(&home, &args(out.to_str().unwrap(), &["--shard", shard]), "");
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        assert_eq!(games_in(&out.join("journal.jsonl")).len(), 6);
        journals.push(out.join("journal.jsonl").display().to_string());
    }
    let mut merge = vec!["tournament", "merge"];
    merge.extend(journals.iter().map(String::as_str));
    let ran = run(&home, &merge, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.stdout, full_run());

    // The same journal twice is refused: its games would count twice.
    let twice = run(
        &home,
        &["tournament", "merge", &journals[0], &journals[0]],
        "",
    );
    assert_eq!(twice.code, 1);
    assert!(twice.stderr.contains("is in both"), "{}", twice.stderr);
}

#[test]
fn a_bad_journal_line_gets_a_clear_message() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    std::fs::create_dir_all(&out).unwrap();
    let journal = out.join("journal.jsonl");
    let good = r#"{"game":0,"rules":"five_step","players":["a","b"],"seed":0,"result":"1-0","reason":"r","moves":[]}"#;
    std::fs::write(&journal, format!("{good}\n{{\"game\":\"two\"}}\n")).unwrap();
    for command in [
        vec!["tournament", "merge", journal.to_str().unwrap()],
        args(out.to_str().unwrap(), &["--resume"]),
    ] {
        let ran = run(&home, &command, "");
        assert_eq!(ran.code, 1, "{command:?}: {}", ran.stdout);
        assert!(
            ran.stderr.contains("has a line that is not a game"),
            "{}",
            ran.stderr
        );
        assert!(
            ran.stderr.contains("journal.jsonl:2:"),
            "the line: {}",
            ran.stderr
        );
        assert!(ran.stderr.contains("invalid type"), "{}", ran.stderr);
        assert!(!ran.stderr.contains("panicked"), "{}", ran.stderr);
    }
    // Without --resume an existing journal is not touched.
    let ran = run(&home, &args(out.to_str().unwrap(), &[]), "");
    assert_eq!(ran.code, 1);
    assert!(ran.stderr.contains("--resume"), "{}", ran.stderr);
    // A journal of other bots is refused, not mixed in.
    std::fs::write(&journal, format!("{}\n", good.replace("\"b\"", "\"zed\""))).unwrap();
    let ran = run(&home, &args(out.to_str().unwrap(), &["--resume"]), "");
    assert_eq!(ran.code, 1);
    assert!(
        ran.stderr.contains("journal of another tournament"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_bot_name_outside_the_allowed_characters_is_refused_not_run() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    let ran = run(
        &home,
        &[
            "tournament",
            "five_step",
            "--bot",
            "my bot=examples/bots/first_bot.sh",
            "--bot",
            "b=builtin:easy",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("'my bot' is not a bot name"),
        "{}",
        ran.stderr
    );
    assert!(!out.join("journal.jsonl").exists());
}

#[test]
#[cfg(unix)]
fn the_page_is_written_as_saves_are_and_its_place_is_printed() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    let args = |out: &Path| {
        vec![
            "tournament".to_string(),
            "five_step".into(),
            "--max-plies".into(),
            "4".into(),
            "--bot".into(),
            "a=builtin:easy".into(),
            "--bot".into(),
            "b=builtin:easy".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let argv = args(&out);
    let ran = run(
        &home,
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let page = std::fs::canonicalize(out.join("index.html")).unwrap();
    assert!(
        ran.stderr
            .contains(&format!("the report page: {}\n", page.display())),
        "{}",
        ran.stderr
    );
    // a symlink as index.html is not followed: the file it points to stays as it was
    let other = home.path().join("t2");
    std::fs::create_dir(&other).unwrap();
    let target = home.path().join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, other.join("index.html")).unwrap();
    let argv = args(&other);
    let ran = run(
        &home,
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("cannot write the report page"),
        "{}",
        ran.stderr
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}

/// The boards of a replay on the page, rebuilt as the page's script rebuilds them: the first
/// board's lines, then for each move its edits (keep n lines, drop n lines, insert lines).
fn replayed(frames: &serde_json::Value) -> Vec<String> {
    let mut lines: Vec<String> = serde_json::from_value(frames["first"].clone()).unwrap();
    let mut boards = vec![lines.join("\n")];
    for step in frames["steps"].as_array().unwrap() {
        let mut next = Vec::new();
        let mut at = 0usize;
        for op in step.as_array().unwrap() {
            match op.as_i64() {
                Some(n) if n > 0 => next.extend_from_slice(&lines[at..at + n as usize]),
                Some(_) => {}
                None => next.extend(
                    op.as_array()
                        .unwrap()
                        .iter()
                        .map(|l| l.as_str().unwrap().to_string()),
                ),
            }
            at += op.as_i64().map_or(0, |n| n.unsigned_abs() as usize);
        }
        lines = next;
        boards.push(lines.join("\n"));
    }
    boards
}

#[test]
fn the_page_lists_every_game_with_a_replay_of_its_boards() {
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("t");
    let out_text = out.display().to_string();
    let ran = run(
        &home,
        &[
            "tournament",
            "five_step",
            "--max-plies",
            "6",
            "--bot",
            "a=builtin:easy",
            "--bot",
            "b=builtin:easy",
            "--games-per-pair",
            "2",
            "--out",
            &out_text,
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let mut games = 0;
    for line in journal.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        let n = entry["game"].as_u64().unwrap() + 1;
        let moves: Vec<String> = serde_json::from_value(entry["moves"].clone()).unwrap();
        assert!(
            page.contains(&format!("<section class=\"game\" id=\"game-{n}\">")),
            "{page}"
        );
        let start = format!("<script type=\"application/json\" id=\"frames-{n}\">");
        let json = page
            .split(&start)
            .nth(1)
            .expect("the game's boards")
            .split("</script>")
            .next()
            .unwrap();
        let boards = replayed(&serde_json::from_str(json).unwrap());
        assert_eq!(
            boards.len(),
            moves.len() + 1,
            "the start and a board after each move"
        );
        // The last board is the picture `boardrules picture` draws after the game's moves.
        let dir = tempfile::tempdir().unwrap();
        let svg = dir.path().join("last.svg");
        let mut args = vec!["picture".to_string(), "five_step".into()];
        args.extend(moves.iter().cloned());
        args.extend(["--svg".to_string(), svg.display().to_string()]);
        let drawn = run(
            &home,
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            "",
        );
        assert_eq!(drawn.code, 0, "{}", drawn.stderr);
        assert_eq!(
            boards.last().unwrap(),
            &std::fs::read_to_string(&svg).unwrap()
        );
        games += 1;
    }
    assert_eq!(games, 2);
    assert!(
        page.contains("class=\"next\""),
        "a button steps through the moves"
    );
    assert!(
        !page.contains("src=\"http"),
        "nothing is loaded from elsewhere"
    );
}
