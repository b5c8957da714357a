//! Trace files: a game, its options and start, and moves each followed by what must come out.
//! `boardrules test` replays them and shows a diff on mismatch.

pub mod runner;
pub mod syntax;

pub use runner::{run_file, run_text, TraceReport};
pub use syntax::{parse, Trace};
