//! `boardrules serve`: the class server (see [`crate::serve`]).

use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use clap::Args;

use crate::diag::Diagnostic;

/// Where the class server finds its scripts, listens and keeps its data.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The rules folder whose scripts are offered (default: the built-in games, overridden by
    /// ./rules/).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// The address to listen on (0.0.0.0:8080 lets the students' laptops in; port 0 picks a
    /// free port).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The SQLite file that keeps every table, seat and move (created if missing).
    #[arg(long, value_name = "FILE", default_value = "boardrules-class.sqlite")]
    pub data: PathBuf,
    /// The most tables being played at once (finished games do not count); more are refused
    /// with 503 until games end.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub max_tables: usize,
    /// The most tables being played at once that one client (an address) opened; more are
    /// refused with 429.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub max_tables_per_client: usize,
}

/// Runs the server until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<ExitCode, Vec<Diagnostic>> {
    if let Some(dir) = args.rules.as_ref().filter(|d| !d.is_dir()) {
        return Err(vec![Diagnostic::new(format!(
            "--rules {}: there is no such folder",
            dir.display()
        ))]);
    }
    let config = crate::serve::Config {
        rules: args.rules.clone(),
        addr: args.addr,
        data: args.data.clone(),
        password: crate::serve::password(),
        max_tables: args.max_tables,
        max_tables_per_client: args.max_tables_per_client,
    };
    crate::serve::run(config).map_err(|e| vec![Diagnostic::new(e)])?;
    Ok(ExitCode::SUCCESS)
}
