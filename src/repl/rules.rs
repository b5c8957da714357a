//! Changing the rules in play: `set KEY=VALUE` (a new game under that option), `variant GAME`
//! (another script) and `reload` (the same script re-read, the game replayed through it).

use super::{
    kept::OldRules,
    outcome::{Choice, Done},
    session::Session,
};
use crate::{
    diag::Diagnostic,
    driver::apply_option,
    game_args::GameArgs,
    runtime::{Game, History},
    script::ScriptedGame,
};

impl Choice {
    /// Loads the game this choice names, with its options and seed.
    pub fn load(&self) -> Result<ScriptedGame, Vec<Diagnostic>> {
        GameArgs {
            game: self.game.clone(),
            options: self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            seed: Some(self.seed),
        }
        .load()
    }
}

impl Session {
    /// Starts a new game of `game` under `choice`; the game before is put aside.
    fn restart_with(&mut self, game: ScriptedGame, choice: Choice) -> Done {
        let start = game.start().map_err(|e| game.describe(&e))?;
        let old_game = std::mem::replace(&mut self.game, game);
        let old_choice = std::mem::replace(&mut self.choice, choice);
        let (old_history, lost) = self.start_over(start);
        self.put_aside(
            OldRules::Loaded(Box::new(old_game)),
            old_choice,
            old_history,
            lost,
            0,
        );
        Ok(())
    }

    /// A new game from `start` under the current rules: no drafts, fresh clocks. Returns the
    /// game before: its history and who ran out of time in it.
    fn start_over(&mut self, start: rhai::Dynamic) -> (History<ScriptedGame>, Option<usize>) {
        let old = std::mem::replace(&mut self.history, History::new(start));
        let lost = self.lost_on_time.take();
        self.drafts.clear();
        if let Some(c) = &mut self.clock {
            *c = super::clock::Clock::new(c.initial, self.game.player_names().len());
        }
        self.restart_clock();
        (old, lost)
    }

    /// `set KEY=VALUE`: a new game with that option (or seed), under the rules loaded now.
    /// On error (a bad setting, or one the rules cannot start a game with) nothing changes.
    pub(super) fn set(&mut self, line: &str, setting: &str) -> Done {
        let offset = line.find(setting).unwrap_or(0);
        let (key, value) = setting.split_once('=').unwrap_or((setting, ""));
        let (key, value) = (key.trim(), value.trim());
        let bad = |span: std::ops::Range<usize>, label: String| {
            let span = span.start + offset..span.end + offset;
            Diagnostic::new(self.ui.t("bad-option", &[])).at("<input>", line, span, label)
        };
        let mut choice = self.choice.clone();
        let old_value = self.game.option_values().get(key).map(|v| v.to_string());
        let old_rules = OldRules::values_of(&self.game);
        if key == "seed" {
            let span = key.len() + 1..setting.len();
            choice.seed = value
                .parse()
                .map_err(|_| bad(span, self.ui.t("seed-number", &[])))?;
            self.game.set_seed(choice.seed);
        } else {
            let names: Vec<&str> = self
                .game
                .options()
                .iter()
                .map(|o| o.name.as_str())
                .collect();
            if !names.contains(&key) {
                let d = bad(
                    0..key.len(),
                    self.ui.t(
                        "no-such-option",
                        &[("key", &key), ("options", &names.join(", "))],
                    ),
                );
                return Err(self.ui.suggest(d, key, names.iter().copied()).into());
            }
            apply_option(&mut self.game, setting).map_err(|(span, m)| bad(span, m))?;
            choice.options.retain(|(k, _)| k != key);
            choice.options.push((key.to_string(), value.to_string()));
        }
        let start = match self.game.start() {
            Ok(start) => start,
            Err(e) => {
                // the rules cannot start a game so: put the old value back
                let report = self.game.describe(&e);
                self.game.set_seed(self.choice.seed);
                if let (Some(old), false) = (old_value, key == "seed") {
                    let _ = self.game.set_option(key, &old);
                }
                return Err(report.into());
            }
        };
        let old_choice = std::mem::replace(&mut self.choice, choice);
        let (old_history, lost) = self.start_over(start);
        self.put_aside(old_rules, old_choice, old_history, lost, 0);
        let setting = format!("{key}={value}");
        println!("{}", self.ui.t("new-game-with", &[("setting", &setting)]));
        self.show_board()
    }

    /// `variant GAME`: a new game under another rules script (a name or a path).
    pub(super) fn switch_rules(&mut self, name: &str) -> Done {
        let choice = Choice {
            game: crate::script::library::lasting_name(name),
            options: Vec::new(),
            seed: self.choice.seed,
        };
        let library = crate::script::Library::discover();
        let names = library.names();
        if crate::script::library::is_name(name) && !names.iter().any(|n| n == name) {
            let d = Diagnostic::new(self.ui.t(
                "no-such-game",
                &[("game", &name), ("games", &names.join(", "))],
            ));
            return Err(self
                .ui
                .suggest(d, name, names.iter().map(String::as_str))
                .into());
        }
        let game = choice.load()?;
        self.restart_with(game, choice)?;
        println!(
            "{}",
            self.ui.t(
                "switched",
                &[("title", &self.game.title()), ("label", &self.game.label())]
            )
        );
        self.show_board()
    }

    /// `reload`: re-reads the rules script and replays the game through it, reporting the first
    /// move that leads to a different position (as rendered). If a move is no longer legal, the
    /// game goes on under the rules loaded before, whole, and the report says how to go on under
    /// the new ones.
    pub(super) fn reload(&mut self) -> Done {
        let game = self.choice.load().map_err(|mut ds| {
            if let Some(d) = ds.last_mut() {
                d.notes.push(self.ui.t("reload-kept", &[]));
            }
            ds
        })?;
        let start = game.start().map_err(|e| game.describe(&e))?;
        let mut history = History::new(start);
        let mut report: Vec<String> = Vec::new();
        let ply = self.history.ply();
        for (i, step) in self.history.steps().iter().enumerate() {
            if let Err(e) = history.play_text(&game, &step.text) {
                let mut d = Diagnostic::new(self.ui.t(
                    "reload-illegal",
                    &[("n", &(i + 1)), ("move", &step.text), ("why", &e)],
                ));
                d.notes = report
                    .iter()
                    .map(|r| r.trim_end_matches(':').to_string())
                    .collect();
                let back = ply - i;
                return Err(d
                    .note(self.ui.t("reload-kept-moves", &[]))
                    .note(self.ui.t("reload-how", &[("n", &(i + 1)), ("back", &back)]))
                    .into());
            }
            // Positions are compared as the player sees them: the state itself may hold the
            // options, which a reload may have changed without changing the position.
            let old = self.history.state_at(i + 1).map(|s| self.game.render(s));
            let new = game.render(history.current());
            if report.is_empty() && old.map(|o| o.ok()) != Some(new.ok()) {
                report.push(
                    self.ui
                        .t("reload-differs", &[("n", &(i + 1)), ("move", &step.text)]),
                );
            }
        }
        self.game = game;
        self.history = history;
        self.drafts.clear();
        self.restart_clock();
        if report.is_empty() {
            let n = self.history.ply();
            let label = self.game.label();
            println!("{}", self.ui.t_n("reloaded-same", n, &[("label", &label)]));
            return Ok(());
        }
        println!(
            "{}",
            self.ui.t("reloaded", &[("label", &self.game.label())])
        );
        report
            .iter()
            .for_each(|r| println!("{}", crate::terminal::clean(r)));
        self.show_board()
    }
}
