//! A REPL session: one game, its history, and what each command does to them.

use super::command::{self, Command, COMMANDS};
use crate::{
    cli::game_args::option_list,
    diag::Diagnostic,
    driver::{move_error, split_with_spans},
    runtime::{Game, GameError, History},
    script::ScriptedGame,
};

/// Whether the REPL goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave.
    Quit,
}

/// A game being played in the REPL.
pub struct Session {
    game: ScriptedGame,
    history: History<ScriptedGame>,
}

impl Session {
    /// A new game of `game`.
    pub fn new(game: ScriptedGame) -> Result<Self, Vec<Diagnostic>> {
        let start = game.start().map_err(|e| vec![game.describe(&e)])?;
        Ok(Session {
            history: History::new(start),
            game,
        })
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        self.game.title()
    }

    /// The prompt: the game and whose turn it is (or how it ended).
    pub fn prompt(&self) -> String {
        let state = self.history.current();
        let status = match self.game.outcome(state) {
            Ok(Some(o)) => self.game.describe_outcome(o),
            Ok(None) => match self.game.to_move(state) {
                Ok(p) => format!("{} to move", self.game.player_name(p)),
                Err(_) => "?".into(),
            },
            Err(_) => "?".into(),
        };
        format!("{} ({status})> ", self.game.name())
    }

    fn fault(&self, e: &GameError) -> Diagnostic {
        self.game.describe(e)
    }

    /// Prints the board.
    pub fn show_board(&self) {
        match self.game.render(self.history.current()) {
            Ok(text) => println!("{text}"),
            Err(e) => eprint!("{}", self.fault(&e).render(false)),
        }
    }

    /// Runs one line. On error the game is exactly as before.
    pub fn execute(&mut self, line: &str) -> Result<Flow, Diagnostic> {
        match command::parse(line)? {
            Command::Nothing => {}
            Command::Quit => return Ok(Flow::Quit),
            Command::Play(text) => self.play(line, &text)?,
            Command::Undo(n) => {
                let done = (0..n).take_while(|_| self.history.undo()).count();
                if done == 0 {
                    return Err(Diagnostic::new(
                        "nothing to undo: this is the start of the game",
                    ));
                }
                println!("undid {done} move(s)");
                self.show_board();
            }
            Command::Redo(n) => {
                let done = (0..n).take_while(|_| self.history.redo()).count();
                if done == 0 {
                    return Err(Diagnostic::new("nothing to redo"));
                }
                println!("redid {done} move(s)");
                self.show_board();
            }
            Command::Board => self.show_board(),
            Command::Moves => self.list_moves()?,
            Command::History => self.show_history(),
            Command::New => {
                let start = self.game.start().map_err(|e| self.fault(&e))?;
                self.history = History::new(start);
                println!("new game");
                self.show_board();
            }
            Command::Options => {
                for o in self.game.options() {
                    println!(
                        "{:<14} {:<8} {}",
                        o.name,
                        self.game
                            .option_values()
                            .get(o.name.as_str())
                            .map(|v| v.to_string())
                            .unwrap_or_default(),
                        o.help
                    );
                }
                if self.game.options().is_empty() {
                    println!("{}", option_list(&self.game));
                }
            }
            Command::Help(topic) => help(topic.as_deref())?,
        }
        Ok(Flow::Continue)
    }

    /// Plays every move `text` holds; if one fails, the moves before it stay played and the
    /// error points at the failing one.
    fn play(&mut self, line: &str, text: &str) -> Result<(), Diagnostic> {
        let offset = line.find(text).unwrap_or(0);
        let moves = split_with_spans(&self.game, text).map_err(|e| {
            move_error(
                &self.game,
                &e,
                "<input>",
                line,
                offset..offset + text.len(),
                text,
            )
        })?;
        for (mv, span) in moves {
            let span = span.start + offset..span.end + offset;
            let step = self
                .history
                .play_text(&self.game, &mv)
                .map_err(|e| move_error(&self.game, &e, "<input>", line, span, &mv))?;
            let events: Vec<String> = step.events.iter().map(|e| format!("* {e}")).collect();
            println!("> {}", step.text);
            self.show_board();
            events.iter().for_each(|e| println!("{e}"));
        }
        let state = self.history.current();
        for w in self.game.warnings(state).map_err(|e| self.fault(&e))? {
            println!("! {w}");
        }
        if let Some(o) = self.game.outcome(state).map_err(|e| self.fault(&e))? {
            println!("result: {}", self.game.describe_outcome(o));
        }
        Ok(())
    }

    fn list_moves(&self) -> Result<(), Diagnostic> {
        let state = self.history.current();
        if let Some(o) = self.game.outcome(state).map_err(|e| self.fault(&e))? {
            println!(
                "no moves: the game is over ({})",
                self.game.describe_outcome(o)
            );
            return Ok(());
        }
        let moves = self.game.legal_moves(state).map_err(|e| self.fault(&e))?;
        let texts: Result<Vec<String>, _> = moves
            .iter()
            .map(|m| self.game.format_move(state, m))
            .collect();
        let texts = texts.map_err(|e| self.fault(&e))?;
        println!("{} legal moves: {}", texts.len(), texts.join(" "));
        Ok(())
    }

    fn show_history(&self) {
        if self.history.ply() == 0 {
            println!("no moves yet");
            return;
        }
        for (i, step) in self.history.steps().iter().enumerate() {
            let player = self
                .history
                .state_at(i)
                .and_then(|s| self.game.to_move(s).ok())
                .map(|p| self.game.player_name(p))
                .unwrap_or_default();
            println!("{:>3}. {player} {}", i + 1, step.text);
        }
        let all: Vec<&str> = self
            .history
            .steps()
            .iter()
            .map(|s| s.text.as_str())
            .collect();
        println!("moves: {}", all.join(" "));
    }
}

fn help(topic: Option<&str>) -> Result<(), Diagnostic> {
    match topic {
        None => {
            println!("Type a move to play it (several at once work too), or a command:");
            for (name, args, what) in COMMANDS {
                println!("  {:<18} {what}", format!("{name} {args}"));
            }
        }
        Some(t) => {
            let (name, args, what) = COMMANDS.iter().find(|(n, ..)| *n == t).ok_or_else(|| {
                Diagnostic::new(format!("no command '{t}'")).note("type `help` for the list")
            })?;
            println!("{name} {args}\n  {what}");
        }
    }
    Ok(())
}
