//! The properties `boardrules check` tests at every position a random game reaches.

use rand::seq::index;
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

use crate::{
    runtime::{Game, GameError},
    script::ScriptedGame,
};

/// What a rules script promises at every position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    /// `to_move` names one of the players.
    ToMove,
    /// `result` says the game is over exactly when `moves` is empty.
    ResultAgreesWithMoves,
    /// `parse_state` reads back what `render` writes, and it renders the same.
    RenderRoundTrip,
    /// `parse_move` reads back what `format_move` writes, as the same move.
    MoveRoundTrip,
    /// Every move `moves` lists plays.
    ListedMovesPlay,
    /// Playing the same move in the same state gives equal states (that hash equally).
    SameMoveSameState,
    /// The native form describes the same game.
    NativeAgrees,
    /// No script error or limit.
    NoScriptError,
}

impl Property {
    /// The property in words.
    pub fn describe(self) -> &'static str {
        match self {
            Property::ToMove => "to_move() is a player",
            Property::ResultAgreesWithMoves => "result() and an empty moves() agree",
            Property::RenderRoundTrip => "parse_state() reads back what render() writes",
            Property::MoveRoundTrip => "parse_move() reads back what format_move() writes",
            Property::ListedMovesPlay => "every move moves() lists plays",
            Property::SameMoveSameState => "the same move in the same state gives equal states",
            Property::NativeAgrees => "native(state) describes the same game as the script",
            Property::NoScriptError => "no script error or limit",
        }
    }
}

/// A property that does not hold at a position.
#[derive(Debug, Clone)]
pub struct Broken {
    /// Which property.
    pub property: Property,
    /// What happened.
    pub message: String,
    /// The move (canonical text) it happened with, if any.
    pub mv: Option<String>,
    /// The script's own error, when there is one (to point into the script).
    pub error: Option<GameError>,
}

impl Broken {
    fn new(property: Property, message: impl Into<String>) -> Self {
        Broken {
            property,
            message: message.into(),
            mv: None,
            error: None,
        }
    }

    fn with_move(mut self, mv: &str) -> Self {
        self.mv = Some(mv.to_string());
        self
    }

    fn script(property: Property, error: GameError) -> Self {
        let property = match error {
            GameError::Rules { .. } => Property::NoScriptError,
            _ => property,
        };
        Broken {
            property,
            message: error.to_string(),
            mv: None,
            error: Some(error),
        }
    }
}

/// At most this many listed moves are tried at a position of a random game (chosen at random
/// when there are more); a failure is then reproduced with every move tried.
pub const MOVES_PER_POSITION: usize = 64;

/// Checks every property at `state`; returns how many moves it tried: every listed move, or
/// with `sample`, at most [`MOVES_PER_POSITION`] of them chosen with it.
pub fn check_position(
    game: &ScriptedGame,
    state: &Dynamic,
    sample: Option<&mut ChaCha8Rng>,
) -> Result<usize, Broken> {
    let fault = |p: Property| move |e: GameError| Broken::script(p, e);
    let outcome = game
        .outcome(state)
        .map_err(fault(Property::ResultAgreesWithMoves))?;
    let moves = game
        .legal_moves(state)
        .map_err(fault(Property::ResultAgreesWithMoves))?;
    match (outcome, moves.is_empty()) {
        (Some(o), false) => {
            return Err(Broken::new(
                Property::ResultAgreesWithMoves,
                format!(
                    "result() says {}, but moves() lists {} moves",
                    game.describe_outcome(o),
                    moves.len()
                ),
            ))
        }
        (None, true) => {
            return Err(Broken::new(
                Property::ResultAgreesWithMoves,
                "result() says the game goes on, but moves() lists no move",
            ))
        }
        _ => {}
    }
    let to_move = if outcome.is_some() {
        None
    } else {
        Some(game.to_move(state).map_err(|e| Broken {
            property: Property::ToMove,
            message: e.to_string(),
            mv: None,
            error: Some(e),
        })?)
    };
    render_round_trip(game, state, to_move)?;
    let tried: Vec<usize> = match sample {
        Some(rng) if moves.len() > MOVES_PER_POSITION => {
            index::sample(rng, moves.len(), MOVES_PER_POSITION).into_vec()
        }
        _ => (0..moves.len()).collect(),
    };
    for (n, &i) in tried.iter().enumerate() {
        check_move(game, state, &moves[i], n == 0)?;
    }
    Ok(tried.len())
}

fn render_round_trip(
    game: &ScriptedGame,
    state: &Dynamic,
    to_move: Option<usize>,
) -> Result<(), Broken> {
    let p = Property::RenderRoundTrip;
    let text = game.render(state).map_err(|e| Broken::script(p, e))?;
    let back = game.parse_state(&text, to_move).map_err(|e| {
        Broken::new(
            p,
            format!("parse_state() cannot read what render() wrote: {e}"),
        )
    })?;
    let again = game.render(&back).map_err(|e| Broken::script(p, e))?;
    if again == text {
        return Ok(());
    }
    let (n, (want, got)) = text
        .lines()
        .zip(again.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .unwrap_or((text.lines().count().min(again.lines().count()), ("", "")));
    Err(Broken::new(
        p,
        format!(
            "render(parse_state(render(state))) differs from render(state) at line {}: \
             {want:?} became {got:?}",
            n + 1
        ),
    ))
}

/// `mv` round-trips through its text and plays (the same way `twice`, if asked).
fn check_move(
    game: &ScriptedGame,
    state: &Dynamic,
    mv: &Dynamic,
    twice: bool,
) -> Result<(), Broken> {
    let p = Property::MoveRoundTrip;
    let text = game
        .format_move(state, mv)
        .map_err(|e| Broken::script(p, e))?;
    let parsed = game.parse_move(state, &text).map_err(|e| {
        Broken::new(
            p,
            format!("parse_move() cannot read \"{text}\", which format_move() wrote: {e}"),
        )
        .with_move(&text)
    })?;
    let same = game.move_hash(&parsed) == game.move_hash(mv)
        || game.format_move(state, &parsed).ok().as_deref() == Some(text.as_str());
    if !same {
        return Err(Broken::new(
            p,
            format!("parse_move(\"{text}\") gives another move than the one format_move() wrote"),
        )
        .with_move(&text));
    }
    let played = match game.play(state, mv) {
        Ok(played) => played.state,
        Err(GameError::Illegal(message)) => {
            return Err(Broken {
                property: Property::ListedMovesPlay,
                message: format!("moves() lists {text}, but play() refuses it: {message}"),
                mv: Some(text),
                error: None,
            })
        }
        Err(e) => return Err(Broken::script(Property::ListedMovesPlay, e).with_move(&text)),
    };
    if !twice {
        return Ok(());
    }
    let again = game
        .play(state, mv)
        .map_err(|e| Broken::script(Property::SameMoveSameState, e).with_move(&text))?;
    if game.state_hash(&again.state) != game.state_hash(&played) {
        return Err(Broken::new(
            Property::SameMoveSameState,
            format!(
                "playing {text} twice in the same state gave two different states (does play() \
                 use chance that is not in the state?)"
            ),
        )
        .with_move(&text));
    }
    Ok(())
}
