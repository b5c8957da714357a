//! The variant lab's chart (SVG, drawn with plotters): the first player's win rate of each
//! variant with its 95 % interval, and the game lengths' histograms.

use plotters::prelude::*;

use super::{stats, summary::Summary};
use crate::terminal::clean_for_xml;

/// The chart of `summaries` as SVG text, with the lengths cut into `buckets`.
pub fn svg(summaries: &[Summary], buckets: &[(usize, usize)]) -> Result<String, String> {
    let mut text = String::new();
    draw(&mut text, summaries, buckets).map_err(|e| e.to_string())?;
    Ok(text)
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

fn draw(text: &mut String, summaries: &[Summary], buckets: &[(usize, usize)]) -> Drawn {
    let root = SVGBackend::with_string(text, (960, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(400);
    win_rates(&left, summaries)?;
    lengths(&right, summaries, buckets)?;
    root.present()?;
    Ok(())
}

fn color(i: usize) -> RGBColor {
    let (r, g, b) = Palette99::pick(i).rgb();
    RGBColor(r, g, b)
}

fn label(s: &Summary) -> String {
    clean_for_xml(&s.label)
}

fn win_rates(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    summaries: &[Summary],
) -> Drawn {
    let n = summaries.len();
    let mut chart = ChartBuilder::on(area)
        .caption("first player's win rate (95 % CI)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..100.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("%")
        .x_labels(n + 1)
        .x_label_formatter(&|v| {
            let i = v.round();
            if (v - i).abs() < 0.01 && i >= 0.0 {
                format!("#{}", i as usize + 1)
            } else {
                String::new()
            }
        })
        .draw()?;
    chart.draw_series(summaries.iter().enumerate().map(|(i, s)| {
        let x = i as f64;
        Rectangle::new(
            [(x - 0.3, 0.0), (x + 0.3, 100.0 * s.first_rate())],
            color(i).mix(0.6).filled(),
        )
    }))?;
    chart.draw_series(summaries.iter().enumerate().map(|(i, s)| {
        let (lo, hi) = s.first_interval();
        ErrorBar::new_vertical(
            i as f64,
            100.0 * lo,
            100.0 * s.first_rate(),
            100.0 * hi,
            BLACK.stroke_width(2),
            12,
        )
    }))?;
    Ok(())
}

fn lengths(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    summaries: &[Summary],
    buckets: &[(usize, usize)],
) -> Drawn {
    let first = buckets.first().map_or(0, |b| b.0);
    let last = buckets.last().map_or(1, |b| b.1 + 1);
    let counts: Vec<Vec<usize>> = summaries
        .iter()
        .map(|s| stats::histogram(&s.lengths, buckets))
        .collect();
    let top = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(area)
        .caption("game length (plies)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d(first as f64..last as f64, 0..top + top / 10 + 1)?;
    chart.configure_mesh().y_desc("games").draw()?;
    for (i, (s, c)) in summaries.iter().zip(&counts).enumerate() {
        let points = buckets
            .iter()
            .zip(c)
            .map(|(&(a, b), &n)| ((a + b + 1) as f64 / 2.0, n));
        chart
            .draw_series(LineSeries::new(points, color(i).stroke_width(2)))?
            .label(format!("#{} {}", i + 1, label(s)))
            .legend(move |(x, y)| {
                PathElement::new([(x, y), (x + 16, y)], color(i).stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
