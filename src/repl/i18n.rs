//! The REPL's message catalogue. Every message the REPL prints comes from a language file: a TOML
//! table of `key = "text with {placeholders}"`. English and Vietnamese are built in; adding a
//! language is adding `LANG.toml` to the `locales` folder of the user's boardrules config folder.

use std::{collections::BTreeMap, fmt::Display, path::PathBuf};

const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("../../locales/en.toml")),
    ("vi", include_str!("../../locales/vi.toml")),
];

/// Messages in one language, falling back to English for any key the language lacks.
#[derive(Debug, Clone)]
pub struct Catalog {
    messages: BTreeMap<String, String>,
    english: BTreeMap<String, String>,
}

fn parse(text: &str) -> Result<BTreeMap<String, String>, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

/// The folder user language files are read from.
pub fn user_locales() -> Option<PathBuf> {
    super::settings::config_dir().map(|d| d.join("locales"))
}

impl Catalog {
    /// The English catalogue.
    pub fn english() -> Self {
        let english = parse(BUILT_IN[0].1).expect("the built-in English catalogue is valid TOML");
        Catalog {
            messages: english.clone(),
            english,
        }
    }

    /// The catalogue for `language`: a user file if there is one, else a built-in one.
    pub fn load(language: &str) -> Result<Self, String> {
        let english = Self::english();
        let user_file = user_locales().map(|d| d.join(format!("{language}.toml")));
        let text = match user_file.filter(|f| f.is_file()) {
            Some(file) => {
                crate::fsio::read_text(&file).map_err(|e| format!("{}: {e}", file.display()))?
            }
            None => BUILT_IN
                .iter()
                .find(|(code, _)| *code == language)
                .map(|(_, text)| text.to_string())
                .ok_or_else(|| {
                    english.text(
                        "lang-unknown",
                        &[
                            ("lang", &language),
                            ("known", &Self::languages().join(", ")),
                        ],
                    )
                })?,
        };
        Ok(Catalog {
            messages: parse(&text)?,
            english: english.english,
        })
    }

    /// The languages available: built in, and user files.
    pub fn languages() -> Vec<String> {
        let mut codes: Vec<String> = BUILT_IN.iter().map(|(c, _)| c.to_string()).collect();
        if let Some(Ok(entries)) = user_locales().map(std::fs::read_dir) {
            for path in entries.filter_map(Result::ok).map(|e| e.path()) {
                if let (Some(stem), Some("toml")) =
                    (path.file_stem(), path.extension().and_then(|e| e.to_str()))
                {
                    codes.push(stem.to_string_lossy().into_owned());
                }
            }
        }
        codes.sort();
        codes.dedup();
        codes
    }

    /// The message `key` with `{name}` placeholders filled from `args`.
    pub fn text(&self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        let template = self
            .messages
            .get(key)
            .or_else(|| self.english.get(key))
            .map_or(key, String::as_str);
        fill(template, args)
    }

    /// The message `key` about `n` things, with `{n}` and `args` filled in: `KEY-one` when `n`
    /// is 1 and the language has that form (languages without plurals leave it out).
    pub fn text_n(&self, key: &str, n: usize, args: &[(&str, &dyn Display)]) -> String {
        let one = format!("{key}-one");
        let catalog = if self.messages.contains_key(key) {
            &self.messages
        } else {
            &self.english
        };
        let template = match catalog.get(&one) {
            Some(t) if n == 1 => t.as_str(),
            _ => catalog.get(key).map_or(key, String::as_str),
        };
        let mut all: Vec<(&str, &dyn Display)> = vec![("n", &n)];
        all.extend_from_slice(args);
        fill(template, &all)
    }

    /// Whether the language (or English) has message `key`.
    pub fn has(&self, key: &str) -> bool {
        self.messages.contains_key(key) || self.english.contains_key(key)
    }

    /// Every English message, for checking that a language says everything in its own words.
    pub fn english_messages(&self) -> impl Iterator<Item = (&str, &str)> {
        self.english.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// `template` with each `{name}` replaced by its value from `args`.
/// `template` with each `{name}` replaced by its value. The values may come from a script
/// (names, moves, reasons): what a terminal would obey is escaped.
fn fill(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        let value = value.to_string();
        out = out.replace(&format!("{{{name}}}"), &crate::terminal::clean(&value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_language_has_every_key() {
        let en = Catalog::english();
        for (code, _) in BUILT_IN {
            let cat = Catalog::load(code).unwrap();
            let missing: Vec<&String> = en
                .english
                .keys()
                .filter(|k| !k.ends_with("-one")) // a singular form is optional
                .filter(|k| !cat.messages.contains_key(*k))
                .collect();
            assert!(missing.is_empty(), "{code} lacks {missing:?}");
        }
    }

    #[test]
    fn placeholders_are_filled() {
        let en = Catalog::english();
        assert_eq!(en.text_n("undid", 2, &[]), "undid 2 moves");
        assert_eq!(en.text_n("undid", 1, &[]), "undid 1 move");
        let vi = Catalog::load("vi").unwrap();
        assert_eq!(vi.text_n("undid", 1, &[]), "đã đi lại 1 nước");
        assert!(Catalog::load("xx").is_err());
    }
}
