//! The script's side of a sowing game's capture hook: asks the function the native form names
//! whether a capture may take a pit (see [`crate::native_games::sowing::CaptureJudge`]). Asked
//! only at a capture, about a pit holding seeds: everywhere else the native form plays alone.

use rhai::{Array, Dynamic, Map, INT};

use super::ScriptedGame;
use crate::{
    native_games::sowing::{CaptureJudge, Sowing},
    runtime::{GameError, Track},
    script::native_form::{read_capture_hook, CaptureHook, HookField},
};

/// Asks `hook(state, pit)` of a script, `state` being the script's state at `from` with the
/// position's fields written in; a failure refuses the capture and is kept for
/// [`CaptureReferee::finish`].
pub struct CaptureReferee<'g> {
    game: &'g ScriptedGame,
    from: &'g Dynamic,
    /// Read from `native(from)` at the first capture.
    hook: Option<CaptureHook>,
    failure: Option<GameError>,
}

impl<'g> CaptureReferee<'g> {
    /// A referee for positions reached from the script state `from`.
    pub fn new(game: &'g ScriptedGame, from: &'g Dynamic) -> Self {
        CaptureReferee {
            game,
            from,
            hook: None,
            failure: None,
        }
    }

    /// The first failure of the hook, if one failed.
    pub fn finish(self) -> Result<(), GameError> {
        self.failure.map_or(Ok(()), Err)
    }

    fn rules(message: String) -> GameError {
        GameError::Rules {
            message,
            spot: None,
        }
    }

    /// The hook `native(from)` names.
    fn hook(&mut self) -> Result<&CaptureHook, GameError> {
        if self.hook.is_none() {
            let native =
                self.game
                    .call_as::<Map>("native", (self.from.clone(),), Self::rules, "a map")?;
            let hook = native
                .get("sowing")
                .and_then(|s| s.read_lock::<Map>()?.get("capturable").cloned())
                .ok_or_else(|| Self::rules("native(): the capture hook is gone".into()))?;
            let hook = read_capture_hook(&hook)
                .map_err(|e| self.game.rules_error(format!("native(): {e}")))?;
            self.hook = Some(hook);
        }
        Ok(self.hook.as_ref().expect("read above"))
    }

    /// The state the hook is given for `position`.
    fn state(hook: &CaptureHook, position: &Sowing) -> Result<Map, GameError> {
        let mut state = hook.state.clone();
        for (what, name) in &hook.fields {
            let value = match what {
                HookField::Track => {
                    let mut track = state
                        .get(name.as_str())
                        .and_then(|t| t.read_lock::<Track>().map(|t| t.clone()))
                        .ok_or_else(|| {
                            Self::rules(format!(
                                "native(): `capturable.track` names `{name}`, which is not the state's track"
                            ))
                        })?;
                    for (pit, &seeds) in position.seeds().iter().enumerate() {
                        track.set(pit, seeds);
                    }
                    Dynamic::from(track)
                }
                HookField::Scores => Dynamic::from_array(
                    position
                        .scores()
                        .iter()
                        .map(|&s| Dynamic::from(s))
                        .collect::<Array>(),
                ),
                HookField::ToMove => Dynamic::from(position.to_move() as INT),
                HookField::Pieces => Dynamic::from_array(
                    position
                        .store_pieces()
                        .into_iter()
                        .map(Dynamic::from)
                        .collect(),
                ),
            };
            state.insert(name.as_str().into(), value);
        }
        Ok(state)
    }
}

impl CaptureJudge for CaptureReferee<'_> {
    fn may_take(&mut self, position: &Sowing, pit: usize) -> bool {
        if self.failure.is_some() {
            return false;
        }
        let game = self.game;
        let asked = self.hook().and_then(|hook| {
            let state = Self::state(hook, position)?;
            let args = (Dynamic::from_map(state), pit as INT);
            game.call_as::<bool>(&hook.hook, args, Self::rules, "true or false")
        });
        asked.unwrap_or_else(|e| {
            self.failure = Some(e);
            false
        })
    }
}
