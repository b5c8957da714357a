//! The brain's game: which rules script plays under the manager's `INFO rule`, the position so
//! far, and the brain's own moves.

use std::time::{Duration, Instant};

use rhai::Dynamic;

use super::clock::Clock;
use crate::{
    diag::Diagnostic,
    runtime::{Cell, Game, History},
    script::{Library, ScriptedGame},
    search::player::{self, Level, Tuning},
};

/// Without a script's `gomocup_rule(rule)`, the rule bits that set an option the script has:
/// bit 1 "exactly five" (`exact`), bit 8 "a line blocked at both ends does not win"
/// (`block_rule`). Other bits (2 continuous game, 4 renju) need the script to say how.
const RULE_BITS: [(u32, &str); 2] = [(1, "exact"), (8, "block_rule")];

/// How many stones `BOARD` may try to place (and take back) while looking for an order in
/// which no stone but the last ends the game.
const PLACING_BUDGET: usize = 20_000;

/// The longest `START` (and a rule or a restart that begins a game) spends verifying the
/// script's native form from the empty board before it answers, so that the first move's clock
/// does not pay for it: a verification can take longer than the quarter second a first move
/// gets at `tc=10/5`, which then had no time to search and played the corner. Managers give
/// `START` seconds (the match manager we test with gives 3 s).
const WARM_UP: Duration = Duration::from_millis(1500);

/// The brain's game.
pub struct Brain {
    library: Library,
    /// The game named on the command line.
    name: String,
    rule: Option<u32>,
    size: usize,
    game: Option<(ScriptedGame, History<ScriptedGame>)>,
    /// The rule and size `game`'s script was configured for: a new game of the same ones
    /// (`START`, `RESTART`, `BOARD`) keeps the loaded script.
    configured_for: Option<(Option<u32>, usize)>,
    /// What the manager said about time.
    pub clock: Clock,
    /// The deepest search, in moves (`INFO max_depth`); `None`: as deep as the time allows.
    pub max_depth: Option<usize>,
    /// The most positions a move's search visits (`INFO max_node`); `None`: as many as the
    /// time allows.
    pub max_nodes: Option<u64>,
}

impl Brain {
    /// A brain for the game `name` (checked now, so a bad script is reported at once).
    pub fn new(name: &str) -> Result<Brain, Vec<Diagnostic>> {
        let library = Library::discover();
        ScriptedGame::load(&library, name)?;
        Ok(Brain {
            library,
            name: name.to_string(),
            rule: None,
            size: 15,
            game: None,
            configured_for: None,
            clock: Clock::default(),
            max_depth: None,
            max_nodes: None,
        })
    }

    /// `INFO rule`: checked at once (a rule the game cannot play is an error now, not a
    /// different game later), and applied to a game that has not begun.
    pub fn set_rule(&mut self, rule: u32) -> Result<(), String> {
        let game = self.configured(Some(rule), self.size)?;
        self.rule = Some(rule);
        if self.game.as_ref().is_some_and(|(_, h)| h.ply() == 0) {
            self.begin(game, self.size)?;
        }
        Ok(())
    }

    /// `START size`: a new game (the search forgets the positions of the last one). The
    /// script already loaded for this rule and size is kept (loading a variant and the base
    /// script it imports again took longer than placing a `BOARD`'s stones).
    pub fn start(&mut self, size: usize) -> Result<(), String> {
        let same = self.configured_for == Some((self.rule, size));
        let kept = if same { self.game.take() } else { None };
        let game = match kept {
            Some((game, _)) => game,
            None => self.configured(self.rule, size)?,
        };
        self.begin(game, size)
    }

    /// A new game of `game`, the script configured for the rule and `size`.
    fn begin(&mut self, game: ScriptedGame, size: usize) -> Result<(), String> {
        crate::native_games::placement::search::forget_memory();
        let start = game.start().map_err(|e| e.to_string())?;
        warm_up(&game, &start);
        self.size = size;
        self.game = Some((game, History::new(start)));
        self.configured_for = Some((self.rule, size));
        Ok(())
    }

    /// `RESTART`: a new game of the same size (after a `START`).
    pub fn restart(&mut self) -> Result<(), String> {
        self.game()?;
        self.start(self.size)
    }

    /// The script and options that play `rule` on a board of `size`.
    fn configured(&self, rule: Option<u32>, size: usize) -> Result<ScriptedGame, String> {
        let load =
            |name: &str| ScriptedGame::load(&self.library, name).map_err(|d| d[0].message.clone());
        let mut game = load(&self.name)?;
        if let Some(rule) = rule {
            let settings = rule_settings(&game, rule)?;
            if let Some(other) = settings.get("game") {
                game = load(&other.to_string())?;
            }
            for (key, value) in settings.iter().filter(|(k, _)| k.as_str() != "game") {
                game.set_option(key, &value.to_string())
                    .map_err(|e| format!("rule {rule}: {e}"))?;
            }
        }
        game.set_option("size", &size.to_string())
            .map_err(|e| format!("unsupported size {size}: {e}"))?;
        Ok(game)
    }

    fn game(&mut self) -> Result<&mut (ScriptedGame, History<ScriptedGame>), String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    /// The move at `x,y`: the cell itself for a script whose moves are cells (whether it is
    /// legal is checked as it is played: see [`Self::play_move`]), else the legal move at
    /// `x,y`.
    fn move_at(game: &ScriptedGame, state: &Dynamic, cell: Cell) -> Result<Dynamic, String> {
        if game.moves_are_cells() {
            return Ok(Dynamic::from(cell));
        }
        Self::listed_move(game, state, cell)
    }

    /// The move at `x,y` among the script's legal moves.
    fn listed_move(game: &ScriptedGame, state: &Dynamic, cell: Cell) -> Result<Dynamic, String> {
        game.legal_moves(state)
            .map_err(|e| e.to_string())?
            .into_iter()
            .find(|m| m.clone().try_cast::<Cell>() == Some(cell))
            .ok_or_else(|| format!("{},{} is not a legal move", cell.x, cell.y))
    }

    /// `TURN x,y`: the opponent's move.
    pub fn play_at(&mut self, text: &str) -> Result<(), String> {
        let cell = parse_xy(text)?;
        let (game, history) = self.game()?;
        let played = Self::move_at(game, history.current(), cell)
            .and_then(|mv| Self::play_move(game, history, &mv));
        if played.is_err() {
            // Refused: the manager is told as ever, from the script's list of moves.
            let mv = Self::listed_move(game, history.current(), cell)?;
            history.play(game, &mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Plays a move (the opponent's, a `BOARD`'s stone, the search's choice), refused where the
    /// rules refuse it, with the rules' message; the verified native form says whether it is
    /// legal where it can ([`ScriptedGame::play_allowed`]).
    fn play_move(
        game: &ScriptedGame,
        history: &mut History<ScriptedGame>,
        mv: &Dynamic,
    ) -> Result<(), String> {
        history
            .play_checked(game, mv, |state, mv, text| {
                game.play_allowed(state, mv, text)
            })
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// `TAKEBACK x,y`: takes back the last move, which must be at `x,y`.
    pub fn take_back(&mut self, text: &str) -> Result<(), String> {
        let cell = parse_xy(text)?;
        let (_, history) = self.game()?;
        let last = history
            .steps()
            .last()
            .and_then(|s| s.mv.clone().try_cast::<Cell>());
        if last != Some(cell) {
            return Err(format!("{text} is not the last move"));
        }
        history.undo();
        Ok(())
    }

    /// Chooses and plays our move (for a command that arrived at `arrived` and was taken up at
    /// `began`); returns it as `x,y` and why (moves in it written `x,y` too). The time the
    /// command waited is taken from its search; what the move cost beyond the search is
    /// measured for the clock ([`Clock::measured`]).
    pub fn reply(
        &mut self,
        default_time: Duration,
        (arrived, began): (Instant, Instant),
    ) -> Result<(Cell, String), String> {
        let clock = self.clock;
        let (game, history) = self.game()?;
        let empty = game
            .moves_left(history.current())
            .map_err(|e| e.to_string())?;
        let waited = began.saturating_duration_since(arrived);
        let time = clock
            .budget(empty, default_time)
            .saturating_sub(waited)
            .max(Duration::from_millis(1));
        let played = self.play_best(time);
        self.clock.measured(time, began.elapsed());
        played
    }

    /// Chooses our move with `time` to search, and plays it.
    fn play_best(&mut self, time: Duration) -> Result<(Cell, String), String> {
        let tuning = self.tuning(time);
        let (game, history) = self.game()?;
        let state = history.current().clone();
        let seed = history.ply() as u64;
        let hint = player::choose_tuned(game, &state, Level::Hard, tuning, seed)
            .map_err(|e| e.to_string())?;
        let (mv, reason) = match hint {
            Some(hint) => (hint.mv, in_xy(game, &state, &hint.reason)),
            // Stopped (YXSTOP) before a move was looked at: the first the rules list.
            None if game.outcome(&state).map_err(|e| e.to_string())?.is_none() => {
                let moves = game.legal_moves(&state).map_err(|e| e.to_string())?;
                let first = moves.into_iter().next().ok_or("there is no legal move")?;
                (first, "stopped before any move was searched".into())
            }
            None => return Err("the game is over".into()),
        };
        let cell = mv
            .clone()
            .try_cast::<Cell>()
            .ok_or("moves of this game are not cells")?;
        Self::play_move(game, history, &mv)?;
        Ok((cell, reason))
    }

    /// `SWAP2BOARD`: the swap2 opening, the stones so far given as `x,y` lines. With none, three
    /// stones (black, white, black) as balanced as the search can tell among a few shapes. With
    /// three (we are the second player, white to move), from the search's evaluation: `SWAP`
    /// (taking black) if white is worse off, else white's best stone, then either that stone
    /// alone (`x,y`) or, when [`two_more`] says so, it and black's best reply (`x,y x,y`),
    /// leaving the choice of colour to the first player. With five (white to move), `SWAP` if
    /// the search finds white worse off, else white's move, played. Each search takes a share
    /// of the time of a move.
    pub fn swap2(&mut self, lines: &[String], default_time: Duration) -> Result<String, String> {
        let cells = lines
            .iter()
            .map(|l| parse_xy(l))
            .collect::<Result<Vec<_>, _>>()?;
        self.game()?;
        let time = self.clock.budget(self.size * self.size, default_time);
        match cells.len() {
            0 => self.swap2_opening(time),
            3 => {
                self.set_up(&cells)?;
                let Some((white, for_white)) = self.evaluated(time / 2)? else {
                    return Err("the game is over".into());
                };
                if for_white < 0 {
                    return Ok("SWAP".into());
                }
                let white = self.play_cell(white)?;
                match self.evaluated(time / 2)? {
                    Some((black, for_black)) if two_more(for_black) => {
                        let black = self.play_cell(black)?;
                        Ok(format!("{},{} {},{}", white.x, white.y, black.x, black.y))
                    }
                    _ => Ok(format!("{},{}", white.x, white.y)),
                }
            }
            5 => {
                self.set_up(&cells)?;
                let Some((mv, score)) = self.evaluated(time)? else {
                    return Err("the game is over".into());
                };
                if score < 0 {
                    return Ok("SWAP".into());
                }
                let cell = self.play_cell(mv)?;
                Ok(format!("{},{}", cell.x, cell.y))
            }
            n => Err(format!(
                "SWAP2BOARD with {n} stones: 0, 3 or 5 are expected"
            )),
        }
    }

    /// Plays `mv`, a cell, in the game in progress; the cell.
    fn play_cell(&mut self, mv: Dynamic) -> Result<Cell, String> {
        let (game, history) = self.game()?;
        Self::play_move(game, history, &mv)?;
        mv.try_cast::<Cell>()
            .ok_or_else(|| "moves of this game are not cells".to_string())
    }

    /// Three opening stones: of a few shapes around the centre, the one whose position the
    /// search scores nearest to even for white, to move.
    fn swap2_opening(&mut self, time: Duration) -> Result<String, String> {
        let c = (self.size / 2) as i64;
        let shapes: [[(i64, i64); 3]; 4] = [
            [(0, 0), (1, 0), (2, 2)],
            [(0, 0), (1, 1), (2, 0)],
            [(0, 0), (0, 1), (1, 2)],
            [(0, 0), (2, 0), (1, 2)],
        ];
        let share = time / shapes.len() as u32;
        let mut best: Option<(i64, [Cell; 3])> = None;
        for shape in shapes {
            let stones = shape.map(|(dx, dy)| Cell::new(c + dx, c + dy));
            self.set_up(&stones)?;
            let score = self.evaluated(share)?.map_or(0, |(_, s)| s);
            if best.is_none_or(|(b, _)| score.abs() < b.abs()) {
                best = Some((score, stones));
            }
        }
        let stones = best
            .map(|(_, s)| s)
            .ok_or("no opening shape fits the board")?;
        self.set_up(&stones)?;
        let text: Vec<String> = stones.iter().map(|c| format!("{},{}", c.x, c.y)).collect();
        Ok(text.join(" "))
    }

    /// The search's time, depth and positions for a move given `time`.
    fn tuning(&self, time: Duration) -> Tuning {
        Tuning {
            time: Some(time),
            depth: self.max_depth,
            nodes: self.max_nodes,
        }
    }

    /// A new game with `stones` played in turn (black first).
    fn set_up(&mut self, stones: &[Cell]) -> Result<(), String> {
        self.start(self.size)?;
        let (game, history) = self.game()?;
        for &cell in stones {
            let mv = Self::move_at(game, history.current(), cell)?;
            Self::play_move(game, history, &mv)?;
        }
        Ok(())
    }

    /// The search's move and score (for the player to move; 0 where it gives none), with
    /// `time`; `None` when the game is over.
    fn evaluated(&mut self, time: Duration) -> Result<Option<(Dynamic, i64)>, String> {
        let tuning = self.tuning(time);
        let (game, history) = self.game()?;
        let state = history.current().clone();
        let seed = history.ply() as u64;
        let hint = player::choose_tuned(game, &state, Level::Hard, tuning, seed)
            .map_err(|e| e.to_string())?;
        Ok(hint.map(|h| (h.mv, h.score.unwrap_or(0))))
    }

    /// `BOARD`: a new game holding `stones` (`x,y,1` ours, `x,y,2` theirs, in any order), we
    /// being to move. The stones are placed in an order in which none but the last ends the game,
    /// so a position is judged as a whole, whatever order the manager lists it in.
    pub fn board(&mut self, lines: &[String]) -> Result<(), String> {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for line in lines {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let (x, y, who) = match fields.as_slice() {
                [x, y, who] => (x, y, *who),
                _ => return Err(format!("'{}' is not x,y,field", clip(line))),
            };
            let cell = parse_xy(&format!("{x},{y}"))?;
            match who {
                "1" => ours.push(cell),
                "2" => theirs.push(cell),
                "3" => return Err("field 3 (a continuous game's stones) is not supported".into()),
                _ => return Err(format!("'{}': the field must be 1 or 2", clip(line))),
            }
        }
        self.game()?;
        let lists = match theirs.len().checked_sub(ours.len()) {
            Some(0) => [ours, theirs],
            Some(1) => [theirs, ours],
            _ => return Err("the stone counts do not fit us being to move".into()),
        };
        self.start(self.size)?;
        let (game, history) = self.game()?;
        let mut budget = PLACING_BUDGET;
        match place(game, history, lists, 0, &mut budget) {
            Ok(true) => Ok(()),
            Ok(false) => Err("no order of these stones is a legal game".into()),
            Err(e) => Err(e),
        }
    }
}

/// Verifies `game`'s native form from `start` within [`WARM_UP`] (the verdict is kept for the
/// moves); a verification cut short, or a script error, is met again at the first move.
fn warm_up(game: &ScriptedGame, start: &Dynamic) {
    let _calls = crate::cancel::calls_until(Some(Instant::now() + WARM_UP));
    let _ = game.native_with_weights(start);
}

/// What `rule` means for `game`: options to set, and `game` naming another script to play. The
/// script's `gomocup_rule(rule)` says, or else [`default_settings`].
fn rule_settings(game: &ScriptedGame, rule: u32) -> Result<rhai::Map, String> {
    match game.gomocup_rule(i64::from(rule)) {
        Ok(Some(map)) => Ok(map),
        Ok(None) => default_settings(game, rule),
        Err(e) => Err(format!("rule {rule}: {e}")),
    }
}

/// The settings of `rule` for a script without `gomocup_rule`: the bits of [`RULE_BITS`] set
/// the options the script has; any other bit cannot be played.
fn default_settings(game: &ScriptedGame, rule: u32) -> Result<rhai::Map, String> {
    let known: u32 = RULE_BITS.iter().map(|(bit, _)| bit).sum();
    if rule & !known != 0 {
        return Err(format!(
            "rule {rule} is not supported by {} (its script has no gomocup_rule(rule))",
            game.name()
        ));
    }
    let mut map = rhai::Map::new();
    for (bit, option) in RULE_BITS {
        if game.options().iter().any(|o| o.name == option) {
            map.insert(option.into(), Dynamic::from(rule & bit != 0));
        }
    }
    Ok(map)
}

/// Places `lists[side]`, `lists[1 - side]`, … alternately (`side` moving first), backtracking
/// when a stone is illegal or ends the game before the last one: `Ok(true)` when all are placed.
fn place(
    game: &ScriptedGame,
    history: &mut History<ScriptedGame>,
    lists: [Vec<Cell>; 2],
    side: usize,
    budget: &mut usize,
) -> Result<bool, String> {
    let left = lists[0].len() + lists[1].len();
    if left == 0 {
        return Ok(true);
    }
    for (i, &cell) in lists[side].iter().enumerate() {
        if *budget == 0 {
            return Err("the stones are too tangled to place (tried too many orders)".into());
        }
        *budget -= 1;
        let Ok(mv) = Brain::move_at(game, history.current(), cell) else {
            continue;
        };
        if Brain::play_move(game, history, &mv).is_err() {
            continue;
        }
        let over = history.outcome(game).map_err(|e| e.to_string())?.is_some();
        if !over || left == 1 {
            let mut rest = lists.clone();
            rest[side].remove(i);
            if place(game, history, rest, 1 - side, budget)? {
                return Ok(true);
            }
        }
        history.undo();
    }
    Ok(false)
}

/// `reason` with every word that is a move in the game's notation written `x,y`.
fn in_xy(game: &ScriptedGame, state: &Dynamic, reason: &str) -> String {
    let words = reason.split(' ').map(|word| {
        let core = word.trim_end_matches([',', '.', ':', ';', ')']);
        let xy = game
            .parse_move(state, core)
            .ok()
            .and_then(|mv| mv.try_cast::<Cell>())
            .map(|c| format!("{},{}{}", c.x, c.y, &word[core.len()..]));
        xy.unwrap_or_else(|| word.to_string())
    });
    let text: String = words.collect::<Vec<_>>().join(" ");
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Reads `x,y`.
fn parse_xy(text: &str) -> Result<Cell, String> {
    let mut parts = text.split(',').map(|p| p.trim().parse::<i64>());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Ok(Cell::new(x, y)),
        _ => Err(format!("'{}' is not x,y", clip(text))),
    }
}

/// At most 40 characters of `text`, for an error message, control characters (escapes) written
/// as `\u{1b}` and the like so that none reaches the manager or a terminal raw.
pub fn clip(text: &str) -> String {
    let mut clipped = String::new();
    for c in text.chars().take(40) {
        if c.is_control() {
            clipped.extend(c.escape_default());
        } else {
            clipped.push(c);
        }
    }
    if text.chars().nth(40).is_some() {
        clipped.push('…');
    }
    clipped
}

/// Whether the second player, staying white after swap2's three stones (white not worse off
/// with the move), places two more stones instead of one: when black, to move after white's best
/// stone, is ahead too (`black_after`, black's score, above 0). Then whoever moves is ahead —
/// the search cannot tell the colours apart — and the choice goes back to the first player.
fn two_more(black_after: i64) -> bool {
    black_after > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_three_stones_two_more_when_the_side_to_move_is_ahead_either_way() {
        assert!(!two_more(-10));
        assert!(!two_more(0));
        assert!(two_more(10));
    }
}
