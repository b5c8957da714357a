//! What the REPL's commands return — go on or quit ([`Flow`]), or why they failed ([`Failure`]) —
//! and how the game was chosen ([`Choice`]): shared by the session and the modules that add
//! commands to it.

use crate::diag::Diagnostic;

/// Whether the REPL goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave.
    Quit,
}

/// Why a command failed: one or more reports. The game is as it was before the command.
#[derive(Debug)]
pub struct Failure(pub Vec<Diagnostic>);

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(d: Vec<Diagnostic>) -> Self {
        Failure(d)
    }
}

/// What a command returns.
pub type Done = Result<(), Failure>;

/// How the game was chosen, so `reload` and `save` can choose it again.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The game as the user named it: a built-in name or a script path.
    pub game: String,
    /// Options set, as `KEY=VALUE` texts, in order.
    pub options: Vec<(String, String)>,
    /// The seed.
    pub seed: u64,
}
