#!/usr/bin/env python3
"""Which of the brain's moves lost its games of a match, as Rapfi judges them (issue #29; see
docs/src/computer.md).

    benches/gomocup/blame.py RESULTS_DIR [NODES] [COLOUR]

For each game of RESULTS_DIR/NAME.sgf the brain lost (with COLOUR only, B or W, if given), up
to Rapfi's first announced mate: each move of ours, with Rapfi's best move and value before
it and the value our move left (Rapfi at NODES nodes, default 100 000, from the side to
move; `+M11`: a mate in 11) — `loss` is how much our move gave away. Rapfi is
$TOOLS/engines/rapfi/pbrain-rapfi (TOOLS defaults to /work/tools), as match.sh builds it.
"""
import os
import re
import subprocess
import sys

from losses import lost_games

RAPFI = os.path.join(os.environ.get('TOOLS', '/work/tools'), 'engines/rapfi/pbrain-rapfi')


def ask(stones, nodes):
    """Rapfi's move and value for `stones` (x, y, 1 for the side to move's, 2 for the other's)."""
    rapfi = subprocess.Popen([RAPFI], cwd=os.path.dirname(RAPFI), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    lines = ['START 15', 'INFO rule 0', f'INFO max_node {nodes}', 'INFO timeout_turn 600000',
             'INFO timeout_match 100000000', 'INFO time_left 100000000', 'BOARD']
    lines += [f'{x},{y},{p}' for x, y, p in stones] + ['DONE']
    rapfi.stdin.write('\n'.join(lines) + '\n')
    rapfi.stdin.flush()
    value, move = None, None
    # END only once the move is read: Rapfi stops thinking when it reads END.
    for line in rapfi.stdout:
        found = re.search(r'Eval (\S+)', line)
        value = found.group(1) if found else value
        if re.match(r'^\d+,\d+$', line.strip()):
            move = line.strip()
            break
    rapfi.stdin.write('END\n')
    rapfi.stdin.close()
    rapfi.wait()
    return move, value


def worth(value):
    """A value of Rapfi's as a number: a mate as 20 000 less its length."""
    if value is None or value == 'VAL_NONE':
        return 0
    if value[1:2] == 'M':
        return (20_000 - int(value[2:])) * (1 if value[0] == '+' else -1)
    return int(value)


def main():
    results = sys.argv[1].rstrip('/')
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    colour = sys.argv[3] if len(sys.argv) > 3 else None
    for number, game, ours, evals in lost_games(results):
        if colour and ours != colour:
            continue
        moves = re.findall(r';([BW])\[([a-o])([a-o])\]', game)
        mate = min((p for p, e in evals.items() if e.startswith('+M')), default=len(moves))
        for ply in range(4, mate):
            if moves[ply - 1][0] != ours:
                continue

            def stones(count, me):
                return [(ord(x) - 97, ord(y) - 97, 1 if c == me else 2)
                        for c, x, y in moves[:count]]
            best, before = ask(stones(ply - 1, ours), nodes)
            _, after = ask(stones(ply, 'W' if ours == 'B' else 'B'), nodes)
            _, x, y = moves[ply - 1]
            played = f'{ord(x) - 97},{ord(y) - 97}'
            print(f'game {number}, move {ply}: played {played}, Rapfi {best} ({before}); '
                  f'after ours {after} for them; loss {worth(before) + worth(after)}', flush=True)


if __name__ == '__main__':
    main()
