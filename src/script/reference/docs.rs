//! The description of every function the runtime registers for scripts, by name (a property as
//! `Type.name`): what [`super::markdown`] and `boardrules doc` print under its signatures.

/// The description of `name`, if it has one.
pub fn of(name: &str) -> Option<&'static str> {
    DOCS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Name, description (Markdown; the first line is the summary `boardrules doc` lists).
const DOCS: &[(&str, &str)] = &[
    ("!=", "Whether two cells, or two tracks, differ."),
    ("==", "Whether two cells, grids, generators or tracks are equal (same size and contents)."),
    ("Cell.x", "`c.x`: the cell's column, 0 at the left."),
    ("Cell.y", "`c.y`: the cell's row, 0 at the top."),
    ("Grid.height", "`g.height`: the number of rows."),
    ("Grid.topology", "`g.topology`: `\"square\"` for a `grid`, `\"hex\"` for a `hex_grid`."),
    ("Grid.width", "`g.width`: the number of columns."),
    ("Run.after", "`r.after`: the value just past the last of `r.cells`, or `()` at the board's edge.\n\nThe after end is the one the direction points to: right (across), bottom (down), \
bottom-right (↘) or top-right (↗)."),
    ("Run.before", "`r.before`: the value just before the first of `r.cells`, or `()` at the board's edge.\n\nThe before end is the one the direction points away from: left (across), top \
(down), top-left (↘) or bottom-left (↗); on a hex grid left (across), top-left (down-right) or bottom-left (up-right). Compare with `==`, not with `<` or `>`: `() == 0` is false."),
    ("Run.cells", "`r.cells`: the run's cells, from the `before` end to the `after` end (each a step of `r.direction` from the last)."),
    ("Run.direction", "`r.direction`: the `[dx, dy]` the run's cells are listed in: `[1, 0]` across, `[0, 1]` down, `[1, 1]` ↘, `[1, -1]` ↗ (on a hex grid `[0, 1]` runs down-right and there is no `[1, 1]`)."),
    ("Run.len", "`r.len`: how many cells the run has (at least 1)."),
    ("Run.value", "`r.value`: the value every cell of the run holds."),
    ("Track.len", "`t.len`: the number of pits."),
    ("add", "`t.add(pit, n)`: adds `n` seeds to `pit` (an error off the track)."),
    ("box_windows", "`g.box_windows(w, h, empty)`: for each `k` in `0..=w·h`, how many `w`×`h` rectangles hold `k` cells of one value other than `empty` and the rest `empty`.\n\n\
Rectangles holding two different values are not counted. Sides are 1 to 100."),
    ("bracket", "`g.bracket(c, [dx, dy], between, end)`: the cells after `c` in direction `[dx, dy]` holding `between`, if there is at least one and the cell just past them holds `end`; otherwise `[]`.\n\n\
The stones a placement at `c` turns over in one direction."),
    ("bracketing_cells", "`g.bracketing_cells(empty, between, end)`: every cell holding `empty` from which `brackets` finds something, row by row from the top.\n\n\
The placements that turn stones over, in one call (each cell stops looking at its first bracket)."),
    ("brackets", "`g.brackets(c, between, end)`: every `bracket` around `c` in the eight directions (clockwise from up; the six of a hex grid), joined."),
    ("cell", "`cell(x, y)`: the cell at column `x` (0 at the left) and row `y` (0 at the top). It may lie off any board."),
    ("cells", "`g.cells()`: every cell of the grid, row by row from the top."),
    ("cells_with", "`g.cells_with(v)`: the cells holding `v`, row by row from the top."),
    ("check_walk", "`g.check_walk(path, min, max, through, end)`: `\"\"` if `path` (an array of cells, start first) is a walk that `walks` would list, else why not.\n\n\
The reason is a sentence a script can pass to `throw` for an illegal move."),
    ("contains", "`g.contains(c)`: whether cell `c` lies on the grid."),
    ("count", "`g.count(v)`: how many cells hold `v`."),
    ("distance", "`t.distance(from, to, dir)`: how many steps in direction `dir` (`1` or `-1`) lead from pit `from` to pit `to` (`0` to `t.len - 1`)."),
    ("drop_cell", "`g.drop_cell(x, empty)`: the lowest cell of column `x` holding `empty` (where a dropped piece comes to rest), or `()` if the column is full."),
    ("drop_piece", "`g.drop_piece(x, piece, empty)`: puts `piece` on the lowest cell of column `x` holding `empty` (gravity: a dropped disc's move in one call) and returns that cell; an error if the column is full or off the board."),
    ("emit", "`emit(text)` or `emit(text, state)`: records an event of the move being played (\"sow 5 from pit 3\"), with the state just after it if given.\n\n\
`run` prints events as `* ` lines and the REPL's `explain` steps through them. Searches and playouts turn recording off: see `recording`."),
    ("format_cell", "`g.format_cell(c, notation)`: cell `c` written in `notation`: `\"row-letter\"` (`12i`, row 1 at the bottom), `\"letter-row\"` (`e5`), `\"letter-row-top\"` (`d3`, row 1 at the top) or `\"xy\"` (`(3,4)`, zero-based)."),
    ("get", "`g.get(c)`: the value at cell `c`; `t.get(pit)`: the seeds in `pit`. An error off the board or track (see `get_or`)."),
    ("get_or", "`g.get_or(c, default)`: the value at cell `c`, or `default` off the board."),
    ("grid", "`grid(w, h)` or `grid(w, h, fill)`: a `w`×`h` grid with every cell holding `fill` (0 if left out).\n\n\
Sides are 1 to 1000, at most 1 000 000 cells. A grid is a value: `let g2 = g;` copies it."),
    ("hex_grid", "`hex_grid(w, h)` or `hex_grid(w, h, fill)`: a `w`×`h` grid of hexagons in axial coordinates, every cell holding `fill` (0 if left out): a Hex board.\n\n\
Drawn with each row half a cell right of the row above, cell `(x, y)` touches `(x ± 1, y)`, `(x, y ± 1)`, `(x + 1, y - 1)` and `(x - 1, y + 1)`. Neighbours, regions, paths, walks, brackets and runs follow these six: `neighbours` and `neighbours8` give the same six cells, and lines run along three axes (across, down-right, up-right: directions 0, 1, 2). Same sizes as `grid`.\n\n\
```rhai\nlet g = hex_grid(11, 11);\ng.neighbours(cell(5, 5)).len == 6 && g.runs_through(cell(0, 0)).len == 3\n```"),
    ("highlight", "`highlight(kind, text)`: `text` tagged for the REPL's theme (kinds such as `\"last\"`, `\"win\"`, `\"label\"`); plain text everywhere else.\n\n\
Use it in `render`; `parse_state` never sees the tags."),
    ("int", "`r.int(n)`: a random whole number in `0..n` from generator `r` (`n` must be positive). Advances `r`."),
    ("jumps", "`g.jumps(c, [[dx, dy], …], [over], [onto])`: the jumps from `c`, each `[from, over, to]`, in the order of the directions: the cell one step away holds one of `over` and the cell two steps away, on the board, one of `onto`.\n\n\
A draughts capture checks both cells in one call:\n\n\
```rhai\nlet g = grid(8, 8);\ng.set(cell(2, 5), 1); g.set(cell(3, 4), 2);\nlet j = g.jumps(cell(2, 5), [[-1, -1], [1, -1]], [2], [0]);\nj.len == 1 && j[0][2] == cell(4, 3)\n```"),
    ("kind", "`t.kind(pit)`: the kind label of `pit` (`\"\"` unless `set_kind` gave one)."),
    ("line_counts", "`g.line_counts(c, value, reach)`: for each line direction (across, down, ↘, ↗; a hex grid's three), how many cells within `reach` of `c` on either side (not `c` itself) hold `value`."),
    ("line_threats", "`g.line_threats(c, value, length, empty, exact)`: threats along lines — for each line direction (across, down, ↘, ↗; a hex grid's three), a map of what a stone of `value` on `c` makes (whatever `c` holds now), where more stones may go only on cells holding `empty`:\n\n\
- `run`: the run of `value` through `c`, `c` included;\n\
- `wins`: the empty cells within `length - 1` of `c` where one more stone makes that run complete a line — exactly `length` long if `exact`, at least `length` if not;\n\
- `threats`: how many distinct threats `wins` are — one per cell, except the two ends of a *straight* (a line of `length - 1` that either end completes), which count once;\n\
- `straights`: the empty cells within `length - 2` of `c` where one more stone makes a straight.\n\n\
In five-in-a-row terms, with `length` 5: `threats` counts the fours a stone makes, and a line with `straights` is a three — the facts forbidden-move rules are written with. `length` is 2 to 20.\n\n\
```rhai\nlet g = grid(15, 15);\ng.set(cell(5, 7), 1); g.set(cell(6, 7), 1);\nlet across = g.line_threats(cell(7, 7), 1, 5, 0, true)[0];\nacross.run == 3 && across.wins == [] && across.straights == [cell(4, 7), cell(8, 7)]\n```"),
    ("line_values", "`g.line_values(c, direction, reach, off)`: the values of the `2·reach + 1` cells through `c` along line `direction` (0 across, 1 down, 2 ↘, 3 ↗; on a hex grid 0 across, 1 down-right, 2 up-right), `c` in the middle; a cell off the board reads as `off`.\n\n\
The raw material of pattern tests along a line (gaps, ends, what lies a few cells away)."),
    ("line_windows", "`g.line_windows(len, empty)` or `g.line_windows(len, empty, value)`: for each `k` in `0..=len`, how many windows of `len` cells in a row (all four directions; three on a hex grid) hold `k` cells of one value other than `empty` (of `value`, when given) and the rest `empty`.\n\n\
One native call for an evaluation of near-complete lines. Lengths are 1 to 100."),
    ("longest_run_through", "`g.longest_run_through(c)`: the length of the longest run through cell `c` in the line directions (four, or a hex grid's three) (`0` off the board).\n\n\
Whether a placement at `c` completed a line, in one call."),
    ("mobility", "`g.mobility(piece, min, max, through, end)`: how many cells the pieces holding `piece` reach by walks of `min` to `max` steps (as `reachable` counts them from each piece), summed over the pieces.\n\n\
A piece game's mobility, for `evaluate`, in one call; `> 0` says whether any piece can move at all."),
    ("move_piece", "`g.move_piece(from, to, empty)`: moves what stands on `from` to `to`, leaves `empty` on `from`, and returns what stood on `to` (`empty` for a plain step, else the piece taken): a piece's move in one call. An error off the board, or when `from` and `to` are the same cell."),
    ("neighbours", "`g.neighbours(c)`: the on-board cells next to `c` up, right, down and left (in that order); on a hex grid its six, clockwise from up-right."),
    ("neighbours8", "`g.neighbours8(c)`: the on-board cells around `c` in the eight directions, clockwise from up; on a hex grid the six of `neighbours`."),
    ("next", "`t.next(pit, dir)`: the pit after `pit` in direction `dir` (`1` or `-1`), wrapping around."),
    ("open_columns", "`g.open_columns(empty)`: the columns `x`, left to right, where `drop_cell(x, empty)` finds room: the drops open now."),
    ("owner", "`t.owner(pit)`: the owner of `pit` (0 unless `set_owner` gave one)."),
    ("parse_cell", "`g.parse_cell(text, notation)`: the cell `text` names in `notation` (see `format_cell`); an error, with a readable reason, if it is malformed or off the board."),
    ("path", "`g.path(from, to, passable)`: a shortest path from `from` to `to` by up/right/down/left steps (a hex grid's six) through cells holding `passable` (both ends listed), or `()` if there is none.\n\n\
`from` itself may hold anything. Ties are broken the same way every time."),
    ("pick", "`r.pick(array)`: a random element of a non-empty array. Advances `r`."),
    ("piece_jumps", "`g.piece_jumps(piece, [[dx, dy], …], [over], [onto])`: every `jumps` of the pieces holding `piece` (or one of a list of values: `[MAN, KING]`), each `[from, over, to]`, pieces row by row from the top: one side's captures in one call. Pieces that capture in different directions (men forward, kings both ways) name each its own: `g.piece_jumps([[MAN, FORWARD], [KING, ALL]], [over], [onto])`, still in one pass.\n\n\
```rhai\nlet g = grid(4, 4);\ng.set(cell(0, 3), 1); g.set(cell(3, 3), 3); g.set(cell(1, 2), 2); g.set(cell(2, 2), 2);\ng.piece_jumps([1, 3], [[-1, -1], [1, -1]], [2], [0]).len == 2\n```\n\n\
```rhai\nlet g = grid(4, 4);\ng.set(cell(0, 3), 1); g.set(cell(3, 1), 3); g.set(cell(2, 2), 2);\nconst FORWARD = [[-1, -1], [1, -1]];\nconst ALL = [[-1, -1], [1, -1], [-1, 1], [1, 1]];\n// The king (3) leaps the 2 down-left of it; the man (1) moves forward only.\ng.piece_jumps([[1, FORWARD], [3, ALL]], [2], [0]) == [[cell(3, 1), cell(2, 2), cell(1, 3)]]\n```"),
    ("piece_steps", "`g.piece_steps(piece, [[dx, dy], …], [values])`: every step `[from, to]` of the pieces holding `piece` (or one of a list of values: `[MAN, KING]`, in one pass), row by row from the top and in the order of the steps: `steps` from every such piece, in one call. A step `[dx, dy, [values]]` lands only on its own values, so one call lists a pawn's moves: `g.piece_steps(1, [[-1, 1, [EMPTY, 2]], [0, 1], [1, 1, [EMPTY, 2]]], [EMPTY])` (straight onto an empty cell, diagonally onto an empty cell or a 2).\n\n\
Pieces that move differently (men forward, kings both ways) name each its own steps: `g.piece_steps([[MAN, FORWARD], [KING, ALL]], [values])` lists them all in one pass, row by row, each piece with the steps given with its value (a value named twice moves as its first entry says).\n\n\
```rhai\nlet g = grid(3, 3);\ng.set(cell(1, 2), 1); g.set(cell(1, 0), 3);\nconst FORWARD = [[-1, -1], [1, -1]];      // a man (1) moves up\nconst ALL = [[-1, -1], [1, -1], [-1, 1], [1, 1]];\n// The king (3) on the top row can only go down; the man steps up.\ng.piece_steps([[1, FORWARD], [3, ALL]], [0]).len == 4\n```"),
    ("piece_walks", "`g.piece_walks(piece, min, max, through, end)`: every walk (as `walks` lists them) of every piece holding `piece`, pieces in reading order: a path-moving game's moves in one call. `g.piece_walks(piece, [[min, max, through, end], …])` lists the walks of every piece under the first rule, then under the next…: a game's captures, then its quiet walks, in one call (cheaper than joining two lists with `+`)."),
    ("pits", "`t.pits()`, `t.pits(owner)` or `t.pits(owner, kind)`: the pits (all, or those of `owner`, of `kind`), in index order."),
    ("pits_of_kind", "`t.pits_of_kind(kind)`: the pits of `kind`, whoever owns them, in index order."),
    ("pits_with_seeds", "`t.pits_with_seeds(owner)` or `t.pits_with_seeds(owner, kind)`: the pits of `owner` (of `kind`) that hold seeds, in index order — where a sowing game's player may sow from, in one call."),
    ("prev", "`t.prev(pit, dir)`: the pit before `pit` in direction `dir`, wrapping around."),
    ("ray", "`g.ray(c, [dx, dy], v)`: the cells after `c` in direction `[dx, dy]`, one step at a time, while they hold `v` (`[]` for `[0, 0]`)."),
    ("reachable", "`g.reachable(from, passable)`: the cells holding `passable` reachable from `from` by up/right/down/left steps (a hex grid's six) through such cells, in reading order, without `from`.\n\n\
`g.reachable(from, min, max, through, end)`: the end cells of the walks `walks` would list, each once, in reading order."),
    ("reachable_pairs", "`g.reachable_pairs(passable)`: every `[piece, destination]` pair: each cell not holding `passable` with each `passable` cell it reaches through `passable` cells.\n\n\
Pieces in reading order, then their destinations in reading order; one flood fill of the board, not one search per piece."),
    ("recording", "`recording()`: whether events are being recorded (false during search and playouts), to skip building event texts nobody will read."),
    ("region", "`g.region(c)`: the connected cells (up/right/down/left; a hex grid's six) holding the same value as `c`, `c` included, in reading order; `[]` off the board."),
    ("region8", "`g.region8(c)`: as `region`, joining diagonal neighbours too (on a hex grid, the same as `region`)."),
    ("regions", "`g.regions(ignore)`: every connected region (up/right/down/left; a hex grid's six) of equal cells not holding `ignore`, in reading order of their first cell, each in reading order."),
    ("regions8", "`g.regions8(ignore)`: as `regions`, joining diagonal neighbours too (on a hex grid, the same as `regions`)."),
    ("rng", "`rng(seed)`: a random generator started from `seed`. Keep it in the state: undo, replay and `check` then reproduce every draw."),
    ("run_through", "`g.run_through(c, direction)`: the run of cells equal to `c` through `c` along line `direction` (0 across, 1 down, 2 ↘, 3 ↗; on a hex grid 0 across, 1 down-right, 2 up-right). An error off the board."),
    ("runs", "`g.runs(min_len, ignore)`: every maximal run of at least `min_len` equal cells not holding `ignore`, direction by direction (across, down, ↘, ↗; a hex grid's three), then by first cell in reading order."),
    ("runs_through", "`g.runs_through(c)`: the four runs through `c`, across, down, ↘ and ↗, in that order (each at least `c` itself); on a hex grid three, across, down-right and up-right. An error off the board.\n\n\
See `Run.before` for which end is which."),
    ("seeds", "`t.seeds(owner)` or `t.seeds(owner, kind)`: the seeds in the pits of `owner` (of `kind`)."),
    ("set", "`g.set(c, v)`: puts `v` at cell `c`; `t.set(pit, n)`: puts `n` seeds in `pit`. An error off the board or track."),
    ("set_kind", "`t.set_kind(pit, kind)`: labels `pit` with `kind` (a store, a village, a house…)."),
    ("set_owner", "`t.set_owner(pit, owner)`: gives `pit` to player `owner`."),
    ("sow", "`t.sow(from, n, dir)` or `t.sow(from, n, dir, skip)`: drops `n` seeds one by one into the pits after `from` in direction `dir`, passing over the pits in `skip` (an array of pits, or one pit), and returns the pit the last seed fell in (`from` if `n` is 0).\n\n\
The seeds come from nowhere: `take` them first. Time grows with the track, not with `n`."),
    ("step", "`t.step(pit, dir, k)`: the pit `k` steps from `pit` in direction `dir` (negative `k` goes back), wrapping around."),
    ("steps", "`g.steps(c, [[dx, dy], …], [values])`: the cells `c + [dx, dy]`, for each step in order, that are on the board and hold one of `values`: a piece's steps or jumps. A step written `[dx, dy, [values]]` lands on its own values instead (a pawn moves straight onto an empty cell but takes diagonally)."),
    ("take", "`t.take(pit)`: empties `pit` and returns its seeds."),
    ("to_debug", "The text `debug` and `print` show for a cell, grid, generator, run or track."),
    ("to_string", "`c.to_string()`, `t.to_string()`: a cell as `(x,y)`; a track as its seeds."),
    ("total", "`t.total()`: the seeds on the whole track."),
    ("track", "`track(len)` or `track(len, fill)`: a circular track of `len` pits holding `fill` seeds each (0 if left out), owner 0, kind `\"\"`."),
    ("values", "`t.values()`: every pit's seeds, in index order."),
    ("walks", "`g.walks(from, min, max, through, end)`: every simple walk from `from` (start cell first) of `min` to `max` up/right/down/left steps (a hex grid's six) passing through cells holding one of `through` and ending on one of `end`.\n\n\
Depth first, steps tried up, right, down, left, so the order is fixed. Lengths are 1 to 64."),
];
