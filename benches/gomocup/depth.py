#!/usr/bin/env python3
"""How deep the Gomocup brain searches under renju (INFO rule 4) and freestyle (INFO rule 0) at
the same clock, on the same midgame positions (issue #33: "under Gomocup rule 4 it searches as
deep as freestyle does at the same clock").

    python3 benches/gomocup/depth.py                       # the table, 500 ms a move
    python3 benches/gomocup/depth.py --turn-ms 250 --rounds 3
    python3 benches/gomocup/depth.py --make-positions > benches/gomocup/midgame15.txt

For each position of benches/gomocup/midgame15.txt (moves as x,y from the start, Black first)
it sends one brain per rule `BOARD` with those stones and reads the reply's `MESSAGE`: the depth
("looked N moves ahead") and the positions looked at. The brains' CPU time is read from /proc
around each reply, so positions a CPU second do not depend on the machine's load; the depth at a
fixed clock does (the two rules take turns on each position, so both see the same load). A reply
that wins or blocks at once says no depth: the averages are over the positions where both rules
give one. The CPU time of a reply includes BOARD's set-up (the brain starts a game and plays the
stones, each checked by the verified native form and played by the script: 3.6 M instructions
for 23 stones under freestyle, 7.3 M under renju, a few milliseconds), so positions a CPU second
are a little low for both.
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
POSITIONS = os.path.join(HERE, "midgame15.txt")
DEPTH = re.compile(r"looked (\d+) moves? ahead")  # "1 move", "2 moves"
NODES = re.compile(r"(\d+) positions looked at")


class Brain:
    """A `boardrules gomocup caro` process playing `rule`."""

    def __init__(self, binary, rule, turn_ms):
        self.proc = subprocess.Popen(
            [binary, "gomocup", "caro"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send(f"INFO rule {rule}", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0")
        self.send("START 15")
        self.expect_ok()

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect_ok(self):
        line = self.proc.stdout.readline().strip()
        if line != "OK":
            sys.exit(f"the brain said {line!r} to START")

    def cpu(self):
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def reply(self, moves):
        """Searches the position after `moves`; (move, message, CPU seconds of the reply)."""
        mine = len(moves) % 2  # the brain moves next: its stones are those of its colour
        board = [f"{x},{y},{1 if i % 2 == mine else 2}" for i, (x, y) in enumerate(moves)]
        self.send("BOARD", *board)
        # BOARD starts a game (verifying the native form first): wait for that before timing.
        time.sleep(0.05)
        before, message = None, ""
        self.send("DONE")
        before = self.cpu()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the brain stopped")
            line = line.strip()
            if line.startswith("MESSAGE "):
                message = line[8:]
            elif line.startswith("ERROR"):
                sys.exit(f"the brain said {line!r} to {moves}")
            elif re.fullmatch(r"\d+,\d+", line):
                return line, message, self.cpu() - before

    def close(self):
        self.send("END")
        self.proc.wait(timeout=10)


def read_positions(path):
    positions = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            positions.append([tuple(map(int, m.split(","))) for m in line.split()])
    return positions


def make_positions(binary, turn_ms):
    """Positions from renju games the brain plays against itself from the first openings of
    openings15.txt, after 11, 14, 17, 20 and 23 moves (games that end before are cut short)."""
    brain = Brain(binary, 4, turn_ms)
    print("# Midgame positions for depth.py: moves x,y from the start, Black first (renju")
    print(f"# self-play of the brain at {turn_ms} ms a move from openings15.txt).")
    for opening in open(os.path.join(HERE, "openings15.txt")).readlines()[:6]:
        nums = [int(n) for n in opening.replace(",", " ").split()]
        moves = [(7 + nums[i], 7 + nums[i + 1]) for i in range(0, len(nums), 2)]
        while len(moves) < 24:
            mv, message, _ = brain.reply(moves)
            if "wins" in message:
                break
            moves.append(tuple(map(int, mv.split(","))))
            if len(moves) in (11, 14, 17, 20, 23):
                print(" ".join(f"{x},{y}" for x, y in moves))
                sys.stdout.flush()
    brain.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/boardrules"))
    ap.add_argument("--turn-ms", type=int, default=500, help="INFO timeout_turn (ms)")
    ap.add_argument("--rounds", type=int, default=1, help="times each position is searched")
    ap.add_argument("--positions", default=POSITIONS)
    ap.add_argument("--make-positions", action="store_true")
    args = ap.parse_args()
    if args.make_positions:
        make_positions(args.binary, args.turn_ms)
        return
    rules = {"freestyle": 0, "renju": 4}
    brains = {name: Brain(args.binary, rule, args.turn_ms) for name, rule in rules.items()}
    totals = {name: [0, 0, 0.0, 0] for name in rules}  # depth sum, nodes, cpu, searches
    # (over the positions where both rules searched: a win or block at once says no depth)
    print(f"{'position':>9} {'to move':>7} | {'freestyle depth':>15} {'nodes':>7} | {'renju depth':>11} {'nodes':>7}")
    for number, moves in enumerate(read_positions(args.positions)):
        for _ in range(args.rounds):
            row, seen = [], {}
            for name, brain in brains.items():
                _, message, cpu = brain.reply(moves)
                depth, nodes = DEPTH.search(message), NODES.search(message)
                if depth and nodes:
                    seen[name] = (int(depth[1]), int(nodes[1]), cpu)
                    row.append((depth[1], nodes[1]))
                else:
                    row.append(("-", "-"))
            if len(seen) == len(brains):
                for name, (depth, nodes, cpu) in seen.items():
                    t = totals[name]
                    t[0] += depth
                    t[1] += nodes
                    t[2] += cpu
                    t[3] += 1
            mover = "Black" if len(moves) % 2 == 0 else "White"
            print(f"{number:>9} {mover:>7} | {row[0][0]:>15} {row[0][1]:>7} | {row[1][0]:>11} {row[1][1]:>7}")
    for brain in brains.values():
        brain.close()
    print()
    for name, (depth, nodes, cpu, n) in totals.items():
        if n:
            print(f"{name:>9}: mean depth {depth / n:.2f}, {nodes / n:.0f} positions a search, "
                  f"{nodes / max(cpu, 1e-9):.0f} positions a CPU second ({n} searches)")
    f, r = totals["freestyle"], totals["renju"]
    if f[3] and r[3]:
        print(f"renju/freestyle: depth {r[0] / r[3] / (f[0] / f[3]):.2f}, "
              f"positions a CPU second {(r[1] / r[2]) / (f[1] / f[2]):.2f}")


if __name__ == "__main__":
    main()
