//! boardrules: a board-game rules interpreter.
//!
//! The [`runtime`] is native and game-agnostic (grids, line scans, histories); every game is a
//! Rhai rules script that the [`script`] host loads at run time and adapts to the runtime's
//! [`runtime::Game`] trait. The command line and the REPL sit on top.

pub mod cancel;
pub mod check;
pub mod cli;
pub mod diag;
pub mod driver;
pub mod fsio;
pub mod game_args;
pub mod markup;
pub mod memory;
pub mod native_games;
pub mod panics;
pub mod picture;
pub mod repl;
pub mod runtime;
pub mod script;
pub mod search;
pub mod serve;
pub mod suggest;
pub mod terminal;
pub mod trace;
pub mod walker;
pub mod words;
