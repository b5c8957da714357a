#!/usr/bin/env python3
"""Cross-checks the example game scripts against OpenSpiel, ply by ply (pip install open-spiel).

Usage: tests/openspiel_games.py [--newcomer|--hinted] [GAMES] [BINARY] [NAME…]  (NAME: only these games)

For each game, random games are played in pyspiel and replayed through
`boardrules run examples/games/NAME.rhai --json` (with `--newcomer`, the newcomer-style scripts
`benches/newcomer/NAME.rhai`, with tic-tac-toe, checkers and dots-and-boxes too; with
`--hinted`, those of `benches/newcomer/hinted/`, which take `boardrules profile`'s advice);
after every ply the board, the player to move, the legal moves and, at the end, the result
must agree.
"""

import json
import random
import subprocess
import sys

import pyspiel


def connect_four_move(text):
    """OpenSpiel's `x3` (0-based column) is our `4`."""
    return str(int(text[1:]) + 1)


def tic_tac_toe_move(text):
    """OpenSpiel's `x(1,2)` (row, column) is our `(2,1)` (column, row)."""
    row, column = text[2:-1].split(",")
    return f"({column},{row})"


def dots_and_boxes_move(text):
    """OpenSpiel's `P1(h,1,0)` (the player, then the line: horizontal or vertical, row,
    column) is our `h1,0`."""
    return text[3] + text[5:-1]


def board_lines(state):
    """OpenSpiel's board, without the lines some games add under it (`Current player: …`)."""
    return "\n".join(line for line in str(state).rstrip("\n").split("\n")
                     if not line.startswith(("Current player", "Move number")))


GAMES = {
    # name: (OpenSpiel game, our script, move mapping, player names)
    "connect_four": ("connect_four", "examples/games/connect_four.rhai", connect_four_move, ["x", "o"]),
    "othello": ("othello", "examples/games/othello.rhai", lambda t: t, ["Black", "White"]),
    "breakthrough": ("breakthrough", "examples/games/breakthrough.rhai", lambda t: t, ["Black", "White"]),
    # OpenSpiel's `mancala` is Kalah; its moves are pit numbers, as ours are.
    "kalah": ("mancala", "examples/games/kalah.rhai", lambda t: t, ["South", "North"]),
    # Both write cells as column letter and row from the top (`a1` the top left).
    "hex": ("hex", "examples/games/hex.rhai", lambda t: t, ["x", "o"]),
}

# The newcomer-style scripts of benches/newcomer/: the same games, and tic-tac-toe.
NEWCOMER = {name: (spiel, f"benches/newcomer/{name}.rhai", move, names)
            for name, (spiel, _, move, names) in GAMES.items() if name != "hex"}
NEWCOMER["tic_tac_toe"] = ("tic_tac_toe", "benches/newcomer/tic_tac_toe.rhai", tic_tac_toe_move, ["x", "o"])
# Both write checkers moves as from and to (`c3d4`, a jump `c3e5`); each jump of a multiple
# jump is a move of its own in both.
NEWCOMER["checkers"] = ("checkers", "benches/newcomer/checkers.rhai", lambda t: t, ["White", "Black"])
NEWCOMER["hex"] = ("hex", "benches/newcomer/hex.rhai", lambda t: t, ["x", "o"])
NEWCOMER["dots_and_boxes"] = ("dots_and_boxes", "benches/newcomer/dots_and_boxes.rhai",
                              dots_and_boxes_move, ["P1", "P2"])


# The newcomer scripts with `boardrules profile`'s advice taken (benches/newcomer/hinted/).
HINTED = {name: (spiel, script.replace("newcomer/", "newcomer/hinted/"), move, names)
          for name, (spiel, script, move, names) in NEWCOMER.items()
          if name in ("checkers", "hex", "dots_and_boxes", "tic_tac_toe")}


def check(name, games, binary, table):
    spiel_name, script, to_ours, names = table[name]
    game = pyspiel.load_game(spiel_name)
    plies = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        expected, moves = [], []
        while True:
            terminal = state.is_terminal()
            legal = [] if terminal else sorted(
                to_ours(state.action_to_string(state.current_player(), a)) for a in state.legal_actions())
            expected.append((board_lines(state), None if terminal else names[state.current_player()], legal))
            if terminal:
                break
            action = rng.choice(state.legal_actions())
            moves.append(to_ours(state.action_to_string(state.current_player(), action)))
            state.apply_action(action)
        out = subprocess.run([binary, "run", script, "--json", *moves],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        assert len(out) == len(expected), f"{name} seed {seed}: {len(out)} states, OpenSpiel {len(expected)}"
        for ply, (line, (board, to_move, legal)) in enumerate(zip(out, expected)):
            ours = json.loads(line)
            where = f"{name} seed {seed} ply {ply} after {' '.join(moves[:ply])}"
            assert ours["state"].rstrip("\n") == board, f"{where}:\n{ours['state']}\n--- OpenSpiel:\n{board}"
            assert ours["to_move"] == to_move, f"{where}: to move {ours['to_move']} vs {to_move}"
            assert sorted(ours["moves"]) == legal, f"{where}: moves {sorted(ours['moves'])} vs {legal}"
            plies += 1
        r = state.returns()
        want = "draw" if r[0] == r[1] else f"{names[0 if r[0] > r[1] else 1]} wins"
        got = json.loads(out[-1])["result"]
        assert got == want, f"{name} seed {seed}: result {got} vs {want}"
    print(f"{name}: {games} random games, {plies} positions agree with OpenSpiel")


def main():
    args = sys.argv[1:]
    table = GAMES
    if args[:1] == ["--newcomer"]:
        table, args = NEWCOMER, args[1:]
    elif args[:1] == ["--hinted"]:
        table, args = HINTED, args[1:]
    games = int(args[0]) if len(args) > 0 else 300
    binary = args[1] if len(args) > 1 else "target/release/boardrules"
    for name in args[2:] or table:
        check(name, games, binary, table)


if __name__ == "__main__":
    main()
