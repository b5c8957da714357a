//! Settings the REPL remembers between sessions (language, theme, colour, computer level), in
//! `config.toml` in the user's boardrules config folder (`$BOARDRULES_CONFIG_DIR` overrides it).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// When to colour the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Colour on a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always colour.
    On,
    /// Never colour.
    Off,
}

/// The remembered settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Message language code.
    pub language: String,
    /// Theme name or file.
    pub theme: String,
    /// When to colour.
    pub color: ColorChoice,
    /// The default computer level.
    pub level: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: "en".into(),
            theme: "plain".into(),
            color: ColorChoice::Auto,
            level: "medium".into(),
        }
    }
}

/// The boardrules config folder.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os("BOARDRULES_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::config_dir().map(|d| d.join("boardrules")))
}

fn config_file() -> Option<PathBuf> {
    config_dir().map(|d| d.join("config.toml"))
}

impl Settings {
    /// The saved settings; defaults if there are none. An unreadable file gives the defaults
    /// and a message saying why.
    pub fn load() -> (Settings, Option<String>) {
        let Some(file) = config_file().filter(|f| f.exists()) else {
            return (Settings::default(), None);
        };
        let read = crate::fsio::read_text(&file)
            .map_err(|e| e.to_string())
            .and_then(|t| toml::from_str::<Settings>(&t).map_err(|e| e.message().to_string()));
        match read {
            Ok(s) => (s, None),
            Err(e) => (
                Settings::default(),
                Some(format!("{}: {e}", file.display())),
            ),
        }
    }

    /// Writes the settings (atomically: a temporary file renamed over the old one).
    pub fn save(&self) -> Result<(), String> {
        let file = config_file().ok_or("no config folder on this system")?;
        let text = toml::to_string(self).map_err(|e| e.to_string())?;
        super::save::write_atomically(&file, &text)
    }
}
