#!/usr/bin/env python3
"""Checks rules/renju.rhai against Piskvork's renju judge, move by move.

Usage: tests/renju_piskvork.py [GAMES] [BINARY]   (pip install renju)

The PyPI package `renju` carries a port of the judge of Piskvork, the Gomocup manager
(`renju.check_forbid.get_foul_type`): an implementation written apart from ours. Random games are
played with it (moves near the stones, so threes and fours are common; Black never plays a point
the judge forbids); each is replayed through `boardrules run renju --json`, and after every move
the legal moves (Black: the empty cells the judge allows; White: every empty cell) and the result
must agree.
"""

import json
import random
import subprocess
import sys

from renju.check_forbid import get_foul_type

N = 15
LETTERS = "abcdefghijklmno"


def text(x, y):
    """Our notation: the row counted from the bottom, then the column letter."""
    return f"{N - y}{LETTERS[x]}"


def five(board, x, y):
    """Whether the stone just put at (x, y) wins: White five or more, Black exactly five."""
    who = board[x][y]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            i, j = x + sign * dx, y + sign * dy
            while 0 <= i < N and 0 <= j < N and board[i][j] == who:
                n += 1
                i, j = i + sign * dx, j + sign * dy
        if n == 5 or (n > 5 and who == 2):
            return True
    return False


def legal(board, black):
    empty = [(x, y) for x in range(N) for y in range(N) if board[x][y] == 0]
    if not black:
        return set(empty)
    return {(x, y) for (x, y) in empty if get_foul_type(board, x, y) == 0}


def near(board, moves):
    """Empty cells within two of a stone (the centre to begin with)."""
    if not moves:
        return {(7, 7)}
    cells = set()
    for (x, y) in moves:
        for i in range(x - 2, x + 3):
            for j in range(y - 2, y + 3):
                if 0 <= i < N and 0 <= j < N and board[i][j] == 0:
                    cells.add((i, j))
    return cells


def play_game(rng):
    """A random game: its moves, and after each ply (and at the start) the legal set and result."""
    board = [[0] * N for _ in range(N)]
    moves, expected = [], []
    result = None
    for ply in range(120):
        black = ply % 2 == 0
        allowed = legal(board, black)
        expected.append((allowed, result))
        if result is not None:
            break
        choices = sorted(near(board, moves) & allowed) or sorted(allowed)
        if not choices:
            result = "draw"
            break
        x, y = rng.choice(choices)
        board[x][y] = 1 if black else 2
        moves.append((x, y))
        if five(board, x, y):
            result = "Black wins" if black else "White wins"
            expected.append((set(), result))
            break
    return moves, expected[: len(moves) + 1]


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/boardrules"
    rng = random.Random(98)
    plies = 0
    fouls_seen = 0
    for game in range(games):
        moves, expected = play_game(rng)
        out = subprocess.run(
            [binary, "run", "renju", "--json"] + [text(x, y) for (x, y) in moves],
            capture_output=True, text=True, check=True,
        ).stdout.splitlines()
        for ply, (line, (allowed, result)) in enumerate(zip(out, expected)):
            state = json.loads(line)
            ours = set(state["moves"])
            theirs = {text(x, y) for (x, y) in allowed} if result is None else set()
            if ply % 2 == 0 and result is None:
                fouls_seen += (N * N - ply) - len(theirs)
            if ours != theirs or state["result"] != result:
                print(f"game {game} ply {ply}: moves {' '.join(text(x, y) for x, y in moves[:ply])}")
                print(f"  only ours: {sorted(ours - theirs)}  only the judge's: {sorted(theirs - ours)}")
                print(f"  result: ours {state['result']}, the judge's {result}")
                sys.exit(1)
            plies += 1
    print(f"renju: {games} games, {plies} positions agree with Piskvork's judge "
          f"({fouls_seen} forbidden points for Black met)")


if __name__ == "__main__":
    main()
