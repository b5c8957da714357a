//! Bounded simple walks as scripts see them: `g.walks(from, min, max, through, end)`,
//! `g.piece_walks(piece, min, max, through, end)` (or `g.piece_walks(piece, [rules])`),
//! `g.reachable(from, min, max, through, end)`, `g.mobility(piece, min, max, through, end)`,
//! `g.check_walk(path, min, max, through, end)`.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::{
    runtime::{
        walks::{self, WalkStep},
        Cell, Grid, WalkRule,
    },
    script::sandbox::{self, limits, Work},
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `walks`, `piece_walks`, `reachable`, `mobility` and `check_walk` on `Grid`.
pub fn register(engine: &mut Natives) {
    engine
        .register_reader(
            "walks",
            |g: &mut Grid, from: Cell, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut walks = Walks::default();
                walks.add(g, on_board(g, from)?, &rule, "walks")?;
                Ok::<_, Box<EvalAltResult>>(walks.out)
            },
        )
        .register_reader(
            "piece_walks",
            |g: &mut Grid, piece: INT, min: INT, max: INT, through: Array, end: Array| {
                piece_walks(g, piece, &[rule(min, max, &through, &end)?])
            },
        )
        .register_reader("piece_walks", |g: &mut Grid, piece: INT, rules: Array| {
            let rules = rules.iter().map(rule_of).collect::<Fallible<Vec<_>>>()?;
            piece_walks(g, piece, &rules)
        })
        .register_reader(
            "reachable",
            |g: &mut Grid, from: Cell, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut work = Work::default();
                let found = walks::try_reachable(g, on_board(g, from)?, &rule, || work.add(1))?;
                Ok::<_, Box<EvalAltResult>>(cells(found.into_iter()))
            },
        )
        .register_reader(
            "mobility",
            |g: &mut Grid, piece: INT, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut work = Work::default();
                let total = walks::try_mobility(g, piece, &rule, || work.add(1))?;
                Ok::<_, Box<EvalAltResult>>(total as INT)
            },
        )
        .register_reader(
            "check_walk",
            |g: &mut Grid, path: Array, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let path: Vec<Cell> = path
                    .into_iter()
                    .map(|c| c.try_cast::<Cell>().ok_or("a path is an array of cells"))
                    .collect::<Result<_, _>>()?;
                Ok::<_, Box<EvalAltResult>>(
                    walks::check_walk(g, &path, &rule).err().unwrap_or_default(),
                )
            },
        );
}

/// What `piece_walks(piece, rules)` says of a rule that is not `[min, max, through, end]`.
const RULE_SHAPE: &str =
    "piece_walks: each rule is [min, max, [through values], [end values]], like [1, 3, [0], [0, 2]]";

/// A rule `[min, max, through, end]` of `piece_walks(piece, rules)`.
fn rule_of(r: &Dynamic) -> Fallible<WalkRule> {
    let r = r.read_lock::<Array>().ok_or(RULE_SHAPE)?;
    let [min, max, through, end] = r.as_slice() else {
        return Err(RULE_SHAPE.into());
    };
    let (through, end) = (through.read_lock::<Array>(), end.read_lock::<Array>());
    let (Ok(min), Ok(max), Some(through), Some(end)) = (min.as_int(), max.as_int(), through, end)
    else {
        return Err(RULE_SHAPE.into());
    };
    rule(min, max, &through, &end)
}

/// Every walk of every piece holding `piece`: all the pieces' walks under the first rule, then
/// under the next, and so on (pieces in reading order).
fn piece_walks(g: &Grid, piece: INT, rules: &[WalkRule]) -> Fallible<Array> {
    let mut walks = Walks::default();
    let pieces: Vec<Cell> = g.cells_with(piece).collect();
    for rule in rules {
        for &from in &pieces {
            walks.add(g, from, rule, "piece_walks")?;
        }
    }
    Ok(walks.out)
}

/// Walks gathered as script values (each an array of cells), within Rhai's array size limit and
/// charged to the call as they are found.
#[derive(Default)]
struct Walks {
    out: Array,
    /// Walks and their cells: Rhai's array size counts both.
    items: usize,
    work: Work,
}

impl Walks {
    /// Adds every walk from `from` that `rule` allows (`function` names the primitive in errors).
    fn add(&mut self, g: &Grid, from: Cell, rule: &WalkRule, function: &str) -> Fallible<()> {
        walks::try_for_each_walk(g, from, rule, |step| {
            if let WalkStep::Walk(p) = step {
                self.items += 1 + p.len();
                if self.items > limits::ARRAY_SIZE {
                    return Err(sandbox::over_limit(format!(
                        "{function}(): the walks hold more than {} cells; ask for shorter ones",
                        limits::ARRAY_SIZE
                    )));
                }
                self.out.push(Dynamic::from(cells(p.iter().copied())));
                self.work.add(p.len() as u64)?;
            }
            self.work.add(1)
        })
    }
}

/// A walk rule from script values: lengths `min..=max` (1 to 64 steps) and two arrays of values.
fn rule(min: INT, max: INT, through: &Array, end: &Array) -> Fallible<WalkRule> {
    if min < 1 || max < min || max > 64 {
        return Err(format!("walk lengths {min}..{max} must satisfy 1 <= min <= max <= 64").into());
    }
    let values = |a: &Array, what: &str| -> Fallible<Vec<i64>> {
        a.iter()
            .map(|v| {
                v.as_int()
                    .map_err(|_| format!("{what} must be an array of integers").into())
            })
            .collect()
    };
    Ok(WalkRule::new(
        min as usize,
        max as usize,
        &values(through, "through")?,
        &values(end, "end")?,
    ))
}

#[cfg(test)]
mod tests {
    use rhai::{Engine, INT};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    #[test]
    fn mobility_is_what_reachable_finds_from_every_piece() {
        let e = engine();
        let setup = "let g = grid(3, 3); g.set(cell(0, 0), 1); g.set(cell(2, 2), 1); \
                     g.set(cell(2, 0), 2); g.set(cell(0, 2), 2);";
        let (mobility, summed): (INT, INT) = (
            e.eval(&format!("{setup} g.mobility(1, 1, 2, [0], [0])"))
                .unwrap(),
            e.eval(&format!(
                "{setup} let n = 0; for p in g.cells_with(1) {{ n += g.reachable(p, 1, 2, [0], [0]).len; }} n"
            ))
            .unwrap(),
        );
        assert_eq!(mobility, summed);
        assert_eq!(mobility, 6);
        let stuck: INT = e
            .eval(&format!("{setup} g.mobility(1, 1, 1, [0], [])"))
            .unwrap();
        assert_eq!(stuck, 0);
        let bad = e.eval::<INT>(&format!("{setup} g.mobility(1, 0, 2, [0], [0])"));
        assert!(bad.unwrap_err().to_string().contains("walk lengths"));
    }

    #[test]
    fn piece_walks_are_the_walks_of_every_piece_in_reading_order() {
        let e = engine();
        let setup = "let g = grid(3, 3); g.set(cell(2, 0), 1); g.set(cell(0, 2), 1); \
                     g.set(cell(1, 1), 2);";
        let same: bool = e
            .eval(&format!(
                "{setup} let each = []; for p in g.cells_with(1) {{ each += g.walks(p, 1, 2, [0], [0, 2]); }} \
                 g.piece_walks(1, 1, 2, [0], [0, 2]) == each"
            ))
            .unwrap();
        assert!(same);
        let first: INT = e
            .eval(&format!("{setup} g.piece_walks(1, 1, 1, [0], [0])[0][0].x"))
            .unwrap();
        assert_eq!(first, 2, "the top row's piece first");
        let none: INT = e
            .eval(&format!("{setup} g.piece_walks(7, 1, 2, [0], [0]).len"))
            .unwrap();
        assert_eq!(none, 0);
    }

    #[test]
    fn piece_walks_under_several_rules_list_each_rules_walks_in_turn() {
        let e = engine();
        let setup = "let g = grid(3, 3); g.set(cell(2, 0), 1); g.set(cell(0, 2), 1); \
                     g.set(cell(1, 1), 2);";
        let same: bool = e
            .eval(&format!(
                "{setup} g.piece_walks(1, [[2, 2, [0], [2]], [1, 2, [0], [0]]]) == \
                 g.piece_walks(1, 2, 2, [0], [2]) + g.piece_walks(1, 1, 2, [0], [0])"
            ))
            .unwrap();
        assert!(same);
        let none: INT = e
            .eval(&format!("{setup} g.piece_walks(1, []).len"))
            .unwrap();
        assert_eq!(none, 0);
        for bad in ["[[1, 2, [0]]]", "[[1, 2, 0, [0]]]", "[1]"] {
            let err = e
                .eval::<rhai::Array>(&format!("{setup} g.piece_walks(1, {bad})"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("each rule is [min, max"), "{bad}: {err}");
        }
        let err = e
            .eval::<rhai::Array>(&format!("{setup} g.piece_walks(1, [[0, 2, [0], [0]]])"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("walk lengths"), "{err}");
    }
}
