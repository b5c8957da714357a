//! What the REPL looks like and speaks: the message catalogue, the theme, colour, and the settings
//! they are remembered in.

use std::{fmt::Display, io::IsTerminal};

use super::{
    command::COMMANDS,
    i18n::Catalog,
    settings::{ColorChoice, Settings},
    theme::Theme,
};
use crate::diag::Diagnostic;

/// The REPL's language, theme and colour.
pub struct Ui {
    /// The messages.
    pub catalog: Catalog,
    /// The theme.
    pub theme: Theme,
    /// The remembered settings.
    pub settings: Settings,
    interactive: bool,
}

impl Ui {
    /// The UI from the saved settings; `interactive` is whether a person is at a terminal.
    /// Problems with the settings are returned as notes, and defaults used.
    pub fn new(interactive: bool) -> (Ui, Vec<String>) {
        let (settings, problem) = Settings::load();
        let mut notes: Vec<String> = problem.into_iter().collect();
        let catalog = Catalog::load(&settings.language).unwrap_or_else(|e| {
            notes.push(e);
            Catalog::english()
        });
        let theme = Theme::load(&settings.theme).unwrap_or_else(|e| {
            notes.push(e);
            Theme::default()
        });
        let notes = notes
            .into_iter()
            .map(|n| catalog.text("settings-unreadable", &[("why", &n)]))
            .collect();
        let ui = Ui {
            catalog,
            theme,
            settings,
            interactive,
        };
        (ui, notes)
    }

    /// A message from the catalogue.
    pub fn t(&self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        self.catalog.text(key, args)
    }

    /// A message about `n` things from the catalogue, in the singular when `n` is 1.
    pub fn t_n(&self, key: &str, n: usize, args: &[(&str, &dyn Display)]) -> String {
        self.catalog.text_n(key, n, args)
    }

    /// An error report as shown: in the language, coloured if colour is on.
    pub fn report(&self, d: &Diagnostic) -> String {
        let words = crate::diag::Words {
            error: self.t("error-word", &[]),
            note: self.t("note-word", &[]),
        };
        d.render_in(self.color(), &words)
    }

    /// Whether output is coloured now.
    pub fn color(&self) -> bool {
        match self.settings.color {
            ColorChoice::On => true,
            ColorChoice::Off => false,
            ColorChoice::Auto => {
                self.interactive
                    && std::env::var_os("NO_COLOR").is_none()
                    && std::io::stdout().is_terminal()
            }
        }
    }

    /// Draws a rendering of `game` (with highlight tags) for the screen.
    pub fn draw(&self, game: &str, marked: &str) -> String {
        self.theme.draw(game, marked, self.color())
    }

    fn remember(&self) -> Option<String> {
        self.settings
            .save()
            .err()
            .map(|e| self.t("settings-not-saved", &[("why", &e)]))
    }

    /// `lang CODE`.
    pub fn set_language(&mut self, code: &str) -> Result<String, Diagnostic> {
        let known = Catalog::languages();
        if !known.iter().any(|k| k == code) {
            let d = Diagnostic::new(self.t(
                "lang-unknown",
                &[("lang", &code), ("known", &known.join(", "))],
            ));
            return Err(self.suggest(d, code, known.iter().map(String::as_str)));
        }
        self.catalog = Catalog::load(code).map_err(Diagnostic::new)?;
        self.settings.language = code.to_string();
        Ok(self.confirm(self.t("lang-set", &[("lang", &code)])))
    }

    /// `theme NAME|FILE`.
    pub fn set_theme(&mut self, name: &str) -> Result<String, Diagnostic> {
        let user_theme = super::settings::config_dir()
            .map(|d| d.join("themes").join(format!("{name}.toml")))
            .is_some_and(|f| f.is_file());
        let found = user_theme
            || std::path::Path::new(name).is_file()
            || Theme::built_in().any(|t| t == name);
        if !found {
            let themes: Vec<&str> = Theme::built_in().collect();
            let d = Diagnostic::new(self.t(
                "no-such-theme",
                &[("theme", &name), ("themes", &themes.join(", "))],
            ));
            return Err(self.suggest(d, name, themes));
        }
        self.theme = Theme::load(name).map_err(Diagnostic::new)?;
        self.settings.theme = name.to_string();
        Ok(self.confirm(self.t("theme-set", &[("theme", &name)])))
    }

    /// `color on|off|auto`.
    pub fn set_color(&mut self, choice: ColorChoice) -> String {
        self.settings.color = choice;
        let word = match choice {
            ColorChoice::On => "on",
            ColorChoice::Off => "off",
            ColorChoice::Auto => "auto",
        };
        self.confirm(self.t("color-set", &[("color", &word)]))
    }

    /// `d` with a "did you mean" note when one of `known` is close to `word`.
    pub fn suggest<'a>(
        &self,
        d: Diagnostic,
        word: &str,
        known: impl IntoIterator<Item = &'a str>,
    ) -> Diagnostic {
        match crate::suggest::closest(word, known) {
            Some(k) => d.note(self.t("did-you-mean", &[("word", &k)])),
            None => d,
        }
    }

    fn confirm(&self, message: String) -> String {
        match self.remember() {
            Some(problem) => format!("{message}\n{problem}"),
            None => message,
        }
    }

    /// `help` and `help COMMAND`.
    pub fn help(&self, topic: Option<&str>) -> Result<String, Diagnostic> {
        let Some(topic) = topic else {
            let mut out = self.t("help-intro", &[]);
            for c in COMMANDS {
                let usage = format!("{} {}", c.name, c.args);
                out += &format!("\n  {usage:<22} {}", self.t(c.about_key, &[]));
            }
            return Ok(out);
        };
        let c = COMMANDS
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(topic))
            .ok_or_else(|| {
                let d = Diagnostic::new(self.t("help-unknown", &[("command", &topic)]));
                self.suggest(d, topic, COMMANDS.iter().map(|c| c.name))
                    .note(self.t("see-help", &[]))
            })?;
        Ok(format!(
            "{} {}\n  {}\n  {}: {}",
            c.name,
            c.args,
            self.t(c.about_key, &[]),
            self.t("example", &[]),
            c.example
        ))
    }
}
