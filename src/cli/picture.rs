//! `boardrules picture`: a position (after the given moves) as an SVG or PNG file.

use std::process::ExitCode;

use crate::{
    cli::{picture_files::PictureFiles, run::position_after},
    diag::Diagnostic,
    game_args::{GameArgs, PositionArgs},
    repl::{settings::Settings, theme::Theme},
};

/// Writes the picture of the position to the files `files` names, in the theme `theme`
/// (default: the REPL's).
pub fn run(
    args: &GameArgs,
    position: &PositionArgs,
    moves: &[String],
    theme: Option<&str>,
    files: &PictureFiles,
) -> Result<ExitCode, Vec<Diagnostic>> {
    if !files.any() {
        return Err(vec![Diagnostic::new(
            "say where to write the picture: --svg FILE, --png FILE, or both",
        )]);
    }
    let (game, history) = position_after(args, position, moves)?;
    let name = theme.map_or_else(|| Settings::load().0.theme, str::to_string);
    let theme =
        Theme::load(&name).map_err(|e| vec![Diagnostic::new(format!("bad --theme: {e}"))])?;
    let last = history.steps().last().map(|step| &step.mv);
    let svg = crate::picture::svg(&game, history.current(), last, &theme.palette(game.name()))
        .map_err(|e| vec![game.describe(&e)])?;
    files.write(&svg)?;
    Ok(ExitCode::SUCCESS)
}
