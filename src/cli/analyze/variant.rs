//! The variants `analyze` compares: the game as given, and each `--compare` spec — options
//! (`block_rule=false`, `-o a=1 -o b=2`, `a=1,b=2`) or a variant script (a name or a path),
//! with or without options of its own.

use crate::{diag::Diagnostic, game_args::GameArgs};

/// One variant: which script, with which options, and how the report names it.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The column title: the game and the options given.
    pub label: String,
    /// The script and its options, as the other commands take them.
    pub args: GameArgs,
}

impl Variant {
    /// The game as the command line gives it.
    pub fn base(args: &GameArgs) -> Variant {
        let mut label = args.game.clone();
        for o in &args.options {
            label.push(' ');
            label.push_str(o);
        }
        Variant {
            label,
            args: GameArgs {
                seed: None,
                ..args.clone()
            },
        }
    }

    /// A `--compare` spec, read against the base game: its options are set after the base's,
    /// and a word without `=` names another script.
    pub fn parse(base: &GameArgs, spec: &str) -> Result<Variant, Diagnostic> {
        let mut game = None;
        let mut options = base.options.clone();
        for word in spec.split(|c: char| c.is_whitespace() || c == ',') {
            match word {
                "" | "-o" | "--option" => {}
                w if w.contains('=') => options.push(w.to_string()),
                w if game.is_none() && !w.starts_with('-') => game = Some(w.to_string()),
                w => {
                    let start = spec.find(w).unwrap_or(0);
                    return Err(Diagnostic::new("bad --compare").at(
                        "--compare",
                        spec,
                        start..start + w.len(),
                        "expected KEY=VALUE options or one variant script",
                    ));
                }
            }
        }
        if game.is_none() && options.len() == base.options.len() {
            return Err(Diagnostic::new("bad --compare")
                .at("--compare", spec, 0..spec.len(), "an empty variant")
                .note("give options (`--compare block_rule=false`) or a variant script"));
        }
        Ok(Variant {
            label: spec.split_whitespace().collect::<Vec<_>>().join(" "),
            args: GameArgs {
                game: game.unwrap_or_else(|| base.game.clone()),
                options,
                seed: None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> GameArgs {
        GameArgs {
            game: "g".into(),
            options: vec!["size=9".into()],
            seed: Some(3),
        }
    }

    #[test]
    fn specs_read_as_options_or_a_script() {
        let v = Variant::parse(&base(), "-o a=1 -o b=2").unwrap();
        assert_eq!((v.args.game.as_str(), v.args.options.len()), ("g", 3));
        let v = Variant::parse(&base(), "a=1,b=2").unwrap();
        assert_eq!(v.args.options, ["size=9", "a=1", "b=2"]);
        let v = Variant::parse(&base(), "other.rhai").unwrap();
        assert_eq!(
            (v.args.game.as_str(), v.label.as_str()),
            ("other.rhai", "other.rhai")
        );
        assert!(Variant::parse(&base(), "a.rhai b.rhai").is_err());
        assert!(Variant::parse(&base(), " ").is_err());
        assert_eq!(Variant::base(&base()).label, "g size=9");
    }
}
