//! The native, game-agnostic runtime: boards, line scanning, bounded walks, the `Game` trait and histories.

pub mod game;
pub mod grid;
pub mod history;
pub mod lines;
pub mod walks;

pub use game::{Event, Game, GameError, Outcome, Played, ScriptSpot, StableHasher};
pub use grid::{Cell, Grid, Notation};
pub use history::{History, Step};
pub use lines::{Beyond, Run};
pub use walks::WalkRule;
