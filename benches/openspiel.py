#!/usr/bin/env python3
"""Random playouts per second: our game scripts in boardrules vs OpenSpiel's C++.

Usage: benches/openspiel.py [--seconds S] [--binary PATH] [--set examples|newcomer|hinted]
       (pip install open-spiel)

Two sets of scripts are measured: `examples/games/` (written with the primitives) and
`benches/newcomer/` (written as a newcomer writes them from the book: loops over cells, no
`native()`); a third, `benches/newcomer/hinted/`, holds some of the newcomer scripts with the
advice of `boardrules profile` taken. For each game, `boardrules bench SCRIPT --script-only --json` plays uniformly
random games through the script (no native form), and OpenSpiel plays uniformly random games
with its C++ game loop (`pyspiel.evaluate_bots` with two uniform random bots). Both sides are
timed in wall-clock and in CPU seconds; on a loaded machine compare the CPU rates. Each set
ends with the geometric mean of its ratios. A script that is missing is skipped.
"""

import argparse
import json
import math
import os
import subprocess
import time

import pyspiel

# Our script's name -> OpenSpiel's game.
GAMES = {
    "connect_four": "connect_four",
    "othello": "othello",
    "breakthrough": "breakthrough",
    "kalah": "mancala",
    "tic_tac_toe": "tic_tac_toe",
    "hex": "hex",
    "checkers": "checkers",
    "dots_and_boxes": "dots_and_boxes",
}

# The folders of the two sets of scripts, and each set's goal (a ratio to OpenSpiel's CPU rate):
# the example games a tenth of OpenSpiel each; the newcomer scripts 0.15 on geo-mean (issue 33).
# `hinted`: newcomer scripts with the advice of `boardrules profile` taken (what it is worth).
SETS = {"examples": ("examples/games", 0.1), "newcomer": ("benches/newcomer", 0.15),
        "hinted": ("benches/newcomer/hinted", 0.15)}


def ours(binary, script, seconds):
    """Playouts per wall and per CPU second of the script, through `boardrules bench --json`."""
    out = subprocess.run(
        [binary, "bench", script, "--script-only", "--seconds", str(seconds), "--json"],
        capture_output=True, text=True, check=True,
    )
    side = json.loads(out.stdout)["scripted"]
    return side["playouts"] / side["seconds"], side["playouts"] / side["cpu_seconds"]


def openspiel(name, seconds):
    """Playouts per wall and per CPU second of OpenSpiel's C++ random game loop."""
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(game.num_players())]
    wall, cpu = time.perf_counter(), time.process_time()
    playouts = 0
    while playouts == 0 or time.perf_counter() - wall < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, playouts)
        playouts += 1
    return (playouts / (time.perf_counter() - wall), playouts / (time.process_time() - cpu))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each side of each game")
    parser.add_argument("--binary", default="target/release/boardrules")
    parser.add_argument("--set", choices=sorted(SETS), action="append",
                        help="only this set of scripts (both by default)")
    args = parser.parse_args()
    sets = args.set or list(SETS)
    print(f"load: {os.getloadavg()[0]:.1f} (1 min)")
    print(f"{'set':<10}{'game':<14}{'boardrules/s':>14}{'OpenSpiel/s':>14}{'ratio':>8}"
          f"{'(wall: ours':>14}{'OpenSpiel':>11}{'ratio)':>8}")
    ratios = {name: [] for name in sets}
    for ours_name, spiel_name in GAMES.items():
        scripts = [(s, f"{SETS[s][0]}/{ours_name}.rhai") for s in sets]
        scripts = [(s, path) for s, path in scripts if os.path.exists(path)]
        if not scripts:
            continue
        spiel_wall, spiel_cpu = openspiel(spiel_name, args.seconds)
        for set_name, script in scripts:
            ours_wall, ours_cpu = ours(args.binary, script, args.seconds)
            ratio = ours_cpu / spiel_cpu
            ratios[set_name].append(ratio)
            print(f"{set_name:<10}{ours_name:<14}{ours_cpu:>14.0f}{spiel_cpu:>14.0f}{ratio:>8.3f}"
                  f"{ours_wall:>14.0f}{spiel_wall:>11.0f}{ours_wall / spiel_wall:>8.3f}")
    for set_name, found in ratios.items():
        if found:
            geo = math.prod(found) ** (1 / len(found))
            goal = SETS[set_name][1]
            print(f"{set_name}: geo-mean ratio {geo:.3f} over {len(found)} games, lowest "
                  f"{min(found):.3f} (goal {goal}: {'met' if geo >= goal else 'not met'})")
    print("rates are random playouts per CPU second (per wall-clock second in brackets)")


if __name__ == "__main__":
    main()
