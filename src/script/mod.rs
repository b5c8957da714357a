//! The script host: a sandboxed Rhai engine, the runtime's API for scripts, loading rules
//! scripts (and their bases), checking the contract, and adapting a script to [`crate::runtime::Game`].

pub mod api;
pub mod contract;
pub mod game;
pub mod host;
pub mod imported;
pub mod library;
pub mod move_filter;
pub mod native_form;
pub mod not_found;
pub mod options;
pub mod reference;
pub mod sandbox;
pub mod unclosed;
pub mod verify;

pub use game::ScriptedGame;
pub use library::{Library, ScriptSource};
