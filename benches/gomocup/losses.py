#!/usr/bin/env python3
"""Where the brain's lost games of a match were lost (issue #29; see docs/src/computer.md).

    benches/gomocup/losses.py RESULTS_DIR [POSITIONS] [BRAIN]

For each game of RESULTS_DIR/NAME.sgf the brain lost: Rapfi's evaluation after each of its
moves (from NAME.txt, the manager's -msg file) up to the first announced mate, then, going back
one move of ours at a time from that mate, the brain's own search of each position with
POSITIONS (default 1 000 000) positions: its move, whether it is the move played, and why —
until a search no longer says the position is lost. BRAIN defaults to target/release/boardrules.
"""
import os
import re
import subprocess
import sys


def ask(brain, moves, ply, nodes):
    """The brain's line and MESSAGE for the position before move `ply` (1-based) of `moves`."""
    me = 'B' if (ply - 1) % 2 == 0 else 'W'
    lines = ['START 15', 'INFO rule 0', f'INFO max_node {nodes}', 'INFO timeout_turn 300000',
             'INFO timeout_match 2147483647', 'BOARD']
    for colour, x, y in moves[:ply - 1]:
        lines.append(f'{ord(x) - 97},{ord(y) - 97},{1 if colour == me else 2}')
    lines += ['DONE', 'END']
    out = subprocess.run([brain, 'gomocup', 'caro'], input='\n'.join(lines) + '\n',
                         capture_output=True, text=True).stdout.splitlines()
    message = next((line[8:] for line in out if line.startswith('MESSAGE')), '')
    return out[-1] if out else '', message


def lost_games(results):
    """The games of RESULTS_DIR/NAME.sgf the brain lost: `(number, sgf, our colour, Rapfi's
    evaluation by ply)`, the evaluations read from RESULTS_DIR/NAME.txt (the -msg file)."""
    name = os.path.basename(results)
    games = open(f'{results}/{name}.sgf').read().split('(;')[1:]
    texts = open(f'{results}/{name}.txt').read().split('Game ID: ')[1:]
    for number, (game, text) in enumerate(zip(games, texts), 1):
        ours = 'B' if re.search(r'PB\[(\w+)\]', game).group(1) == 'boardrules' else 'W'
        if re.search(r'RE\[(.)', game).group(1) == ours:
            continue
        evals = {int(m.group(1)): m.group(2)
                 for m in re.finditer(r'(\d+)\) rapfi: Speed .* Eval (\S+)', text)}
        yield number, game, ours, evals


def main():
    results = sys.argv[1].rstrip('/')
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    here = os.path.dirname(os.path.abspath(__file__))
    brain = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, '../../target/release/boardrules')
    for number, game, ours, evals in lost_games(results):
        mate = min((p for p, e in evals.items() if e.startswith('+M')), default=None)
        shown = ' '.join(f'{p}:{evals[p]}' for p in sorted(evals) if mate is None or p <= mate)
        print(f'game {number}, ours {ours}, Rapfi mates from move {mate}: {shown}')
        if mate is None:
            continue
        moves = re.findall(r';([BW])\[([a-o])([a-o])\]', game)
        for ply in range(mate - 1, 3, -2):
            move, message = ask(brain, moves, ply, nodes)
            colour, x, y = moves[ply - 1]
            played = f'{ord(x) - 97},{ord(y) - 97}'
            same = ' (the same)' if move == played else ''
            print(f'   move {ply}: played {played}; searched: {move}{same}: {message}')
            if 'wins' not in message:
                break


if __name__ == '__main__':
    main()
