//! The variant lab's chart, drawn for a projector: large type, colours that stay apart in
//! colour-blind vision and in black and white (Okabe–Ito's palette, and dashes telling the
//! lines apart), each variant named. On top, one bar per variant split into the first player's
//! wins, draws, the other players' wins and unfinished games, with the 95 % interval of the
//! first player's win rate; below, how long the games were (plies on whole-number ticks).

use svg::{
    node::element::{Group, Line, Polyline},
    Document,
};

use super::{stats, summary::Summary};
use crate::picture::draw::{ink_on, rect, text, text_from, text_to, width_of};

/// The chart's width.
const WIDTH: f64 = 1280.0;
/// Titles' type size.
const TITLE: f64 = 30.0;
/// Names' and legends' type size.
const LABEL: f64 = 24.0;
/// Ticks' type size.
const TICK: f64 = 20.0;
/// The height of a variant's bar row.
const ROW: f64 = 64.0;
/// The room around everything.
const PAD: f64 = 24.0;
/// The height of the lengths' plot.
const PLOT: f64 = 320.0;
/// Lines, text and axes.
const INK: &str = "#000000";
/// The grid behind the plots.
const GRID: &str = "#c8c8c8";

/// The parts of a bar: the first player's wins, draws, others' wins, unfinished games.
const PARTS: [(&str, &str); 4] = [
    ("first player wins", "#0072b2"),
    ("draw", "#f0e442"),
    ("another player wins", "#d55e00"),
    ("unfinished", "#bbbbbb"),
];
/// The variants' line colours (Okabe–Ito, yellow left out: too light on white).
const LINES: [&str; 7] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
];
/// The variants' dash patterns, so lines differ without colour too.
const DASHES: [&str; 4] = ["none", "14 7", "4 6", "16 6 4 6"];

/// The chart of `summaries` as SVG text, with the lengths cut into `buckets`.
pub fn svg(summaries: &[Summary], buckets: &[(usize, usize)]) -> String {
    let names: Vec<String> = summaries
        .iter()
        .enumerate()
        .map(|(i, s)| format!("#{} {}", i + 1, s.label))
        .collect();
    let (results, below) = results(summaries, &names, PAD);
    let (lengths, bottom) = lengths(summaries, &names, buckets, below + PAD);
    let height = (bottom + PAD).ceil();
    let doc = Document::new()
        .set("width", WIDTH)
        .set("height", height)
        .set("viewBox", (0, 0, WIDTH, height))
        .add(rect(0.0, 0.0, WIDTH, height, "#ffffff"))
        .add(results)
        .add(lengths);
    doc.to_string()
}

/// The results' bars from `top`, and where they end.
fn results(summaries: &[Summary], names: &[String], top: f64) -> (Group, f64) {
    let mut g = Group::new().add(text_from(
        PAD,
        top + TITLE / 2.0,
        "Results and the first player's win rate (95 % interval)",
        TITLE,
        INK,
    ));
    let longest = names.iter().map(|n| width_of(n, LABEL)).fold(0.0, f64::max);
    let left = PAD + longest.clamp(80.0, 480.0) + 16.0;
    let right = WIDTH - 2.0 * PAD;
    let x = |share: f64| left + share * (right - left);
    let first = top + TITLE + 20.0;
    let bottom = first + ROW * summaries.len() as f64;
    for tick in 0..=4 {
        let share = f64::from(tick) / 4.0;
        g = g
            .add(line(
                x(share),
                first - 4.0,
                x(share),
                bottom + 4.0,
                GRID,
                1.0,
            ))
            .add(text(
                x(share),
                bottom + 20.0,
                &format!("{} %", tick * 25),
                TICK,
                INK,
            ));
    }
    for (i, (s, name)) in summaries.iter().zip(names).enumerate() {
        let middle = first + (i as f64 + 0.5) * ROW;
        let (bar, half) = (middle - ROW * 0.35, ROW * 0.35);
        g = g.add(text_to(left - 16.0, middle, name, LABEL, INK));
        let games = s.games.max(1) as f64;
        let others = s.games - s.first_wins - s.draws - s.unfinished;
        let mut from = 0.0;
        for (&n, (_, fill)) in [s.first_wins, s.draws, others, s.unfinished]
            .iter()
            .zip(PARTS)
        {
            let share = n as f64 / games;
            let width = share * (right - left);
            if n > 0 {
                g = g.add(
                    rect(x(from), bar, width, 2.0 * half, fill)
                        .set("stroke", INK)
                        .set("stroke-width", 1),
                );
                let label = format!("{:.0} %", 100.0 * share);
                if width > width_of(&label, TICK) + 8.0 {
                    let above = middle - 0.35 * half;
                    g = g.add(text(
                        x(from) + width / 2.0,
                        above,
                        &label,
                        TICK,
                        ink_on(fill),
                    ));
                }
            }
            from += share;
        }
        // The interval under the parts' shares, so that neither hides the other.
        let (lo, hi) = s.first_interval();
        let (at, cap) = (middle + 0.6 * half, 0.3 * half);
        g = g
            .add(line(x(lo), at, x(hi), at, INK, 3.0))
            .add(line(x(lo), at - cap, x(lo), at + cap, INK, 3.0))
            .add(line(x(hi), at - cap, x(hi), at + cap, INK, 3.0));
    }
    let mut at = PAD;
    let legend = bottom + 56.0;
    for (label, fill) in PARTS {
        g = g
            .add(rect(at, legend - 11.0, 22.0, 22.0, fill).set("stroke", INK))
            .add(text_from(at + 30.0, legend, label, TICK, INK));
        at += 30.0 + width_of(label, TICK) + 24.0;
    }
    g = g
        .add(line(at, legend, at + 28.0, legend, INK, 3.0))
        .add(line(at, legend - 9.0, at, legend + 9.0, INK, 3.0))
        .add(line(
            at + 28.0,
            legend - 9.0,
            at + 28.0,
            legend + 9.0,
            INK,
            3.0,
        ))
        .add(text_from(at + 38.0, legend, "95 % interval", TICK, INK));
    (g, legend + 16.0)
}

/// The game lengths' plot from `top`, and where it ends.
fn lengths(
    summaries: &[Summary],
    names: &[String],
    buckets: &[(usize, usize)],
    top: f64,
) -> (Group, f64) {
    let mut g = Group::new().add(text_from(
        PAD,
        top + TITLE / 2.0,
        "Game length (plies): games of each length",
        TITLE,
        INK,
    ));
    let counts: Vec<Vec<usize>> = summaries
        .iter()
        .map(|s| stats::histogram(&s.lengths, buckets))
        .collect();
    let most = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    let (lo, hi) = match (buckets.first(), buckets.last()) {
        (Some(a), Some(b)) => (a.0, b.1 + 1),
        _ => (0, 1),
    };
    let (left, right) = (PAD + 70.0, WIDTH - 2.0 * PAD);
    let (upper, lower) = (top + TITLE + 24.0, top + TITLE + 24.0 + PLOT);
    let x = |plies: f64| left + (plies - lo as f64) / (hi - lo).max(1) as f64 * (right - left);
    let y_step = whole_step(most);
    let y_top = most.div_ceil(y_step) * y_step;
    let y = |games: f64| lower - games / y_top as f64 * PLOT;
    for games in (0..=y_top).step_by(y_step) {
        let at = y(games as f64);
        g = g.add(line(left, at, right, at, GRID, 1.0)).add(text_to(
            left - 10.0,
            at,
            &games.to_string(),
            TICK,
            INK,
        ));
    }
    let x_step = whole_step(hi - lo);
    for plies in (lo.div_ceil(x_step) * x_step..=hi).step_by(x_step) {
        let at = x(plies as f64);
        g = g.add(line(at, lower, at, lower + 8.0, INK, 2.0)).add(text(
            at,
            lower + 24.0,
            &plies.to_string(),
            TICK,
            INK,
        ));
    }
    g = g
        .add(line(left, lower, right, lower, INK, 2.0))
        .add(line(left, upper, left, lower, INK, 2.0))
        .add(text(
            (left + right) / 2.0,
            lower + 56.0,
            "plies (each point: the games whose length is in that range)",
            TICK,
            INK,
        ));
    for (i, c) in counts.iter().enumerate() {
        let (color, dash) = (LINES[i % LINES.len()], DASHES[i % DASHES.len()]);
        let points: Vec<String> = buckets
            .iter()
            .zip(c)
            .map(|(&(a, b), &n)| format!("{:.1},{:.1}", x((a + b + 1) as f64 / 2.0), y(n as f64)))
            .collect();
        g = g.add(
            Polyline::new()
                .set("points", points.join(" "))
                .set("fill", "none")
                .set("stroke", color)
                .set("stroke-width", 4)
                .set("stroke-dasharray", dash),
        );
    }
    let mut legend = lower + 96.0;
    for (i, name) in names.iter().enumerate() {
        let (color, dash) = (LINES[i % LINES.len()], DASHES[i % DASHES.len()]);
        g = g
            .add(line(PAD, legend, PAD + 56.0, legend, color, 4.0).set("stroke-dasharray", dash))
            .add(text_from(PAD + 68.0, legend, name, LABEL, INK));
        legend += 36.0;
    }
    (g, legend)
}

/// A step of 1, 2 or 5 times a power of ten that cuts `0..=span` into at most 8 parts.
fn whole_step(span: usize) -> usize {
    let mut power = 1;
    loop {
        for m in [1, 2, 5] {
            if span <= 8 * m * power {
                return m * power;
            }
        }
        power *= 10;
    }
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64, color: &str, width: f64) -> Line {
    Line::new()
        .set("x1", x1)
        .set("y1", y1)
        .set("x2", x2)
        .set("y2", y2)
        .set("stroke", color)
        .set("stroke-width", width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_whole_steps_of_1_2_5() {
        assert_eq!(whole_step(0), 1);
        assert_eq!(whole_step(7), 1);
        assert_eq!(whole_step(9), 2);
        assert_eq!(whole_step(37), 5);
        assert_eq!(whole_step(75), 10);
        assert_eq!(whole_step(1000), 200);
    }
}
