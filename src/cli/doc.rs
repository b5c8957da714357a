//! `boardrules doc [NAME] [--markdown]`: the reference of the functions scripts can call.

use std::process::ExitCode;

use crate::{diag::Diagnostic, script::reference, suggest};

/// Prints the entry called `name`, the whole reference as Markdown, or every name with the first
/// line of its description.
pub fn run(name: Option<&str>, markdown: bool) -> Result<ExitCode, Vec<Diagnostic>> {
    if markdown {
        print!("{}", reference::markdown());
        return Ok(ExitCode::SUCCESS);
    }
    let Some(name) = name else {
        for e in reference::entries() {
            let first = e.doc.and_then(|d| d.lines().next()).unwrap_or("");
            println!("{:<20} {first}", e.name);
        }
        return Ok(ExitCode::SUCCESS);
    };
    let found = reference::lookup(name);
    if found.is_empty() {
        let names = reference::names();
        let mut d = Diagnostic::new(format!("no function `{name}` in the reference"));
        if let Some(hint) = suggest::did_you_mean(name, names.iter().map(String::as_str)) {
            d = d.note(hint);
        }
        return Err(vec![d.note("`boardrules doc` lists every name")]);
    }
    for (i, e) in found.iter().enumerate() {
        if i > 0 {
            println!();
        }
        if found.len() > 1 {
            println!("{}:", e.name);
        }
        print!("{}", reference::text(e));
    }
    Ok(ExitCode::SUCCESS)
}
