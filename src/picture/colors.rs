//! The colours of a picture: the theme's colour names as SVG colours, and the default fills of
//! cell values.

use std::collections::BTreeMap;

/// The wooden board behind a grid or a track.
pub const BOARD: &str = "#e3bd72";
/// Lines, text and outlines.
pub const INK: &str = "#2b2b2b";
/// The fill of a track's pits.
pub const PIT: &str = "#c9964f";

/// A theme colour name (`red`, `bright-blue`, …) or `#rrggbb` as an SVG colour.
pub fn named(name: &str) -> Option<String> {
    if name.len() == 7 && name.starts_with('#') && name[1..].chars().all(|c| c.is_ascii_hexdigit())
    {
        return Some(name.to_string());
    }
    const NAMES: [(&str, &str, &str); 8] = [
        ("black", "#1a1a1a", "#5a5a5a"),
        ("red", "#c62828", "#ef5350"),
        ("green", "#2e7d32", "#66bb6a"),
        ("yellow", "#f9a825", "#ffee58"),
        ("blue", "#1565c0", "#42a5f5"),
        ("magenta", "#8e24aa", "#ce93d8"),
        ("cyan", "#00838f", "#4dd0e1"),
        ("white", "#f5f5f5", "#ffffff"),
    ];
    let (bright, base) = match name.strip_prefix("bright-") {
        Some(base) => (true, base),
        None => (false, name),
    };
    let (_, dark, light) = NAMES.iter().find(|(n, _, _)| *n == base)?;
    Some(if bright { light } else { dark }.to_string())
}

/// The colours a picture takes from a theme.
#[derive(Debug, Clone)]
pub struct Palette {
    /// The colour of each highlight kind (`last`, `win`, …).
    pub marks: BTreeMap<String, String>,
    /// The colour of a cell value, from the theme's `[cells.GAME]` entry for its digit.
    pub values: BTreeMap<i64, String>,
}

impl Palette {
    /// A palette from colour names: `marks` by highlight kind, `values` by cell character
    /// (a digit stands for that cell value; other characters are left out). Unknown names are
    /// left out too.
    pub fn new<'a>(
        marks: impl IntoIterator<Item = (&'a str, &'a str)>,
        values: impl IntoIterator<Item = (char, &'a str)>,
    ) -> Palette {
        Palette {
            marks: marks
                .into_iter()
                .filter_map(|(kind, c)| Some((kind.to_string(), named(c)?)))
                .collect(),
            values: values
                .into_iter()
                .filter_map(|(c, name)| Some((i64::from(c.to_digit(10)?), named(name)?)))
                .collect(),
        }
    }

    /// The colour of highlight kind `kind` (a default for kinds the theme does not style).
    pub fn mark(&self, kind: &str) -> String {
        self.marks
            .get(kind)
            .cloned()
            .unwrap_or_else(|| if kind == "win" { "#2e7d32" } else { "#d84315" }.to_string())
    }

    /// The fill of a piece of value `value` (not 0): the theme's colour, else black and white
    /// stones for 1 and 2 in a two-player game, else a colour of a fixed set (so a one-player
    /// game's balls all have colours).
    pub fn piece(&self, value: i64, players: usize) -> String {
        if let Some(c) = self.values.get(&value) {
            return c.clone();
        }
        const STONES: [&str; 2] = ["#1a1a1a", "#f5f5f5"];
        const OTHERS: [&str; 8] = [
            "#c62828", "#2e7d32", "#f9a825", "#1565c0", "#8e24aa", "#00838f", "#6d4c41", "#546e7a",
        ];
        match value {
            1 | 2 if players == 2 => STONES[value as usize - 1].to_string(),
            v => OTHERS[(v.unsigned_abs() as usize + 7) % OTHERS.len()].to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_hex_read() {
        assert_eq!(named("red").as_deref(), Some("#c62828"));
        assert_eq!(named("bright-blue").as_deref(), Some("#42a5f5"));
        assert_eq!(named("#A0b1C2").as_deref(), Some("#A0b1C2"));
        assert_eq!(named("#a0b1c"), None);
        assert_eq!(named("mauve"), None);
    }
}
