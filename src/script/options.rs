//! A script's variant options: what it declares, and reading `KEY=VALUE` settings against that.

use rhai::{Dynamic, Map};

/// One option a script declares.
#[derive(Debug, Clone)]
pub struct OptionSpec {
    /// Its name, as in `-o NAME=VALUE`.
    pub name: String,
    /// Its default value (which also gives its type).
    pub default: Dynamic,
    /// A one-line description.
    pub help: String,
    /// The values allowed, if the script lists them.
    pub choices: Vec<Dynamic>,
}

impl OptionSpec {
    /// Reads the declarations a script's `options()` returns: `#{ size: #{ value: 15, help: "…" } }`.
    pub fn from_map(map: &Map) -> Result<Vec<OptionSpec>, String> {
        map.iter()
            .map(|(name, decl)| {
                let decl = decl.read_lock::<Map>().ok_or_else(|| {
                    format!("option '{name}' must be a map like #{{ value: 1, help: \"…\" }}")
                })?;
                let default = decl
                    .get("value")
                    .cloned()
                    .ok_or_else(|| format!("option '{name}' has no `value` (its default)"))?;
                let help = decl.get("help").map(|h| h.to_string()).unwrap_or_default();
                let choices = match decl.get("choices") {
                    Some(c) => c
                        .clone()
                        .into_typed_array::<Dynamic>()
                        .map_err(|_| format!("option '{name}': choices must be an array"))?,
                    None => Vec::new(),
                };
                Ok(OptionSpec {
                    name: name.to_string(),
                    default,
                    help,
                    choices,
                })
            })
            .collect()
    }

    /// The kind of value the option takes, for messages: `true|false`, `integer`, `a|b|c`.
    pub fn kind(&self) -> String {
        if !self.choices.is_empty() {
            return self
                .choices
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join("|");
        }
        if self.default.is_bool() {
            "true|false".into()
        } else if self.default.is_int() {
            "integer".into()
        } else if self.default.is_float() {
            "number".into()
        } else {
            "text".into()
        }
    }

    /// Reads `text` as a value of this option.
    pub fn parse(&self, text: &str) -> Result<Dynamic, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "'{t}' is not a value of option '{}' ({})",
                self.name,
                self.kind()
            )
        };
        let value = if self.default.is_bool() {
            match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Dynamic::from(true),
                "false" | "no" | "off" | "0" => Dynamic::from(false),
                _ => return Err(bad()),
            }
        } else if self.default.is_int() {
            Dynamic::from(t.parse::<rhai::INT>().map_err(|_| bad())?)
        } else if self.default.is_float() {
            Dynamic::from(t.parse::<rhai::FLOAT>().map_err(|_| bad())?)
        } else {
            Dynamic::from(t.to_string())
        };
        if self.choices.is_empty()
            || self
                .choices
                .iter()
                .any(|c| c.to_string() == value.to_string())
        {
            Ok(value)
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(default: Dynamic) -> OptionSpec {
        OptionSpec {
            name: "o".into(),
            default,
            help: String::new(),
            choices: Vec::new(),
        }
    }

    #[test]
    fn values_take_the_default_type() {
        assert_eq!(
            spec(Dynamic::from(true)).parse("off").unwrap().as_bool(),
            Ok(false)
        );
        assert_eq!(
            spec(Dynamic::from(15 as rhai::INT))
                .parse("19")
                .unwrap()
                .as_int(),
            Ok(19)
        );
        assert!(spec(Dynamic::from(15 as rhai::INT)).parse("big").is_err());
        let mut s = spec(Dynamic::from("own".to_string()));
        s.choices = vec![
            Dynamic::from("own".to_string()),
            Dynamic::from("ring".to_string()),
        ];
        assert!(s.parse("ring").is_ok());
        assert!(s.parse("left").unwrap_err().contains("own|ring"));
    }
}
