//! `boardrules picture`: a position (after the given moves) as an SVG file.

use std::{path::Path, process::ExitCode};

use crate::{
    cli::run::position_after,
    diag::Diagnostic,
    game_args::{GameArgs, PositionArgs},
    repl::{save::write_atomically, settings::Settings, theme::Theme},
};

/// Writes the picture of the position to `out`, in the theme `theme` (default: the REPL's).
pub fn run(
    args: &GameArgs,
    position: &PositionArgs,
    moves: &[String],
    theme: Option<&str>,
    out: &Path,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let (game, history) = position_after(args, position, moves)?;
    let name = theme.map_or_else(|| Settings::load().0.theme, str::to_string);
    let theme =
        Theme::load(&name).map_err(|e| vec![Diagnostic::new(format!("bad --theme: {e}"))])?;
    let svg = crate::picture::svg(&game, history.current(), &theme.palette(game.name()))
        .map_err(|e| vec![game.describe(&e)])?;
    write_atomically(out, &svg).map_err(|e| {
        vec![Diagnostic::new(format!(
            "cannot write {}: {e}",
            out.display()
        ))]
    })?;
    Ok(ExitCode::SUCCESS)
}
