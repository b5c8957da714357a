//! Display themes: how the REPL draws a rendering. A theme is a TOML file with `[marks]` (styles
//! for what the rules `highlight`: `last`, `win`, …) and `[cells.GAME]` (a glyph and colour for a
//! board character of that game, applied where the character stands alone). `plain` and `stones`
//! are built in; more are files in the config folder's `themes/` or a path.

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use anstyle::{AnsiColor, Color, Effects, Style as AnsiStyle};
use serde::Deserialize;

use crate::{markup, terminal};

/// The highlight kind of coordinates and other labels: a theme may style it under `[marks]`,
/// but never restyles it as a board cell.
const LABEL: &str = "label";

const BUILT_IN: &[(&str, &str)] = &[
    ("plain", include_str!("../../themes/plain.toml")),
    ("stones", include_str!("../../themes/stones.toml")),
];

/// How one thing is drawn.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Style {
    /// Text drawn instead of the character.
    pub glyph: Option<String>,
    /// A colour name: `red`, `bright-blue`, ….
    pub color: Option<String>,
    /// Bold.
    #[serde(default)]
    pub bold: bool,
    /// Underlined.
    #[serde(default)]
    pub underline: bool,
    /// Swapped foreground and background.
    #[serde(default)]
    pub reverse: bool,
}

/// A display theme.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// What the theme looks like, in a few words.
    #[serde(default)]
    pub about: String,
    /// Styles of highlighted text, by kind.
    #[serde(default)]
    pub marks: BTreeMap<String, Style>,
    /// Per game, styles of single board characters.
    #[serde(default)]
    pub cells: BTreeMap<String, BTreeMap<char, Style>>,
}

fn color_named(name: &str) -> Option<AnsiColor> {
    use AnsiColor::*;
    const NAMES: [(&str, AnsiColor); 8] = [
        ("black", Black),
        ("red", Red),
        ("green", Green),
        ("yellow", Yellow),
        ("blue", Blue),
        ("magenta", Magenta),
        ("cyan", Cyan),
        ("white", White),
    ];
    let (bright, base) = match name.strip_prefix("bright-") {
        Some(base) => (true, base),
        None => (false, name),
    };
    let color = NAMES.iter().find(|(n, _)| *n == base)?.1;
    Some(if bright { color.bright(true) } else { color })
}

impl Style {
    fn ansi(&self) -> AnsiStyle {
        let mut style = AnsiStyle::new();
        if let Some(c) = self.color.as_deref().and_then(color_named) {
            style = style.fg_color(Some(Color::Ansi(c)));
        }
        let mut effects = Effects::new();
        if self.bold {
            effects |= Effects::BOLD;
        }
        if self.underline {
            effects |= Effects::UNDERLINE;
        }
        if self.reverse {
            effects |= Effects::INVERT;
        }
        style.effects(effects)
    }
}

impl Theme {
    /// Reads a theme from TOML text; errors name the problem.
    pub fn parse(text: &str) -> Result<Theme, String> {
        let theme: Theme = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let styles = theme
            .marks
            .values()
            .chain(theme.cells.values().flat_map(|m| m.values()));
        for style in styles {
            if let Some(c) = style.color.as_deref().filter(|c| color_named(c).is_none()) {
                return Err(format!(
                    "unknown colour '{c}' (colours: black, red, green, yellow, blue, magenta, cyan, white, each also as bright-NAME)"
                ));
            }
        }
        Ok(theme)
    }

    /// The theme called `name`: a path to a file, a file `NAME.toml` in the config folder's
    /// `themes/`, or a built-in theme.
    pub fn load(name: &str) -> Result<Theme, String> {
        let user =
            super::settings::config_dir().map(|d| d.join("themes").join(format!("{name}.toml")));
        let file = [Some(Path::new(name).to_path_buf()), user]
            .into_iter()
            .flatten()
            .find(|p| p.is_file());
        match file {
            Some(file) => {
                let text = crate::fsio::read_text(&file)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                Theme::parse(&text).map_err(|e| format!("{}: {e}", file.display()))
            }
            None => {
                let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name).ok_or_else(|| {
                    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
                    format!(
                        "no theme '{name}' (built in: {}; or give a .toml file)",
                        names.join(", ")
                    )
                })?;
                Theme::parse(text)
            }
        }
    }

    /// The colours of pictures of `game` in this theme (see [`crate::picture`]).
    pub fn palette(&self, game: &str) -> crate::picture::Palette {
        crate::picture::Palette::new(
            self.marks
                .iter()
                .filter_map(|(kind, s)| Some((kind.as_str(), s.color.as_deref()?))),
            self.cells
                .get(game)
                .into_iter()
                .flatten()
                .filter_map(|(c, s)| Some((*c, s.color.as_deref()?))),
        )
    }

    /// Draws `marked` (a rendering of `game`, with highlight tags) in this theme, with ANSI
    /// colours when `color` is set; the tags are always removed. A board character standing
    /// alone is restyled as `[cells.GAME]` says, unless it is tagged as a label.
    pub fn draw(&self, game: &str, marked: &str, color: bool) -> String {
        let cells = self.cells.get(game);
        let mut out = String::with_capacity(marked.len() * 2);
        for (i, line) in marked.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let chars: Vec<(char, Option<&str>)> = markup::segments(line)
                .into_iter()
                .flat_map(|s| s.text.chars().map(move |c| (c, s.kind)))
                .collect();
            for (j, &(c, kind)) in chars.iter().enumerate() {
                let alone = |k: Option<usize>| {
                    k.and_then(|k| chars.get(k))
                        .is_none_or(|(n, _)| !n.is_alphanumeric())
                };
                // Text the rules tag as a `label` (coordinates) is never a cell.
                let cell = cells
                    .filter(|_| kind != Some(LABEL))
                    .filter(|_| alone(j.checked_sub(1)) && alone(Some(j + 1)))
                    .and_then(|m| m.get(&c));
                let mark = kind.and_then(|k| self.marks.get(k));
                let glyph = match cell.and_then(|s| s.glyph.clone()) {
                    Some(glyph) => glyph,
                    None => terminal::clean(c.encode_utf8(&mut [0; 4])).into_owned(),
                };
                match mark.or(cell).filter(|_| color) {
                    Some(style) => {
                        let mut ansi = style.ansi();
                        if mark.is_some() && style.color.is_none() {
                            ansi =
                                ansi.fg_color(cell.map(Style::ansi).and_then(|s| s.get_fg_color()));
                        }
                        let _ = write!(out, "{ansi}{glyph}{ansi:#}");
                    }
                    None => out.push_str(&glyph),
                }
            }
        }
        out
    }

    /// The built-in theme called `name` (no file is read).
    pub fn load_built_in(name: &str) -> Option<Theme> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        Theme::parse(text).ok()
    }

    /// The names of the built-in themes.
    pub fn built_in() -> impl Iterator<Item = &'static str> {
        BUILT_IN.iter().map(|(n, _)| *n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_parse() {
        for name in Theme::built_in() {
            Theme::load(name).unwrap();
        }
        assert!(Theme::parse("[marks]\nlast = { color = \"mauve\" }")
            .unwrap_err()
            .contains("mauve"));
        assert!(Theme::load("nonesuch").is_err());
    }

    #[test]
    fn glyphs_replace_lone_characters_and_marks_colour() {
        let theme = Theme::parse(
            "[marks]\nlast = { color = \"yellow\" }\n\
             [cells.demo]\nX = { glyph = \"●\", color = \"red\" }\n\
             O = { glyph = \"○\" }\n\".\" = { glyph = \"·\" }\n\"1\" = { glyph = \"①\" }\n",
        )
        .unwrap();
        let marked = format!(" 9 . {} O  9\nX to move", markup::highlight("last", "X"));
        let plain = theme.draw("demo", &marked, false);
        assert_eq!(plain, " 9 · ● ○  9\n● to move");
        let coloured = theme.draw("demo", &marked, true);
        assert!(coloured.contains("\u{1b}["));
        assert_eq!(
            Theme::default().draw("demo", &marked, false),
            " 9 . X O  9\nX to move"
        );
        // other games are left alone, and so are characters inside words and numbers
        assert_eq!(
            theme.draw("other", &marked, false),
            " 9 . X O  9\nX to move"
        );
        assert_eq!(
            theme.draw("demo", "score 12, 1 left", false),
            "score 12, ① left"
        );
        // a label (a coordinate) is never a cell
        let labelled = format!(
            "{} 1 . {}",
            markup::highlight("label", "1"),
            markup::highlight("label", "1")
        );
        assert_eq!(theme.draw("demo", &labelled, false), "1 ① · 1");
    }
}
