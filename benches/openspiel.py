#!/usr/bin/env python3
"""Random playouts per second: the example game scripts in boardrules vs OpenSpiel's C++.

Usage: benches/openspiel.py [--seconds S] [--binary PATH]   (pip install open-spiel)

For each game, `boardrules bench examples/games/NAME.rhai --script-only --json` plays uniformly
random games through the script (no native form), and OpenSpiel plays uniformly random games
with its C++ game loop (`pyspiel.evaluate_bots` with two uniform random bots). Both sides are
timed in wall-clock and in CPU seconds; on a loaded machine compare the CPU rates. A script that
is missing (`examples/games/kalah.rhai`, say) is skipped.
"""

import argparse
import json
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
}

# The goal: each game at least a tenth of OpenSpiel's speed.
GOAL = 0.1


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
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.1f} (1 min)")
    print(f"{'game':<14}{'boardrules/s':>14}{'OpenSpiel/s':>14}{'ratio':>8}"
          f"{'(wall: ours':>14}{'OpenSpiel':>11}{'ratio)':>8}  goal {GOAL}")
    for ours_name, spiel_name in GAMES.items():
        script = f"examples/games/{ours_name}.rhai"
        if not os.path.exists(script):
            print(f"{ours_name:<14}skipped: no {script}")
            continue
        ours_wall, ours_cpu = ours(args.binary, script, args.seconds)
        spiel_wall, spiel_cpu = openspiel(spiel_name, args.seconds)
        ratio = ours_cpu / spiel_cpu
        print(f"{ours_name:<14}{ours_cpu:>14.0f}{spiel_cpu:>14.0f}{ratio:>8.3f}"
              f"{ours_wall:>14.0f}{spiel_wall:>11.0f}{ours_wall / spiel_wall:>8.3f}"
              f"  {'met' if ratio >= GOAL else 'not met'}")
    print("rates are random playouts per CPU second (per wall-clock second in brackets)")


if __name__ == "__main__":
    main()
