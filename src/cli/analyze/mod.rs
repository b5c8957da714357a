//! `boardrules analyze`, the variant lab: self-play between computer players for a game and its
//! variants, reported side by side as Markdown (and as an SVG chart with `--svg`).

mod chart;
mod journal;
mod pool;
mod report;
mod selfplay;
mod stats;
mod summary;
mod variant;

use std::{path::PathBuf, process::ExitCode};

use clap::Args;

use crate::{
    cli::picture_files::PictureFiles, diag::Diagnostic, game_args::GameArgs, search::player::Level,
};
use selfplay::Plan;
use summary::Summary;
use variant::Variant;

/// The most histogram buckets of game lengths.
const BUCKETS: usize = 10;

/// `analyze`'s own arguments.
#[derive(Debug, Clone, Args)]
pub struct Lab {
    /// Another variant to play side by side: options (`block_rule=false`, `-o a=1 -o b=2`,
    /// `a=1,b=2`, set after the game's own -o) or a variant script (repeatable).
    #[arg(long = "compare", value_name = "VARIANT", allow_hyphen_values = true)]
    pub compare: Vec<String>,
    /// Games per variant.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub games: usize,
    /// The computer's level, for both sides.
    #[arg(long, value_enum, default_value = "easy")]
    pub level: Level,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Random legal moves at the start of each game, so that seeded games differ.
    #[arg(long, default_value_t = 2, value_name = "PLIES")]
    pub opening: usize,
    /// Stop a game after this many plies (it counts as unfinished).
    #[arg(long, default_value_t = 1000, value_name = "PLIES")]
    pub max_plies: usize,
    /// Report on the finished games of GAME in these journals (a tournament's, or the class
    /// server's export) instead of playing: one column per set of options (repeatable).
    #[arg(long, value_name = "FILE")]
    pub journal: Vec<PathBuf>,
    /// A chart of the results and game lengths: `--svg FILE`, `--png FILE`, `--size`, `--scale`.
    #[command(flatten)]
    pub chart: PictureFiles,
}

/// Plays the games, prints the report and writes the chart.
pub fn run(args: &GameArgs, lab: &Lab) -> Result<ExitCode, Vec<Diagnostic>> {
    if !lab.journal.is_empty() {
        return from_journals(args, lab);
    }
    if lab.games == 0 {
        return Err(vec![Diagnostic::new("--games must be at least 1")]);
    }
    let mut variants = vec![Variant::base(args)];
    for spec in &lab.compare {
        variants.push(Variant::parse(args, spec).map_err(|d| vec![d])?);
    }
    for v in &variants {
        v.args.load()?; // every variant loads, with its options, before any game starts
    }
    let jobs = lab
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let plan = Plan {
        level: lab.level,
        opening: lab.opening,
        max_plies: lab.max_plies,
        seed: args.seed.unwrap_or(0),
    };
    let records = pool::play_all(&variants, lab.games, &plan, jobs)?;
    let summaries: Vec<Summary> = variants
        .iter()
        .zip(&records)
        .map(|(v, r)| Summary::of(&v.label, r))
        .collect();
    let buckets = stats::buckets(
        summaries.iter().flat_map(|s| s.lengths.iter().copied()),
        BUCKETS,
    );
    println!(
        "Self-play at `{}`: {} games per variant, the first {} plies random, seed {}.\n",
        lab.level.name(),
        lab.games,
        lab.opening,
        plan.seed
    );
    print!("{}", report::markdown(&summaries, &buckets));
    write_chart(lab, &summaries, &buckets)
}

/// Reports on the finished games of the journals, one column per variant found in them.
fn from_journals(args: &GameArgs, lab: &Lab) -> Result<ExitCode, Vec<Diagnostic>> {
    if !args.options.is_empty() || !lab.compare.is_empty() {
        return Err(vec![Diagnostic::new(
            "with --journal, the variants are those the journal's games were played with",
        )
        .note("remove -o and --compare")]);
    }
    let (summaries, read) = journal::summaries(&args.game, &lab.journal).map_err(|d| vec![d])?;
    let buckets = stats::buckets(
        summaries.iter().flat_map(|s| s.lengths.iter().copied()),
        BUCKETS,
    );
    let games: usize = summaries.iter().map(|s| s.games).sum();
    println!(
        "Finished games of `{}` in {} journal{}: {games} of the {read} games read, in {} variant{}.\n",
        crate::terminal::clean(&args.game),
        lab.journal.len(),
        if lab.journal.len() == 1 { "" } else { "s" },
        summaries.len(),
        if summaries.len() == 1 { "" } else { "s" },
    );
    print!("{}", report::markdown(&summaries, &buckets));
    write_chart(lab, &summaries, &buckets)
}

/// Writes the chart `--svg` asks for, if it does.
fn write_chart(
    lab: &Lab,
    summaries: &[Summary],
    buckets: &[(usize, usize)],
) -> Result<ExitCode, Vec<Diagnostic>> {
    if lab.chart.any() {
        lab.chart.write(&chart::svg(summaries, buckets))?;
    }
    Ok(ExitCode::SUCCESS)
}
