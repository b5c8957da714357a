//! `analyze GAME --journal FILE…`: the finished games of a tournament's journal or of the class
//! server's export, reported as the variant lab reports self-play — one column per set of
//! options the games were played with (the defaults first), with the first player's win rate,
//! its interval and the test against the first column, draws and game lengths.

use std::path::PathBuf;

use super::summary::Summary;
use crate::{cli::tournament::journal, diag::Diagnostic};

/// The games of `game` in `paths`, summed up per variant (its options), the defaults first
/// and the others in the order they first appear; with the number of games read in all.
pub fn summaries(game: &str, paths: &[PathBuf]) -> Result<(Vec<Summary>, usize), Diagnostic> {
    let mut variants: Vec<(Vec<String>, Summary)> = Vec::new();
    let mut read = 0;
    for path in paths {
        for entry in journal::read(path)?.entries {
            read += 1;
            if entry.rules != game {
                continue;
            }
            let mut options = entry.options.clone();
            options.sort();
            let at = match variants.iter().position(|(o, _)| *o == options) {
                Some(at) => at,
                None => {
                    let label = std::iter::once(game.to_string())
                        .chain(options.iter().cloned())
                        .collect::<Vec<_>>()
                        .join(" ");
                    variants.push((options, empty(label)));
                    variants.len() - 1
                }
            };
            let s = &mut variants[at].1;
            s.games += 1;
            match entry.result.as_str() {
                "1-0" => s.first_wins += 1,
                "1/2-1/2" => s.draws += 1,
                _ => {}
            }
            s.lengths.push(entry.moves.len());
        }
    }
    if variants.is_empty() {
        return Err(Diagnostic::new(format!(
            "the journals hold no game of '{game}' ({read} games of other rules)"
        ))
        .note("GAME is the name the journal's lines give in \"rules\""));
    }
    // The defaults first: the column the others are tested against.
    variants.sort_by_key(|(options, _)| !options.is_empty());
    Ok((variants.into_iter().map(|(_, s)| s).collect(), read))
}

/// A variant with no games yet, its branching and decisive moves not measured.
fn empty(label: String) -> Summary {
    Summary {
        label,
        games: 0,
        first_wins: 0,
        draws: 0,
        unfinished: 0,
        lengths: Vec::new(),
        branching: None,
        decisive: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_grouped_by_options_with_the_defaults_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let line = |rules: &str, options: &str, result: &str, moves: usize| {
            format!(
                "{{\"game\":1,\"rules\":\"{rules}\",\"options\":[{options}],\"players\":[\"a\",\"b\"],\
                 \"seed\":0,\"result\":\"{result}\",\"reason\":\"r\",\"moves\":{:?}}}\n",
                vec!["m"; moves]
            )
        };
        let text = [
            line("g", "\"win=4\"", "1-0", 7),
            line("g", "", "0-1", 8),
            line("g", "\"win=4\"", "1/2-1/2", 9),
            line("other", "", "1-0", 1),
            line("g", "", "1-0", 5),
        ]
        .concat();
        std::fs::write(&path, text).unwrap();
        let (s, read) = summaries("g", std::slice::from_ref(&path)).unwrap();
        assert_eq!(read, 5);
        assert_eq!(
            s.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(),
            ["g", "g win=4"]
        );
        assert_eq!((s[0].games, s[0].first_wins, s[0].draws), (2, 1, 0));
        assert_eq!((s[1].games, s[1].first_wins, s[1].draws), (2, 1, 1));
        assert_eq!(s[1].lengths, [7, 9]);
        let e = summaries("h", &[path]).unwrap_err().render(false);
        assert!(e.contains("no game of 'h'"), "{e}");
    }
}
