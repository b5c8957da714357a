//! `boardrules check SCRIPT`: load a script, check the contract, try it on its start, and
//! property-test it with random games (see [`crate::check`]).

use std::{io::IsTerminal, process::ExitCode, time::Duration};

use indicatif::{ProgressBar, ProgressStyle};

use crate::{
    check::{
        self,
        report::{about, failure_report, smoke},
        Budget, Coverage,
    },
    diag::Diagnostic,
    game_args::GameArgs,
    runtime::Game,
    script::options::OptionSpec,
};

/// How long `check` plays random games when neither `--games` nor `--seconds` is given.
pub const DEFAULT_SECONDS: f64 = 3.0;

/// Loads `script`, runs a smoke test (start, render, parse the rendering back, list moves,
/// play the first one), then property-tests it with random games within `budget`. A failure
/// prints the report on stderr and a trace file reproducing it on stdout, and exits 1.
/// `options` are `-o KEY=VALUE` settings, applied before anything is tried.
pub fn run(script: &str, options: &[String], budget: Budget) -> Result<ExitCode, Vec<Diagnostic>> {
    Ok(if check_one(script, options, budget)? {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `check --options all`: the script with the options given, then with each option it declares
/// changed in turn (see [`spread`]), each checked as [`run`] checks, within the same budget. A
/// value the script refuses before a game starts (`setup` throws) is listed as not checked; the
/// first failure ends the check.
pub fn run_all(
    script: &str,
    options: &[String],
    budget: Budget,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let args = |options: Vec<String>| GameArgs {
        game: script.to_string(),
        options,
        seed: None,
    };
    let base = args(options.to_vec()).load()?;
    let mut settings = vec![options.to_vec()];
    for spec in base.options() {
        let now = base
            .option_values()
            .get(spec.name.as_str())
            .unwrap_or(&spec.default);
        for value in spread(spec, now) {
            let mut setting = options.to_vec();
            setting.push(format!("{}={value}", spec.name));
            settings.push(setting);
        }
    }
    let (mut checked, mut refused) = (0, 0);
    for setting in &settings {
        let shown = match setting.as_slice() {
            [] => "the defaults".to_string(),
            s => format!("-o {}", s.join(" -o ")),
        };
        println!("== {}", crate::terminal::clean(&shown));
        let started = args(setting.clone())
            .load()
            .and_then(|g| g.start().map(drop).map_err(|e| vec![g.describe(&e)]));
        if let Err(ds) = started {
            let why = ds.first().map(|d| d.message.clone()).unwrap_or_default();
            println!(
                "  not checked: the script refuses it at the start ({})",
                crate::terminal::clean(&why)
            );
            refused += 1;
            continue;
        }
        if !check_one(script, setting, budget)? {
            return Ok(ExitCode::FAILURE);
        }
        checked += 1;
    }
    println!(
        "== every option: {checked} settings checked, {refused} refused at the start by the script"
    );
    Ok(ExitCode::SUCCESS)
}

/// The values `--options all` tries for an option besides its value `now`: every choice it
/// declares, the other boolean, or for a number half, one less, one more and double (not
/// below 0 when it is not negative).
pub fn spread(spec: &OptionSpec, now: &rhai::Dynamic) -> Vec<String> {
    let mut values: Vec<String> = if !spec.choices.is_empty() {
        spec.choices.iter().map(|c| c.to_string()).collect()
    } else if let Ok(b) = now.as_bool() {
        vec![(!b).to_string()]
    } else if let Ok(n) = now.as_int() {
        [n / 2, n - 1, n + 1, n.saturating_mul(2)]
            .into_iter()
            .filter(|v| n < 0 || *v >= 0)
            .map(|v| v.to_string())
            .collect()
    } else if let Ok(x) = now.as_float() {
        vec![(x / 2.0).to_string(), (x * 2.0).to_string()]
    } else {
        Vec::new()
    };
    let now = now.to_string();
    values.retain(|v| *v != now);
    values.dedup();
    values
}

/// Checks the script with `options` as [`run`] says; whether every property held.
fn check_one(script: &str, options: &[String], budget: Budget) -> Result<bool, Vec<Diagnostic>> {
    let args = GameArgs {
        game: script.to_string(),
        options: options.to_vec(),
        seed: None,
    };
    let game = args.load()?;
    let moves = smoke(&game)?;
    let about = about(&game, moves);
    let bar = progress_bar(&budget);
    let tested = check::run(&game, budget, |seen| {
        bar.set_position(match budget.games {
            Some(_) => seen.games as u64,
            None => bar.elapsed().as_millis() as u64,
        });
        bar.set_message(format!(
            "{} games, {} positions",
            seen.games, seen.positions
        ));
    });
    bar.finish_and_clear();
    match tested {
        Ok(seen) => {
            println!("{about}");
            println!("{}", summary(&seen, &budget, bar.elapsed()));
            Ok(true)
        }
        Err(failure) => {
            crate::cli::report(&[failure_report(&game, &failure)]);
            let trace = check::trace_text(script, options, &failure, &budget);
            print!("{}", crate::terminal::clean(&trace));
            Ok(false)
        }
    }
}

/// A bar of games (with `--games`) or of milliseconds; hidden when stderr is not a terminal.
fn progress_bar(budget: &Budget) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (len, unit) = match (budget.games, budget.time) {
        (Some(n), _) => (n as u64, "games"),
        (None, Some(t)) => (t.as_millis() as u64, "ms"),
        (None, None) => (0, "games"),
    };
    let template = format!("{{bar:30}} {{pos}}/{{len}} {unit} {{msg}}");
    ProgressBar::new(len)
        .with_style(ProgressStyle::with_template(&template).expect("a valid template"))
}

fn summary(seen: &Coverage, budget: &Budget, took: Duration) -> String {
    let mut text = format!(
        "  random games: {} games, {} positions, {} listed moves played and round-tripped \
         (at most {} a position) in {:.1} s (seed {}): every property holds",
        seen.games,
        seen.positions,
        seen.moves,
        check::properties::MOVES_PER_POSITION,
        took.as_secs_f64(),
        budget.seed
    );
    if seen.cut_short > 0 {
        text += &format!(
            "\n  ({} of them cut short by the time limit or at 1000 moves)",
            seen.cut_short
        );
    }
    if let Some(time) = budget
        .time
        .filter(|_| budget.floor && !seen.reached_floor())
    {
        text += &format!(
            "\n  (fewer than the {} games or {} positions a check aims at: the script is too \
             slow for them in {} s of CPU time or {} s by the clock; `--games {}` plays that \
             many however long they take)",
            check::MIN_GAMES,
            check::MIN_POSITIONS,
            (check::FLOOR_STRETCH * time).as_secs_f64(),
            (2 * check::FLOOR_STRETCH * time).as_secs_f64(),
            check::MIN_GAMES,
        );
    }
    text += if seen.native {
        "\n  native form: agrees with the script"
    } else {
        "\n  native form: none"
    };
    text
}

/// The budget from `--games`, `--seconds` and `--seed`.
pub fn budget(
    games: Option<usize>,
    seconds: Option<f64>,
    seed: u64,
) -> Result<Budget, Vec<Diagnostic>> {
    if let Some(s) = seconds {
        if !(s > 0.0 && s <= 3600.0) {
            return Err(vec![Diagnostic::new(
                "--seconds must be more than 0 and at most 3600",
            )]);
        }
    }
    let (seconds, floor) = match (games, seconds) {
        (None, None) => (Some(DEFAULT_SECONDS), true),
        (_, s) => (s, false),
    };
    Ok(Budget {
        games,
        time: seconds.map(Duration::from_secs_f64),
        floor,
        seed,
    })
}
