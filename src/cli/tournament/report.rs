//! The tournament's results as tables — standings with Elo ratings, a crosstable, the faults of
//! each bot — written as Markdown (for the terminal) and as an HTML page.

use super::{
    html::escape,
    journal::Entry,
    tally::{Row, Standings, Tally, CROSSTABLE_BOTS},
};

/// The standings of the games of `rules` in `entries` (in any order).
pub fn standings(rules: &str, entries: &[Entry]) -> Standings {
    let mut tally = Tally::default();
    entries.iter().for_each(|e| tally.add(e));
    tally.standings(rules)
}

/// `x` points as text: `1`, `1.5`.
fn points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The cells of a standings row: rank, bot, Elo, ±, games, wins, draws, losses, score.
fn cells(rank: usize, row: &Row) -> Vec<String> {
    let score = row.wins as f64 + row.draws as f64 / 2.0;
    vec![
        (rank + 1).to_string(),
        row.name.clone(),
        format!("{:+.0}", row.rating.elo),
        format!("{:.0}", row.rating.margin),
        row.games.to_string(),
        row.wins.to_string(),
        row.draws.to_string(),
        row.losses.to_string(),
        format!("{:.1}%", 100.0 * score / row.games.max(1) as f64),
    ]
}

const HEADS: [&str; 9] = [
    "rank", "bot", "Elo", "± (95%)", "games", "wins", "draws", "losses", "score",
];
const FAULT_HEADS: [&str; 4] = ["bot", "timeouts", "illegal moves", "crashes"];

/// The crosstable cell of row `i`, column `j`.
fn cross_cell(s: &Standings, i: usize, j: usize) -> String {
    match s.cross[i][j] {
        _ if i == j => "·".into(),
        (_, 0) => String::new(),
        (p, n) => format!("{}/{n}", points(p)),
    }
}

/// What the report says instead of a crosstable of too many bots.
fn no_crosstable(s: &Standings) -> String {
    format!(
        "No crosstable for {} bots (it is shown for up to {CROSSTABLE_BOTS}); the journals hold every game.",
        s.rows.len()
    )
}

/// The crosstable (nothing when [`Standings::cross`] is empty): a header row (an empty corner, then the bots' names), then one row per bot:
/// its name, then its points against each column.
fn crosstable(s: &Standings) -> Vec<Vec<String>> {
    if s.cross.is_empty() {
        return Vec::new();
    }
    let names = s.rows.iter().map(|r| r.name.clone());
    let head = std::iter::once(String::new())
        .chain(names.clone())
        .collect();
    let rows = names.enumerate().map(|(i, name)| {
        std::iter::once(name)
            .chain((0..s.rows.len()).map(|j| cross_cell(s, i, j)))
            .collect()
    });
    std::iter::once(head).chain(rows).collect()
}

/// The bots with at least one fault.
fn faulty(s: &Standings) -> Vec<&Row> {
    s.rows
        .iter()
        .filter(|r| r.faults.iter().any(|&f| f > 0))
        .collect()
}

/// A faulty bot's row of the faults table: name, timeouts, illegal moves, crashes.
fn fault_cells(r: &Row) -> Vec<String> {
    let [t, i, c] = r.faults;
    vec![r.name.clone(), t.to_string(), i.to_string(), c.to_string()]
}

/// The title line.
fn title(s: &Standings) -> String {
    format!(
        "{} tournament: {} games, {} bots",
        s.rules,
        s.games,
        s.rows.len()
    )
}

/// `text` from a bot or a journal as one line of Markdown that shows as written: control
/// characters cleaned, line breaks as `⏎` (so nothing starts a line of its own), and every mark
/// Markdown reads inside a line (a table's `|`, raw HTML's `<`, an entity's `&`, emphasis, code,
/// links, images, `#`) escaped with a backslash.
fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in crate::terminal::clean(text).chars() {
        match c {
            '\n' => out += " ⏎ ",
            '\t' => out.push(' '),
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '#' | '|' | '!' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The report as Markdown. Bot texts are cleaned and escaped ([`md_text`]).
pub fn markdown(s: &Standings) -> String {
    let cell = |t: &str| md_text(t);
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let heading = title(s).replacen(&s.rules, &md_text(&s.rules), 1);
    let mut out = format!("# {heading}\n\n");
    out += &line(&HEADS.map(String::from));
    out += "|---:|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (rank, row) in s.rows.iter().enumerate() {
        let mut c = cells(rank, row);
        c[1] = cell(&c[1]);
        out += &line(&c);
    }
    out += "\nElo: a Bradley–Terry fit (draws count half), 0 is the average bot; ± is the 95% interval.\n";
    out += "\n## Crosstable\n\n";
    let cleaned = |row: Vec<String>| row.iter().map(|c| cell(c)).collect::<Vec<_>>();
    if s.cross.is_empty() {
        out += &format!("{}\n", no_crosstable(s));
    } else {
        out += "The row's points against the column, out of the games they played.\n\n";
    }
    for (i, row) in crosstable(s).into_iter().enumerate() {
        out += &line(&cleaned(row));
        if i == 0 {
            out += &format!("|---|{}\n", "---:|".repeat(s.rows.len()));
        }
    }
    out += "\n## Faults\n\n";
    let faulty = faulty(s);
    if faulty.is_empty() {
        out += "None.\n";
        return out;
    }
    out += &line(&FAULT_HEADS.map(String::from));
    out += "|---|---:|---:|---:|\n";
    for r in &faulty {
        out += &line(&cleaned(fault_cells(r)));
    }
    for r in &faulty {
        out += &format!("\n{}:\n", cell(&r.name));
        for d in &r.details {
            out += &format!("- {}\n", md_text(d));
        }
        let total: usize = r.faults.iter().sum();
        if total > r.details.len() {
            out += &format!("- … {} more in the journal\n", total - r.details.len());
        }
    }
    out
}

/// An HTML table row of escaped cells.
fn html_row(tag: &str, cells: &[String]) -> String {
    let cells: String = cells
        .iter()
        .map(|c| format!("<{tag}>{}</{tag}>", escape(c)))
        .collect();
    format!("<tr>{cells}</tr>\n")
}

/// The report as a self-contained HTML page, ending with `games` (the games' section, HTML);
/// every text is escaped.
pub fn html(s: &Standings, games: &str) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n\
         <style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #aaa;padding:2px 8px;text-align:right}}\
         pre{{background:#f4f4f4;padding:4px}}{1}</style></head><body>\n<h1>{0}</h1>\n<table>\n",
        escape(&title(s)),
        super::replay::STYLE,
    );
    out += &html_row("th", &HEADS.map(String::from));
    for (rank, row) in s.rows.iter().enumerate() {
        out += &html_row("td", &cells(rank, row));
    }
    out += "</table>\n<p>Elo: a Bradley–Terry fit (draws count half), 0 is the average bot; ± is the 95% interval.</p>\n";
    out += "<h2>Crosstable</h2>\n";
    if s.cross.is_empty() {
        out += &format!("<p>{}</p>\n", escape(&no_crosstable(s)));
    } else {
        out += "<p>The row's points against the column, out of the games they played.</p>\n";
    }
    out += "<table>\n";
    for (i, row) in crosstable(s).iter().enumerate() {
        out += &html_row(if i == 0 { "th" } else { "td" }, row);
    }
    out += "</table>\n<h2>Faults</h2>\n";
    let faulty = faulty(s);
    if faulty.is_empty() {
        out += "<p>None.</p>\n";
    } else {
        out += "<table>\n";
        out += &html_row("th", &FAULT_HEADS.map(String::from));
        for r in &faulty {
            out += &html_row("td", &fault_cells(r));
        }
        out += "</table>\n";
        for r in &faulty {
            out += &format!("<h3>{}</h3>\n", escape(&r.name));
            for d in &r.details {
                out += &format!("<pre>{}</pre>\n", escape(d));
            }
        }
    }
    out += games;
    out += "</body></html>\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::referee::FaultKind;

    #[test]
    fn bot_texts_are_escaped_in_html() {
        let e = Entry {
            game: 0,
            rules: "g".into(),
            options: Vec::new(),
            players: ["<b>".into(), "x".into()],
            seed: 0,
            result: "0-1".into(),
            reason: "r".into(),
            moves: Vec::new(),
            faults: vec![super::super::journal::FaultEntry {
                bot: "<b>".into(),
                kind: FaultKind::Crash,
                detail: "<script>alert(1)</script>".into(),
            }],
        };
        let s = standings("g", &[e]);
        let page = html(&s, "");
        assert!(
            !page.contains("<script>") && !page.contains("<b>"),
            "{page}"
        );
        assert!(page.contains("&lt;script&gt;"));
        let md = markdown(&s);
        assert!(md.contains("| x |") || md.contains("| 1 | x |"), "{md}");
    }

    #[test]
    fn bot_texts_cannot_forge_markdown() {
        let forged = "ok\n# Winner: me\n| 1 | me | +999 |\n<img src=x onerror=alert(1)>";
        let e = Entry {
            game: 0,
            rules: "g".into(),
            options: Vec::new(),
            players: ["a|b\n## x".into(), "y".into()],
            seed: 0,
            result: "0-1".into(),
            reason: "r".into(),
            moves: Vec::new(),
            faults: vec![super::super::journal::FaultEntry {
                bot: "a|b\n## x".into(),
                kind: FaultKind::Crash,
                detail: forged.into(),
            }],
        };
        let md = markdown(&standings("g", &[e]));
        // every line is the report's own: a title, tables, notes, a list
        for line in md.lines() {
            assert!(
                !line.starts_with("## x") && !line.starts_with("# Winner"),
                "{md}"
            );
            assert!(!line.replace("\\<", "").contains('<'), "{md}");
        }
        assert!(
            md.contains("crash: ok ⏎ \\# Winner: me ⏎ \\| 1 \\| me \\| +999 \\| ⏎ \\<img"),
            "{md}"
        );
        assert!(md.contains("| a\\|b ⏎ \\#\\# x |"), "{md}");
    }
}
