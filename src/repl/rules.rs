//! Changing the rules in play: `set KEY=VALUE` (a new game under that option), `variant GAME`
//! (another script) and `reload` (the same script re-read, the game replayed through it).

use super::session::{Choice, Done, Session};
use crate::{
    cli::GameArgs,
    diag::Diagnostic,
    driver::apply_option,
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
    /// Starts a new game of `game` under `choice`.
    fn restart_with(&mut self, game: ScriptedGame, choice: Choice) -> Done {
        let start = game.start().map_err(|e| game.describe(&e))?;
        self.game = game;
        self.choice = choice;
        self.start_over(start);
        Ok(())
    }

    /// A new game from `start` under the current rules: no drafts, fresh clocks.
    fn start_over(&mut self, start: rhai::Dynamic) {
        self.history = History::new(start);
        self.drafts.clear();
        self.lost_on_time = None;
        if let Some(c) = &mut self.clock {
            *c = super::clock::Clock::new(c.initial, self.game.player_names().len());
        }
        self.restart_clock();
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
        if key == "seed" {
            let span = key.len() + 1..setting.len();
            choice.seed = value
                .parse()
                .map_err(|_| bad(span, self.ui.t("seed-number", &[])))?;
            self.game.set_seed(choice.seed);
        } else {
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
        self.choice = choice;
        self.start_over(start);
        let setting = format!("{key}={value}");
        println!("{}", self.ui.t("new-game-with", &[("setting", &setting)]));
        self.show_board()
    }

    /// `variant GAME`: a new game under another rules script (a name or a path).
    pub(super) fn switch_rules(&mut self, name: &str) -> Done {
        let choice = Choice {
            game: name.to_string(),
            options: Vec::new(),
            seed: self.choice.seed,
        };
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
    /// move that is no longer legal or leads to a different position (as rendered).
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
        for (i, step) in self.history.steps().iter().enumerate() {
            if let Err(e) = history.play_text(&game, &step.text) {
                report.push(self.ui.t(
                    "reload-illegal",
                    &[("n", &(i + 1)), ("move", &step.text), ("why", &e)],
                ));
                break;
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
            println!(
                "{}",
                self.ui.t("reloaded-same", &[("label", &label), ("n", &n)])
            );
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
