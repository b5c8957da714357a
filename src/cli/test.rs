//! `boardrules test [PATH…]`: replay trace files.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use crate::{diag::Diagnostic, script::Library, trace};

/// Replays every trace under `paths` (default `tests/traces`), printing a line per trace and the
/// failures in full; exits 1 if any failed.
pub fn run(paths: &[PathBuf]) -> Result<ExitCode, Vec<Diagnostic>> {
    let defaults = [PathBuf::from("tests/traces")];
    let paths = if paths.is_empty() {
        &defaults[..]
    } else {
        paths
    };
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files)
            .map_err(|e| vec![Diagnostic::new(format!("cannot read {}: {e}", p.display()))])?;
    }
    if files.is_empty() {
        return Err(vec![
            Diagnostic::new("no trace files found").note("trace files end in .trace")
        ]);
    }
    let library = Library::discover();
    let color = super::stderr_color();
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let report = trace::run_file(&library, file, color);
        if report.passed() {
            passed += 1;
            println!("ok   {} ({} checks)", report.name, report.checks);
        } else {
            failed += 1;
            println!("FAIL {}", report.name);
            for f in &report.failures {
                eprint!("{f}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "trace") {
                collect(&e, out)?;
            }
        }
    } else {
        std::fs::metadata(path)?;
        out.push(path.to_path_buf());
    }
    Ok(())
}
