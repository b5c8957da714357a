//! Shapes shared by the pictures (grids, tracks, the variant lab's chart), as `svg` elements.

use svg::node::element::{Circle, Rectangle, Text};

use super::colors::INK;

/// A filled circle with a thin outline.
pub fn disc(cx: f64, cy: f64, r: f64, fill: &str) -> Circle {
    Circle::new()
        .set("cx", cx)
        .set("cy", cy)
        .set("r", r)
        .set("fill", fill)
        .set("stroke", INK)
        .set("stroke-width", 1)
}

/// A circle outline (a mark).
pub fn ring(cx: f64, cy: f64, r: f64, color: &str, width: f64) -> Circle {
    Circle::new()
        .set("cx", cx)
        .set("cy", cy)
        .set("r", r)
        .set("fill", "none")
        .set("stroke", color)
        .set("stroke-width", width)
}

/// A rectangle from its corner and size.
pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str) -> Rectangle {
    Rectangle::new()
        .set("x", x)
        .set("y", y)
        .set("width", w)
        .set("height", h)
        .set("fill", fill)
}

/// How far below the middle of a line of text its baseline lies, as a share of the font size:
/// half the height of a capital or a digit (0.7 em in common sans-serif fonts, Open Sans
/// included). Placing the baseline explicitly centres text in every renderer (resvg, Inkscape,
/// browsers alike), where `dominant-baseline` is not read everywhere.
const HALF_CAP: f64 = 0.35;

/// Text (escaped by the `svg` crate, and kept to what XML allows) of `size` pixels in `color`,
/// centred on `(x, y)`.
pub fn text(x: f64, y: f64, content: &str, size: f64, color: &str) -> Text {
    line_of_text(x, y, content, size, color).set("text-anchor", "middle")
}

/// Text as [`text`], starting at `x` and centred on `y` vertically.
pub fn text_from(x: f64, y: f64, content: &str, size: f64, color: &str) -> Text {
    line_of_text(x, y, content, size, color).set("text-anchor", "start")
}

/// Text as [`text`], ending at `x` and centred on `y` vertically.
pub fn text_to(x: f64, y: f64, content: &str, size: f64, color: &str) -> Text {
    line_of_text(x, y, content, size, color).set("text-anchor", "end")
}

fn line_of_text(x: f64, y: f64, content: &str, size: f64, color: &str) -> Text {
    Text::new(crate::terminal::clean_for_xml(content))
        .set("x", x)
        .set("y", y + HALF_CAP * size)
        .set("font-family", "sans-serif")
        .set("font-size", size)
        .set("fill", color)
}

/// About how wide `content` is in `size`-pixel sans-serif text (for laying out the panel
/// under the board: a little wide rather than narrow).
pub fn width_of(content: &str, size: f64) -> f64 {
    0.55 * size * content.chars().count() as f64
}

/// Black or white, whichever reads better on `fill` (`#rrggbb`).
pub fn ink_on(fill: &str) -> &'static str {
    let channel =
        |i: usize| u32::from_str_radix(fill.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    let light = 299 * channel(1) + 587 * channel(3) + 114 * channel(5);
    if light > 128_000 {
        INK
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_with_characters_xml_forbids_still_makes_a_well_formed_picture() {
        let label = "a\u{fffe}b\u{ffff}c\u{1b}[2J";
        let doc = svg::Document::new()
            .set("viewBox", (0, 0, 10, 10))
            .add(text(5.0, 5.0, label, 4.0, INK));
        let svg = doc.to_string();
        resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .expect("a well-formed SVG");
        assert!(svg.contains(r"a\u{fffe}b\u{ffff}c\u{1b}[2J"), "{svg}");
    }
}
