//! `ScriptedGame`: a loaded rules script adapted to the runtime's [`Game`] trait.

use std::{
    hash::{BuildHasher, Hasher},
    rc::Rc,
};

use rhai::{Array, Dynamic, EvalAltResult, FuncArgs, Map, AST, INT};

use super::{
    api,
    host::{self, bare_message, innermost, LoadedScript, Sources},
    library::{Library, ScriptSource},
    move_filter::{self, MoveFilter},
    native_form::{self, NativeGame},
    options::OptionSpec,
    sandbox,
};
use crate::{
    diag::Diagnostic,
    runtime::{playout, Event, Game, GameError, Outcome, Played, Rng, ScriptSpot, StableHasher},
    walker::lists::NativeList,
};

pub(crate) mod caller;
mod capture_referee;
mod cells;
mod copying;
mod hashing;
mod native_moves;
mod referee;
mod sowing_filter;
mod work;

pub use capture_referee::CaptureReferee;
pub use referee::HookReferee;

use caller::Caller;
use hashing::{hash_value, hash_value_in_time};

/// A rules script ready to play, with the option values chosen for it.
pub struct ScriptedGame {
    script: LoadedScript,
    caller: Caller,
    events: api::EventSink,
    title: String,
    about: String,
    players: Vec<String>,
    options: Vec<OptionSpec>,
    opts: Map,
    /// Whether the native form was verified from the start for the current options (see
    /// [`super::verify`]); reset when an option changes.
    native_trusted: std::cell::Cell<Option<bool>>,
    /// The move filter of a `moves()` that keeps some of its base's moves (see
    /// [`super::move_filter`]).
    move_filter: Option<MoveFilter>,
    /// The move filter's answers for the last state a referee asked it from: (a key of that
    /// state, the board's width and cells, one answer a cell: 0 not asked, 1 kept, 2 dropped).
    /// See [`HookReferee`]; a sowing form's are kept the same way ([`Self::sowing_narrowed`]),
    /// with `(pits, 0)` for the board and one answer a
    /// [`crate::native_games::sowing::SowMove::index`].
    filter_answers: std::cell::RefCell<(u64, (usize, usize), Vec<u8>)>,
    /// Whether the script's moves are cells (asked at the start for the current options; see
    /// [`Self::moves_are_cells`]); reset when an option changes.
    cell_moves: std::cell::Cell<Option<bool>>,
}

/// The most players a game may have.
pub const MAX_PLAYERS: usize = 64;

/// How a script failure is reported when it is a `throw` (a rule's own message).
type ThrownAs = fn(String) -> GameError;

impl ScriptedGame {
    /// Finds `game` (a name or a path) in `library`, loads and checks it, with default options
    /// and seed 0.
    pub fn load(library: &Library, game: &str) -> Result<Self, Vec<Diagnostic>> {
        let source = library.find(game).map_err(|d| vec![d])?;
        Self::from_source(library, source)
    }

    /// Loads and checks a script already read.
    pub fn from_source(library: &Library, source: ScriptSource) -> Result<Self, Vec<Diagnostic>> {
        let events = api::EventSink::default();
        events.borrow_mut().enabled = true;
        let mut engine = sandbox::engine();
        let natives = api::register(&mut engine, Rc::clone(&events));
        let mut script = host::load(engine, library, source)?;
        let move_filter = move_filter::recognise(&script.engine, &mut script.ast, &script.sources);
        script.link(&natives);
        let mut caller = Caller::new(&script.ast, script.constants.clone(), natives);
        caller.set_imports(script.imported_calls());
        let mut game = ScriptedGame {
            caller,
            script,
            events,
            title: String::new(),
            about: String::new(),
            players: Vec::new(),
            options: Vec::new(),
            opts: Map::new(),
            native_trusted: std::cell::Cell::new(None),
            move_filter,
            filter_answers: Default::default(),
            cell_moves: std::cell::Cell::new(None),
        };
        game.read_metadata().map_err(|d| vec![d])?;
        Ok(game)
    }

    fn read_metadata(&mut self) -> Result<(), Diagnostic> {
        if self.defines("info", 0) {
            let info = self.call_map("info", ())?;
            let text = |k: &str| info.get(k).map(|v| v.to_string()).unwrap_or_default();
            self.title = text("title");
            self.about = text("about");
        }
        if self.defines("options", 0) {
            let map = self.call_map("options", ())?;
            self.options =
                OptionSpec::from_map(&map).map_err(|m| self.contract_error("options", &m))?;
        }
        self.opts = self
            .options
            .iter()
            .map(|o| (o.name.as_str().into(), o.default.clone()))
            .collect();
        self.opts.insert("seed".into(), Dynamic::from(0 as INT));
        self.read_players()
    }

    fn read_players(&mut self) -> Result<(), Diagnostic> {
        self.players = if self.defines("players", 1) {
            let names = self
                .call("players", (self.opts.clone(),))
                .map_err(|e| self.eval_error(&e))?;
            let names: Vec<String> = names
                .into_typed_array::<Dynamic>()
                .map_err(|_| {
                    self.contract_error("players", "players(opts) must return an array of names")
                })?
                .iter()
                .map(|n| n.to_string())
                .collect();
            if !(1..=MAX_PLAYERS).contains(&names.len()) {
                return Err(self.contract_error(
                    "players",
                    &format!(
                        "players(opts) returned {} names; a game has 1 to {MAX_PLAYERS} players",
                        names.len()
                    ),
                ));
            }
            names
        } else {
            vec!["player 1".into(), "player 2".into()]
        };
        Ok(())
    }

    /// The game's name (the script's file name).
    pub fn name(&self) -> &str {
        &self.script.source.name
    }

    /// Where the script was read from (`builtin:NAME` or its path).
    pub fn label(&self) -> &str {
        &self.script.source.label
    }

    /// The script's title (from `info()`), or its name.
    pub fn title(&self) -> &str {
        if self.title.is_empty() {
            self.name()
        } else {
            &self.title
        }
    }

    /// The script's one-line description.
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The options the script declares.
    pub fn options(&self) -> &[OptionSpec] {
        &self.options
    }

    /// The chosen option values (plus `seed`), as scripts receive them.
    pub fn option_values(&self) -> &Map {
        &self.opts
    }

    /// Sets option `key` from its text. On error nothing changes.
    pub fn set_option(&mut self, key: &str, text: &str) -> Result<(), String> {
        let spec = self.options.iter().find(|o| o.name == key).ok_or_else(|| {
            let names: Vec<&str> = self.options.iter().map(|o| o.name.as_str()).collect();
            if names.is_empty() {
                format!("{} has no options", self.name())
            } else {
                let hint = crate::suggest::did_you_mean(key, names.iter().copied())
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default();
                format!(
                    "{} has no option '{key}' (options: {}){hint}",
                    self.name(),
                    names.join(", ")
                )
            }
        })?;
        let value = spec.parse(text)?;
        self.native_trusted.set(None);
        self.cell_moves.set(None);
        self.filter_answers.take();
        let old = self.opts.insert(key.into(), value);
        if let Err(d) = self.read_players() {
            if let Some(old) = old {
                self.opts.insert(key.into(), old);
            }
            return Err(d.message);
        }
        Ok(())
    }

    /// Sets the seed scripts see as `opts.seed`.
    pub fn set_seed(&mut self, seed: u64) {
        self.native_trusted.set(None);
        self.cell_moves.set(None);
        self.opts.insert("seed".into(), Dynamic::from(seed as INT));
    }

    /// Whether calls run the script's functions lowered for the runtime's own walker (`true`,
    /// the default) or all through Rhai's interpreter. Both give the same results and errors;
    /// this is for checking that they do.
    pub fn set_compiled(&self, on: bool) {
        self.caller.set_compiled(on);
        self.script.set_compiled(on);
    }

    /// How many of the script's functions the runtime's walker runs, of how many (the rest
    /// run in Rhai's interpreter).
    pub fn compiled_coverage(&self) -> (usize, usize) {
        self.caller.coverage()
    }

    /// Runs the script's functions with each statement recording its cost (see
    /// [`crate::walker::profile`]), for `boardrules profile`; play is slower so.
    pub fn profile_statements(&mut self) {
        self.caller.profile(&self.script.ast);
    }

    /// What Rhai's interpreter runs rather than the runtime's walker, and why.
    pub fn handed_to_rhai(&self) -> &[crate::walker::HandedToRhai] {
        self.caller.handed_to_rhai()
    }

    /// Whether `play` records the events the script emits (on by default; search turns it off).
    pub fn record_events(&self, on: bool) {
        self.events.borrow_mut().enabled = on;
    }

    /// Whether `play` records events now (see [`Self::record_events`]).
    pub fn recording_events(&self) -> bool {
        self.events.borrow().enabled
    }

    /// Every script text loaded for this game, for error reports.
    pub fn sources(&self) -> &Sources {
        &self.script.sources
    }

    /// A report pointing into the script for an error a game operation returned.
    pub fn describe(&self, err: &GameError) -> Diagnostic {
        match err {
            GameError::Rules {
                message,
                spot: Some(spot),
            } => self.sources().diagnostic(
                &format!("the rules script failed: {message}"),
                &spot.source,
                spot.line,
                spot.column,
                "here",
            ),
            other => Diagnostic::new(other.to_string()),
        }
    }

    /// The state as `render` draws it, with the script's `highlight` tags kept (see
    /// [`crate::markup`]); [`Game::render`] gives the same text without them.
    pub fn render_marked(&self, state: &Dynamic) -> Result<String, GameError> {
        self.call_as("render", (state.clone(),), GameError::BadText, "a string")
            .map(|s: rhai::ImmutableString| s.to_string())
    }

    /// The position as a native game family, if the script defines `native(state)` (and does not
    /// return `()` for it), and the native form agrees with the script: it is verified from the
    /// start once per script text and options (see [`super::verify`]) and dropped, with one
    /// warning, if it does not. Cheap after the first call.
    pub fn native(&self, state: &Dynamic) -> Result<Option<NativeGame>, GameError> {
        if !self.native_verified(None) {
            return Ok(None);
        }
        Ok(self.native_form(state)?.map(|(n, _)| n))
    }

    /// [`Self::native`], with the evaluation weights the script gives for search, if any. Before
    /// a search starts from `state`, the native form is verified again from `state` (once per
    /// position).
    pub fn native_with_weights(
        &self,
        state: &Dynamic,
    ) -> Result<Option<(NativeGame, Option<native_form::Weights>)>, GameError> {
        self.native_with_weights_within(state, super::verify::FROM_POSITION)
    }

    /// [`Self::native_with_weights`], verifying from `state` with `effort` (a search with
    /// little time gives it a share of that time: see [`super::verify::from_position_within`]).
    pub fn native_with_weights_within(
        &self,
        state: &Dynamic,
        effort: super::verify::Effort,
    ) -> Result<Option<(NativeGame, Option<native_form::Weights>)>, GameError> {
        if !self.native_verified(Some((state, effort))) {
            return Ok(None);
        }
        self.native_form(state)
    }

    /// The cells the player to move may play in the placement `position` (`y * width + x`):
    /// its empty cells, less those its move filter (asked from the script state `root`) and
    /// its judge (if any) refuse, asking the script's hooks.
    pub fn allowed_cells(
        &self,
        position: &crate::native_games::placement::Placement,
        root: &Dynamic,
    ) -> Result<Vec<u32>, GameError> {
        let mut referee = HookReferee::new(self, root);
        let cells = position.legal_cells(&mut referee);
        referee.finish().map(|()| cells)
    }

    /// Whether the native form may be used (verified from the start, and from `at`'s position
    /// with its effort if given).
    fn native_verified(&self, at: Option<(&Dynamic, super::verify::Effort)>) -> bool {
        if !self.defines("native", 1) {
            return false;
        }
        if at.is_none() {
            if let Some(known) = self.native_trusted.get() {
                return known;
            }
        }
        let ok = super::verify::trusted(self, self.verdict_key(), at);
        // A verification the command's time stopped gave no verdict: ask again next time.
        if ok || !crate::cancel::calls_stopped() {
            self.native_trusted.set(Some(ok));
        }
        ok
    }

    /// A hash of every script text loaded and the option values: the verdict's cache key.
    fn verdict_key(&self) -> u64 {
        let mut h = StableHasher::default();
        self.sources().hash_into(&mut h);
        hash_value(&Dynamic::from_map(self.opts.clone()), &mut h);
        h.finish()
    }

    /// What `native(state)` describes, unverified: `None` when the script defines no native
    /// form or returns `()` ("no native form here").
    pub fn native_form(
        &self,
        state: &Dynamic,
    ) -> Result<Option<(NativeGame, Option<native_form::Weights>)>, GameError> {
        if !self.defines("native", 1) {
            return Ok(None);
        }
        let value = self.call("native", (self.copied(state)?,)).map_err(|e| {
            self.failure(&e, |message| GameError::Rules {
                message,
                spot: None,
            })
        })?;
        if value.is_unit() {
            return Ok(None);
        }
        let type_name = value.type_name();
        let map = value.try_cast::<Map>().ok_or_else(|| {
            self.rules_error(format!(
                "native() returned {type_name}; it must return a map, or () for no native form"
            ))
        })?;
        let bad = |m: String| self.rules_error(format!("native(): {m}"));
        let game = match native_form::read(&map, self.players.len()).map_err(bad)? {
            NativeGame::Placement(p) if self.move_filter.is_some() => {
                NativeGame::Placement(p.filtered())
            }
            game => game,
        };
        if let NativeGame::Placement(p) = &game {
            if let Some(judge) = p.judge().filter(|j| !self.defines(&j.hook, 3)) {
                return Err(bad(format!(
                    "`judge.hook` is \"{}\", but the script defines no `{}(board, cell, player)`",
                    judge.hook, judge.hook
                )));
            }
        }
        if let NativeGame::Sowing(s) = &game {
            let hook = map
                .get("sowing")
                .and_then(|s| s.read_lock::<Map>()?.get("capturable").cloned());
            if let Some(hook) = hook.filter(|_| s.capture_hooked()) {
                let name = native_form::read_capture_hook(&hook).map_err(bad)?.hook;
                if !self.defines(&name, 2) {
                    return Err(bad(format!(
                        "`capturable.hook` is \"{name}\", but the script defines no `{name}(state, pit)`"
                    )));
                }
            }
        }
        let weights = native_form::weights(&map).map_err(bad)?;
        Ok(Some((game, weights)))
    }

    /// Plays uniformly random moves from `state` to the end; returns the outcome (`None` if the
    /// game did not end) and the number of moves. Runs natively when the script describes its
    /// position with `native(state)` (one script call per playout), else through the script with
    /// events off.
    pub fn random_playout(
        &self,
        state: &Dynamic,
        rng: &mut impl rand::Rng,
    ) -> Result<(Option<Outcome>, usize), GameError> {
        self.random_playout_until(state, rng, None)
    }

    /// Plays the native move `mv` on `position`, reached from the script state `from`, asking
    /// the script's capture hook as playouts do: whether the move and every capture it asked
    /// about were allowed (for verification).
    pub(crate) fn play_sowing_judged(
        &self,
        from: &Dynamic,
        position: &mut crate::native_games::sowing::Sowing,
        mv: crate::native_games::sowing::SowMove,
    ) -> bool {
        let mut referee = CaptureReferee::new(self, from);
        position.play_judged(mv, &mut referee).is_ok() && referee.finish().is_ok()
    }

    /// [`Self::random_playout`], giving up (with no outcome) at `deadline` when it runs through
    /// the script.
    pub fn random_playout_until(
        &self,
        state: &Dynamic,
        rng: &mut impl rand::Rng,
        deadline: Option<std::time::Instant>,
    ) -> Result<(Option<Outcome>, usize), GameError> {
        match self.native(state)? {
            Some(NativeGame::Placement(mut p)) => {
                let mut referee = HookReferee::new(self, state);
                let (outcome, plies) = p.random_playout_refereed(rng, &mut referee);
                referee.finish()?;
                return Ok((Some(outcome), plies));
            }
            Some(NativeGame::Sowing(s)) => {
                let mut s = self.sowing_narrowed(s, state)?;
                let mut referee = CaptureReferee::new(self, state);
                let result = s.random_playout_judged(rng, playout::MAX_PLIES, &mut referee);
                referee.finish()?;
                return Ok(result);
            }
            None => {}
        }
        self.random_playout_through_script(state, rng, deadline)
    }

    /// [`Self::random_playout_until`] through the script even if it has a native form, with
    /// events off.
    pub fn random_playout_through_script(
        &self,
        state: &Dynamic,
        rng: &mut impl rand::Rng,
        deadline: Option<std::time::Instant>,
    ) -> Result<(Option<Outcome>, usize), GameError> {
        let recording = self.recording_events();
        self.record_events(false);
        let result = self
            .copied(state)
            .and_then(|state| self.scripted_playout(state, rng, deadline));
        self.record_events(recording);
        result
    }

    /// The random playout through the script: the moves and the outcome as
    /// [`playout::random_playout_until`] plays them, but the state is owned and moved into each
    /// `play` (no copy of a state that is not kept), the chosen move is taken out of the list,
    /// no event is gathered, and `result` is asked only once `moves` is empty: the contract has
    /// the two agree (`boardrules check` tests it), so a position with legal moves goes on.
    fn scripted_playout(
        &self,
        mut state: Dynamic,
        rng: &mut impl rand::Rng,
        deadline: Option<std::time::Instant>,
    ) -> Result<(Option<Outcome>, usize), GameError> {
        for plies in 0..playout::MAX_PLIES {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Ok((None, plies));
            }
            let mut moves = self.move_list(&mut state)?;
            if moves.is_empty() {
                return match self.outcome(&state)? {
                    Some(outcome) => Ok((Some(outcome), plies)),
                    None => {
                        Err(self.rules_error("the game is not over but has no legal move".into()))
                    }
                };
            }
            let mv = moves.take(rng.random_range(0..moves.len()));
            // A primitive's list may share the board `play` changes (which would copy it).
            drop(moves);
            let next = match self.call("play", (state, mv)) {
                Ok(next) => next,
                // A listed move `play` refuses (a script bug `check` reports) ends the playout
                // undecided, as a search's playouts take it.
                Err(e) => match self.failure(&e, GameError::Illegal) {
                    GameError::Illegal(_) => return Ok((None, plies + 1)),
                    other => return Err(other),
                },
            };
            state = self.state_value("play", next)?;
        }
        Ok((None, playout::MAX_PLIES))
    }

    /// The legal moves as a playout takes them: [`Game::legal_moves`], or a primitive's
    /// compact list where `moves` returns one as it is.
    fn move_list(&self, state: &mut Dynamic) -> Result<MoveList, GameError> {
        let value = self
            .call_moves(state)
            .map_err(|e| self.failure(&e, GameError::Illegal))?;
        match value.try_cast_result::<NativeList>() {
            Ok(list) => Ok(MoveList::Native(list)),
            Err(value) => self
                .returned_as("moves", value, MOVES_ARE)
                .map(MoveList::Values),
        }
    }

    /// Whether the script defines `name` with `arity` parameters.
    pub fn defines(&self, name: &str, arity: usize) -> bool {
        self.script
            .ast
            .shared_lib()
            .get_script_fn(name, arity)
            .is_some()
    }

    /// The script's `levels()` (what each computer level means), or `None` when it defines none.
    pub fn levels(&self) -> Result<Option<Map>, GameError> {
        if !self.defines("levels", 0) {
            return Ok(None);
        }
        self.call_as("levels", (), GameError::Illegal, "a map")
            .map(Some)
    }

    /// What the script's `gomocup_rule(rule)` says Gomocup's `INFO rule` means for it (a map of
    /// options, with `game` naming another script to play instead), or `None` when it defines
    /// none. A `throw` (a rule it cannot play) is [`GameError::Illegal`] with its message.
    pub fn gomocup_rule(&self, rule: i64) -> Result<Option<Map>, GameError> {
        if !self.defines("gomocup_rule", 1) {
            return Ok(None);
        }
        self.call_as("gomocup_rule", (rule,), GameError::Illegal, "a map")
            .map(Some)
    }

    /// The script's `picture(state, last)` or `picture(state)` (hints on how to draw the state
    /// as a picture: see `crate::picture`), or `None` when it defines neither. `last` is the
    /// move that led to `state` (`()` when unknown).
    pub fn picture_hints(
        &self,
        state: &Dynamic,
        last: Option<&Dynamic>,
    ) -> Result<Option<Map>, GameError> {
        // A variant's `picture(state)` over its base's `picture(state, last)` (or the other way
        // round) is the one it means.
        let two = self.defines("picture", 2)
            && (!self.defines("picture", 1) || self.sources().arity_of("picture") == Some(2));
        if two {
            let last = last.cloned().unwrap_or(Dynamic::UNIT);
            return self
                .call_as(
                    "picture",
                    (state.clone(), last),
                    GameError::Illegal,
                    "a map",
                )
                .map(Some);
        }
        if !self.defines("picture", 1) {
            return Ok(None);
        }
        self.call_as("picture", (state.clone(),), GameError::Illegal, "a map")
            .map(Some)
    }

    /// The script's `evaluate(state, player)`, or `None` when it defines none.
    pub fn evaluate(&self, state: &Dynamic, player: usize) -> Result<Option<i64>, GameError> {
        if !self.defines("evaluate", 2) {
            return Ok(None);
        }
        let value: INT = self.call_as(
            "evaluate",
            (self.copied(state)?, player as INT),
            GameError::Illegal,
            "an integer",
        )?;
        let most = crate::runtime::MAX_EVALUATION;
        if !(-most..=most).contains(&value) {
            return Err(self.rules_error(format!(
                "evaluate() returned {value}; it must return a number from -{most} to {most} \
                 (beyond are won and lost positions)"
            )));
        }
        Ok(Some(value))
    }

    /// Whether `state` holds a random generator (an [`Rng`], anywhere in its maps and arrays):
    /// chance plays a part in what comes next, so search should sample it (see [`Self::reseed`]).
    pub fn has_chance(&self, state: &Dynamic) -> bool {
        holds_rng(state)
    }

    /// `state` with every random generator inside it (found through maps and arrays) replaced by
    /// a fresh one seeded from `seed` — the first found (maps in key order, arrays in order) with
    /// `seed` itself, the others with seeds mixed from `seed` and their place. Everything else
    /// is kept. Search plays moves from reseeded states to sample a future that chance decides,
    /// instead of the one the state's own generators already hold: two states that differ only
    /// in their generators reseed to equal states.
    pub fn reseed(&self, state: &Dynamic, seed: u64) -> Dynamic {
        let mut state = state.clone();
        reseed_value(&mut state, seed, &mut 0);
        state
    }

    fn ast(&self) -> &AST {
        &self.script.ast
    }

    /// A copy of `state` for a script call, or the error of a stopped call once the command's
    /// time is up part-way through a large one (see [`copying`]); `state` is as it was.
    fn copied(&self, state: &Dynamic) -> Result<Dynamic, GameError> {
        copying::copy_in_time(state).map_err(|_| {
            self.rules_error(
                "stopped: the command's time is up (or Ctrl-C) while the state was copied".into(),
            )
        })
    }

    /// The move filter recognised in `moves()`, if any (see [`super::move_filter`]).
    pub fn move_filter(&self) -> Option<&MoveFilter> {
        self.move_filter.as_ref()
    }

    fn call(&self, name: &str, args: impl FuncArgs) -> Result<Dynamic, Box<EvalAltResult>> {
        let _metered = sandbox::begin();
        let result = self
            .caller
            .call(&self.script.engine, self.ast(), name, args);
        result.map_err(|e| self.called(name, e))
    }

    /// `moves(state)` for a list of moves, which may come as a [`NativeList`], with `state`
    /// lent rather than copied (see [`Caller::call_for_list`]).
    fn call_moves(&self, state: &mut Dynamic) -> Result<Dynamic, Box<EvalAltResult>> {
        let _metered = sandbox::begin();
        let result = self
            .caller
            .call_for_list(&self.script.engine, self.ast(), "moves", state);
        result.map_err(|e| self.called("moves", e))
    }

    /// An error of the call of `name`: Rhai names only nested calls in its errors, so the
    /// called function is named too.
    fn called(&self, name: &str, e: Box<EvalAltResult>) -> Box<EvalAltResult> {
        let label = self.label().to_string();
        EvalAltResult::ErrorInFunctionCall(name.into(), label, e, rhai::Position::NONE).into()
    }

    fn call_map(&self, name: &str, args: impl FuncArgs) -> Result<Map, Diagnostic> {
        let value = self.call(name, args).map_err(|e| self.eval_error(&e))?;
        value.try_cast::<Map>().ok_or_else(|| {
            self.contract_error(
                name,
                &format!("{name}() must return an object map #{{ … }}"),
            )
        })
    }

    fn eval_error(&self, err: &EvalAltResult) -> Diagnostic {
        host::eval_diagnostic(err, self.sources(), self.label())
    }

    fn contract_error(&self, name: &str, message: &str) -> Diagnostic {
        match self.sources().definition(name) {
            Some((label, text, span)) => {
                Diagnostic::new(message).at(label, text, span, "defined here")
            }
            None => Diagnostic::new(message),
        }
    }

    /// Turns a script failure into a game error: a `throw` (or a runtime primitive's refusal) is
    /// the rules speaking, reported as `thrown`; anything else is a fault of the script.
    fn failure(&self, err: &EvalAltResult, thrown: ThrownAs) -> GameError {
        let found = innermost(err, self.sources(), self.label());
        if let EvalAltResult::ErrorRuntime(..) = found.error {
            return thrown(bare_message(found.error));
        }
        let spot = match found.pos.line() {
            Some(line) => Some(ScriptSpot {
                source: found.label,
                line,
                column: found.pos.position().unwrap_or(1),
            }),
            // No position (e.g. the operations limit): point at the function it happened in.
            None => found
                .function
                .and_then(|name| self.sources().definition_spot(&found.label, &name)),
        };
        GameError::Rules {
            message: self.sources().message(found.error),
            spot,
        }
    }

    fn rules_error(&self, message: String) -> GameError {
        GameError::Rules {
            message,
            spot: None,
        }
    }

    fn call_as<T: 'static + Clone>(
        &self,
        name: &str,
        args: impl FuncArgs,
        thrown: ThrownAs,
        expected: &str,
    ) -> Result<T, GameError> {
        let value = self
            .call(name, args)
            .map_err(|e| self.failure(&e, thrown))?;
        self.returned_as(name, value, expected)
    }

    /// What `name` returned, which must be a `T` (`expected` says what that is).
    fn returned_as<T: 'static + Clone>(
        &self,
        name: &str,
        value: Dynamic,
        expected: &str,
    ) -> Result<T, GameError> {
        let type_name = value.type_name();
        value.try_cast::<T>().ok_or_else(|| {
            self.rules_error(format!(
                "{name}() returned {type_name}; it must return {expected}"
            ))
        })
    }

    fn state_value(&self, name: &str, value: Dynamic) -> Result<Dynamic, GameError> {
        if value.is_unit() {
            Err(self.rules_error(format!(
                "{name}() returned (); it must return the state (end it with `state`)"
            )))
        } else {
            Ok(value)
        }
    }
}

impl Game for ScriptedGame {
    type State = Dynamic;
    type Move = Dynamic;

    fn player_names(&self) -> &[String] {
        &self.players
    }

    fn start(&self) -> Result<Dynamic, GameError> {
        let state = self
            .call("setup", (self.opts.clone(),))
            .map_err(|e| self.failure(&e, GameError::BadText))?;
        self.state_value("setup", state)
    }

    fn to_move(&self, state: &Dynamic) -> Result<usize, GameError> {
        let p: INT = self.call_as(
            "to_move",
            (self.copied(state)?,),
            GameError::Illegal,
            "a player index",
        )?;
        usize::try_from(p)
            .ok()
            .filter(|&p| p < self.players.len())
            .ok_or_else(|| {
                self.rules_error(format!(
                    "to_move() returned {p}, not a player index (0 to {})",
                    self.players.len() - 1
                ))
            })
    }

    fn legal_moves(&self, state: &Dynamic) -> Result<Vec<Dynamic>, GameError> {
        let state = self.copied(state)?;
        self.call_as::<Array>("moves", (state,), GameError::Illegal, MOVES_ARE)
    }

    fn play(&self, state: &Dynamic, mv: &Dynamic) -> Result<Played<Dynamic>, GameError> {
        let state = self.copied(state)?;
        self.events.borrow_mut().events.clear();
        let result = self.call("play", (state, mv.clone()));
        let recorded = std::mem::take(&mut self.events.borrow_mut().events);
        let state = result.map_err(|e| self.failure(&e, GameError::Illegal))?;
        let mut events = Vec::with_capacity(recorded.len());
        for (text, snapshot) in recorded {
            let board = match snapshot {
                Some(s) => Some(self.render(&s)?),
                None => None,
            };
            events.push(Event { text, board });
        }
        Ok(Played {
            state: self.state_value("play", state)?,
            events,
        })
    }

    fn outcome(&self, state: &Dynamic) -> Result<Option<Outcome>, GameError> {
        let r = self
            .call("result", (self.copied(state)?,))
            .map_err(|e| self.failure(&e, GameError::Illegal))?;
        if r.is_unit() {
            return Ok(None);
        }
        if let Ok(p) = r.as_int() {
            if let Some(p) = usize::try_from(p).ok().filter(|&p| p < self.players.len()) {
                return Ok(Some(Outcome::Win(p)));
            }
        }
        if r.clone().into_string().is_ok_and(|s| s == "draw") {
            return Ok(Some(Outcome::Draw));
        }
        Err(self.rules_error(format!(
            "result() returned {r}; it must return (), a player index or \"draw\""
        )))
    }

    fn parse_move(&self, state: &Dynamic, text: &str) -> Result<Dynamic, GameError> {
        self.call("parse_move", (state.clone(), text.to_string()))
            .map_err(|e| self.failure(&e, GameError::BadText))
    }

    fn format_move(&self, state: &Dynamic, mv: &Dynamic) -> Result<String, GameError> {
        let value = self
            .call("format_move", (state.clone(), mv.clone()))
            .map_err(|e| self.failure(&e, GameError::BadText))?;
        let text = value.to_string();
        if value.is_unit() || text.trim().is_empty() {
            return Err(self.rules_error(format!(
                "format_move() returned {value:?}; it must return the move's text"
            )));
        }
        Ok(text)
    }

    fn render(&self, state: &Dynamic) -> Result<String, GameError> {
        self.render_marked(state)
            .map(|text| crate::markup::strip(&text).into_owned())
    }

    fn parse_state(&self, text: &str, to_move: Option<usize>) -> Result<Dynamic, GameError> {
        let turn = to_move.map_or(Dynamic::UNIT, |p| Dynamic::from(p as INT));
        let state = self
            .call("parse_state", (text.to_string(), self.opts.clone(), turn))
            .map_err(|e| self.failure(&e, GameError::BadText))?;
        self.state_value("parse_state", state)
    }

    fn state_hash(&self, state: &Dynamic) -> u64 {
        let mut h = StableHasher::default();
        hash_value(state, &mut h);
        h.finish()
    }

    fn state_hash_in_time(&self, state: &Dynamic) -> Option<u64> {
        let mut h = StableHasher::default();
        hash_value_in_time(state, &mut h).ok()?;
        Some(h.finish())
    }

    fn definition(&self, function: &str) -> Option<ScriptSpot> {
        let label = self.sources().script_defining(function)?;
        self.sources().definition_spot(&label, function)
    }

    fn why_illegal(&self, state: &Dynamic, mv: &Dynamic) -> Result<Option<String>, GameError> {
        if !self.defines("why_illegal", 2) {
            return Ok(None);
        }
        // A `throw` is a reason too.
        let reason = match self.call("why_illegal", (state.clone(), mv.clone())) {
            Ok(value) => value,
            Err(e) => match self.failure(&e, GameError::Illegal) {
                GameError::Illegal(reason) => return Ok(Some(reason)),
                other => return Err(other),
            },
        };
        if reason.is_unit() {
            return Ok(Some(String::new()));
        }
        let type_name = reason.type_name();
        match reason.into_immutable_string() {
            Ok(text) => Ok(Some(text.to_string())),
            Err(_) => Err(self.rules_error(format!(
                "why_illegal() returned {type_name}; it must return a string (or () for no reason)"
            ))),
        }
    }

    fn move_hash(&self, mv: &Dynamic) -> Option<u64> {
        // A move's hash is never saved (search and legality checks use it within one run), so
        // it may use a faster hash than the stable one that saves keep for states.
        // A move too large to hash before the command's time is up has no hash (a search then
        // plays it every time it meets it).
        let mut h = MOVE_HASHER.build_hasher();
        hash_value_in_time(mv, &mut h).ok()?;
        Some(h.finish())
    }

    fn split_moves(&self, text: &str) -> Result<Vec<String>, GameError> {
        if !self.defines("split_moves", 1) {
            return Ok(vec![text.to_string()]);
        }
        let parts: Array = self.call_as(
            "split_moves",
            (text.to_string(),),
            GameError::BadText,
            "an array of move texts",
        )?;
        if parts.is_empty() && !text.trim().is_empty() {
            return Err(self.rules_error(format!(
                "split_moves() returned [] for \"{text}\"; it must return the move texts it holds"
            )));
        }
        Ok(parts.iter().map(|p| p.to_string()).collect())
    }

    fn warnings(&self, state: &Dynamic) -> Result<Vec<String>, GameError> {
        if !self.defines("warnings", 1) {
            return Ok(Vec::new());
        }
        let list: Array = self.call_as(
            "warnings",
            (state.clone(),),
            GameError::Illegal,
            "an array of strings",
        )?;
        Ok(list.iter().map(|w| w.to_string()).collect())
    }
}

/// How [`Game::move_hash`] hashes moves: fast, and fixed so that a search with the same seed
/// chooses the same move.
const MOVE_HASHER: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x5eed);

/// What `moves` must return.
const MOVES_ARE: &str = "an array of moves";

/// The legal moves a playout chooses from.
enum MoveList {
    /// The array `moves` returned.
    Values(Array),
    /// A primitive's list that `moves` returned as it is.
    Native(NativeList),
}

impl MoveList {
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn len(&self) -> usize {
        match self {
            MoveList::Values(moves) => moves.len(),
            MoveList::Native(list) => list.len(),
        }
    }

    /// Takes move `i` (the others are not wanted after).
    fn take(&mut self, i: usize) -> Dynamic {
        match self {
            MoveList::Values(moves) => moves.swap_remove(i),
            MoveList::Native(list) => list.item(i),
        }
    }
}

fn holds_rng(value: &Dynamic) -> bool {
    if value.is::<Rng>() {
        true
    } else if let Some(a) = value.read_lock::<Array>() {
        a.iter().any(holds_rng)
    } else if let Some(m) = value.read_lock::<Map>() {
        m.values().any(holds_rng)
    } else {
        false
    }
}

/// Replaces every [`Rng`] in `value`, the `found`-th from the start with a generator seeded from
/// `seed` and `found`.
fn reseed_value(value: &mut Dynamic, seed: u64, found: &mut u64) {
    if value.is::<Rng>() {
        // Distinct generators get distinct seeds (the golden-ratio step of SplitMix64).
        *value = Dynamic::from(Rng::new(
            seed.wrapping_add(found.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        ));
        *found += 1;
    } else if value.is_array() {
        if let Some(mut a) = value.write_lock::<Array>() {
            a.iter_mut().for_each(|v| reseed_value(v, seed, found));
        }
    } else if let Some(mut m) = value.write_lock::<Map>() {
        m.values_mut().for_each(|v| reseed_value(v, seed, found));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashing::tests::hash;

    /// A state like `#{ board: [1, 2], dice: [rng(a), 5], deck: #{ rng: rng(b) } }`.
    fn state(a: u64, b: u64) -> Dynamic {
        let mut deck = Map::new();
        deck.insert("rng".into(), Dynamic::from(Rng::new(b)));
        let mut m = Map::new();
        m.insert(
            "board".into(),
            Dynamic::from_array(vec![1.into(), 2.into()]),
        );
        let dice = vec![Dynamic::from(Rng::new(a)), Dynamic::from(5 as INT)];
        m.insert("dice".into(), Dynamic::from_array(dice));
        m.insert("deck".into(), Dynamic::from_map(deck));
        Dynamic::from_map(m)
    }

    fn rngs(value: &Dynamic) -> Vec<Rng> {
        let m = value.read_lock::<Map>().unwrap();
        let deck = m["deck"].read_lock::<Map>().unwrap()["rng"].clone_cast::<Rng>();
        let dice = m["dice"].read_lock::<Array>().unwrap()[0].clone_cast::<Rng>();
        vec![deck, dice]
    }

    #[test]
    fn reseeding_replaces_every_generator_and_nothing_else() {
        let (x, y) = (state(1, 2), state(3, 4));
        assert_ne!(hash(&x), hash(&y));
        let (rx, ry) = (reseed_once(&x, 9), reseed_once(&y, 9));
        assert_eq!(
            hash(&rx),
            hash(&ry),
            "states equal but for their generators"
        );
        // The map's keys come in order: `deck` before `dice`.
        assert_eq!(
            rngs(&rx),
            [
                Rng::new(9),
                Rng::new(9u64.wrapping_add(0x9E37_79B9_7F4A_7C15))
            ]
        );
        assert_ne!(hash(&reseed_once(&x, 10)), hash(&rx));
        // Everything but the generators is as it was.
        assert_eq!(hash(&reseed_once(&rx, 1)), hash(&reseed_once(&x, 1)));
        let board = rx.read_lock::<Map>().unwrap()["board"].clone();
        assert_eq!(board.into_typed_array::<INT>().unwrap(), [1, 2]);
        // The original is untouched.
        assert_eq!(rngs(&x), [Rng::new(2), Rng::new(1)]);
    }

    #[test]
    fn chance_is_found_anywhere_in_a_state() {
        assert!(holds_rng(&state(1, 2)));
        assert!(holds_rng(&Dynamic::from(Rng::new(0))));
        let plain: Dynamic = Dynamic::from_array(vec![Dynamic::from_map(Map::new()), 1.into()]);
        assert!(!holds_rng(&plain));
        let mut same = plain.clone();
        reseed_value(&mut same, 3, &mut 0);
        assert_eq!(hash(&same), hash(&plain));
    }

    fn reseed_once(value: &Dynamic, seed: u64) -> Dynamic {
        let mut v = value.clone();
        reseed_value(&mut v, seed, &mut 0);
        v
    }
}
