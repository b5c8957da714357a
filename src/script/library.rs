//! Where rules scripts come from: the copies built into the binary, a `rules/` folder in the
//! working directory (which overrides them by name), or a path given on the command line.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
    sync::{Arc, RwLock},
};

use crate::diag::Diagnostic;

include!(concat!(env!("OUT_DIR"), "/embedded_rules.rs"));

/// A rules script's text and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptSource {
    /// The game's name: the file name without `.rhai`.
    pub name: String,
    /// Where it was read from: `builtin:NAME` or a file path.
    pub label: String,
    /// The folder of the file, for resolving its imports (none for built-in scripts).
    pub dir: Option<PathBuf>,
    /// The script itself.
    pub text: String,
}

/// The places scripts are looked up in.
#[derive(Debug, Clone, Default)]
pub struct Library {
    rules_dir: Option<PathBuf>,
    /// Scripts added while the program runs (the class server's uploaded variants), by name;
    /// shared by every clone of the library.
    added: Arc<RwLock<BTreeMap<String, String>>>,
}

impl Library {
    /// Built-in scripts, overridden by `./rules/*.rhai` when that folder exists.
    pub fn discover() -> Self {
        let dir = PathBuf::from("rules");
        Library {
            rules_dir: dir.is_dir().then_some(dir),
            ..Library::default()
        }
    }

    /// Built-in scripts only.
    pub fn builtin() -> Self {
        Library::default()
    }

    /// Built-in scripts, overridden by the scripts of `dir`.
    pub fn with_rules_dir(dir: impl Into<PathBuf>) -> Self {
        Library {
            rules_dir: Some(dir.into()),
            ..Library::default()
        }
    }

    /// Adds (or replaces) the script `name` held in memory, found after the rules folder's
    /// scripts and before the built-in ones, by this library and all its clones.
    pub fn add(&self, name: &str, text: &str) {
        self.added
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_string(), text.to_string());
    }

    /// Whether `name` is a script added with [`Library::add`].
    pub fn is_added(&self, name: &str) -> bool {
        self.added
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(name)
    }

    fn added_source(&self, name: &str) -> Option<ScriptSource> {
        let added = self.added.read().unwrap_or_else(|p| p.into_inner());
        added.get(name).map(|text| ScriptSource {
            name: name.to_string(),
            label: format!("added:{name}"),
            dir: None,
            text: text.clone(),
        })
    }

    /// The `rules/` folder whose scripts override the built-in ones, if there is one.
    pub fn rules_dir(&self) -> Option<&Path> {
        self.rules_dir.as_deref()
    }

    /// Finds a game by name (`NAME`), or reads a script file by path (`my/variant.rhai`).
    pub fn find(&self, game: &str) -> Result<ScriptSource, Diagnostic> {
        if is_name(game) {
            return self.find_named(game, None).ok_or_else(|| {
                let names = self.names();
                let mut d = Diagnostic::new(format!("no game named '{game}'"));
                if let Some(hint) =
                    crate::suggest::did_you_mean(game, names.iter().map(|n| n.as_str()))
                {
                    d = d.note(hint);
                }
                d.note(format!("games: {}", names.join(", ")))
                    .note("a path to a .rhai file works too")
            });
        }
        read_file(Path::new(game))
    }

    /// Finds the script `name` imports, looking first beside the importing script.
    pub fn find_named(&self, name: &str, beside: Option<&Path>) -> Option<ScriptSource> {
        let file = format!("{name}.rhai");
        [beside, self.rules_dir.as_deref()]
            .into_iter()
            .flatten()
            .map(|dir| dir.join(&file))
            .find(|p| p.is_file())
            .and_then(|p| read_file(&p).ok())
            .or_else(|| self.added_source(name))
            .or_else(|| {
                EMBEDDED_RULES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(n, text)| ScriptSource {
                        name: n.to_string(),
                        label: format!("builtin:{n}"),
                        dir: None,
                        text: text.to_string(),
                    })
            })
    }

    /// The first built-in game, in name order, whose script defines `fn NAME(` itself (the
    /// game a command plays when it is started with no game named, e.g. `gomocup_rule` for a
    /// Gomocup brain started under a `pbrain-…` name).
    pub fn first_builtin_defining(name: &str) -> Option<&'static str> {
        let definition = format!("fn {name}(");
        EMBEDDED_RULES
            .iter()
            .find(|(_, source)| source.contains(&definition))
            .map(|(game, _)| *game)
    }

    /// The names of every game found, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: BTreeSet<String> =
            EMBEDDED_RULES.iter().map(|(n, _)| n.to_string()).collect();
        names.extend(
            self.added
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .keys()
                .cloned(),
        );
        if let Some(dir) = &self.rules_dir {
            if let Ok(entries) = fs::read_dir(dir) {
                for path in entries.filter_map(Result::ok).map(|e| e.path()) {
                    if path.extension().is_some_and(|e| e == "rhai") {
                        if let Some(stem) = path.file_stem() {
                            names.insert(stem.to_string_lossy().into_owned());
                        }
                    }
                }
            }
        }
        names.into_iter().collect()
    }
}

/// The game as a save file names it, so that it loads the same script from any folder: a
/// built-in name as it is, a script path made absolute (as given when it cannot be).
pub fn lasting_name(game: &str) -> String {
    if is_name(game) {
        return game.to_string();
    }
    std::fs::canonicalize(game)
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| game.to_string())
}

/// Whether `text` is a bare script name (letters, digits, `_`, `-`), not a path.
pub fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn read_file(path: &Path) -> Result<ScriptSource, Diagnostic> {
    let text = crate::fsio::read_text(path).map_err(|e| {
        Diagnostic::new(format!("cannot read rules script {}: {e}", path.display()))
    })?;
    Ok(ScriptSource {
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        label: path.display().to_string(),
        dir: path.parent().map(Path::to_path_buf),
        text,
    })
}
