#!/usr/bin/env python3
"""Positions where Rapfi announced a win, from the games the brain lost (issue #29).

    benches/gomocup/mates.py RESULTS_DIR [PER_GAME] > positions.txt

For each game of RESULTS_DIR/NAME.sgf the brain lost, the positions before Rapfi's first
PER_GAME (default 3) moves whose MESSAGE (NAME.txt, the manager's -msg file) announces a mate
(`Eval +M…`): one line each, `GAME PLY EVAL | x,y,p x,y,p …`, player 1 being Rapfi, to move.
The search by continuous threats reads them (see docs/src/computer.md):

    VCT_POSITIONS=positions.txt VCT_NODES=50000 cargo test --release --lib -- \
        --ignored continuous_threats_of_the_positions_in_a_file --nocapture
"""
import re
import sys

from losses import lost_games


def main():
    results = sys.argv[1].rstrip('/')
    per_game = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for number, game, _, evals in lost_games(results):
        moves = re.findall(r';([BW])\[([a-o])([a-o])\]', game)
        mates = sorted(p for p, e in evals.items() if e.startswith('+M'))
        for ply in mates[:per_game]:
            rapfi = moves[ply - 1][0]
            stones = ' '.join(f'{ord(x) - 97},{ord(y) - 97},{1 if c == rapfi else 2}'
                              for c, x, y in moves[:ply - 1])
            print(f'{number} {ply} {evals[ply]} | {stones}')


if __name__ == '__main__':
    main()
