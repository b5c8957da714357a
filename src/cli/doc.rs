//! `boardrules doc [NAME] [--markdown]`: the reference of the functions scripts can call.

use std::process::ExitCode;

use crate::{diag::Diagnostic, script::reference};

/// Prints the entry called `name`, the whole reference as Markdown, or every name with the first
/// line of its description.
pub fn run(name: Option<&str>, markdown: bool) -> Result<ExitCode, Vec<Diagnostic>> {
    let text = if markdown {
        reference::markdown()
    } else {
        reference::describe(name).map_err(|d| vec![d])?
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
