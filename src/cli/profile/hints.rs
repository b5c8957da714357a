//! The primitives that fit a hot function: known shapes of loops (read from the script's text)
//! and the primitive that does the same work in one native call.

/// A primitive that fits a loop of a hot function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The function the loop is in.
    pub function: String,
    /// The line the loop's telling part is on, from 1.
    pub line: usize,
    /// The primitive to call instead.
    pub primitive: &'static str,
    /// What the loop does, and what the primitive does instead.
    pub why: &'static str,
}

/// A shape of loop: every needle (written without spaces) is in the function, the first one
/// marks the line; and the primitive that does its work.
struct Pattern {
    needles: &'static [&'static str],
    primitive: &'static str,
    why: &'static str,
}

/// The known shapes, most specific first; a function gets at most one hint per primitive.
const PATTERNS: &[Pattern] = &[
    Pattern {
        needles: &["cell(x,0)", "for", ".push(x)"],
        primitive: "g.open_columns(EMPTY)",
        why: "a scan of each column's top cell: one call lists the columns with room",
    },
    Pattern {
        needles: &["while", "-=1", "!=EMPTY", "cell("],
        primitive: "g.drop_piece(x, piece, EMPTY)",
        why: "a walk down a column to its lowest empty cell: one call drops the piece (or \
              `g.drop_cell(x, EMPTY)` says where it lands)",
    },
    Pattern {
        needles: &["while", "+=d", ".push(cell("],
        primitive: "g.brackets(c, between, end)",
        why: "a walk along each direction collecting the opponent's pieces up to one's own: one \
              call gives what a placement turns over (and `g.bracketing_cells(EMPTY, between, \
              end)` every placement that turns something)",
    },
    Pattern {
        needles: &["while", "+=d"],
        primitive: "g.longest_run_through(c)",
        why: "a count of equal cells along each direction: one call gives the longest line \
              through the cell (`g.runs_through(c)` the lines with their ends)",
    },
    Pattern {
        needles: &["forlineinLINES"],
        primitive: "g.longest_run_through(c)",
        why: "a check of every line of the board after each move: one call gives the longest \
              line through the cell just played",
    },
    Pattern {
        needles: &[".push([cell(", "for", "for"],
        primitive: "g.piece_steps(piece, [[dx, dy], …], [values])",
        why: "a loop over cells collecting each piece's steps: one call lists every step of \
              every piece (a list `[MAN, KING]` of pieces at once; `g.piece_jumps` for captures)",
    },
    Pattern {
        needles: &[".push(cell(", "for", "==EMPTY"],
        primitive: "g.cells_with(EMPTY)",
        why: "a loop over cells collecting the empty ones: one call lists them (and `moves` may \
              return it as it is, which a playout takes without making the list)",
    },
    Pattern {
        needles: &["%14"],
        primitive: "t.sow(from, seeds, dir, skip)",
        why: "a sowing loop over an array of pits: a `track` sows in one call, and \
              `t.pits_with_seeds(owner)` lists the moves",
    },
    Pattern {
        needles: &[".filter(|"],
        primitive: "a `for` loop or a primitive",
        why: "a closure's body runs in Rhai's interpreter, not the walker",
    },
    Pattern {
        needles: &[".map(|"],
        primitive: "a `for` loop or a primitive",
        why: "a closure's body runs in Rhai's interpreter, not the walker",
    },
];

/// The hints for the functions `hot` (their names) of the script `text`.
pub fn find(text: &str, hot: &[&str]) -> Vec<Hint> {
    let lines: Vec<&str> = text.lines().collect();
    let mut hints = Vec::new();
    for &function in hot {
        let Some((first, last)) = body_lines(&lines, function) else {
            continue;
        };
        let squeezed: Vec<String> = lines[first..=last].iter().map(|l| squeeze(l)).collect();
        let body = squeezed.concat();
        let mut given: Vec<&str> = Vec::new();
        for p in PATTERNS {
            if given.contains(&p.primitive) || !p.needles.iter().all(|n| body.contains(n)) {
                continue;
            }
            let at = squeezed
                .iter()
                .position(|l| l.contains(p.needles[0]))
                .unwrap_or(0);
            given.push(p.primitive);
            hints.push(Hint {
                function: function.to_string(),
                line: first + at + 1,
                primitive: p.primitive,
                why: p.why,
            });
        }
    }
    hints
}

/// `line` without its spaces and its `//` comment.
fn squeeze(line: &str) -> String {
    let code = line.split("//").next().unwrap_or("");
    code.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The lines (0-based, first and last) of `fn name(…)` in a script: from its `fn` line to the
/// first line after it that closes at the left margin.
fn body_lines(lines: &[&str], name: &str) -> Option<(usize, usize)> {
    let head = format!("fn {name}(");
    let first = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&head))?;
    if lines[first].trim_end().ends_with('}') {
        return Some((first, first));
    }
    let last = (first + 1..lines.len())
        .find(|&i| lines[i].starts_with('}'))
        .unwrap_or(lines.len() - 1);
    Some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_scan_is_told_of_open_columns_and_a_loop_of_steps_of_piece_steps() {
        let script = "const EMPTY = 0;
fn moves(state) {
    let columns = [];
    for x in 0..7 {
        if state.board.get(cell(x, 0)) == EMPTY { columns.push(x); }
    }
    columns
}
fn steps(board) {
    let list = [];
    for y in 0..8 {
        for x in 0..8 {
            list.push([cell(x, y), cell(x, y + 1)]);
        }
    }
    list
}
fn quiet(state) { state }
";
        let hints = find(script, &["moves", "steps", "quiet", "missing"]);
        let found: Vec<(&str, usize, &str)> = hints
            .iter()
            .map(|h| (h.function.as_str(), h.line, h.primitive))
            .collect();
        assert_eq!(
            found,
            [
                ("moves", 5, "g.open_columns(EMPTY)"),
                ("steps", 13, "g.piece_steps(piece, [[dx, dy], …], [values])"),
            ]
        );
    }
}
