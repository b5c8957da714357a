//! The native, game-agnostic runtime: boards, line scanning, the `Game` trait and histories.

pub mod game;
pub mod grid;
pub mod history;
pub mod lines;
pub mod placement;
pub mod playout;

pub use game::{Event, Game, GameError, Outcome, Played, ScriptSpot, StableHasher};
pub use grid::{Cell, Grid, Notation};
pub use history::{History, Step};
pub use lines::{Beyond, Run};
