//! `save FILE` and `load FILE`: a game to a readable file and back, through the current rules.

use std::{path::Path, time::Duration};

use super::{
    clock::Clock,
    kept::OldRules,
    outcome::{Choice, Done, Failure},
    save::{self, checksum, SaveFile, SavedClock, SavedVs},
    session::Session,
};
use crate::{
    diag::Diagnostic,
    game_args::GameArgs,
    runtime::{Game, History},
    script::ScriptedGame,
    search::player::Level,
};

impl Session {
    /// `save FILE`.
    pub(super) fn save(&mut self, path: &str) -> Done {
        let file = self.save_file(&self.history);
        save::write_atomically(Path::new(path), &file.to_text())
            .map_err(|e| Diagnostic::new(self.ui.t("cannot-save", &[("why", &e)])))?;
        println!(
            "{}",
            self.ui.t_n("saved", self.history.ply(), &[("path", &path)])
        );
        Ok(())
    }

    /// `picture FILE`: the position on screen (the replay's, when replaying) as a picture: PNG
    /// when FILE ends in `.png`, else SVG.
    pub(super) fn picture(&self, path: &str) -> Done {
        let view = self.view();
        let last = view.steps().last().map(|step| &step.mv);
        let svg = crate::picture::svg(
            &self.game,
            view.current(),
            last,
            &self.ui.theme.palette(self.game.name()),
        )
        .map_err(|e| self.fault(&e))?;
        let png = Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let written = if png {
            crate::picture::output::png(&svg, crate::picture::output::Size::Natural)
                .and_then(|bytes| save::write_bytes_atomically(Path::new(path), &bytes))
        } else {
            save::write_atomically(Path::new(path), &svg)
        };
        written.map_err(|e| Diagnostic::new(self.ui.t("cannot-picture", &[("why", &e)])))?;
        println!("{}", self.ui.t("pictured", &[("path", &path)]));
        Ok(())
    }

    /// `history` of the current rules, as a save file.
    pub(super) fn save_file(&self, history: &History<ScriptedGame>) -> SaveFile {
        let checksums: Vec<String> = (1..=history.ply())
            .filter_map(|i| history.state_at(i))
            .map(|s| checksum(self.game.state_hash(s)))
            .collect();
        let now = std::time::Instant::now();
        SaveFile {
            game: self.choice.game.clone(),
            seed: self.choice.seed,
            moves: history.steps().iter().map(|s| s.text.clone()).collect(),
            final_checksum: checksum(self.game.state_hash(history.current())),
            checksums,
            options: self.choice.options.iter().cloned().collect(),
            clock: self.clock.as_ref().map(|c| SavedClock {
                budget_ms: c.initial.as_millis() as u64,
                remaining_ms: c.left(now).iter().map(|d| d.as_millis() as u64).collect(),
                lost_on_time: self.lost_on_time.map(|p| p + 1),
            }),
            vs: self.computer.map(|(level, side)| SavedVs {
                level: level.name().to_string(),
                side: side + 1,
            }),
        }
    }

    /// `load FILE`: replays the saved moves through the current rules; nothing changes unless
    /// every move replays.
    pub fn load(&mut self, path: &str) -> Done {
        self.load_file(path)
            .map_err(|Failure(ds)| Failure(ds.into_iter().map(|d| self.in_language(d)).collect()))
    }

    /// A save file's error in the session's language.
    fn in_language(&self, mut d: Diagnostic) -> Diagnostic {
        let words = [
            (save::CANNOT_READ, "save-unreadable"),
            (save::NOT_A_SAVE, "save-not-a-save"),
            (save::NOTHING_CHANGED, "nothing-changed"),
        ];
        for (english, key) in words {
            let local = self.ui.t(key, &[]);
            d.message = d.message.replace(english, &local);
            d.notes
                .iter_mut()
                .for_each(|n| *n = n.replace(english, &local));
        }
        d
    }

    fn load_file(&mut self, path: &str) -> Done {
        save::remove_stale_temp_files(save::folder_of(Path::new(path)));
        let (text, file) = save::read(Path::new(path))?;
        let at = |span: std::ops::Range<usize>, label: &str, message: &str| {
            save::error_at(path, &text, span, label, message)
        };
        let options: Vec<(String, String)> = file
            .options
            .iter()
            .map(|(k, v)| (k.clone(), save::option_text(v.get_ref())))
            .collect();
        let game_name = file.game.get_ref().clone();
        let load_error = self.ui.t("load-failed", &[]);
        let base = GameArgs {
            game: game_name.clone(),
            options: Vec::new(),
            seed: Some(file.seed),
        };
        let mut game = base
            .load()
            .map_err(|ds| at(file.game.span(), &ds[0].message, &load_error))?;
        for (key, value) in &options {
            game.set_option(key, value)
                .map_err(|m| at(file.options[key].span(), &m, &load_error))?;
        }
        let start = game.start().map_err(|e| vec![game.describe(&e)])?;
        let mut history = History::new(start);
        let mut diverges = None;
        for (i, mv) in file.moves.iter().enumerate() {
            history.play_text(&game, mv.get_ref()).map_err(|e| {
                at(
                    mv.span(),
                    &e.to_string(),
                    &self.ui.t("load-move-failed", &[("n", &(i + 1))]),
                )
            })?;
            let saved = file.checksums.get(i);
            if diverges.is_none()
                && saved.is_some_and(|c| *c != checksum(game.state_hash(history.current())))
            {
                diverges = Some(i + 1);
            }
        }
        if let Some(f) = &file.final_checksum {
            if diverges.is_none() && *f.get_ref() != checksum(game.state_hash(history.current())) {
                diverges = Some(history.ply());
            }
        }
        let players = game.player_names().len();
        let computer = match &file.vs {
            Some(vs) => {
                let level = Level::parse(&vs.get_ref().level);
                let side = vs.get_ref().side.checked_sub(1).filter(|s| *s < players);
                match (level, side) {
                    (Some(level), Some(side)) => Some((level, side)),
                    _ => {
                        let why = self.ui.t("load-bad-vs", &[("players", &players)]);
                        return Err(at(vs.span(), &why, &load_error).into());
                    }
                }
            }
            None => None,
        };
        self.computer = computer;
        self.clock = file.clock.as_ref().map(|c| {
            let mut clock = Clock::new(Duration::from_millis(c.budget_ms), players);
            for (left, ms) in clock.remaining.iter_mut().zip(&c.remaining_ms) {
                *left = Duration::from_millis(*ms);
            }
            clock
        });
        let old_game = std::mem::replace(&mut self.game, game);
        let old_choice = std::mem::replace(
            &mut self.choice,
            Choice {
                game: game_name,
                options,
                seed: file.seed,
            },
        );
        let old_history = std::mem::replace(&mut self.history, history);
        let lost = std::mem::replace(
            &mut self.lost_on_time,
            file.clock
                .and_then(|c| c.lost_on_time)
                .and_then(|p| p.checked_sub(1)),
        );
        self.put_aside(
            OldRules::Loaded(Box::new(old_game)),
            old_choice,
            old_history,
            lost,
            0,
        );
        self.replay = None;
        self.drafts.clear();
        self.restart_clock();
        println!(
            "{}",
            self.ui.t_n(
                "loaded",
                self.history.ply(),
                &[("path", &path), ("game", &self.game.name())]
            )
        );
        if let Some(n) = diverges {
            println!("{}", self.ui.t("load-diverges", &[("n", &n)]));
        }
        self.show_board()?;
        if let Some((level, side)) = self.computer {
            let name = self.game.player_name(side);
            println!(
                "{}",
                self.ui
                    .t("vs-on", &[("player", &name), ("level", &level.name())])
            );
        }
        self.computer_turn()
    }
}
