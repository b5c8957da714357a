//! Writing a picture (any SVG the program draws: a position, the variant lab's chart) at the size
//! asked for, as SVG or as PNG. PNG is drawn by resvg with a font embedded in the binary (Open
//! Sans, `assets/fonts/`), so it looks the same on every machine and needs no system fonts.

use std::sync::{Arc, OnceLock};

use resvg::{
    tiny_skia,
    usvg::{self, fontdb},
};

/// The font every PNG's text is drawn in, whatever family the SVG names.
const FONT: &[u8] = include_bytes!("../../assets/fonts/OpenSans-Regular.ttf");
/// Its family name.
const FAMILY: &str = "Open Sans";
/// The largest width or height a picture may be given, in pixels.
pub const MOST_PIXELS: u32 = 8192;

/// How big a picture is written.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Size {
    /// As drawn.
    #[default]
    Natural,
    /// Its natural size times a factor.
    Scale(f64),
    /// This many pixels wide, and high (fitted in, centred on white) or in proportion.
    Fit {
        /// The width in pixels.
        width: u32,
        /// The height in pixels (`None`: in proportion to the width).
        height: Option<u32>,
    },
}

impl Size {
    /// Reads `--size`: `WIDTHxHEIGHT` or `WIDTH`, each 1 to [`MOST_PIXELS`].
    pub fn parse(text: &str) -> Result<Size, String> {
        let pixels = |t: &str| -> Result<u32, String> {
            match t.trim().parse::<u32>() {
                Ok(n) if (1..=MOST_PIXELS).contains(&n) => Ok(n),
                _ => Err(format!(
                    "'{t}' is not a size in pixels (1 to {MOST_PIXELS}): write WIDTHxHEIGHT, e.g. 1920x1080, or a width"
                )),
            }
        };
        match text.split_once(['x', 'X', '×']) {
            Some((w, h)) => Ok(Size::Fit {
                width: pixels(w)?,
                height: Some(pixels(h)?),
            }),
            None => Ok(Size::Fit {
                width: pixels(text)?,
                height: None,
            }),
        }
    }

    /// Reads `--scale`: a factor greater than 0.
    pub fn parse_scale(text: &str) -> Result<Size, String> {
        match text.trim().parse::<f64>() {
            Ok(f) if f.is_finite() && f > 0.0 && f <= 64.0 => Ok(Size::Scale(f)),
            _ => Err(format!(
                "'{text}' is not a scale: give a factor such as 2 or 0.5 (at most 64)"
            )),
        }
    }

    /// The size in pixels of a picture drawn `width` × `height`, and how to place it there:
    /// the factor and the offsets that centre it.
    fn layout(self, width: f64, height: f64) -> Result<Placement, String> {
        let (w, h) = match self {
            Size::Natural => (width.ceil(), height.ceil()),
            Size::Scale(f) => ((width * f).round(), (height * f).round()),
            Size::Fit {
                width: w,
                height: h,
            } => {
                let w = f64::from(w);
                (w, h.map_or((w * height / width).round(), f64::from))
            }
        };
        let (w, h) = (w.max(1.0), h.max(1.0));
        if w > f64::from(MOST_PIXELS) || h > f64::from(MOST_PIXELS) {
            return Err(format!(
                "the picture would be {w}×{h} pixels; at most {MOST_PIXELS} a side (a smaller --scale or --size)"
            ));
        }
        let factor = (w / width).min(h / height);
        Ok(Placement {
            width: w as u32,
            height: h as u32,
            factor,
            dx: (w - width * factor) / 2.0,
            dy: (h - height * factor) / 2.0,
        })
    }
}

/// Where a picture goes in its output.
#[derive(Debug, Clone, Copy)]
struct Placement {
    width: u32,
    height: u32,
    factor: f64,
    dx: f64,
    dy: f64,
}

/// The fonts PNG text is drawn with: the embedded font, standing for every family.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            db.set_sans_serif_family(FAMILY);
            db.set_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            db.set_cursive_family(FAMILY);
            db.set_fantasy_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// `svg` read by usvg, its text laid out in the embedded font.
fn parse(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        font_family: FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the picture: {e}"))
}

/// `svg` (an SVG document of the program's) at `size`: unchanged at its natural size, else
/// wrapped in a document of the size asked for that scales (and centres) it.
pub fn sized_svg(svg: &str, size: Size) -> Result<String, String> {
    if size == Size::Natural {
        return Ok(svg.to_string());
    }
    let natural = parse(svg)?.size();
    let at = size.layout(f64::from(natural.width()), f64::from(natural.height()))?;
    let inner = match svg.trim_start().strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or(rest, |(_, after)| after),
        None => svg,
    };
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n\
         <g transform=\"translate({dx} {dy}) scale({f})\">\n{inner}\n</g>\n</svg>\n",
        w = at.width,
        h = at.height,
        dx = at.dx,
        dy = at.dy,
        f = at.factor,
    ))
}

/// `svg` as a PNG image at `size`, on white.
pub fn png(svg: &str, size: Size) -> Result<Vec<u8>, String> {
    let tree = parse(svg)?;
    let natural = tree.size();
    let at = size.layout(f64::from(natural.width()), f64::from(natural.height()))?;
    let mut pixmap = tiny_skia::Pixmap::new(at.width, at.height)
        .ok_or_else(|| format!("cannot make a {}×{} picture", at.width, at.height))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let transform = tiny_skia::Transform::from_translate(at.dx as f32, at.dy as f32)
        .pre_scale(at.factor as f32, at.factor as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50"><rect width="100" height="50" fill="#ff0000"/><text x="50" y="30" font-family="sans-serif" font-size="20" text-anchor="middle">Ô 12</text></svg>"##;

    #[test]
    fn sizes_read_and_bad_ones_are_refused() {
        assert_eq!(
            Size::parse("1920x1080"),
            Ok(Size::Fit {
                width: 1920,
                height: Some(1080)
            })
        );
        assert_eq!(
            Size::parse("800"),
            Ok(Size::Fit {
                width: 800,
                height: None
            })
        );
        assert!(Size::parse("0x10").is_err());
        assert!(Size::parse("99999").is_err());
        assert!(Size::parse("axb").is_err());
        assert_eq!(Size::parse_scale("2"), Ok(Size::Scale(2.0)));
        assert!(Size::parse_scale("-1").is_err());
        assert!(Size::parse_scale("NaN").is_err());
        assert!(Size::parse_scale("1000").is_err());
    }

    #[test]
    fn a_fitted_picture_is_centred_and_a_width_keeps_the_proportions() {
        let at = Size::Fit {
            width: 400,
            height: Some(400),
        }
        .layout(100.0, 50.0)
        .unwrap();
        assert_eq!((at.width, at.height), (400, 400));
        assert_eq!((at.factor, at.dx, at.dy), (4.0, 0.0, 100.0));
        let at = Size::Fit {
            width: 300,
            height: None,
        }
        .layout(100.0, 50.0)
        .unwrap();
        assert_eq!((at.width, at.height, at.factor), (300, 150, 3.0));
        assert!(Size::Scale(64.0).layout(1000.0, 10.0).is_err());
    }

    #[test]
    fn text_is_drawn_with_the_embedded_font() {
        let tree = parse(SQUARE).unwrap();
        let mut texts = 0;
        for node in tree.root().children() {
            if let usvg::Node::Text(t) = node {
                texts += 1;
                assert!(!t.flattened().children().is_empty(), "the text has glyphs");
            }
        }
        assert_eq!(texts, 1);
    }

    #[test]
    fn a_sized_svg_has_the_size_asked_for() {
        let svg = sized_svg(SQUARE, Size::Scale(2.0)).unwrap();
        let size = parse(&svg).unwrap().size();
        assert_eq!((size.width(), size.height()), (200.0, 100.0));
        assert_eq!(sized_svg(SQUARE, Size::Natural).unwrap(), SQUARE);
    }
}
