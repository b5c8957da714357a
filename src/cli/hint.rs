//! `boardrules hint`: the computer's move for the side to move, and why.

use std::{process::ExitCode, time::Duration};

use super::{run::position_after, GameArgs, PositionArgs};
use crate::{diag::Diagnostic, search::player};

/// Prints the best move found on the first line and the reason on the second.
pub fn run(
    args: &GameArgs,
    position: &PositionArgs,
    level: player::Level,
    time_ms: Option<u64>,
    moves: &[String],
) -> Result<ExitCode, Vec<Diagnostic>> {
    let (game, history) = position_after(args, position, moves)?;
    let time = time_ms.map(Duration::from_millis);
    let seed = args.seed.unwrap_or(0);
    match player::choose(&game, history.current(), level, time, seed)
        .map_err(|e| vec![game.describe(&e)])?
    {
        Some(hint) => {
            println!("{}", crate::terminal::clean(&hint.text));
            println!("{}", crate::terminal::clean(&hint.reason));
            Ok(ExitCode::SUCCESS)
        }
        None => Err(vec![Diagnostic::new("no hint: the game is over")]),
    }
}
