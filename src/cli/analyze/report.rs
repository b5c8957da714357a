//! The variant lab's Markdown report: the variants side by side, the significance of each
//! difference from the first variant, and a histogram of game lengths.

use std::fmt::Write as _;

use super::{stats, summary::Summary};
use crate::terminal::clean;

/// The p-value under which a difference is called significant.
const ALPHA: f64 = 0.05;

fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The report on `summaries` (the first is the base the others are tested against), with the
/// lengths cut into `buckets`.
pub fn markdown(summaries: &[Summary], buckets: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let header: Vec<String> = summaries
        .iter()
        .map(|s| format!("`{}`", clean(&s.label).replace('|', "\\|")))
        .collect();
    let _ = writeln!(out, "| | {} |", header.join(" | "));
    let _ = writeln!(out, "| --- |{}", " ---: |".repeat(summaries.len()));
    let row = |out: &mut String, name: &str, cell: &dyn Fn(&Summary) -> String| {
        let cells: Vec<String> = summaries.iter().map(cell).collect();
        let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
    };
    row(&mut out, "games", &|s| s.games.to_string());
    row(&mut out, "first player wins (95 % CI)", &|s| {
        let (lo, hi) = s.first_interval();
        format!(
            "{} [{:.1}, {:.1}]",
            percent(s.first_rate()),
            100.0 * lo,
            100.0 * hi
        )
    });
    row(&mut out, "draws", &|s| {
        percent(s.draws as f64 / s.games.max(1) as f64)
    });
    if summaries.iter().any(|s| s.unfinished > 0) {
        row(&mut out, "unfinished (ply limit)", &|s| {
            s.unfinished.to_string()
        });
    }
    row(&mut out, "mean length (plies)", &|s| {
        format!("{:.1}", s.mean_length())
    });
    if summaries.iter().any(|s| s.branching.is_some()) {
        row(&mut out, "mean branching factor", &|s| {
            s.branching.map_or("—".into(), |b| format!("{b:.1}"))
        });
    }
    if summaries.iter().any(|s| s.decisive.is_some()) {
        row(&mut out, "decisive-move share", &|s| {
            s.decisive.map_or("—".into(), percent)
        });
    }
    if summaries.len() > 1 {
        let base = &summaries[0];
        row(&mut out, "first-player wins vs the first column", &|s| {
            if std::ptr::eq(s, base) {
                return "—".to_string();
            }
            match stats::two_proportion(s.first_wins, s.games, base.first_wins, base.games) {
                Some((z, p)) => format!(
                    "z = {z:.2}, p = {p:.3}{}",
                    if p < ALPHA { " (significant)" } else { "" }
                ),
                None => "no difference to test".to_string(),
            }
        });
    }
    let _ = writeln!(out, "\nGame lengths (plies):\n");
    let _ = writeln!(out, "| plies | {} |", header.join(" | "));
    let _ = writeln!(out, "| ---: |{}", " :--- |".repeat(summaries.len()));
    let counts: Vec<Vec<usize>> = summaries
        .iter()
        .map(|s| stats::histogram(&s.lengths, buckets))
        .collect();
    for (i, &(a, b)) in buckets.iter().enumerate() {
        let range = if a == b {
            a.to_string()
        } else {
            format!("{a}–{b}")
        };
        let cells: Vec<String> = summaries
            .iter()
            .zip(&counts)
            .map(|(s, c)| {
                format!("{} {}", bar(c[i], s.games), c[i])
                    .trim_start()
                    .to_string()
            })
            .collect();
        let _ = writeln!(out, "| {range} | {} |", cells.join(" | "));
    }
    out
}

/// A bar of up to 20 blocks for `n` out of `of`.
fn bar(n: usize, of: usize) -> String {
    "█".repeat((20 * n).div_ceil(of.max(1)))
}
