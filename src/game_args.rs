//! Arguments every game command shares: the game, its options and seed, and a start position.

use clap::Args;

use crate::{
    diag::Diagnostic,
    driver::{apply_option, check_input_size, parse_to_move, position_error},
    runtime::Game,
    script::{sandbox::limits, Library, ScriptedGame},
};

/// Which game, with which options.
#[derive(Debug, Clone, Args)]
pub struct GameArgs {
    /// A built-in game name (see `boardrules list`) or a path to a .rhai rules script.
    pub game: String,
    /// Set a variant option, e.g. `-o exact=false` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed for games with chance (for `bench`, also the random moves of its playouts: one
    /// seed, the same games every run).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// Where to start from.
#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// Start from this position (the game's rendering), or @FILE to read it from a file.
    #[arg(long, value_name = "TEXT|@FILE")]
    pub position: Option<String>,
    /// Who is to move in the position (1, 2, … or a player's name), when it does not say.
    #[arg(long, value_name = "N")]
    pub to_move: Option<String>,
    /// Start from this position given as the class bot protocol's cells, in one argument
    /// separated by spaces (as `boardrules bot` and the referee's bots receive them).
    #[arg(long, value_name = "C1 … CN", conflicts_with = "position")]
    pub cells: Option<String>,
}

impl GameArgs {
    /// Loads the game and applies the options and seed.
    pub fn load(&self) -> Result<ScriptedGame, Vec<Diagnostic>> {
        let mut game = ScriptedGame::load(&Library::discover(), &self.game)?;
        for setting in &self.options {
            apply_option(&mut game, setting).map_err(|(span, message)| {
                vec![Diagnostic::new("bad option")
                    .at("-o", setting.as_str(), span, message)
                    .note(option_list(&game))]
            })?;
        }
        if let Some(seed) = self.seed {
            game.set_seed(seed);
        }
        Ok(game)
    }
}

/// The options of `game`, as a one-line note.
pub fn option_list(game: &ScriptedGame) -> String {
    if game.options().is_empty() {
        return format!("{} has no options", game.name());
    }
    let list: Vec<String> = game
        .options()
        .iter()
        .map(|o| format!("{}={}", o.name, o.default))
        .collect();
    format!("options of {}: {}", game.name(), list.join(" "))
}

impl PositionArgs {
    /// The start state: the position given, or the game's start.
    pub fn start(&self, game: &ScriptedGame) -> Result<rhai::Dynamic, Vec<Diagnostic>> {
        let to_move = match &self.to_move {
            Some(text) => Some(parse_to_move(game, text).map_err(|m| {
                vec![Diagnostic::new("bad --to-move").at(
                    "--to-move",
                    text.as_str(),
                    0..text.len(),
                    m,
                )]
            })?),
            None => None,
        };
        if let Some(cells) = &self.cells {
            let words: Vec<String> = cells.split_whitespace().map(str::to_string).collect();
            return game
                .from_cells(&words, to_move)
                .map_err(|(e, text)| vec![position_error(game, &e, "--cells", &text)]);
        }
        let Some(position) = &self.position else {
            if to_move.is_some() {
                return Err(vec![Diagnostic::new(
                    "--to-move needs --position or --cells",
                )]);
            }
            return game.start().map_err(|e| vec![game.describe(&e)]);
        };
        let (name, text) = match position.strip_prefix('@') {
            Some(path) => (
                path.to_string(),
                crate::fsio::read_text(std::path::Path::new(path)).map_err(|e| {
                    vec![Diagnostic::new(format!(
                        "cannot read position file {path}: {e}"
                    ))]
                })?,
            ),
            None => ("--position".to_string(), position.clone()),
        };
        check_input_size("the position", &text, limits::POSITION).map_err(|d| vec![d])?;
        game.parse_state(&text, to_move)
            .map_err(|e| vec![position_error(game, &e, &name, &text)])
    }
}
