//! `boardrules tournament`: a round robin of bots (class-protocol programs or `builtin:LEVEL`,
//! as the referee runs them), played in parallel on worker processes, every finished game
//! journaled at once so an interrupted tournament resumes where it stopped; then standings with
//! Elo ratings, a crosstable and the faults of each bot. `tournament merge` builds the same
//! report from the journals of several shards.

mod html;
pub(crate) mod journal;
mod pool;
mod ratings;
mod replay;
mod report;
mod schedule;
mod tally;
pub mod worker;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    process::ExitCode,
};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use super::{referee, GameArgs};
use crate::{diag::Diagnostic, runtime::Game, script::ScriptedGame};
use schedule::{Bot, Shard};

type Outcome = Result<ExitCode, Vec<Diagnostic>>;

/// The command line of `boardrules tournament`.
#[derive(Debug, Clone, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    #[command(subcommand)]
    merge: Option<Merge>,
    /// A built-in game name (see `boardrules list`) or a path to a .rhai rules script.
    #[arg(required = true)]
    game: Option<String>,
    /// Set a variant option, e.g. `-o exact=false` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The first game's seed (game N has seed S+N), for builtin bots and the split into shards.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// A bot: NAME=COMMAND (a class-protocol program) or NAME=builtin:LEVEL (repeatable, ≥ 2).
    #[arg(long = "bot", value_name = "NAME=CMD")]
    bots: Vec<String>,
    /// Games each pair of bots plays; they change colours each game.
    #[arg(long, value_name = "N", default_value_t = 2)]
    games_per_pair: usize,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// The time a bot program has for a move, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 1000)]
    time_ms: u64,
    /// Declare a draw after this many plies.
    #[arg(long, value_name = "N", default_value_t = 200)]
    max_plies: usize,
    /// The folder for the journal and index.html (default: tournament-GAME).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the tournament whose journal is in the folder, playing only the games it lacks.
    #[arg(long)]
    resume: bool,
    /// Play only shard I of N of the games (merge the journals with `tournament merge`).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

/// `tournament merge`.
#[derive(Debug, Clone, Subcommand)]
enum Merge {
    /// Print the standings of the games in several journals (of shards of one tournament).
    Merge {
        /// The journals (DIR/journal.jsonl of each shard).
        #[arg(required = true)]
        journals: Vec<PathBuf>,
        /// Also write the report as DIR/index.html.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// Runs `boardrules tournament …`.
pub fn main(args: &TournamentArgs) -> Outcome {
    match &args.merge {
        Some(Merge::Merge { journals, out }) => merge(journals, out.as_deref()),
        None => run(args),
    }
}

/// An error with a plain message.
fn error(message: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::new(message)]
}

/// Plays the tournament (or its shard) and prints the report.
fn run(args: &TournamentArgs) -> Outcome {
    let game_args = GameArgs {
        game: args.game.clone().unwrap_or_default(),
        options: args.options.clone(),
        seed: None,
    };
    let game = game_args.load()?;
    let players = game.player_names().len();
    if players != 2 {
        return Err(error(format!(
            "a tournament is of two-player games, and {} with these options has {players} players",
            game.name()
        )));
    }
    let bots = bots(&args.bots)?;
    if args.games_per_pair == 0 {
        return Err(error("--games-per-pair must be at least 1"));
    }
    let shard = match &args.shard {
        Some(text) => Some(Shard::parse(text).map_err(error)?),
        None => None,
    };
    let mut games = schedule::round_robin(bots.len(), args.games_per_pair, args.seed);
    games.retain(|g| shard.is_none_or(|s| s.has(g)));
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tournament-{}", game.name())));
    std::fs::create_dir_all(&dir)
        .map_err(|e| error(format!("cannot make the folder {}: {e}", dir.display())))?;
    let path = dir.join("journal.jsonl");
    let (mut entries, cut_at) = previous(&path, args.resume)?;
    check_journal(&path, &entries, &games, &bots, game.name())?;
    if cut_at.is_some() {
        eprintln!("note: the journal's last line was cut short; that game is played again");
    }
    let played: std::collections::HashSet<usize> = entries.iter().map(|e| e.game).collect();
    let todo: Vec<_> = games
        .iter()
        .filter(|g| !played.contains(&g.id))
        .cloned()
        .collect();
    let programs = bots.iter().any(|b| !b.command.starts_with("builtin:"));
    if programs && !todo.is_empty() && !referee::sandbox::landlock_available() {
        eprintln!("note: this kernel has no Landlock: bots can write outside their own folders");
    }
    let mut file = journal::open(&path, cut_at)
        .map_err(|e| error(format!("cannot write {}: {e}", path.display())))?;
    let bar = ProgressBar::new(games.len() as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games, {eta} left")
            .expect("a valid template"),
    );
    bar.set_position(entries.len() as u64);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let setup = worker::Setup {
        game: game_args.game.clone(),
        options: game_args.options.clone(),
        seed: None,
        bots: bots.clone(),
        time_ms: args.time_ms,
        max_plies: args.max_plies,
    };
    let played = pool::play(&setup, todo, jobs, |entry| {
        journal::append(&mut file, &entry)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        entries.push(entry);
        bar.inc(1);
        Ok(())
    });
    bar.finish_and_clear();
    played.map_err(|e| error(format!("the tournament stopped: {e}")))?;
    print_report(&game, &entries, &dir)
}

/// The games of the journal at `path` and where its cut-short last line starts, if any: none if
/// there is no journal; an error if there is one and `resume` is not set.
fn previous(
    path: &Path,
    resume: bool,
) -> Result<(Vec<journal::Entry>, Option<u64>), Vec<Diagnostic>> {
    if !path.exists() {
        return Ok((Vec::new(), None));
    }
    if !resume {
        return Err(vec![Diagnostic::new(format!(
            "{} already holds a tournament",
            path.display()
        ))
        .note(
            "add --resume to continue it, or choose another folder with --out",
        )]);
    }
    let loaded = journal::read(path).map_err(|d| vec![d])?;
    Ok((loaded.entries, loaded.cut_at))
}

/// The bots of `specs`, with distinct names; at least two.
fn bots(specs: &[String]) -> Result<Vec<Bot>, Vec<Diagnostic>> {
    let bots = specs
        .iter()
        .map(|s| Bot::parse(s))
        .collect::<Result<Vec<Bot>, String>>()
        .map_err(error)?;
    if bots.len() < 2 {
        return Err(vec![Diagnostic::new(
            "a tournament needs at least two bots",
        )
        .note("give each with --bot NAME=COMMAND or --bot NAME=builtin:LEVEL")]);
    }
    let mut seen = HashMap::new();
    for b in &bots {
        if let Some(other) = seen.insert(b.name.as_str(), b.command.as_str()) {
            return Err(error(format!(
                "two bots are named '{}' ({other} and {}): name them NAME=COMMAND",
                b.name, b.command
            )));
        }
        // A bad level is found now, not in the middle of the tournament.
        referee::side(&b.command)?;
    }
    Ok(bots)
}

/// Refuses a journal of another tournament: each game must be one of `games` with the same bots.
fn check_journal(
    path: &Path,
    entries: &[journal::Entry],
    games: &[schedule::Pairing],
    bots: &[Bot],
    rules: &str,
) -> Result<(), Vec<Diagnostic>> {
    let by_id: HashMap<usize, &schedule::Pairing> = games.iter().map(|g| (g.id, g)).collect();
    let mut seen = std::collections::HashSet::new();
    for e in entries {
        let expected = by_id.get(&e.game);
        let same = expected.is_some_and(|g| {
            e.rules == rules
                && e.seed == g.seed
                && e.players == [bots[g.sides[0]].name.clone(), bots[g.sides[1]].name.clone()]
        });
        if !same || !seen.insert(e.game) {
            return Err(vec![Diagnostic::new(format!(
                "{} is the journal of another tournament: its game {} ({} against {}) is not \
                 this one's",
                path.display(),
                e.game + 1,
                crate::terminal::clean(&e.players[0]),
                crate::terminal::clean(&e.players[1])
            ))
            .note("resume with the same game, bots (in the same order), --games-per-pair, --seed and --shard")]);
        }
    }
    Ok(())
}

/// Prints the Markdown report and writes `dir/index.html`, with the games replayed by `game`.
fn print_report(game: &ScriptedGame, entries: &[journal::Entry], dir: &Path) -> Outcome {
    let standings = report::standings(game.name(), entries);
    print!("{}", report::markdown(&standings));
    let games = replay::section(Some(game), entries);
    write_page(&dir.join("index.html"), &report::html(&standings, &games))?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the report's page as saves are written (atomically; never through a symlink or into
/// a FIFO) and says where, on stderr, so the Markdown on stdout stays the report alone.
fn write_page(page: &Path, html: &str) -> Result<(), Vec<Diagnostic>> {
    crate::repl::save::write_atomically(page, html)
        .map_err(|e| error(format!("cannot write the report page: {e}")))?;
    let shown = std::fs::canonicalize(page).unwrap_or_else(|_| page.to_path_buf());
    eprintln!("the report page: {}", shown.display());
    Ok(())
}

/// The report of the games of several journals, read line by line and summed up as they come
/// (memory and time grow with the games and the pairs that met); a game in two of them is an
/// error. With `out`, the page lists every game with its replay, so the games are kept for it.
fn merge(journals: &[PathBuf], out: Option<&Path>) -> Outcome {
    let mut tally = tally::Tally::default();
    let mut entries: Vec<journal::Entry> = Vec::new();
    let mut rules: Option<(String, &Path)> = None;
    let mut from: HashMap<usize, &Path> = HashMap::new();
    for path in journals {
        let cut_at = journal::read_each(path, |e| {
            match &rules {
                Some((first, first_path)) if *first != e.rules => {
                    return Err(Diagnostic::new(format!(
                        "{} is a tournament of {}, and {} of {}",
                        path.display(),
                        crate::terminal::clean(&e.rules),
                        first_path.display(),
                        crate::terminal::clean(first)
                    )));
                }
                Some(_) => {}
                None => rules = Some((e.rules.clone(), path)),
            }
            if let Some(other) = from.insert(e.game, path) {
                return Err(Diagnostic::new(format!(
                    "game {} is in both {} and {}: merge the journals of different shards",
                    e.game + 1,
                    other.display(),
                    path.display()
                )));
            }
            tally.add(&e);
            if out.is_some() {
                entries.push(e);
            }
            Ok(())
        })
        .map_err(|d| vec![d])?;
        if cut_at.is_some() {
            eprintln!(
                "note: the last line of {} was cut short and is left out (resume that shard to finish it)",
                path.display()
            );
        }
    }
    let Some((rules, _)) = rules else {
        return Err(error("these journals hold no games"));
    };
    let standings = tally.standings(&rules);
    print!("{}", report::markdown(&standings));
    if let Some(dir) = out {
        std::fs::create_dir_all(dir)
            .map_err(|e| error(format!("cannot make the folder {}: {e}", dir.display())))?;
        // The journal names the rules but not their options: the default ones replay the games
        // (a game they cannot replay is listed with its moves, and says where its replay stops).
        let game = GameArgs {
            game: rules.clone(),
            options: Vec::new(),
            seed: None,
        }
        .load()
        .ok();
        let games = replay::section(game.as_ref(), &entries);
        write_page(&dir.join("index.html"), &report::html(&standings, &games))?;
    }
    Ok(ExitCode::SUCCESS)
}
