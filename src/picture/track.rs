//! The picture of a track: its pits with their counts, in two rows (the first half of the track
//! left to right along the bottom, the second half back along the top, as on a sowing-game board;
//! a pit of a rarer kind ending a half (a store) stands tall at that row's end) or,
//! for an odd number of pits, in a ring. Pits are numbered 1, 2, … in track order unless the
//! script's `picture(state)` gives their `names`.

use std::collections::BTreeMap;

use svg::node::element::Group;

use super::{
    colors::{Palette, BOARD, INK, PIT},
    draw,
    scene::{Hints, Spot},
};
use crate::runtime::Track;

/// The distance between neighbouring pits, in pixels.
const STEP: f64 = 60.0;
/// The margin around the pits (room for their numbers).
const MARGIN: f64 = 34.0;

/// Where a pit is drawn: its centre, and whether it stands tall across both rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    /// The centre's x.
    pub x: f64,
    /// The centre's y.
    pub y: f64,
    /// A store (a pit of a rarer kind at the end of a half).
    pub tall: bool,
}

/// The places of `track`'s pits, and the picture's size.
pub fn layout(track: &Track) -> (Vec<Place>, f64, f64) {
    let n = track.len();
    if n < 4 || n % 2 == 1 {
        return ring(n);
    }
    let common = most_common_kind(track);
    let half = n / 2;
    let store = |pit: usize| track.kind(pit) != common;
    let (right, left) = (store(half - 1), store(n - 1));
    let per_row = half - usize::from(right).max(usize::from(left));
    let first = MARGIN + if left || right { STEP } else { 0.0 };
    let width = 2.0 * first + per_row as f64 * STEP;
    let height = 2.0 * MARGIN + 2.0 * STEP;
    let (top, bottom) = (MARGIN + 0.5 * STEP, MARGIN + 1.5 * STEP);
    let mut places = Vec::with_capacity(n);
    for i in 0..half {
        places.push(if i == half - 1 && right {
            Place {
                x: width - MARGIN - 0.5 * STEP,
                y: height / 2.0,
                tall: true,
            }
        } else {
            Place {
                x: first + (i as f64 + 0.5) * STEP,
                y: bottom,
                tall: false,
            }
        });
    }
    for i in 0..half {
        places.push(if i == half - 1 && left {
            Place {
                x: MARGIN + 0.5 * STEP,
                y: height / 2.0,
                tall: true,
            }
        } else {
            Place {
                x: width - first - (i as f64 + 0.5) * STEP,
                y: top,
                tall: false,
            }
        });
    }
    (places, width, height)
}

fn most_common_kind(track: &Track) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for pit in 0..track.len() {
        *counts.entry(track.kind(pit)).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(_, c)| c)
        .map(|(k, _)| k.to_string())
        .unwrap_or_default()
}

fn ring(n: usize) -> (Vec<Place>, f64, f64) {
    let radius = (n as f64 * STEP / std::f64::consts::TAU).max(STEP);
    let size = 2.0 * (radius + MARGIN + STEP / 2.0);
    let places = (0..n)
        .map(|i| {
            // Counter-clockwise from the bottom, as sowing usually goes.
            let angle = std::f64::consts::FRAC_PI_2 - i as f64 * std::f64::consts::TAU / n as f64;
            Place {
                x: size / 2.0 + radius * angle.cos(),
                y: size / 2.0 + radius * angle.sin(),
                tall: false,
            }
        })
        .collect();
    (places, size, size)
}

/// Draws `track`, with the picture's size.
pub fn picture(track: &Track, hints: &Hints, palette: &Palette) -> (Group, f64, f64) {
    let (places, width, height) = layout(track);
    let mut doc = Group::new().add(draw::rect(0.0, 0.0, width, height, BOARD).set("rx", 24));
    for (pit, place) in places.iter().enumerate() {
        let fill = hints
            .colors
            .get(&track.get(pit))
            .map_or(PIT, String::as_str)
            .to_string();
        doc = if place.tall {
            let (w, h) = (0.8 * STEP, 1.8 * STEP);
            doc.add(
                draw::rect(place.x - w / 2.0, place.y - h / 2.0, w, h, &fill)
                    .set("rx", w / 2.0)
                    .set("stroke", INK),
            )
        } else {
            doc.add(draw::disc(place.x, place.y, 0.4 * STEP, &fill))
        };
        let count = track.get(pit);
        let text = hints
            .labels
            .get(&count)
            .cloned()
            .unwrap_or_else(|| count.to_string());
        doc = doc.add(draw::text(
            place.x,
            place.y,
            &text,
            20.0,
            draw::ink_on(&fill),
        ));
        if hints.coordinates {
            let reach = if place.tall { 0.9 * STEP } else { 0.4 * STEP };
            let dy = if place.y < height / 2.0 - 1.0 {
                -1.0
            } else {
                1.0
            };
            let y = place.y + dy * (reach + MARGIN / 2.0 - 2.0);
            let name = hints
                .names
                .get(pit)
                .cloned()
                .unwrap_or_else(|| (pit + 1).to_string());
            doc = doc.add(draw::text(
                place.x,
                y.clamp(10.0, height - 10.0),
                &name,
                13.0,
                INK,
            ));
        }
    }
    for (kind, spots) in &hints.marks {
        let color = palette.mark(kind);
        for spot in spots {
            if let Spot::Pit(pit) = *spot {
                if let Some(place) = places.get(pit) {
                    doc = doc.add(draw::ring(place.x, place.y, 0.45 * STEP, &color, 4.0));
                }
            }
        }
    }
    (doc, width, height)
}
