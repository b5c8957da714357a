//! The `boardrules` command line: one module per subcommand.

mod analyze;
mod bench;
mod bot;
pub mod check;
mod doc;
mod gomocup;
mod hint;
mod list;
mod picture;
mod picture_files;
mod play;
mod profile;
mod referee;
mod run;
mod serve;
mod test;
mod tournament;

use std::{io::IsTerminal, process::ExitCode, time::Duration};

use clap::{Parser, Subcommand};

use crate::diag::Diagnostic;
use crate::game_args::{GameArgs, PositionArgs};

/// boardrules: play, step through and test board games whose rules are Rhai scripts.
#[derive(Debug, Parser)]
#[command(name = "boardrules", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the games found (built in, or in ./rules/) with their options.
    List,
    /// Play a game in the REPL (reads commands from stdin when it is not a terminal).
    Play {
        /// A built-in game name (see `boardrules list`) or a path to a .rhai rules script; left
        /// out with --load, which plays the saved game's.
        #[arg(required_unless_present = "load")]
        game: Option<String>,
        /// Set a variant option, e.g. `-o exact=false` (repeatable; a saved game keeps its own).
        #[arg(
            short = 'o',
            long = "option",
            value_name = "KEY=VALUE",
            conflicts_with = "load"
        )]
        options: Vec<String>,
        /// Seed for games with chance (a saved game keeps its own).
        #[arg(long, value_name = "N", conflicts_with = "load")]
        seed: Option<u64>,
        /// Continue a saved game (written by the REPL's `save`).
        #[arg(long, value_name = "FILE")]
        load: Option<String>,
        /// Play against the computer at this level (it plays the second player).
        #[arg(long, value_enum, value_name = "LEVEL")]
        vs: Option<crate::search::player::Level>,
    },
    /// Print the start state, then each move and the state after it, then the result.
    Run {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        position: PositionArgs,
        /// One JSON object per state per line.
        #[arg(long)]
        json: bool,
        /// Moves to play (several may be run together, as in 13n10n12n).
        moves: Vec<String>,
    },
    /// List the legal moves (after the given moves), one per line.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        position: PositionArgs,
        /// Moves to play first.
        moves: Vec<String>,
    },
    /// The computer's move for the side to move (after the given moves), and why.
    Hint {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        position: PositionArgs,
        /// How hard to think.
        #[arg(long, value_enum, default_value = "hard")]
        level: crate::search::player::Level,
        /// Time budget in milliseconds (default: the level's).
        #[arg(long, value_name = "N")]
        time_ms: Option<u64>,
        /// Moves to play first.
        moves: Vec<String>,
    },
    /// Load and validate a rules script, and property-test it with random games.
    Check {
        /// A path to a .rhai script, or a game name.
        script: String,
        /// Check with a variant option set, e.g. `-o exact=false` (repeatable).
        #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Play this many random games (default: as many as 3 CPU seconds allow, and at least
        /// 20 games or 2000 positions if they fit in 5 times that).
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// Play random games for this much CPU time, and stop within a quarter more however
        /// slow the script (default 3 with the floor above, unless --games is given).
        #[arg(long, value_name = "S")]
        seconds: Option<f64>,
        /// The first random game's seed.
        #[arg(long, value_name = "N", default_value_t = 0)]
        seed: u64,
        /// `all`: check again with each option changed in turn — every choice it declares (or
        /// the other boolean), a spread of values around a number — each within the budget.
        #[arg(long = "options", value_name = "all", value_parser = ["all"])]
        every_option: Option<String>,
    },
    /// Be a Gomocup / Piskvork brain (the pbrain protocol on stdin/stdout) for a placement game.
    Gomocup {
        /// The game: a built-in name or a script of a placement game whose moves are cells;
        /// `INFO rule` sets its `exact` and `block_rule` options.
        game: String,
    },
    /// Random playouts per second of the scripted game and of its native reference, and the ratio.
    Bench {
        #[command(flatten)]
        game: GameArgs,
        /// How long to run each side.
        #[arg(long, default_value_t = 3.0, value_name = "S")]
        seconds: f64,
        /// Play exactly N playouts on each side instead of timing them: the same games every
        /// run, for counting instructions (e.g. under `valgrind --tool=callgrind`).
        #[arg(long, value_name = "N", conflicts_with = "seconds")]
        playouts: Option<u64>,
        /// Play the scripted side through the script even if it has a native form.
        #[arg(long)]
        script_only: bool,
        /// Print one JSON object (playouts, moves, wall and CPU seconds of each side) instead
        /// of text.
        #[arg(long)]
        json: bool,
    },
    /// Where a script's time goes: random playouts under the walker, with the cost of each
    /// function and line, what runs in Rhai rather than the walker, and primitives that fit.
    Profile {
        #[command(flatten)]
        game: GameArgs,
        /// How long to play random games.
        #[arg(long, default_value_t = 3.0, value_name = "S")]
        seconds: f64,
        /// Print one JSON object instead of the report.
        #[arg(long)]
        json: bool,
    },
    /// Play one move as a class bot: reads the board from the arguments, writes play.txt.
    Bot {
        #[command(flatten)]
        game: GameArgs,
        /// Time for the search, in milliseconds.
        #[arg(long, default_value_t = 300)]
        time_ms: u64,
        /// Where to write the move.
        #[arg(long, default_value = "play.txt")]
        out: std::path::PathBuf,
        /// The deepest search, in plies.
        #[arg(long, default_value_t = 64)]
        max_depth: usize,
        /// Print the search's depth, score, nodes and time to stderr.
        #[arg(long)]
        stats: bool,
        /// OPPONENT_ID ME CELL…: the opponent's id, which player the bot is (1 or 2), the cells.
        #[arg(num_args = 2.., required = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The class server: pages for students and the teacher, a JSON API for them and for bots,
    /// every table stored in SQLite (prints its address and the teacher's password).
    Serve(serve::ServeArgs),
    /// Run two bots (programs of the class protocol, or builtin:LEVEL) against each other.
    Referee {
        #[command(flatten)]
        game: GameArgs,
        /// Player 1's command in the first game (or builtin:easy|medium|hard).
        #[arg(long)]
        p1: String,
        /// The other side's command.
        #[arg(long)]
        p2: String,
        /// How many games; the sides take turns to start.
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// The time a bot has for a move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        timeout_ms: u64,
        /// Declare a draw after this many plies.
        #[arg(long, default_value_t = 200)]
        max_plies: usize,
        /// Print every game's moves.
        #[arg(long)]
        moves: bool,
    },
    /// A round robin of bots (class-protocol programs or builtin:LEVEL): Elo standings,
    /// crosstable, faults; `tournament merge JOURNAL…` reports on the journals of shards.
    Tournament(tournament::TournamentArgs),
    /// One of a tournament's worker processes (started by `tournament`).
    #[command(hide = true)]
    TournamentWorker,
    /// The reference of the functions scripts can call (every name, or one).
    Doc {
        /// A function's or property's name (`ray`, `len`, `Run.len`).
        name: Option<String>,
        /// Print the whole reference as Markdown (what `docs/src/reference.md` holds).
        #[arg(long, conflicts_with = "name")]
        markdown: bool,
    },
    /// The variant lab: self-play statistics of a game and its variants, side by side.
    Analyze {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        lab: analyze::Lab,
    },
    /// Draw a position (after the given moves) as an SVG or PNG picture.
    Picture {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        files: picture_files::PictureFiles,
        /// The theme's colours (default: the REPL's theme).
        #[arg(long, value_name = "NAME|FILE")]
        theme: Option<String>,
        /// Moves to play first.
        moves: Vec<String>,
    },
    /// Replay trace files (default: tests/traces) and report mismatches.
    Test {
        /// Trace files or folders of them (*.trace).
        paths: Vec<std::path::PathBuf>,
    },
}

/// Whether reports written to stdout should be coloured.
pub fn stdout_color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// Whether reports written to stderr should be coloured.
pub fn stderr_color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Prints reports to stderr.
pub fn report(diagnostics: &[Diagnostic]) {
    let color = stderr_color();
    for d in diagnostics {
        eprint!("{}", d.render(color));
    }
}

/// Parses the command line and runs the subcommand.
pub fn main() -> ExitCode {
    crate::panics::install_hook();
    if let Some(code) = gomocup::as_pbrain() {
        return code;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List => list::run(),
        Command::Serve(args) => serve::run(&args),
        Command::Play {
            game,
            options,
            seed,
            load,
            vs,
        } => play::run(game.as_deref(), options, seed, load.as_deref(), vs),
        Command::Run {
            game,
            position,
            json,
            moves,
        } => run::run(&game, &position, json, &moves),
        Command::Moves {
            game,
            position,
            moves,
        } => run::moves(&game, &position, &moves),
        Command::Check {
            script,
            options,
            games,
            seconds,
            seed,
            every_option,
        } => check::budget(games, seconds, seed).and_then(|b| match every_option {
            Some(_) => check::run_all(&script, &options, b),
            None => check::run(&script, &options, b),
        }),
        Command::Hint {
            game,
            position,
            level,
            time_ms,
            moves,
        } => hint::run(&game, &position, level, time_ms, &moves),
        Command::Test { paths } => test::run(&paths),
        Command::Tournament(args) => tournament::main(&args),
        Command::TournamentWorker => tournament::worker::run(),
        Command::Doc { name, markdown } => doc::run(name.as_deref(), markdown),
        Command::Analyze { game, lab } => analyze::run(&game, &lab),
        Command::Picture {
            game,
            position,
            files,
            theme,
            moves,
        } => picture::run(&game, &position, &moves, theme.as_deref(), &files),
        Command::Gomocup { game } => gomocup::run(&game),
        Command::Bench {
            game,
            seconds,
            playouts,
            script_only,
            json,
        } => {
            let length = playouts.map_or(bench::Length::Seconds(seconds), bench::Length::Playouts);
            bench::run(&game, length, script_only, json)
        }
        Command::Profile {
            game,
            seconds,
            json,
        } => profile::run(&game, seconds, json),
        Command::Bot {
            game,
            time_ms,
            max_depth,
            out,
            stats,
            args,
        } => bot::run(
            &game,
            bot::Budget {
                time: Duration::from_millis(time_ms),
                max_depth,
            },
            &out,
            stats,
            &args,
        ),
        Command::Referee {
            game,
            p1,
            p2,
            games,
            timeout_ms,
            max_plies,
            moves,
        } => referee::run(
            &game,
            &referee::Match {
                sides: [p1, p2],
                games,
                timeout: Duration::from_millis(timeout_ms),
                max_plies,
                show_moves: moves,
            },
        ),
    };
    match result {
        Ok(code) => code,
        Err(diagnostics) => {
            report(&diagnostics);
            ExitCode::FAILURE
        }
    }
}
