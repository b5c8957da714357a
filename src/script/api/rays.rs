//! Rays, brackets, steps and drops as scripts see them: `g.ray(c, [dx, dy], v)`,
//! `g.bracket(c, [dx, dy], between, end)`, `g.brackets(c, between, end)`,
//! `g.steps(c, [[dx, dy], …], [values])`, `g.jumps(c, [[dx, dy], …], [over], [onto])`,
//! `g.drop_cell(x, empty)`, `g.drop_piece(x, piece, empty)`, and their whole-board forms
//! `g.open_columns(empty)`, `g.bracketing_cells(empty, between, end)`,
//! `g.piece_steps(piece, [[dx, dy], …], [values])` and `g.piece_jumps(piece, …)` (`piece` a
//! value or a list of values: men and kings at once; or, for pieces that move differently, a
//! list `[[piece, [[dx, dy], …]], …]` in place of the piece and its steps).
//! A step of `steps` or `piece_steps` may name its own values to land on: `[dx, dy, [values]]`.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, INT};

use super::grid::cells;
use crate::{
    runtime::{
        rays::{self, PieceStep},
        Cell, Grid,
    },
    script::sandbox,
    walker::lists::NativeList,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers the ray primitives on `Grid`.
pub fn register(engine: &mut Natives) {
    engine
        .register_reader("ray", |g: &mut Grid, c: Cell, d: Array, value: INT| {
            Ok::<_, Box<EvalAltResult>>(cells(rays::ray(g, c, step(&d, "ray")?, value).into_iter()))
        })
        .register_reader(
            "bracket",
            |g: &mut Grid, c: Cell, d: Array, between: INT, end: INT| {
                let d = step(&d, "bracket")?;
                Ok::<_, Box<EvalAltResult>>(cells(rays::bracket(g, c, d, between, end).into_iter()))
            },
        )
        .register_reader(
            "brackets",
            |g: &mut Grid, c: Cell, between: INT, end: INT| {
                cells(rays::brackets(g, c, between, end).into_iter())
            },
        )
        .register_reader(
            "bracketing_cells",
            |g: &mut Grid, empty: INT, between: INT, end: INT| {
                // Each cell looks along eight rays of at most the board's length.
                sandbox::charge((g.width() * g.height()) as u64 * 8)?;
                Ok::<_, Box<EvalAltResult>>(cells(
                    rays::bracketing_cells(g, empty, between, end).into_iter(),
                ))
            },
        )
        .register_reader(
            "steps",
            |g: &mut Grid, c: Cell, steps: Array, onto: Array| {
                let steps = steps_of(&steps, "steps")?;
                let onto = values_of(&onto, "steps", "values to land on")?;
                let (steps, work) = with_targets(&steps, &onto);
                sandbox::charge(work)?;
                Ok::<_, Box<EvalAltResult>>(cells(rays::steps(g, c, &steps).into_iter()))
            },
        )
        .register_reader(
            "piece_steps",
            |g: &mut Grid, piece: INT, steps: Array, onto: Array| {
                piece_steps(g, &[piece], &steps, &onto).map(NativeList::into_array)
            },
        )
        .register_list_fn(
            "piece_steps",
            |g: &mut Grid, piece: INT, steps: Array, onto: Array| {
                piece_steps(g, &[piece], &steps, &onto)
            },
        )
        .register_reader(
            "piece_steps",
            |g: &mut Grid, pieces: Array, steps: Array, onto: Array| {
                let pieces = values_of(&pieces, "piece_steps", "pieces")?;
                piece_steps(g, &pieces, &steps, &onto).map(NativeList::into_array)
            },
        )
        .register_list_fn(
            "piece_steps",
            |g: &mut Grid, pieces: Array, steps: Array, onto: Array| {
                let pieces = values_of(&pieces, "piece_steps", "pieces")?;
                piece_steps(g, &pieces, &steps, &onto)
            },
        )
        .register_reader("piece_steps", |g: &mut Grid, each: Array, onto: Array| {
            piece_steps_each(g, &each, &onto).map(NativeList::into_array)
        })
        .register_list_fn("piece_steps", |g: &mut Grid, each: Array, onto: Array| {
            piece_steps_each(g, &each, &onto)
        })
        .register_reader(
            "jumps",
            |g: &mut Grid, from: Cell, directions: Array, over: Array, onto: Array| {
                let jumps = Jumps::of("jumps", &directions, &over, &onto)?;
                sandbox::charge(jumps.work())?;
                Ok::<_, Box<EvalAltResult>>(jumps.from(g, from))
            },
        )
        .register_reader(
            "piece_jumps",
            |g: &mut Grid, piece: INT, directions: Array, over: Array, onto: Array| {
                Jumps::of("piece_jumps", &directions, &over, &onto)?.of_pieces(g, &[piece])
            },
        )
        .register_reader(
            "piece_jumps",
            |g: &mut Grid, pieces: Array, directions: Array, over: Array, onto: Array| {
                let pieces = values_of(&pieces, "piece_jumps", "pieces")?;
                Jumps::of("piece_jumps", &directions, &over, &onto)?.of_pieces(g, &pieces)
            },
        )
        .register_reader(
            "piece_jumps",
            |g: &mut Grid, each: Array, over: Array, onto: Array| {
                piece_jumps_each(g, &each, &over, &onto)
            },
        )
        .register_reader("drop_cell", |g: &mut Grid, x: INT, empty: INT| {
            rays::drop_cell(g, x, empty).map_or(Dynamic::UNIT, Dynamic::from)
        })
        .register_fn(
            "drop_piece",
            |g: &mut Grid, x: INT, piece: INT, empty: INT| {
                if !(0..g.width()).contains(&x) {
                    return Err(format!(
                        "drop_piece: column {x} is off the {}×{} board",
                        g.width(),
                        g.height()
                    )
                    .into());
                }
                let lands = rays::drop_cell(g, x, empty).ok_or_else(|| {
                    format!("drop_piece: column {x} is full (no cell of it holds {empty})")
                })?;
                g.set(lands, piece);
                Ok::<_, Box<EvalAltResult>>(lands)
            },
        )
        .register_reader("open_columns", |g: &mut Grid, empty: INT| {
            sandbox::charge((g.width() * g.height()) as u64)?;
            let columns = rays::open_columns(g, empty);
            Ok::<_, Box<EvalAltResult>>(columns.into_iter().map(Dynamic::from).collect::<Array>())
        });
}

/// `g.piece_steps(pieces, steps, onto)`: every step of every piece holding one of `pieces`
/// that lands on the board.
fn piece_steps(g: &Grid, pieces: &[INT], steps: &Array, onto: &Array) -> Fallible<NativeList> {
    let steps = steps_of(steps, "piece_steps")?;
    let onto = values_of(onto, "piece_steps", "values to land on")?;
    let (steps, work) = with_targets(&steps, &onto);
    let cells = (g.width() * g.height()) as u64;
    sandbox::charge(cells.saturating_mul(pieces.len() as u64 + work))?;
    let pairs = rays::piece_steps(g, pieces, &steps);
    Ok(NativeList::CellPairs(
        pairs.into_iter().map(|(from, to)| [from, to]).collect(),
    ))
}

/// `g.piece_steps([[piece, steps], …], onto)`: every step of every piece holding one of the
/// values named, each with the steps named with it, that lands on the board.
fn piece_steps_each(g: &Grid, each: &Array, onto: &Array) -> Fallible<NativeList> {
    let what = "piece_steps";
    let each = each_piece(each, what, "[[dx, dy], …]", |steps| steps_of(steps, what))?;
    let onto = values_of(onto, what, "values to land on")?;
    let targeted: Vec<(INT, Vec<PieceStep>, u64)> = each
        .iter()
        .map(|(piece, steps)| {
            let (steps, work) = with_targets(steps, &onto);
            (*piece, steps, work)
        })
        .collect();
    // Each cell looks for its value among the pieces, then takes that piece's steps.
    let work = targeted.iter().map(|t| t.2).max().unwrap_or(0);
    let cells = (g.width() * g.height()) as u64;
    sandbox::charge(cells.saturating_mul(each.len() as u64 + work))?;
    let each: Vec<(INT, &[PieceStep])> = targeted.iter().map(|(p, s, _)| (*p, &s[..])).collect();
    let pairs = rays::piece_steps_each(g, &each);
    Ok(NativeList::CellPairs(
        pairs.into_iter().map(|(from, to)| [from, to]).collect(),
    ))
}

/// `g.piece_jumps([[piece, directions], …], over, onto)`: the jumps of every piece holding one
/// of the values named, each in the directions named with it, charged first.
fn piece_jumps_each(g: &Grid, each: &Array, over: &Array, onto: &Array) -> Fallible<Array> {
    let what = "piece_jumps";
    let each = each_piece(each, what, "[[dx, dy], …]", |d| directions_of(d, what))?;
    let over = values_of(over, what, "values to jump over")?;
    let onto = values_of(onto, what, "values to land on")?;
    // Each cell looks for its value among the pieces, then at two cells per direction.
    let per_direction = (2 + over.len() + onto.len()) as u64;
    let most = each.iter().map(|(_, d)| d.len()).max().unwrap_or(0) as u64;
    let cells = (g.width() * g.height()) as u64;
    sandbox::charge(cells.saturating_mul(each.len() as u64 + most * per_direction))?;
    let each: Vec<(INT, &[(i64, i64)])> = each.iter().map(|(p, d)| (*p, &d[..])).collect();
    Ok(triples(rays::piece_jumps_each(g, &each, &over, &onto)))
}

/// The pieces a primitive named `what` was given each with its own moves: `[[value, moves], …]`,
/// each `moves` (written as `shape` says) read by `read`.
fn each_piece<T>(
    each: &Array,
    what: &str,
    shape: &str,
    read: impl Fn(&Array) -> Fallible<T>,
) -> Fallible<Vec<(INT, T)>> {
    let wrong = || {
        format!(
            "{what}: each piece is [value, {shape}], like [MAN, [[-1, -1], [1, -1]]] (a list \
             of them: [[MAN, FORWARD], [KING, ALL]])"
        )
        .into()
    };
    each.iter()
        .map(|pair| {
            let pair = pair.read_lock::<Array>().ok_or_else(wrong)?;
            match pair.as_slice() {
                [piece, moves] => {
                    let piece = piece.as_int().map_err(|_| wrong())?;
                    let moves = moves.read_lock::<Array>().ok_or_else(wrong)?;
                    Ok((piece, read(&moves)?))
                }
                _ => Err(wrong()),
            }
        })
        .collect()
}

/// The directions `[[dx, dy], …]` a primitive named `what` was given.
fn directions_of(directions: &Array, what: &str) -> Fallible<Vec<(i64, i64)>> {
    directions
        .iter()
        .map(|d| {
            let d = d.read_lock::<Array>().ok_or_else(|| {
                format!("{what}: the directions are [[dx, dy], …], like [[1, 1], [-1, 1]]")
            })?;
            step(&d, what)
        })
        .collect()
}

/// The jumps a script asked for: the directions, what may be leapt over, what landed on.
struct Jumps {
    directions: Vec<(i64, i64)>,
    over: Vec<INT>,
    onto: Vec<INT>,
}

impl Jumps {
    /// The jumps `[[dx, dy], …]` over a cell holding one of `over` onto one holding one of
    /// `onto`.
    /// `what` names the primitive in errors.
    fn of(what: &str, directions: &Array, over: &Array, onto: &Array) -> Fallible<Jumps> {
        Ok(Jumps {
            directions: directions_of(directions, what)?,
            over: values_of(over, what, "values to jump over")?,
            onto: values_of(onto, what, "values to land on")?,
        })
    }

    /// The work of looking for them from one cell: two cells per direction, each against its
    /// values.
    fn work(&self) -> u64 {
        let per_direction = 2 + self.over.len() + self.onto.len();
        (self.directions.len() as u64).saturating_mul(per_direction as u64)
    }

    /// The jumps from `from`, each `[from, over, to]`.
    fn from(&self, g: &Grid, from: Cell) -> Array {
        let jumps = rays::jumps(g, from, &self.directions, &self.over, &self.onto);
        triples(jumps)
    }

    /// The jumps of every piece holding one of `pieces`, each `[from, over, to]`, charged first.
    fn of_pieces(&self, g: &Grid, pieces: &[INT]) -> Fallible<Array> {
        let cells = (g.width() * g.height()) as u64;
        sandbox::charge(cells.saturating_mul(pieces.len() as u64 + self.work()))?;
        let jumps = rays::piece_jumps(g, pieces, &self.directions, &self.over, &self.onto);
        Ok(triples(jumps))
    }
}

/// Jumps as a script array of `[from, over, to]`.
fn triples(jumps: Vec<rays::Jump>) -> Array {
    jumps
        .into_iter()
        .map(|j| Dynamic::from_array(cells([j.from, j.over, j.to].into_iter())))
        .collect()
}

/// Steps as a script gave them: each delta, with its own values to land on if it names them.
type Steps = Vec<((i64, i64), Option<Vec<INT>>)>;

/// The steps a primitive named `what` was given: `[dx, dy]` lands on the call's values (`None`
/// here), `[dx, dy, [values]]` on its own.
fn steps_of(steps: &Array, what: &str) -> Fallible<Steps> {
    let shape = || {
        format!(
            "{what}: a step is [dx, dy] or [dx, dy, [values to land on]], like [0, 1] or \
             [1, 1, [0, 2]]"
        )
        .into()
    };
    steps
        .iter()
        .map(|s| {
            let s = s.read_lock::<Array>().ok_or_else(shape)?;
            match s.as_slice() {
                [_, _] => Ok((step(&s, what)?, None)),
                [_, _, own] => {
                    let own = own.read_lock::<Array>().ok_or_else(shape)?;
                    let own = values_of(&own, what, "values to land on")?;
                    Ok((step(&s[..2], what)?, Some(own)))
                }
                _ => Err(shape()),
            }
        })
        .collect()
}

/// `steps` as [`PieceStep`]s, the plain ones landing on `onto`; and the work of looking at one
/// cell for each of them (a step, and each value it may land on).
fn with_targets<'a>(steps: &'a Steps, onto: &'a [INT]) -> (Vec<PieceStep<'a>>, u64) {
    let steps: Vec<PieceStep> = steps
        .iter()
        .map(|(delta, own)| PieceStep::new(*delta, own.as_deref().unwrap_or(onto)))
        .collect();
    let work = steps.iter().map(|s| 1 + s.onto.len() as u64).sum();
    (steps, work)
}

/// The values `[v, …]` a primitive named `what` was given as its `role` ("values to land on").
fn values_of(values: &Array, what: &str, role: &str) -> Fallible<Vec<INT>> {
    values
        .iter()
        .map(|v| {
            v.as_int()
                .map_err(|t| format!("{what}: the {role} must be integers, not {t}").into())
        })
        .collect()
}

/// A step `[dx, dy]` of whole numbers.
fn step(d: &[Dynamic], what: &str) -> Fallible<(i64, i64)> {
    match d {
        [dx, dy] => match (dx.as_int(), dy.as_int()) {
            (Ok(dx), Ok(dy)) => Ok((dx, dy)),
            _ => Err(format!("{what}: a direction is [dx, dy] of whole numbers").into()),
        },
        _ => Err(
            format!("{what}: a direction is [dx, dy], like [1, 0] (right) or [0, -1] (up)").into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use rhai::{Array, Engine};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    fn count(e: &Engine, script: &str) -> usize {
        e.eval::<Array>(script).unwrap().len()
    }

    #[test]
    fn scripts_scan_rays_brackets_steps_and_drops() {
        let e = engine();
        let setup =
            "let g = grid(4, 4); g.set(cell(1, 0), 1); g.set(cell(2, 0), 1); g.set(cell(3, 0), 2);";
        assert_eq!(
            count(&e, &format!("{setup} g.ray(cell(0, 0), [1, 0], 1)")),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.bracket(cell(0, 0), [1, 0], 1, 2)")),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.brackets(cell(0, 0), 1, 2)")),
            2
        );
        assert_eq!(
            count(
                &e,
                &format!("{setup} g.steps(cell(0, 1), [[1, -1], [0, 1], [-1, 0]], [0, 1])")
            ),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.bracketing_cells(0, 1, 2)")),
            1
        );
        let pairs = e
            .eval::<Array>(&format!("{setup} g.piece_steps(1, [[0, 1], [1, 1]], [0])"))
            .unwrap();
        assert_eq!(pairs.len(), 4, "{pairs:?}");
        assert_eq!(
            pairs[0]
                .clone()
                .into_typed_array::<crate::runtime::Cell>()
                .unwrap()[1],
            crate::runtime::Cell::new(1, 1)
        );
        let open =
            e.eval::<Array>("let g = grid(3, 2, 1); g.set(cell(1, 0), 0); g.open_columns(0)");
        assert_eq!(
            open.unwrap()
                .into_iter()
                .map(|x| x.as_int().unwrap())
                .collect::<Vec<_>>(),
            [1]
        );
        let drop: rhai::Dynamic = e.eval(&format!("{setup} g.drop_cell(1, 0)")).unwrap();
        // The piece lands where drop_cell said, and the next one lands above it.
        let dropped: bool = e
            .eval(&format!(
                "{setup} let c = g.drop_piece(1, 2, 0); \
                 c == cell(1, 3) && g.get(c) == 2 && g.drop_cell(1, 0) == cell(1, 2)"
            ))
            .unwrap();
        assert!(dropped);
        let full = e.eval::<rhai::Dynamic>("grid(2, 2, 1).drop_piece(0, 2, 0)");
        assert!(full
            .unwrap_err()
            .to_string()
            .contains("column 0 is full (no cell of it holds 0)"));
        let off = e.eval::<rhai::Dynamic>("grid(2, 2).drop_piece(2, 1, 0)");
        assert!(off
            .unwrap_err()
            .to_string()
            .contains("column 2 is off the 2×2 board"));
        assert_eq!(
            drop.cast::<crate::runtime::Cell>(),
            crate::runtime::Cell::new(1, 3)
        );
        assert!(e
            .eval::<rhai::Dynamic>("grid(2, 2, 1).drop_cell(0, 0)")
            .unwrap()
            .is_unit());
        assert!(e
            .eval::<Array>("grid(2, 2).ray(cell(0, 0), [1], 0)")
            .is_err());
    }

    #[test]
    fn jumps_leap_one_piece_onto_an_allowed_cell() {
        let e = engine();
        // A man (1) at (1,3), a king (3) at (3,3), opponents (2) at (0,2), (2,2) and (2,0).
        let setup = "let g = grid(4, 4); g.set(cell(1, 3), 1); g.set(cell(3, 3), 3);
                     g.set(cell(0, 2), 2); g.set(cell(2, 2), 2); g.set(cell(2, 0), 2);
                     let up = [[-1, -1], [1, -1]];";
        let triples = |script: &str| -> Vec<[(i64, i64); 3]> {
            e.eval::<Array>(&format!("{setup} {script}"))
                .unwrap()
                .into_iter()
                .map(|j| {
                    let j = j.into_typed_array::<crate::runtime::Cell>().unwrap();
                    [0, 1, 2].map(|i| (j[i].x, j[i].y))
                })
                .collect()
        };
        // Up-left from (1,3) lands off the board; up-right leaps (2,2) onto (3,1).
        assert_eq!(
            triples("g.jumps(cell(1, 3), up, [2], [0])"),
            [[(1, 3), (2, 2), (3, 1)]]
        );
        // The king at (3,3) leaps (2,2) onto (1,1); both sides at once, the man first (row by row).
        assert_eq!(
            triples("g.piece_jumps([1, 3], up, [2], [0])"),
            [[(1, 3), (2, 2), (3, 1)], [(3, 3), (2, 2), (1, 1)]]
        );
        assert_eq!(triples("g.piece_jumps(3, up, [2], [0])").len(), 1);
        // Over an own piece, or onto a taken cell: none.
        assert!(triples("g.piece_jumps(1, up, [1, 3], [0])").is_empty());
        assert!(triples("g.jumps(cell(1, 3), up, [2], [2])").is_empty());
        for (bad, says) in [
            (
                "g.jumps(cell(1, 3), [[1]], [2], [0])",
                "jumps: a direction is [dx, dy]",
            ),
            (
                "g.jumps(cell(1, 3), [1, 1], [2], [0])",
                "jumps: the directions are",
            ),
            (
                "g.piece_jumps(1, up, [\"2\"], [0])",
                "piece_jumps: the values to jump over",
            ),
            (
                "g.piece_jumps([1, ()], up, [2], [0])",
                "piece_jumps: the pieces must be",
            ),
        ] {
            let err = e.eval::<Array>(&format!("{setup} {bad}")).unwrap_err();
            assert!(err.to_string().contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn piece_steps_lists_several_pieces_in_one_pass() {
        let e = engine();
        // A king (3) above a man (1): reading order puts the king's steps first.
        let setup = "let g = grid(3, 3); g.set(cell(1, 2), 1); g.set(cell(0, 1), 3);";
        let froms = |script: &str| -> Vec<(i64, i64)> {
            e.eval::<Array>(&format!("{setup} {script}"))
                .unwrap()
                .into_iter()
                .map(|m| {
                    let from = m.into_typed_array::<crate::runtime::Cell>().unwrap()[0];
                    (from.x, from.y)
                })
                .collect()
        };
        assert_eq!(
            froms("g.piece_steps([1, 3], [[0, -1], [1, -1]], [0])"),
            [(0, 1), (0, 1), (1, 2), (1, 2)]
        );
        assert_eq!(froms("g.piece_steps([3], [[0, -1]], [0])"), [(0, 1)]);
        assert!(froms("g.piece_steps([], [[0, -1]], [0])").is_empty());
    }

    #[test]
    fn pieces_named_with_their_own_moves_step_and_jump_each_their_way() {
        let e = engine();
        // A man (1) at (0,3) moves up only, a king (3) at (3,1) both ways; a 2 at (2,2).
        let setup = "let g = grid(4, 4); g.set(cell(0, 3), 1); g.set(cell(3, 1), 3);
                     g.set(cell(2, 2), 2);
                     let up = [[-1, -1], [1, -1]];
                     let all = [[-1, -1], [1, -1], [-1, 1], [1, 1]];";
        let moves = |script: &str| -> Vec<Vec<(i64, i64)>> {
            e.eval::<Array>(&format!("{setup} {script}"))
                .unwrap()
                .into_iter()
                .map(|m| {
                    let m = m.into_typed_array::<crate::runtime::Cell>().unwrap();
                    m.iter().map(|c| (c.x, c.y)).collect()
                })
                .collect()
        };
        // Row by row: the king (its one free diagonal), then the man.
        assert_eq!(
            moves("g.piece_steps([[1, up], [3, all]], [0])"),
            [vec![(3, 1), (2, 0)], vec![(0, 3), (1, 2)]]
        );
        // Steps landing on values of their own, as in the other forms.
        assert_eq!(
            moves("g.piece_steps([[3, [[-1, 1, [2]]]]], [0])"),
            [vec![(3, 1), (2, 2)]]
        );
        // The king leaps the 2 down-left; with the man's directions it would not.
        assert_eq!(
            moves("g.piece_jumps([[1, up], [3, all]], [2], [0])"),
            [vec![(3, 1), (2, 2), (1, 3)]]
        );
        assert!(moves("g.piece_jumps([[1, all], [3, up]], [2], [0])").is_empty());
        assert!(moves("g.piece_steps([], [0])").is_empty());
        for (bad, says) in [
            (
                "g.piece_steps([1, up], [0])",
                "piece_steps: each piece is [value, ",
            ),
            (
                "g.piece_steps([[1]], [0])",
                "piece_steps: each piece is [value, ",
            ),
            (
                "g.piece_steps([[\"1\", up]], [0])",
                "piece_steps: each piece is",
            ),
            (
                "g.piece_steps([[1, [[0, -1, 2]]]], [0])",
                "piece_steps: a step is",
            ),
            (
                "g.piece_jumps([[1, [[1]]]], [2], [0])",
                "piece_jumps: a direction is",
            ),
            (
                "g.piece_jumps([[1, up]], [()], [0])",
                "piece_jumps: the values to jump",
            ),
        ] {
            let err = e.eval::<Array>(&format!("{setup} {bad}")).unwrap_err();
            assert!(err.to_string().contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn a_step_may_name_its_own_values_to_land_on() {
        let e = engine();
        // A pawn (1) at the bottom middle: straight up onto an empty cell only, diagonally up
        // onto a 2 only. Up-left holds a 2, up is empty, up-right is empty.
        let setup = "let g = grid(3, 2); g.set(cell(1, 1), 1); g.set(cell(0, 0), 2);
                     let pawn = [[-1, -1, [2]], [0, -1], [1, -1, [2]]];";
        let to = |script: &str| -> Vec<(i64, i64)> {
            e.eval::<Array>(&format!("{setup} {script}"))
                .unwrap()
                .into_iter()
                .map(|c| {
                    let c = c.cast::<crate::runtime::Cell>();
                    (c.x, c.y)
                })
                .collect()
        };
        assert_eq!(to("g.steps(cell(1, 1), pawn, [0])"), [(0, 0), (1, 0)]);
        assert_eq!(
            to("g.piece_steps(1, pawn, [0]).map(|m| m[1])"),
            [(0, 0), (1, 0)]
        );
        // A step with its own values ignores the call's.
        assert_eq!(to("g.steps(cell(1, 1), pawn, [])"), [(0, 0)]);
        for bad in ["[[0, -1, 2]]", "[[0, -1, [0], 1]]", "[[0]]", "[0]"] {
            let err = e
                .eval::<Array>(&format!("{setup} g.steps(cell(1, 1), {bad}, [0])"))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("a step is [dx, dy] or [dx, dy, [values"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn many_steps_with_many_values_are_charged_before_they_are_looked_at() {
        let e = engine();
        let _call = crate::script::sandbox::begin();
        let started = std::time::Instant::now();
        // 100 000 steps, each to be checked against 100 000 values, on a one-cell board.
        let err = e
            .eval::<Array>(
                "let onto = []; onto.pad(100000, 1); let steps = []; steps.pad(100000, [0, 1]);
                 grid(1, 1).steps(cell(0, 0), steps, onto)",
            )
            .unwrap_err();
        // The sandbox's own error, with its message.
        let err = format!("{err:?}");
        assert!(err.contains("operations in one call"), "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }
}
