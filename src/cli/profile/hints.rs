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
/// marks the line, and no `absent` one is; and the primitive that does its work.
struct Pattern {
    needles: &'static [&'static str],
    absent: &'static [&'static str],
    /// Only for a script whose pieces move by kind (`Some(true)`: see [`moves_by_kind`]), only
    /// for one whose pieces do not (`Some(false)`), or for either (`None`).
    by_kind: Option<bool>,
    primitive: &'static str,
    why: &'static str,
}

/// The known shapes, most specific first; a function gets at most one hint per primitive.
const PATTERNS: &[Pattern] = &[
    Pattern {
        needles: &["cell(x,0)", "for", ".push(x)"],
        absent: &[],
        by_kind: None,
        primitive: "g.open_columns(EMPTY)",
        why: "a scan of each column's top cell: one call lists the columns with room",
    },
    Pattern {
        needles: &["while", "-=1", "!=EMPTY", "cell("],
        absent: &[],
        by_kind: None,
        primitive: "g.drop_piece(x, piece, EMPTY)",
        why: "a walk down a column to its lowest empty cell: one call drops the piece (or \
              `g.drop_cell(x, EMPTY)` says where it lands)",
    },
    Pattern {
        needles: &["while", "+=d", ".push(cell("],
        absent: &[],
        by_kind: None,
        primitive: "g.brackets(c, between, end)",
        why: "a walk along each direction collecting the opponent's pieces up to one's own: one \
              call gives what a placement turns over (and `g.bracketing_cells(EMPTY, between, \
              end)` every placement that turns something)",
    },
    Pattern {
        needles: &["while", "+=d"],
        absent: &[".push("],
        by_kind: None,
        primitive: "g.longest_run_through(c)",
        why: "a count of equal cells along each direction: one call gives the longest line \
              through the cell (`g.runs_through(c)` the lines with their ends)",
    },
    Pattern {
        needles: &["forlineinLINES"],
        absent: &[],
        by_kind: None,
        primitive: "g.longest_run_through(c)",
        why: "a check of every line of the board after each move: one call gives the longest \
              line through the cell just played",
    },
    Pattern {
        needles: &[".push([cell(", "for", "for"],
        absent: &[],
        by_kind: None,
        primitive: "g.piece_steps(piece, [[dx, dy], …], [values])",
        why: "a loop over cells collecting each piece's steps: one call lists every step of \
              every piece (a list `[MAN, KING]` of pieces at once; `g.piece_jumps` for captures)",
    },
    Pattern {
        needles: &["continue", "fory", "cell(x,y)", "[]"],
        absent: &[],
        by_kind: Some(true),
        primitive: "g.piece_steps([[piece, [[dx, dy], …]], …], [values])",
        why: "a loop over every cell looking for one side's pieces to list their moves, each kind \
              its own way (men forward, kings both ways): one call lists every step of every \
              piece with the steps named for its kind (`[[MAN, FORWARD], [KING, ALL]]`), and \
              `g.piece_jumps([[piece, [[dx, dy], …]], …], [over], [onto])` every jump",
    },
    Pattern {
        needles: &["continue", "fory", "cell(x,y)", "[]"],
        absent: &[],
        by_kind: Some(false),
        primitive: "g.piece_steps(piece, [[dx, dy], …], [values])",
        why: "a loop over every cell looking for one side's pieces to list their moves: one call \
              lists every step of every piece (a list `[MAN, KING]` of pieces that move alike \
              at once), and `g.piece_jumps(piece, [[dx, dy], …], [over], [onto])` every jump",
    },
    Pattern {
        needles: &["2*d", ".push("],
        absent: &[],
        by_kind: None,
        primitive: "g.jumps(c, [[dx, dy], …], [over], [onto])",
        why: "a loop over directions looking one and two steps away to list jumps over a piece: \
              one call checks the cell jumped over and the landing cell in every direction \
              (`g.piece_jumps` does it for every piece of a side)",
    },
    Pattern {
        needles: &[".push([", "ford"],
        absent: &["fory", "2*d"],
        by_kind: None,
        primitive: "g.steps(c, [[dx, dy], …], [values])",
        why: "a loop over directions collecting a piece's steps: one call lists the cells it \
              steps to (`g.piece_steps` lists every step of every piece)",
    },
    Pattern {
        needles: &["while", ".neighbours(", ".push("],
        absent: &[],
        by_kind: None,
        primitive: "g.region(c)",
        why: "a flood fill over neighbours by hand: one call gives the connected cells holding \
              the same value as `c` (`g.reachable(from, passable)` the cells reachable through \
              a value, `g.path(from, to, passable)` a path between two cells)",
    },
    Pattern {
        needles: &[".y-1)", ".y+1)", ".x-1,", ".x+1,"],
        absent: &[],
        by_kind: None,
        primitive: "g.steps(c, [[dx, dy], …], [values])",
        why: "a cell's four neighbours read one by one: one call lists those holding given \
              values (`g.neighbours(c)` lists them all); after a move only the cells next to it \
              can change, so look there rather than at every cell",
    },
    Pattern {
        needles: &[".push(cell(", "for", "==EMPTY"],
        absent: &[],
        by_kind: None,
        primitive: "g.cells_with(EMPTY)",
        why: "a loop over cells collecting the empty ones: one call lists them (and `moves` may \
              return it as it is, which a playout takes without making the list)",
    },
    Pattern {
        needles: &[".push(cell(", "for", "))==0"],
        absent: &[],
        by_kind: None,
        primitive: "g.cells_with(EMPTY)",
        why: "a loop over cells collecting those holding 0: one call lists them (give cells that \
              are never moves a value of their own so that it lists only moves)",
    },
    Pattern {
        needles: &["%14"],
        absent: &[],
        by_kind: None,
        primitive: "t.sow(from, seeds, dir, skip)",
        why: "a sowing loop over an array of pits: a `track` sows in one call, and \
              `t.pits_with_seeds(owner)` lists the moves",
    },
    Pattern {
        needles: &[".filter(|"],
        absent: &[],
        by_kind: None,
        primitive: "a `for` loop or a primitive",
        why: "a closure's body runs in Rhai's interpreter, not the walker",
    },
    Pattern {
        needles: &[".map(|"],
        absent: &[],
        by_kind: None,
        primitive: "a `for` loop or a primitive",
        why: "a closure's body runs in Rhai's interpreter, not the walker",
    },
];

/// The hints for the functions `hot` (their names) of the script `text`.
pub fn find(text: &str, hot: &[&str]) -> Vec<Hint> {
    let lines: Vec<&str> = text.lines().collect();
    let by_kind = moves_by_kind(&lines);
    let mut hints = Vec::new();
    for &function in hot {
        let Some((first, last)) = body_lines(&lines, function) else {
            continue;
        };
        let squeezed: Vec<String> = lines[first..=last].iter().map(|l| squeeze(l)).collect();
        let body = squeezed.concat();
        let mut given: Vec<&str> = Vec::new();
        for p in PATTERNS {
            if given.contains(&p.primitive)
                || p.by_kind.is_some_and(|k| k != by_kind)
                || !p.needles.iter().all(|n| body.contains(n))
                || p.absent.iter().any(|n| body.contains(n))
            {
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

/// Whether the script moves its pieces by kind (men forward, kings both ways): a `for` loop
/// over what a cell's value picks (`for d in directions(board.get(c))`), or an `if` on a value
/// choosing a list of steps (`if v == 1 { [[-1, -1], [1, -1]] } else …`).
fn moves_by_kind(lines: &[&str]) -> bool {
    lines.iter().map(|l| squeeze(l)).any(|l| {
        let loops_over_a_value = l.find("for").is_some_and(|at| {
            let head = l[at..].split('{').next().unwrap_or("");
            head.contains("in") && head.contains(".get(")
        });
        let picks_steps = l.contains("if") && l.contains("==") && l.contains("{[[");
        loops_over_a_value || picks_steps
    })
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

#[cfg(test)]
mod kind_tests {
    use super::*;

    /// A whole-board loop listing one side's moves, with `helpers` beside it.
    fn hint_of_moves(helpers: &str) -> &'static str {
        let script = format!(
            "{helpers}
fn moves(state) {{
    let list = [];
    for y in 0..8 {{
        for x in 0..8 {{
            if state.board.get(cell(x, y)) != state.turn + 1 {{ continue; }}
            list += steps_from(state.board, cell(x, y));
        }}
    }}
    list
}}
"
        );
        let hints = find(&script, &["moves"]);
        assert_eq!(hints.len(), 1, "{hints:?}");
        hints[0].primitive
    }

    #[test]
    fn pieces_that_move_by_kind_are_told_of_the_form_with_steps_for_each() {
        let alike = "const STEPS = [[0, -1], [1, -1]];";
        assert_eq!(
            hint_of_moves(alike),
            "g.piece_steps(piece, [[dx, dy], …], [values])"
        );
        let by_value =
            "fn steps_from(b, c) { let l = []; for d in directions(b.get(c)) { l.push(d); } l }";
        let by_if = "fn directions(v) { if v == 1 { [[0, -1]] } else { [[0, -1], [0, 1]] } }";
        for kinds in [by_value, by_if] {
            assert_eq!(
                hint_of_moves(kinds),
                "g.piece_steps([[piece, [[dx, dy], …]], …], [values])",
                "{kinds}"
            );
        }
    }
}

#[cfg(test)]
mod newcomer_tests {
    use super::*;

    /// Checks the hints of `functions` in `script` (a newcomer script of `benches/newcomer/`):
    /// each expected one as (function, text on the line it marks, primitive), in order.
    fn assert_hints(script: &str, functions: &[&str], expected: &[(&str, &str, &str)]) {
        let line_of = |text: &str| script.lines().position(|l| l.contains(text)).unwrap() + 1;
        let found: Vec<(String, usize, &str)> = find(script, functions)
            .into_iter()
            .map(|h| (h.function, h.line, h.primitive))
            .collect();
        let expected: Vec<(String, usize, &str)> = expected
            .iter()
            .map(|&(f, text, p)| (f.to_string(), line_of(text), p))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_scan_for_pieces_a_jump_loop_and_a_step_loop_are_told_of_their_primitives() {
        assert_hints(
            include_str!("../../../benches/newcomer/checkers.rhai"),
            &["moves", "jumps_from", "steps_from", "owns"],
            &[
                (
                    "moves",
                    "if !owns(state.turn, state.board.get(c))",
                    "g.piece_steps([[piece, [[dx, dy], …]], …], [values])",
                ),
                (
                    "jumps_from",
                    "let x = c.x + 2 * d[0];",
                    "g.jumps(c, [[dx, dy], …], [over], [onto])",
                ),
                (
                    "steps_from",
                    "if on_board(x, y) && board.get(cell(x, y)) == EMPTY",
                    "g.steps(c, [[dx, dy], …], [values])",
                ),
            ],
        );
    }

    #[test]
    fn a_flood_fill_by_hand_is_told_of_region() {
        assert_hints(
            include_str!("../../../benches/newcomer/hex.rhai"),
            &["joins", "moves"],
            &[
                ("joins", "while todo.len > 0", "g.region(c)"),
                (
                    "moves",
                    "== EMPTY { list.push(cell(x, y)); }",
                    "g.cells_with(EMPTY)",
                ),
            ],
        );
    }

    #[test]
    fn neighbours_read_one_by_one_and_cells_holding_0_are_told_of_their_primitives() {
        assert_hints(
            include_str!("../../../benches/newcomer/dots_and_boxes.rhai"),
            &["moves", "play"],
            &[
                (
                    "moves",
                    "== 0 { list.push(cell(x, y)); }",
                    "g.cells_with(EMPTY)",
                ),
                (
                    "play",
                    "let sides = state.board.get(cell(b.x, b.y - 1))",
                    "g.steps(c, [[dx, dy], …], [values])",
                ),
            ],
        );
    }

    #[test]
    fn a_whole_board_loop_of_steps_is_told_of_piece_steps_alone() {
        assert_hints(
            include_str!("../../../benches/newcomer/breakthrough.rhai"),
            &["moves"],
            &[(
                "moves",
                "list.push([cell(x, y), cell(tx, ty)]);",
                "g.piece_steps(piece, [[dx, dy], …], [values])",
            )],
        );
    }
}
