#!/usr/bin/env python3
"""Cross-checks rules/oware.rhai against OpenSpiel's oware (pip install open-spiel).

Plays random games in pyspiel, replays each through `boardrules run oware --json`, and compares
the board after every ply, the legal moves before it, and the final returns.
Usage: tests/oware_openspiel.py [GAMES] [BOARDRULES_BINARY]
"""
import json
import random
import subprocess
import sys

import pyspiel

games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/boardrules"
game = pyspiel.load_game("oware")
for seed in range(games):
    rng = random.Random(seed)
    state = game.new_initial_state()
    boards, moves, legal = [str(state).rstrip("\n")], [], []
    while not state.is_terminal():
        p = state.current_player()
        legal.append(sorted(state.action_to_string(p, a) for a in state.legal_actions()))
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(p, action))
        state.apply_action(action)
        boards.append(str(state).rstrip("\n"))
    out = subprocess.run([binary, "run", "oware", "--json", *moves], capture_output=True, text=True, check=True)
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    assert len(lines) == len(boards), f"seed {seed}: {len(lines)} states, pyspiel has {len(boards)}"
    for ply, (ours, theirs) in enumerate(zip(lines, boards)):
        assert ours["state"] == theirs, f"seed {seed} ply {ply}:\n{ours['state']}\n--- pyspiel:\n{theirs}"
    for ply in range(0, len(moves), 7):  # legal moves at every 7th ply (one process each)
        out = subprocess.run([binary, "moves", "oware", *moves[:ply]], capture_output=True, text=True, check=True)
        assert sorted(out.stdout.split()) == legal[ply], f"seed {seed} ply {ply}: {out.stdout.split()} vs {legal[ply]}"
    r = state.returns()
    want = "draw" if r[0] == r[1] else f"Player {0 if r[0] > r[1] else 1} wins"
    assert lines[-1]["result"] == want, f"seed {seed}: {lines[-1]['result']} vs {want}"
print(f"{games} random games agree with OpenSpiel ply by ply")
