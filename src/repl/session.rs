//! A REPL session: the game, its history, and the modes around it (replay, drafts, the clock).
//! This module dispatches commands; the commands that replay, save and load, or change the rules
//! live in their own modules beside it.

use std::time::Instant;

use super::{
    clock::{self, Clock},
    command::{self, Command},
    kept::{OldRules, Previous, Replay},
    outcome::{Choice, Done, Failure, Flow},
    ui::Ui,
};
use crate::{
    diag::Diagnostic,
    driver::{check_input_size, move_error, split_with_spans},
    runtime::{Game, GameError, History, Outcome},
    script::{reference, sandbox::limits, ScriptedGame},
    search::{
        player::{self, Level},
        why::{english, Why},
    },
    terminal::clean,
};

/// A game being played in the REPL.
pub struct Session {
    pub(super) game: ScriptedGame,
    pub(super) choice: Choice,
    pub(super) history: History<ScriptedGame>,
    /// Replay mode, when on.
    pub(super) replay: Option<Replay>,
    /// The games put aside by `draft`, innermost last.
    pub(super) drafts: Vec<History<ScriptedGame>>,
    pub(super) clock: Option<Clock>,
    /// The player who ran out of time.
    pub(super) lost_on_time: Option<usize>,
    /// The computer's level and the player it plays, when it plays.
    pub(super) computer: Option<(Level, usize)>,
    /// The game a command replaced, which `undo` can bring back.
    pub(super) previous: Option<Previous>,
    pub(super) ui: Ui,
}

impl Session {
    /// A new game of `game`, chosen as `choice` says.
    pub fn new(game: ScriptedGame, choice: Choice, ui: Ui) -> Result<Self, Vec<Diagnostic>> {
        let start = game.start().map_err(|e| vec![game.describe(&e)])?;
        Ok(Session {
            history: History::new(start),
            game,
            choice,
            replay: None,
            drafts: Vec::new(),
            clock: None,
            lost_on_time: None,
            computer: None,
            previous: None,
            ui,
        })
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        self.game.title()
    }

    /// The game.
    pub fn game(&self) -> &ScriptedGame {
        &self.game
    }

    /// The language, theme and colour.
    pub fn ui(&self) -> &Ui {
        &self.ui
    }

    /// The line shown before input: the game, the mode, whose turn it is, the clocks.
    pub fn prompt(&self) -> String {
        let mut prompt = clean(self.game.name()).into_owned();
        if let Some(r) = &self.replay {
            let (ply, total) = r.position();
            prompt += &format!(
                " [{}]",
                self.ui
                    .t("prompt-replay", &[("ply", &ply), ("total", &total)])
            );
        } else if !self.drafts.is_empty() {
            prompt += &format!(" [{}]", self.ui.t("prompt-draft", &[]));
        }
        prompt += &format!(" ({})", self.status(self.view().current()));
        if let (Some(c), None) = (&self.clock, &self.replay) {
            let left = c.left(Instant::now());
            let times: Vec<String> = left
                .iter()
                .enumerate()
                .map(|(p, t)| format!("{} {}", self.game.player_name(p), clock::format(*t)))
                .collect();
            prompt += &format!(" {}", times.join(" · "));
        }
        prompt + "> "
    }

    /// Whose turn it is, or how the game ended, in words.
    pub(super) fn status(&self, state: &rhai::Dynamic) -> String {
        match self.outcome_of(state) {
            Ok(Some(o)) => self.describe(o),
            Ok(None) => match self.game.to_move(state) {
                Ok(p) => self
                    .ui
                    .t("to-move", &[("player", &self.game.player_name(p))]),
                Err(_) => "?".into(),
            },
            Err(_) => "?".into(),
        }
    }

    /// The outcome in the session's language.
    pub(super) fn describe(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win(p) => self
                .ui
                .t("outcome-win", &[("player", &self.game.player_name(p))]),
            Outcome::Draw => self.ui.t("outcome-draw", &[]),
        }
    }

    /// The outcome of the current game's `state`, counting a loss on time.
    pub(super) fn outcome_of(&self, state: &rhai::Dynamic) -> Result<Option<Outcome>, GameError> {
        let on_current = std::ptr::eq(state, self.history.current()) && self.replay.is_none();
        match self.lost_on_time.filter(|_| on_current) {
            Some(loser) => {
                let players = self.game.player_names().len();
                Ok(Some(if players == 2 {
                    Outcome::Win(1 - loser)
                } else {
                    Outcome::Draw
                }))
            }
            None => self.game.outcome(state),
        }
    }

    /// The history on screen: the replay's when replaying, else the game's.
    pub(super) fn view(&self) -> &History<ScriptedGame> {
        self.replay.as_ref().map_or(&self.history, Replay::history)
    }

    /// A move that failed, in the session's language: see [`move_error`].
    pub(super) fn move_failed(
        &self,
        e: &GameError,
        name: &str,
        text: &str,
        span: std::ops::Range<usize>,
        mv: &str,
    ) -> Diagnostic {
        let mut d = move_error(&self.game, e, name, text, span, mv);
        match e {
            GameError::BadText(_) => d.message = self.ui.t("move-unreadable", &[("move", &mv)]),
            GameError::Illegal(_) => d.message = self.ui.t("move-illegal", &[("move", &mv)]),
            GameError::GameOver(result) => {
                d.message = self.ui.t("move-illegal", &[("move", &mv)]);
                if let Some(p) = d.pointer.as_mut() {
                    p.label = self.ui.t("move-game-over", &[("result", result)]);
                }
            }
            GameError::Rules { .. } => {
                if let Some(n) = d.notes.last_mut() {
                    *n = self.ui.t("while-playing", &[("move", &mv)]);
                }
            }
        }
        d
    }

    pub(super) fn fault(&self, e: &GameError) -> Diagnostic {
        self.game.describe(e)
    }

    /// The board of `state`, drawn in the theme.
    pub(super) fn board_of(&self, state: &rhai::Dynamic) -> Result<String, Diagnostic> {
        let marked = self.game.render_marked(state).map_err(|e| self.fault(&e))?;
        Ok(self.ui.draw(self.game.name(), &marked))
    }

    /// Prints the board on screen.
    pub fn show_board(&self) -> Done {
        println!("{}", self.board_of(self.view().current())?);
        Ok(())
    }

    /// Runs one line. On error the game is exactly as before.
    pub fn execute(&mut self, line: &str) -> Result<Flow, Failure> {
        check_input_size("the line", line, limits::INPUT).map_err(|d| Failure(vec![d]))?;
        let command = command::parse_in(line, &self.ui.catalog)?;
        self.check_clock();
        if self.replay.is_some() {
            return self.execute_in_replay(line, command);
        }
        match command {
            Command::Play(text) => self.play(line, &text)?,
            Command::Undo(n) => self.undo(n)?,
            Command::Redo(n) => self.redo(n)?,
            Command::New => self.new_game()?,
            Command::Set(setting) => self.set(line, &setting)?,
            Command::Variant(game) => self.switch_rules(&game)?,
            Command::Reload => self.reload()?,
            Command::Replay(source) => self.start_replay(line, source.as_deref())?,
            Command::Save(path) => self.save(&path)?,
            Command::Load(path) => self.load(&path)?,
            Command::Draft => self.draft(),
            Command::DraftEnd => self.draft_end()?,
            Command::Clock(budget) => self.set_clock(budget),
            Command::Vs(vs) => self.versus(vs)?,
            Command::Go(level) => self.go(level)?,
            other => return self.execute_anywhere(other),
        }
        Ok(Flow::Continue)
    }

    /// The commands that work the same in every mode.
    pub(super) fn execute_anywhere(&mut self, command: Command) -> Result<Flow, Failure> {
        match command {
            Command::Nothing => {}
            Command::Quit => return Ok(Flow::Quit),
            Command::Board => self.show_board()?,
            Command::Moves => self.list_moves()?,
            Command::History => self.show_history(),
            Command::Options => self.list_options(),
            Command::Explain { boards } => self.explain(boards)?,
            Command::Lang(code) => println!("{}", self.ui.set_language(&code)?),
            Command::Theme(name) => {
                println!("{}", self.ui.set_theme(&name)?);
                self.show_board()?;
            }
            Command::Color(choice) => println!("{}", self.ui.set_color(choice)),
            Command::Clear => self.clear_screen()?,
            Command::Help(topic) => println!("{}", self.ui.help(topic.as_deref())?),
            Command::Doc(name) => print!("{}", reference::describe(name.as_deref())?),
            Command::Hint(level) => self.hint(level)?,
            Command::Picture(path) => self.picture(&path)?,
            _ => return Err(Diagnostic::new(self.ui.t("not-replaying", &[])).into()),
        }
        Ok(Flow::Continue)
    }

    /// Plays every move `text` holds, all or nothing: they are played on a copy of the game,
    /// which replaces it only if every move is legal; otherwise the error points at the failing
    /// move and the game is as it was.
    fn play(&mut self, line: &str, text: &str) -> Done {
        self.play_moves(line, text).map_err(|Failure(ds)| {
            let word = text.split_whitespace().next().unwrap_or_default();
            // A word of letters that is no move was most likely meant as a command.
            let wordlike = word.chars().count() > 1 && word.chars().all(char::is_alphabetic);
            let unreadable = [text, word].map(|m| self.ui.t("move-unreadable", &[("move", &m)]));
            let names = command::COMMANDS.iter().map(|c| c.name);
            let ds = ds.into_iter().map(|mut d| {
                if wordlike && unreadable.contains(&d.message) {
                    d.message = self.ui.t("not-command-or-move", &[("word", &clean(word))]);
                }
                self.ui.suggest(d, word, names.clone())
            });
            Failure(ds.collect())
        })
    }

    /// [`Session::play`], without the suggestion of a command for a line that is no move.
    fn play_moves(&mut self, line: &str, text: &str) -> Done {
        let offset = line.find(text).unwrap_or(0);
        let moves = split_with_spans(&self.game, text).map_err(|e| {
            self.move_failed(&e, "<input>", line, offset..offset + text.len(), text)
        })?;
        let first = moves.first().map(|(mv, span)| (mv.clone(), span.clone()));
        let Some((first, first_span)) = first else {
            return Ok(());
        };
        let first_span = first_span.start + offset..first_span.end + offset;
        if let Some(result) = self.game_over()? {
            let e = GameError::GameOver(result);
            return Err(self
                .move_failed(&e, "<input>", line, first_span, &first)
                .into());
        }
        if let Some(loser) = self.clock.as_mut().and_then(|c| c.stop(Instant::now())) {
            self.lose_on_time(loser);
            let e = GameError::GameOver(self.status(self.history.current()));
            return Err(self
                .move_failed(&e, "<input>", line, first_span, &first)
                .into());
        }
        let mut copy = self.history.clone();
        for (mv, span) in &moves {
            let span = span.start + offset..span.end + offset;
            if let Err(e) = copy.play_text(&self.game, mv) {
                self.restart_clock();
                return Err(self.move_failed(&e, "<input>", line, span, mv).into());
            }
        }
        let from = self.history.ply();
        self.history = copy;
        self.restart_clock();
        for ply in from + 1..=self.history.ply() {
            self.show_step(ply)?;
        }
        self.after_moves()?;
        self.computer_turn()
    }

    /// Prints move `ply` of the game as played: the move, the board after it, its events.
    fn show_step(&self, ply: usize) -> Done {
        let step = &self.history.steps()[ply - 1];
        let state = self
            .history
            .state_at(ply)
            .expect("a played move has a state");
        println!("> {}", clean(&step.text));
        println!("{}", self.board_of(state)?);
        step.events
            .iter()
            .for_each(|e| println!("* {}", clean(&e.text)));
        Ok(())
    }

    /// Warnings about the position, and the result if the game is over.
    fn after_moves(&self) -> Done {
        let state = self.history.current();
        for w in self.game.warnings(state).map_err(|e| self.fault(&e))? {
            println!("! {}", clean(&w));
        }
        if let Some(result) = self.game_over()? {
            println!("{}", self.ui.t("result", &[("result", &result)]));
        }
        Ok(())
    }

    /// The level `hint` and `vs` use when none is given.
    fn default_level(&self) -> Level {
        Level::parse(&self.ui.settings.level).unwrap_or(Level::Medium)
    }

    /// `hint [LEVEL]`: the computer's suggestion for the side to move, and why.
    fn hint(&self, level: Option<Level>) -> Done {
        let level = level.unwrap_or_else(|| self.default_level());
        let state = self.view().current();
        let seed = self.choice.seed ^ self.view().ply() as u64;
        match self.think(state, level, seed)? {
            Some(h) => println!(
                "{}",
                self.ui.t(
                    "hint",
                    &[("move", &h.text), ("reason", &self.reason(&h.why))]
                )
            ),
            None => return Err(Diagnostic::new(self.ui.t("hint-over", &[])).into()),
        }
        Ok(())
    }

    /// The computer's move for `state` at `level`, or `None` if it has none. Ctrl-C while it
    /// thinks cancels the search: an error, and nothing is played.
    fn think(
        &self,
        state: &rhai::Dynamic,
        level: Level,
        seed: u64,
    ) -> Result<Option<player::Hint>, Failure> {
        crate::cancel::take(); // a Ctrl-C from before is not for this search
        let found = player::choose(&self.game, state, level, None, seed);
        if crate::cancel::take() {
            return Err(Diagnostic::new(self.ui.t("search-cancelled", &[])).into());
        }
        found.map_err(|e| self.fault(&e).into())
    }

    /// Why the computer chose a move, in the session's language (English where the language
    /// has no words for it).
    fn reason(&self, why: &Why) -> String {
        why.say(&|key, n, args| {
            let local = format!("reason-{key}");
            if self.ui.catalog.has(&local) {
                self.ui.t_n(&local, n, args)
            } else {
                english(key, n, args)
            }
        })
    }

    /// `vs [SIDE] LEVEL`: the computer takes the side named, or else the side that is not to
    /// move; `vs off` stops it.
    pub fn versus(&mut self, vs: Option<(Option<String>, Level)>) -> Done {
        let Some((side, level)) = vs else {
            self.computer = None;
            println!("{}", self.ui.t("vs-off", &[]));
            return Ok(());
        };
        let players = self.game.player_names().len();
        let named = side.is_some();
        let side = match side {
            Some(name) => self.side_named(&name)?,
            None => {
                let state = self.history.current();
                let to_move = self.game.to_move(state).map_err(|e| self.fault(&e))?;
                (to_move + 1) % players
            }
        };
        self.computer = Some((level, side));
        let name = self.game.player_name(side);
        println!(
            "{}",
            self.ui
                .t("vs-on", &[("player", &name), ("level", &level.name())])
        );
        if !named && players > 1 {
            let other = self.game.player_name((side + 1) % players);
            println!(
                "{}",
                self.ui.t(
                    "vs-other-side",
                    &[("other", &other), ("level", &level.name())]
                )
            );
        }
        // A side named plays at once if it is to move; otherwise (the side not to move, or the
        // one player of a one-player game) the computer answers the next move.
        if named {
            self.computer_turn()
        } else {
            Ok(())
        }
    }

    /// The player a `vs` names: by name (any case) or number from 1.
    fn side_named(&self, name: &str) -> Result<usize, Failure> {
        let names: Vec<String> = self.game.player_names().to_vec();
        let by_number = name
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=names.len()).contains(n))
            .map(|n| n - 1);
        by_number
            .or_else(|| names.iter().position(|p| p.eq_ignore_ascii_case(name)))
            .ok_or_else(|| {
                let sides = names.join(", ");
                Diagnostic::new(self.ui.t(
                    "vs-no-such-side",
                    &[("side", &clean(name)), ("sides", &clean(&sides))],
                ))
                .into()
            })
    }

    /// `go [LEVEL]`: the computer plays one move for the side to move (then, under `vs`, its
    /// own reply).
    fn go(&mut self, level: Option<Level>) -> Done {
        let level = level.unwrap_or_else(|| self.default_level());
        let over = self.outcome_of(self.history.current());
        if over.map_err(|e| self.fault(&e))?.is_some() {
            return Err(Diagnostic::new(self.ui.t("hint-over", &[])).into());
        }
        self.computer_move(level)?;
        self.computer_turn()
    }

    /// The computer's moves while it is its turn.
    pub(super) fn computer_turn(&mut self) -> Done {
        while let Some((level, side)) = self.computer {
            let state = self.history.current();
            if self
                .outcome_of(state)
                .map_err(|e| self.fault(&e))?
                .is_some()
                || self.game.to_move(state).map_err(|e| self.fault(&e))? != side
            {
                return Ok(());
            }
            if !self.computer_move(level)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Plays the computer's move at `level` for the side to move; `false` if it had none or
    /// lost on time.
    fn computer_move(&mut self, level: Level) -> Result<bool, Failure> {
        let state = self.history.current();
        let seed = self.choice.seed ^ self.history.ply() as u64;
        let Some(hint) = self.think(state, level, seed)? else {
            return Ok(false);
        };
        if let Some(loser) = self.clock.as_mut().and_then(|c| c.stop(Instant::now())) {
            self.lose_on_time(loser);
            return Ok(false);
        }
        let played = self.history.play(&self.game, &hint.mv).map(|_| ());
        self.restart_clock();
        played.map_err(|e| self.fault(&e))?;
        self.show_step(self.history.ply())?;
        println!(
            "{}",
            self.ui.t(
                "computer-played",
                &[
                    ("level", &level.name()),
                    ("reason", &self.reason(&hint.why))
                ]
            )
        );
        self.after_moves()?;
        Ok(true)
    }

    /// How the current game ended, in words, if it has.
    fn game_over(&self) -> Result<Option<String>, Diagnostic> {
        let outcome = self
            .outcome_of(self.history.current())
            .map_err(|e| self.fault(&e))?;
        Ok(outcome.map(|o| self.describe(o)))
    }

    /// `undo [N]`: takes back N moves; against the computer, also its replies, so that it is
    /// your turn again.
    fn undo(&mut self, n: usize) -> Done {
        if self.can_bring_back() {
            return self.bring_back();
        }
        let mut done = (0..n).take_while(|_| self.history.undo()).count();
        if let Some((_, side)) = self.computer {
            while done > 0
                && self.game.to_move(self.history.current()).ok() == Some(side)
                && self.history.undo()
            {
                done += 1;
            }
        }
        if done == 0 {
            return Err(Diagnostic::new(self.ui.t("nothing-to-undo", &[])).into());
        }
        self.lost_on_time = None;
        self.restart_clock();
        println!("{}", self.ui.t_n("undid", done, &[]));
        self.show_board()
    }

    fn redo(&mut self, n: usize) -> Done {
        let done = (0..n).take_while(|_| self.history.redo()).count();
        if done == 0 {
            return Err(Diagnostic::new(self.ui.t("nothing-to-redo", &[])).into());
        }
        self.restart_clock();
        println!("{}", self.ui.t_n("redid", done, &[]));
        self.show_board()
    }

    fn new_game(&mut self) -> Done {
        let start = self.game.start().map_err(|e| self.fault(&e))?;
        let old = std::mem::replace(&mut self.history, History::new(start));
        let lost = self.lost_on_time.take();
        self.put_aside(
            OldRules::values_of(&self.game),
            self.choice.clone(),
            old,
            lost,
            0,
        );
        if let Some(c) = &mut self.clock {
            *c = Clock::new(c.initial, self.game.player_names().len());
        }
        self.restart_clock();
        println!("{}", self.ui.t("new-game", &[]));
        self.show_board()
    }

    /// `clear`: clears the terminal (nothing when the output is not a terminal), then shows the
    /// board again.
    fn clear_screen(&self) -> Done {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() {
            // Erase the screen and the scrollback, and put the cursor at the top left.
            print!("\x1b[H\x1b[2J\x1b[3J");
        }
        self.show_board()
    }

    fn list_moves(&self) -> Done {
        let state = self.view().current();
        if let Some(o) = self.outcome_of(state).map_err(|e| self.fault(&e))? {
            println!(
                "{}",
                self.ui.t("no-moves-over", &[("result", &self.describe(o))])
            );
            return Ok(());
        }
        let texts = self.legal_move_texts(state).map_err(|e| self.fault(&e))?;
        // Moves written with spaces (`0 0 0 1`) go one a line: run together they cannot be told
        // apart.
        let spaced = texts.iter().any(|t| t.contains(char::is_whitespace));
        let list = if spaced {
            texts.iter().map(|t| format!("\n  {}", clean(t))).collect()
        } else {
            texts.join(" ")
        };
        let said = self.ui.t_n("legal-moves", texts.len(), &[("moves", &list)]);
        let lines: Vec<&str> = said.lines().map(str::trim_end).collect();
        println!("{}", lines.join("\n"));
        Ok(())
    }

    /// The legal moves of `state` in canonical notation.
    pub(super) fn legal_move_texts(&self, state: &rhai::Dynamic) -> Result<Vec<String>, GameError> {
        self.game
            .legal_moves(state)?
            .iter()
            .map(|m| self.game.format_move(state, m))
            .collect()
    }

    /// The legal moves of the position on screen (for completion); none if they cannot be listed.
    pub fn completions(&self) -> Vec<String> {
        let state = self.view().current();
        match self.outcome_of(state) {
            Ok(None) => self.legal_move_texts(state).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn show_history(&self) {
        let listing: Vec<(String, String)> = match &self.replay {
            Some(r) => r.listing().to_vec(),
            None => (0..self.history.ply())
                .map(|i| {
                    let player = self
                        .history
                        .state_at(i)
                        .and_then(|s| self.game.to_move(s).ok())
                        .map(|p| self.game.player_name(p))
                        .unwrap_or_default();
                    (player, self.history.steps()[i].text.clone())
                })
                .collect(),
        };
        if listing.is_empty() {
            println!("{}", self.ui.t("no-moves-yet", &[]));
            return;
        }
        let cursor = self.replay.as_ref().map(|r| r.position().0);
        for (i, (player, text)) in listing.iter().enumerate() {
            let here = if cursor == Some(i + 1) { "  <" } else { "" };
            let (player, text) = (clean(player), clean(text));
            println!("{:>3}. {player} {text}{here}", i + 1);
        }
        let moves: Vec<&str> = listing.iter().map(|(_, m)| m.as_str()).collect();
        println!(
            "{}",
            self.ui
                .t("moves-line", &[("moves", &clean(&moves_line(&moves)))])
        );
    }

    fn list_options(&self) {
        if self.game.options().is_empty() {
            println!(
                "{}",
                self.ui.t("no-options", &[("game", &self.game.name())])
            );
            return;
        }
        for o in self.game.options() {
            let value = self
                .game
                .option_values()
                .get(o.name.as_str())
                .map(|v| v.to_string())
                .unwrap_or_default();
            let default = o.default.to_string();
            let note = if value == default {
                String::new()
            } else {
                self.ui.t("option-default", &[("value", &default)])
            };
            let (name, help) = (clean(&o.name), clean(&o.help));
            println!("{name:<14} {:<8} {help}{note}", clean(&value));
        }
        println!("{}", self.ui.t("options-how", &[]));
    }

    /// Shows the last move's events, one per line, with the board after each if `boards`.
    fn explain(&self, boards: bool) -> Done {
        let history = self.view();
        let Some(step) = history.steps().last() else {
            return Err(Diagnostic::new(self.ui.t("explain-nothing", &[])).into());
        };
        println!(
            "{}",
            self.ui.t(
                "explain-move",
                &[("n", &history.ply()), ("move", &step.text)]
            )
        );
        if step.events.is_empty() {
            println!("{}", self.ui.t("explain-no-events", &[]));
        }
        for (i, event) in step.events.iter().enumerate() {
            println!("{:>3}. {}", i + 1, clean(&event.text));
            if boards {
                match &event.board {
                    Some(board) => println!("{}", self.ui.draw(self.game.name(), board)),
                    None => println!("     {}", self.ui.t("explain-no-board", &[])),
                }
            }
        }
        if boards {
            println!("{}", self.ui.t("explain-after", &[]));
            self.show_board()?;
        }
        Ok(())
    }

    fn draft(&mut self) {
        self.drafts.push(self.history.clone());
        println!(
            "{}",
            self.ui.t("draft-started", &[("depth", &self.drafts.len())])
        );
    }

    fn draft_end(&mut self) -> Done {
        let saved = self
            .drafts
            .pop()
            .ok_or_else(|| Diagnostic::new(self.ui.t("not-drafting", &[])))?;
        self.history = saved;
        self.restart_clock();
        println!("{}", self.ui.t("draft-ended", &[]));
        self.show_board()
    }

    /// `clock TIME|off`. A player who already ran out of time stays the loser: only `undo` or
    /// `new` take the game back.
    fn set_clock(&mut self, budget: Option<std::time::Duration>) {
        match budget {
            Some(b) => {
                self.clock = Some(Clock::new(b, self.game.player_names().len()));
                self.restart_clock();
                println!("{}", self.ui.t("clock-set", &[("time", &clock::format(b))]));
            }
            None => {
                self.clock = None;
                println!("{}", self.ui.t("clock-off", &[]));
                if let (Some(_), Ok(Some(result))) = (self.lost_on_time, self.game_over()) {
                    println!("{}", self.ui.t("result", &[("result", &result)]));
                }
            }
        }
    }

    /// Starts the clock of the player to move (when the game goes on).
    pub(super) fn restart_clock(&mut self) {
        if self.clock.is_none() {
            return;
        }
        let state = self.history.current();
        let player = match self.outcome_of(state) {
            Ok(None) => self.game.to_move(state).ok(),
            _ => None,
        };
        let now = Instant::now();
        if let Some(c) = &mut self.clock {
            c.stop(now);
            if let Some(p) = player {
                c.start(p, now);
            }
        }
    }

    /// Flags a player whose time ran out while the REPL waited for input.
    fn check_clock(&mut self) {
        let Some(c) = &self.clock else { return };
        let now = Instant::now();
        if let Some(p) = c.left(now).iter().position(|t| t.is_zero()) {
            if self.lost_on_time.is_none() {
                if let Some(c) = &mut self.clock {
                    c.stop(now);
                }
                self.lose_on_time(p);
            }
        }
    }

    fn lose_on_time(&mut self, player: usize) {
        self.lost_on_time = Some(player);
        println!(
            "{}",
            self.ui
                .t("out-of-time", &[("player", &self.game.player_name(player))])
        );
        if let Ok(Some(result)) = self.game_over() {
            println!("{}", self.ui.t("result", &[("result", &result)]));
        }
    }
}

/// Moves on one line as they can be typed back: separated by spaces, or by `, ` when a move has
/// spaces of its own (`0 0 0 1, 4 4 4 3`).
pub(super) fn moves_line(moves: &[&str]) -> String {
    if moves.iter().any(|m| m.contains(char::is_whitespace)) {
        moves.join(", ")
    } else {
        moves.join(" ")
    }
}
