//! The native, game-agnostic runtime: boards, circular tracks, line scanning, the `Game` trait and histories.

pub mod game;
pub mod grid;
pub mod history;
pub mod lines;
pub mod track;

pub use game::{Event, Game, GameError, Outcome, Played, ScriptSpot, StableHasher};
pub use grid::{Cell, Grid, Notation};
pub use history::{History, Step};
pub use lines::{Beyond, Run};
pub use track::{Track, TrackError};
