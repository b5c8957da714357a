#!/usr/bin/env python3
"""The Gomocup brain's replies at a fixed depth, on the midgame positions of midgame15.txt: a
load-independent measure of the native placement search's speed (its input, printed with
--print-input, run under callgrind: the total instructions) and a check that a change left the search the same (the replies
and their MESSAGE lines, depth and positions looked at, must be byte-identical).

    python3 benches/gomocup/fixed_depth.py --binary OLD > before.txt
    python3 benches/gomocup/fixed_depth.py --binary NEW > after.txt
    cmp before.txt after.txt
    python3 benches/gomocup/fixed_depth.py --positions 10 --print-input > in10.txt
    valgrind --tool=callgrind target/release/boardrules gomocup caro < in10.txt

One brain answers every position (`INFO max_depth DEPTH`, no time limit, `BOARD` with the
stones: field 3 is 1 for the stones of the player to move, 2 for the opponent's), so its
transposition table is kept from one position to the next, as in a game.
"""

import argparse
import os
import subprocess
import sys

from depth import read_positions  # the positions file, as depth.py reads it

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
POSITIONS = os.path.join(HERE, "midgame15.txt")


def board_lines(moves):
    """The BOARD command for the position after `moves`, the brain to move."""
    mine = len(moves) % 2
    stones = [f"{x},{y},{1 if i % 2 == mine else 2}" for i, (x, y) in enumerate(moves)]
    return ["BOARD", *stones, "DONE"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/boardrules"))
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=None, help="the first N positions")
    parser.add_argument("--rule", type=int, default=0, help="Gomocup rule (0 freestyle, 4 renju)")
    parser.add_argument("--file", default=POSITIONS)
    parser.add_argument(
        "--print-input", action="store_true", help="print what the brain is sent, and stop"
    )
    args = parser.parse_args()
    positions = read_positions(args.file)[: args.positions]
    commands = [
        f"INFO rule {args.rule}",
        f"INFO max_depth {args.depth}",
        "INFO timeout_turn 1000000",
        "INFO timeout_match 0",
        "START 15",
    ]
    for moves in positions:
        commands += board_lines(moves)
    commands.append("END")
    if args.print_input:
        print("\n".join(commands))
        return
    done = subprocess.run(
        [args.binary, "gomocup", "caro"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"the brain failed: {done.stderr}")
    for line in done.stdout.splitlines():
        if line.startswith("ERROR"):
            sys.exit(f"the brain said {line!r}")
        print(line)


if __name__ == "__main__":
    main()
