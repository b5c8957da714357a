//! Grids, cells and line scans as scripts see them: `grid(…)`, `cell(x, y)`, `g.runs_through(c)`.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, INT};

use crate::{
    runtime::{grid::Topology, lines, threats, Beyond, Cell, Grid, Notation, Run},
    script::sandbox,
    walker::lists::NativeList,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `Cell`, `Grid` and `Run` with their functions.
pub fn register(engine: &mut Natives) {
    register_cell(engine);
    register_grid(engine);
    register_run(engine);
}

fn register_cell(engine: &mut Natives) {
    engine
        .register_type_with_name::<Cell>("Cell")
        .register_compared::<Cell>(|_| 0)
        .register_pair("cell", Cell::new)
        .register_pair_split::<Cell>(|c| c.read_lock::<Cell>().map(|c| (c.x, c.y)))
        .register_get("x", |c: &mut Cell| c.x)
        .register_typed::<(Cell,)>("get$x", |args| {
            Some(Ok(Dynamic::from_int(args[0].read_lock::<Cell>()?.x)))
        })
        .register_field_reader::<(Cell,)>("get$x", |c| Some(c.read_lock::<Cell>()?.x))
        .register_get("y", |c: &mut Cell| c.y)
        .register_typed::<(Cell,)>("get$y", |args| {
            Some(Ok(Dynamic::from_int(args[0].read_lock::<Cell>()?.y)))
        })
        .register_field_reader::<(Cell,)>("get$y", |c| Some(c.read_lock::<Cell>()?.y))
        .register_fn("==", |a: Cell, b: Cell| a == b)
        .register_fn("!=", |a: Cell, b: Cell| a != b)
        .register_fn("to_string", |c: &mut Cell| c.to_string())
        .register_fn("to_debug", |c: &mut Cell| c.to_string());
}

fn notation(name: &str) -> Fallible<Notation> {
    Notation::from_name(name).ok_or_else(|| {
        format!("unknown notation '{name}': use \"row-letter\", \"letter-row\", \"letter-row-top\" or \"xy\"").into()
    })
}

/// `cell`, or an error if it is off `grid`.
pub fn on_board(grid: &Grid, cell: Cell) -> Fallible<Cell> {
    if grid.contains(cell) {
        Ok(cell)
    } else {
        Err(off_board(grid, cell))
    }
}

/// The error for `cell`, off `grid`.
#[cold]
fn off_board(grid: &Grid, cell: Cell) -> Box<EvalAltResult> {
    format!(
        "cell {cell} is off the {}×{} board",
        grid.width(),
        grid.height()
    )
    .into()
}

/// Cells as a script array.
pub fn cells(iter: impl Iterator<Item = Cell>) -> Array {
    iter.map(Dynamic::from).collect()
}

/// The cells of `g` one of `steps` away from `c`, as a script's array: made for as many as
/// there are steps, so that it never grows as it fills.
fn neighbour_cells(g: &Grid, c: Cell, steps: &[(i64, i64)]) -> Array {
    let mut array = Array::with_capacity(steps.len());
    array.extend(g.neighbours(c, steps).map(Dynamic::from));
    array
}

/// The value at `c` on `g`, or an error if `c` is off it (`g.get(c)`).
fn value_at(g: &Grid, c: Cell) -> Fallible<INT> {
    g.get(c).ok_or_else(|| off_board(g, c))
}

/// Sets the value at `c` on `g`, or an error if `c` is off it (`g.set(c, v)`).
fn set_value(g: &mut Grid, c: Cell, v: INT) -> Fallible<()> {
    on_board(g, c).map(|c| {
        g.set(c, v);
    })
}

/// The plain forms of the grid's commonest functions, and their forms taking a cell's
/// coordinates (`g.get(cell(x, y))` makes no cell): see [`Natives::register_typed`],
/// [`Natives::register_pair_taker`] and [`Natives::register_pair_reader`].
fn register_plain_grid(engine: &mut Natives) {
    #[inline]
    fn grid<'a>(args: &'a [&mut Dynamic]) -> Option<impl std::ops::Deref<Target = Grid> + 'a> {
        args[0].read_lock::<Grid>()
    }
    #[inline]
    fn cell_in(args: &[&mut Dynamic]) -> Option<Cell> {
        args[1].read_lock::<Cell>().map(|c| *c)
    }
    fn int(value: &Dynamic) -> Option<INT> {
        value.as_int().ok()
    }
    fn set(args: &mut [&mut Dynamic], c: Cell, v: INT) -> Option<Fallible<Dynamic>> {
        let mut g = args[0].write_lock::<Grid>()?;
        Some(set_value(&mut g, c, v).map(|()| Dynamic::UNIT))
    }
    engine
        .register_typed::<(Grid, Cell)>("contains", |args| {
            Some(Ok(Dynamic::from_bool(grid(args)?.contains(cell_in(args)?))))
        })
        .register_pair_taker::<(Grid, Cell)>("contains", |args, x, y| {
            Some(Ok(Dynamic::from_bool(
                grid(args)?.contains(Cell::new(x, y)),
            )))
        })
        .register_typed::<(Grid, Cell)>("get", |args| {
            Some(value_at(&*grid(args)?, cell_in(args)?).map(Dynamic::from_int))
        })
        .register_pair_taker::<(Grid, Cell)>("get", |args, x, y| {
            Some(value_at(&*grid(args)?, Cell::new(x, y)).map(Dynamic::from_int))
        })
        .register_pair_reader::<(Grid, Cell)>("get", |g, x, y| {
            Some(value_at(&*g.read_lock::<Grid>()?, Cell::new(x, y)))
        })
        .register_typed::<(Grid, Cell, INT)>("get_or", |args| {
            let (c, default) = (cell_in(args)?, int(args[2])?);
            Some(Ok(Dynamic::from_int(grid(args)?.get(c).unwrap_or(default))))
        })
        .register_pair_taker::<(Grid, Cell, INT)>("get_or", |args, x, y| {
            let default = int(args[1])?;
            let value = grid(args)?.get(Cell::new(x, y)).unwrap_or(default);
            Some(Ok(Dynamic::from_int(value)))
        })
        .register_typed::<(Grid, Cell, INT)>("set", |args| {
            let (c, v) = (cell_in(args)?, int(args[2])?);
            set(args, c, v)
        })
        .register_pair_taker::<(Grid, Cell, INT)>("set", |args, x, y| {
            let v = int(args[1])?;
            set(args, Cell::new(x, y), v)
        });
}

fn register_grid(engine: &mut Natives) {
    engine
        .register_type_with_name::<Grid>("Grid")
        .register_compared::<Grid>(|g| (g.width() * g.height()) as usize * 8)
        .register_fn("grid", |w: INT, h: INT| new_grid(w, h, 0))
        .register_fn("grid", new_grid)
        .register_fn("hex_grid", |w: INT, h: INT| new_hex_grid(w, h, 0))
        .register_fn("hex_grid", new_hex_grid)
        .register_get("topology", |g: &mut Grid| g.topology().name())
        .register_get("width", |g: &mut Grid| g.width())
        .register_typed::<(Grid,)>("get$width", |args| {
            Some(Ok(Dynamic::from_int(args[0].read_lock::<Grid>()?.width())))
        })
        .register_field_reader::<(Grid,)>("get$width", |g| Some(g.read_lock::<Grid>()?.width()))
        .register_get("height", |g: &mut Grid| g.height())
        .register_typed::<(Grid,)>("get$height", |args| {
            Some(Ok(Dynamic::from_int(args[0].read_lock::<Grid>()?.height())))
        })
        .register_field_reader::<(Grid,)>("get$height", |g| Some(g.read_lock::<Grid>()?.height()))
        .register_reader("contains", |g: &mut Grid, c: Cell| g.contains(c))
        .register_reader("get", |g: &mut Grid, c: Cell| value_at(g, c))
        .register_reader("get_or", |g: &mut Grid, c: Cell, default: INT| {
            g.get(c).unwrap_or(default)
        })
        .register_fn("set", |g: &mut Grid, c: Cell, v: INT| set_value(g, c, v));
    register_plain_grid(engine);
    engine
        .register_fn(
            "move_piece",
            |g: &mut Grid, from: Cell, to: Cell, empty: INT| {
                let (from, to) = (on_board(g, from)?, on_board(g, to)?);
                g.move_value(from, to, empty)
                    .ok_or_else(|| -> Box<EvalAltResult> {
                        format!("move_piece: {from} to itself is not a move").into()
                    })
            },
        )
        .register_reader("count", |g: &mut Grid, v: INT| g.count(v) as INT)
        .register_reader("cells", |g: &mut Grid| cells(g.cells()))
        .register_reader("cells_with", |g: &mut Grid, v: INT| cells(g.cells_with(v)))
        .register_list_fn("cells_with", |g: &mut Grid, v: INT| NativeList::Holding {
            grid: g.clone(),
            value: v,
            len: g.count(v),
        })
        .register_reader("neighbours", |g: &mut Grid, c: Cell| {
            neighbour_cells(g, c, g.side_steps())
        })
        .register_reader("neighbours8", |g: &mut Grid, c: Cell| {
            neighbour_cells(g, c, g.touching_steps())
        })
        .register_reader("parse_cell", |g: &mut Grid, text: &str, n: &str| {
            g.parse_cell(text, notation(n)?)
                .map_err(|e| -> Box<EvalAltResult> { e.to_string().into() })
        })
        .register_reader("format_cell", |g: &mut Grid, c: Cell, n: &str| {
            Ok::<_, Box<EvalAltResult>>(g.format_cell(c, notation(n)?))
        })
        .register_reader("runs_through", |g: &mut Grid, c: Cell| {
            on_board(g, c).map(|c| runs(lines::runs_through(g, c)))
        })
        .register_reader("longest_run_through", |g: &mut Grid, c: Cell| {
            on_board(g, c).map(|c| lines::longest_run_through(g, c) as INT)
        })
        .register_reader("run_through", |g: &mut Grid, c: Cell, direction: INT| {
            let d = line_direction(g, direction)?;
            let run = lines::run_through(g, on_board(g, c)?, d).expect("on board");
            Ok::<_, Box<EvalAltResult>>(Dynamic::from(run))
        })
        .register_reader(
            "line_values",
            |g: &mut Grid, c: Cell, direction: INT, reach: INT, off: INT| {
                let d = line_direction(g, direction)?;
                let reach = line_reach(reach, "line_values")?;
                let values = lines::values_along(g, c, d, reach, off);
                Ok::<_, Box<EvalAltResult>>(
                    values.into_iter().map(Dynamic::from).collect::<Array>(),
                )
            },
        )
        .register_reader(
            "line_counts",
            |g: &mut Grid, c: Cell, value: INT, reach: INT| {
                let reach = line_reach(reach, "line_counts")?;
                let counts = lines::counts_along(g, c, value, reach);
                Ok::<_, Box<EvalAltResult>>(
                    counts
                        .into_iter()
                        .map(|n| Dynamic::from(n as INT))
                        .collect::<Array>(),
                )
            },
        )
        .register_reader(
            "line_threats",
            |g: &mut Grid, c: Cell, value: INT, length: INT, empty: INT, exact: bool| {
                line_threats(g, c, value, length, empty, exact)
            },
        )
        .register_reader("runs", |g: &mut Grid, min_len: INT, ignore: INT| {
            runs(lines::all_runs(g, min_len.max(1) as usize, ignore))
        })
        .register_fn("==", |a: Grid, b: Grid| a == b)
        .register_fn("to_debug", |g: &mut Grid| {
            let maker = match g.topology() {
                Topology::Square => "grid",
                Topology::Hex => "hex_grid",
            };
            format!("{maker}({}, {})", g.width(), g.height())
        });
}

/// `g.line_threats(c, value, length, empty, exact)`: for each line direction, a map of what a
/// stone of `value` on `c` makes along it (see [`threats::line_threats`]).
fn line_threats(
    g: &Grid,
    c: Cell,
    value: INT,
    length: INT,
    empty: INT,
    exact: bool,
) -> Fallible<Array> {
    let c = on_board(g, c)?;
    let length = usize::try_from(length)
        .ok()
        .filter(|n| (2..=threats::MAX_LENGTH).contains(n))
        .ok_or_else(|| -> Box<EvalAltResult> {
            format!(
                "line_threats: length must be 2 to {}, not {length}",
                threats::MAX_LENGTH
            )
            .into()
        })?;
    let goal = threats::LineGoal {
        value,
        length,
        empty,
        exact,
    };
    let lines = threats::line_threats(g, c, goal).expect("checked above");
    Ok(lines
        .into_iter()
        .map(|t| {
            let mut map = rhai::Map::new();
            map.insert("run".into(), Dynamic::from(t.run as INT));
            map.insert("wins".into(), Dynamic::from(cells(t.wins.into_iter())));
            map.insert("threats".into(), Dynamic::from(t.threats as INT));
            map.insert(
                "straights".into(),
                Dynamic::from(cells(t.straights.into_iter())),
            );
            Dynamic::from(map)
        })
        .collect())
}

/// The longest reach of `line_values` and `line_counts` each way.
const MAX_REACH: usize = 100;

/// How far a line read reaches each way: 0 to [`MAX_REACH`] cells.
fn line_reach(reach: INT, what: &str) -> Fallible<usize> {
    usize::try_from(reach)
        .ok()
        .filter(|r| *r <= MAX_REACH)
        .ok_or_else(|| format!("{what}: reach must be 0 to {MAX_REACH}, not {reach}").into())
}

/// A line direction of `grid` by its number, in the order of `runs_through`: 0 across, 1 down,
/// 2 ↘, 3 ↗ on a square grid; 0 across, 1 down-right, 2 up-right on a hexagonal one.
fn line_direction(grid: &Grid, direction: INT) -> Fallible<(i64, i64)> {
    let directions = grid.line_directions();
    usize::try_from(direction)
        .ok()
        .and_then(|i| directions.get(i).copied())
        .ok_or_else(|| {
            format!(
                "direction {direction} is not 0..{} on a {} grid",
                directions.len() - 1,
                grid.topology().name()
            )
            .into()
        })
}

fn new_grid(w: INT, h: INT, fill: INT) -> Fallible<Grid> {
    allowed_size(w, h).map(|()| Grid::new(w, h, fill))
}

fn new_hex_grid(w: INT, h: INT, fill: INT) -> Fallible<Grid> {
    allowed_size(w, h).map(|()| Grid::hex(w, h, fill))
}

/// Whether a `w`×`h` grid may be made, charging the sandbox for its cells.
fn allowed_size(w: INT, h: INT) -> Fallible<()> {
    if Grid::valid_size(w, h) {
        sandbox::charge((w * h) as u64)
    } else {
        Err(
            format!("a {w}×{h} grid is not allowed (sides 1..1000, at most 1 000 000 cells)")
                .into(),
        )
    }
}

fn runs(runs: Vec<Run>) -> Array {
    runs.into_iter().map(Dynamic::from).collect()
}

fn beyond(b: Beyond) -> Dynamic {
    match b {
        Beyond::Edge => Dynamic::UNIT,
        Beyond::Value(v) => Dynamic::from(v),
    }
}

fn register_run(engine: &mut Natives) {
    engine
        .register_type_with_name::<Run>("Run")
        .register_compared::<Run>(|r| r.cells.len() * std::mem::size_of::<Cell>())
        .register_get("value", |r: &mut Run| r.value)
        .register_field_reader::<(Run,)>("get$value", |r| Some(r.read_lock::<Run>()?.value))
        .register_get("len", |r: &mut Run| r.len() as INT)
        .register_get("cells", |r: &mut Run| cells(r.cells.iter().copied()))
        .register_get("before", |r: &mut Run| beyond(r.before))
        .register_get("after", |r: &mut Run| beyond(r.after))
        .register_get("direction", |r: &mut Run| {
            let (dx, dy) = r.direction;
            vec![Dynamic::from(dx), Dynamic::from(dy)]
        })
        .register_fn("to_debug", |r: &mut Run| {
            format!("run of {} × {}", r.len(), r.value)
        });
}

#[cfg(test)]
mod tests {
    use rhai::{Engine, INT};

    fn engine() -> Engine {
        super::super::test_engine(|_| {})
    }

    #[test]
    fn a_piece_moves_and_the_taken_value_is_returned() {
        let e = engine();
        let setup = "let g = grid(3, 1); g.set(cell(0, 0), 1); g.set(cell(2, 0), 2);";
        let (taken, after): (INT, INT) = (
            e.eval(&format!("{setup} g.move_piece(cell(0, 0), cell(2, 0), 0)"))
                .unwrap(),
            e.eval(&format!(
                "{setup} g.move_piece(cell(0, 0), cell(2, 0), 0); g.get(cell(0, 0)) * 10 + g.get(cell(2, 0))"
            ))
            .unwrap(),
        );
        assert_eq!((taken, after), (2, 1));
        for bad in ["cell(0, 0), cell(3, 0)", "cell(2, 0), cell(2, 0)"] {
            let err = e
                .eval::<INT>(&format!("{setup} g.move_piece({bad}, 0)"))
                .unwrap_err();
            assert!(err.to_string().contains("off the") || err.to_string().contains("itself"));
        }
    }
}
