//! One table in play: a thread of its own holds the game (a rules script is not shared between
//! threads) and its history, judges moves with the script, stores each move before answering,
//! plays the computer's seats, and publishes every new state to the table's watchers.

use std::{
    sync::{mpsc, Arc},
    thread,
    time::Duration,
};

use rhai::Dynamic;
use serde_json::{json, Value};
use tokio::sync::{broadcast, oneshot};

use super::{
    seats::{seat_of, Seat, SeatKind},
    store::{Store, Summary, TableRecord},
    Failure,
};
use crate::{
    driver::{apply_option, check_input_size, move_error},
    picture,
    runtime::{Game, GameError, History, Outcome},
    script::{sandbox::limits, Library, ScriptedGame},
    search::player,
    terminal::clean,
};

/// How long a table's thread waits for a request before it ends (it starts again on demand).
const IDLE: Duration = Duration::from_secs(600);
/// Above this many legal moves, the picture's moves are not matched to the spots they change
/// (the page offers the typed move and the list instead).
const MOST_CLICKABLE: usize = 600;

/// The answer to a request: a JSON value, or why not.
pub type Answer = Result<Arc<Value>, Failure>;

/// What a table's thread is asked.
pub enum Request {
    /// The current state.
    View(oneshot::Sender<Answer>),
    /// The picture of the current state, with the spots each legal move changes.
    Picture(oneshot::Sender<Answer>),
    /// Play `text` for the seat whose token is `token`.
    Play {
        /// The seat's token.
        token: String,
        /// The move.
        text: String,
        /// Where the answer goes.
        reply: oneshot::Sender<Answer>,
    },
    /// The finished game as a trace file (`null` while it is not over).
    Export(oneshot::Sender<Answer>),
    /// Renames a seat (its player joined with a name), and tells the watchers.
    Rename(usize, String),
    /// Records the table opened as this one's rematch, and tells the watchers.
    Rematch(String),
}

/// Who hears of a table's changes: its own watchers (the table's page) get each new state,
/// the teacher's page a summary of the table.
pub struct Watchers {
    /// The table's states.
    pub table: broadcast::Sender<Arc<Value>>,
    /// Every table's summaries.
    pub teacher: broadcast::Sender<Arc<Value>>,
}

/// Starts the thread of table `record`: loads its game and replays its moves (storing the table
/// first when `new`). Returns the thread's request queue, or why the table cannot be played.
pub fn start(
    record: TableRecord,
    new: bool,
    library: Library,
    store: Arc<Store>,
    updates: Watchers,
) -> Result<mpsc::Sender<Request>, Failure> {
    let (requests, queue) = mpsc::channel();
    let (ready, started) = std::sync::mpsc::channel();
    thread::Builder::new()
        .name(format!("table {}", record.id))
        .spawn(move || {
            let mut table = match Table::open(record, new, &library, store, updates) {
                Ok(table) => table,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let _ = ready.send(Ok(()));
            table.computer_moves();
            while let Ok(request) = queue.recv_timeout(IDLE) {
                table.answer(request);
            }
        })
        .map_err(|e| Failure::Broken(format!("cannot start the table's thread: {e}")))?;
    started
        .recv()
        .map_err(|_| Failure::Broken("the table's thread stopped while loading".into()))??;
    Ok(requests)
}

/// A table's game, history and seats.
struct Table {
    record: TableRecord,
    game: ScriptedGame,
    history: History<ScriptedGame>,
    store: Arc<Store>,
    updates: Watchers,
    view: Arc<Value>,
}

impl Table {
    fn open(
        record: TableRecord,
        new: bool,
        library: &Library,
        store: Arc<Store>,
        updates: Watchers,
    ) -> Result<Table, Failure> {
        let mut game = ScriptedGame::load(library, &record.game)
            .map_err(|ds| Failure::Invalid(clean(&ds[0].render(false)).into_owned()))?;
        for setting in &record.options {
            apply_option(&mut game, setting).map_err(|(_, message)| {
                Failure::Invalid(clean(&format!("bad option '{setting}': {message}")).into_owned())
            })?;
        }
        game.set_seed(record.seed);
        let mut record = record;
        if record.seats.is_empty() {
            record.seats = game
                .player_names()
                .iter()
                .map(|_| Seat::new(SeatKind::Human, String::new()))
                .collect();
        }
        for (i, seat) in record.seats.iter_mut().enumerate() {
            if seat.name.is_empty() {
                seat.name = match seat.kind {
                    SeatKind::Computer(level) => format!("computer ({})", level.name()),
                    _ => clean(&game.player_name(i)).into_owned(),
                };
            }
        }
        if record.seats.len() != game.player_names().len() {
            return Err(Failure::Invalid(format!(
                "{} has {} players: give one seat each (you gave {})",
                game.name(),
                game.player_names().len(),
                record.seats.len()
            )));
        }
        let start = game
            .start()
            .map_err(|e| Failure::Invalid(describe(&game, &e)))?;
        let (history, failed) =
            History::replay(&game, start, record.moves.iter().map(String::as_str));
        if let Some((ply, e)) = failed {
            // The script changed since: keep what still replays (the data file keeps all).
            eprintln!(
                "table {}: move {} ('{}') no longer replays: {}",
                record.id,
                ply + 1,
                clean(&record.moves[ply]),
                clean(&e.to_string())
            );
        }
        if new {
            record.number = store.add_table(&record).map_err(Failure::Broken)?;
        }
        let mut table = Table {
            record,
            game,
            history,
            store,
            updates,
            view: Arc::new(Value::Null),
        };
        table.view = Arc::new(table.state_json());
        if new {
            let _ = table.updates.teacher.send(Arc::new(table.summary()));
        }
        Ok(table)
    }

    /// Takes the new state as the current view and tells the table's and the teacher's
    /// watchers.
    fn publish(&mut self) {
        self.view = Arc::new(self.state_json());
        let _ = self.updates.table.send(self.view.clone());
        let _ = self.updates.teacher.send(Arc::new(self.summary()));
    }

    /// The table in a few words, as the teacher's list shows it.
    fn summary(&self) -> Value {
        let (result, reason) = match self.history.outcome(&self.game) {
            Ok(Some(outcome)) => (
                Some(result_code(outcome, self.record.seats.len()).to_string()),
                Some(clean(&self.game.describe_outcome(outcome)).into_owned()),
            ),
            _ => (None, None),
        };
        let r = &self.record;
        json!(Summary {
            id: r.id.clone(),
            number: r.number,
            game: r.game.clone(),
            options: r.options.clone(),
            seed: r.seed,
            result,
            reason,
            ply: r.moves.len(),
            seats: r
                .seats
                .iter()
                .map(|s| (s.kind.to_string(), s.name.clone()))
                .collect(),
        })
    }

    fn answer(&mut self, request: Request) {
        match request {
            Request::View(reply) => {
                let _ = reply.send(Ok(self.view.clone()));
            }
            Request::Picture(reply) => {
                let _ = reply.send(self.picture().map(Arc::new));
            }
            Request::Export(reply) => {
                let _ = reply.send(Ok(Arc::new(self.export())));
            }
            Request::Rename(seat, name) => {
                if let Some(s) = self.record.seats.get_mut(seat) {
                    s.name = name;
                }
                self.publish();
            }
            Request::Rematch(id) => {
                self.record.rematch = Some(id);
                self.publish();
            }
            Request::Play { token, text, reply } => {
                let answer = self.play(&token, &text).map(|()| self.view.clone());
                let played = answer.is_ok();
                let _ = reply.send(answer);
                if played {
                    self.computer_moves();
                }
            }
        }
    }

    /// Plays `text` for the seat of `token`; on any failure nothing changes.
    fn play(&mut self, token: &str, text: &str) -> Result<(), Failure> {
        let Some(seat) = seat_of(&self.record.seats, token) else {
            return Err(Failure::Forbidden(
                "this is not a seat's token at this table".into(),
            ));
        };
        check_input_size("the move", text, limits::INPUT)
            .map_err(|d| Failure::Illegal(clean(&d.render(false)).into_owned()))?;
        let state = self.history.current();
        if let Some(outcome) = self.game.outcome(state).map_err(|e| self.broken(&e))? {
            let result = self.game.describe_outcome(outcome);
            return Err(Failure::Conflict(
                clean(&format!("the game is over: {result}")).into_owned(),
            ));
        }
        let to_move = self.game.to_move(state).map_err(|e| self.broken(&e))?;
        if to_move != seat {
            return Err(Failure::Conflict(format!(
                "it is not your turn: {} is to move",
                clean(&self.game.player_name(to_move))
            )));
        }
        if let Err(e) = self.history.play_text(&self.game, text) {
            let rendered = move_error(&self.game, &e, "move", text, 0..text.len(), text);
            return Err(match e {
                GameError::Rules { .. } => self.broken(&e),
                _ => Failure::Illegal(clean(&rendered.render(false)).into_owned()),
            });
        }
        self.commit()
    }

    /// Stores the move just played (taking it back if it cannot be stored), then tells the
    /// watchers.
    fn commit(&mut self) -> Result<(), Failure> {
        let ply = self.history.ply() - 1;
        let text = self.history.steps()[ply].text.clone();
        if let Err(e) = self.store.add_move(&self.record.id, ply, &text) {
            self.history.undo();
            return Err(Failure::Broken(e));
        }
        self.record.moves.push(text);
        if let Ok(Some(outcome)) = self.history.outcome(&self.game) {
            let reason = clean(&self.game.describe_outcome(outcome)).into_owned();
            let result = result_code(outcome, self.record.seats.len());
            self.store
                .set_result(&self.record.id, result, &reason)
                .map_err(Failure::Broken)?;
        }
        self.publish();
        Ok(())
    }

    /// Plays the computer's seats while one of them is to move.
    fn computer_moves(&mut self) {
        loop {
            let state = self.history.current();
            if !matches!(self.game.outcome(state), Ok(None)) {
                return;
            }
            let Ok(to_move) = self.game.to_move(state) else {
                return;
            };
            let SeatKind::Computer(level) = self.record.seats[to_move].kind else {
                return;
            };
            let seed = self.record.seed ^ self.history.ply() as u64;
            let Ok(Some(hint)) = player::choose(&self.game, state, level, None, seed) else {
                return;
            };
            if self.history.play(&self.game, &hint.mv).is_err() || self.commit().is_err() {
                return;
            }
        }
    }

    fn broken(&self, e: &GameError) -> Failure {
        Failure::Broken(describe(&self.game, e))
    }

    /// The state as the API gives it.
    fn state_json(&self) -> Value {
        let game = &self.game;
        let state = self.history.current();
        let text = |s: &str| clean(s).into_owned();
        let outcome = game.outcome(state);
        let over = matches!(outcome, Ok(Some(_)));
        let to_move = if over { None } else { game.to_move(state).ok() };
        let legal = if over {
            Ok(Vec::new())
        } else {
            legal_texts(game, state)
        };
        let step = self.history.steps().last();
        let problem = [outcome.as_ref().err(), legal.as_ref().err()]
            .into_iter()
            .flatten()
            .next()
            .map(|e| describe(game, e));
        json!({
            "id": self.record.id,
            "number": self.record.number,
            "game": game.name(),
            "title": text(game.title()),
            "options": self.record.options,
            "players": game.player_names().iter().map(|n| text(n)).collect::<Vec<_>>(),
            "seats": self.record.seats.iter().enumerate().map(|(i, s)| json!({
                "player": text(&game.player_name(i)),
                "kind": s.kind.to_string(),
                "name": text(&s.name),
            })).collect::<Vec<_>>(),
            "moves": self.record.moves.iter().map(|m| text(m)).collect::<Vec<_>>(),
            "ply": self.history.ply(),
            "to_move": to_move,
            "to_move_name": to_move.map(|p| text(&game.player_name(p))),
            "legal": legal.unwrap_or_default().iter().map(|m| text(m)).collect::<Vec<_>>(),
            "result": outcome.as_ref().ok().copied().flatten().map(|o| text(&game.describe_outcome(o))),
            "winner": match outcome { Ok(Some(Outcome::Win(p))) => Some(p), _ => None },
            "board": game.render(state).map(|b| text(&b)).unwrap_or_default(),
            "events": step.map(|s| s.events.iter().map(|e| text(&e.text)).collect::<Vec<_>>()).unwrap_or_default(),
            "warnings": game.warnings(state).unwrap_or_default().iter().map(|w| text(w)).collect::<Vec<_>>(),
            "problem": problem,
            "rematch": self.record.rematch,
        })
    }

    /// The picture, its spots, and for each legal move the spots it changes.
    fn picture(&self) -> Result<Value, Failure> {
        let game = &self.game;
        let state = self.history.current();
        let theme = crate::repl::theme::Theme::load_built_in("plain");
        let palette = theme
            .map(|t| t.palette(game.name()))
            .unwrap_or_else(|| picture::Palette::new([], []));
        let last = self.history.steps().last().map(|step| &step.mv);
        let svg = picture::svg(game, state, last, &palette).map_err(|e| self.broken(&e))?;
        let spots = picture::spots(game, state).map_err(|e| self.broken(&e))?;
        let over = matches!(game.outcome(state), Ok(Some(_)));
        let legal = if over {
            Vec::new()
        } else {
            game.legal_moves(state).unwrap_or_default()
        };
        let mut moves = Vec::new();
        if legal.len() <= MOST_CLICKABLE {
            for mv in &legal {
                let (Ok(text), Ok(played)) = (game.format_move(state, mv), game.play(state, mv))
                else {
                    continue;
                };
                let after = picture::spots(game, &played.state).unwrap_or_default();
                let changed: Vec<usize> = spots
                    .iter()
                    .zip(&after)
                    .enumerate()
                    .filter(|(_, (a, b))| a.value != b.value)
                    .map(|(i, _)| i)
                    .collect();
                moves.push(json!({ "move": clean(&text), "spots": changed }));
            }
        }
        Ok(json!({ "svg": svg, "spots": spots, "moves": moves }))
    }

    /// The finished game as a trace file (`null` while it is not over).
    fn export(&self) -> Value {
        match self.history.outcome(&self.game) {
            Ok(Some(outcome)) => json!({ "trace": self.trace(outcome) }),
            _ => json!({ "trace": null }),
        }
    }

    /// The game as a trace file that `boardrules test` replays: the moves, then the final
    /// rendering and the result.
    fn trace(&self, outcome: Outcome) -> String {
        let game = &self.game;
        let mut out = format!(
            "# Table {} of the class server ({}).\ngame: {}\n",
            self.record.id,
            self.record
                .seats
                .iter()
                .map(|s| clean(&s.name).into_owned())
                .collect::<Vec<_>>()
                .join(" vs "),
            game.name()
        );
        for o in &self.record.options {
            out += &format!("option: {o}\n");
        }
        out += &format!("seed: {}\n", self.record.seed);
        let moves = &self.record.moves;
        if let Some((last, before)) = moves.split_last() {
            if !before.is_empty() {
                out += &format!("> {}\n", before.join(" "));
            }
            out += &format!("> {last}\n");
        }
        for line in game
            .render(self.history.current())
            .unwrap_or_default()
            .lines()
        {
            out += &format!("{line}\n");
        }
        out += &format!("result: {}\n", game.describe_outcome(outcome));
        out
    }
}

/// A result as journals write it: `1-0`, `0-1` or `1/2-1/2` for two players, `over` otherwise.
fn result_code(outcome: Outcome, players: usize) -> &'static str {
    match (outcome, players) {
        (_, n) if n != 2 => "over",
        (Outcome::Win(0), _) => "1-0",
        (Outcome::Win(_), _) => "0-1",
        (Outcome::Draw, _) => "1/2-1/2",
    }
}

/// A game error in words, with the script's spot.
fn describe(game: &ScriptedGame, e: &GameError) -> String {
    clean(&game.describe(e).render(false)).into_owned()
}

/// The legal moves of `state` in canonical notation.
fn legal_texts(game: &ScriptedGame, state: &Dynamic) -> Result<Vec<String>, GameError> {
    game.legal_moves(state)?
        .iter()
        .map(|mv| game.format_move(state, mv))
        .collect()
}
