//! Hand-written native implementations of some built-in games, used only to measure the
//! scripted games against (`boardrules bench`, `cargo bench`). They share no code with the
//! runtime or the scripts.

mod caro;
pub mod o_an_quan;
pub mod oware;

use rand_chacha::ChaCha8Rng;

/// A native reference implementation that can play random games.
pub trait Reference {
    /// Plays one uniformly random game from the start; returns the number of moves.
    fn playout(&mut self, rng: &mut ChaCha8Rng) -> usize;
}

/// The reference implementation of the built-in game `name` (default options), if there is one.
pub fn find(name: &str) -> Option<Box<dyn Reference>> {
    match name {
        "caro" => Some(Box::new(caro::Caro::default())),
        "o_an_quan" => Some(Box::new(o_an_quan::OAnQuan::start())),
        "oware" => Some(Box::new(oware::Oware::start())),
        _ => None,
    }
}
