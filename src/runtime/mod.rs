//! The native, game-agnostic runtime: boards, circular tracks, line scanning, flood fill, paths,
//! bounded walks, window tallies, a seedable random generator,
//! playouts, the `Game` trait and histories.

pub mod game;
pub mod grid;
pub mod history;
pub mod legality;
pub mod lines;
pub mod paths;
pub mod playout;
pub mod rays;
pub mod regions;
pub mod rng;
pub mod threats;
pub mod track;
pub mod walks;
pub mod windows;

pub use game::{Event, Game, GameError, Outcome, Played, ScriptSpot, StableHasher, MAX_EVALUATION};
pub use grid::{Cell, Grid, Notation};
pub use history::{History, Step};
pub use lines::{Beyond, Run};
pub use rng::Rng;
pub use track::{Track, TrackError};
pub use walks::WalkRule;
