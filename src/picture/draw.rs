//! Shapes shared by the grid and track pictures, as `svg` elements.

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

/// Centred text (escaped by the `svg` crate, and kept to what XML allows) of `size` pixels in
/// `color`.
pub fn text(x: f64, y: f64, content: &str, size: f64, color: &str) -> Text {
    Text::new(crate::terminal::clean_for_xml(content))
        .set("x", x)
        .set("y", y)
        .set("font-family", "sans-serif")
        .set("font-size", size)
        .set("text-anchor", "middle")
        .set("dominant-baseline", "central")
        .set("fill", color)
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
