#!/usr/bin/env python3
"""Variants of every shape against their base: random playouts a CPU second.

For each variant (one file per shape in benches/variants/, and the shipped renju and gomoku),
runs back to back `boardrules bench VARIANT --json`, `boardrules bench BASE --json` (the base
through its native form) and `boardrules bench BASE --json --script-only` (the base through its
script), each for --seconds, and prints the variant's rate, its ratio to its base's native rate
and to its base through the script, and the geo-mean of the first ratios. A variant that does
not keep a native form is marked "script".

    cargo build --release
    python3 benches/variants.py [--seconds 2] [--bin target/release/boardrules]
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (the variant, what changes, its base)
VARIANTS = [
    ("caro_h_closure", "column h, `.filter` with a closure", "caro"),
    ("caro_h_helper", "column h, `.filter(helper)`", "caro"),
    ("caro_h_helper_state", "middle column, a closure calling `helper(state, c)`", "caro"),
    ("caro_h_retain", "column h, `retain`", "caro"),
    ("caro_h_loop", "column h, loop and `push`", "caro"),
    ("caro_closed_h", "column h closed with `closed`", "caro"),
    ("caro_x_four", "X wins with four, `line_length`", "caro"),
    ("renju", "renju (a judge)", "caro"),
    ("gomoku", "freestyle (options)", "caro"),
    ("o_an_quan_no_lone", "no lone dân captured (a capture hook)", "o_an_quan"),
    ("oware_no_a", "no sowing from house A or a, `.filter`", "oware"),
    ("o_an_quan_right", "every move sows to the right, `.filter`", "o_an_quan"),
]


def bench(binary, game, seconds, script_only=False):
    """Playouts a CPU second of the scripted side, and whether it ran natively."""
    args = [binary, "bench", game, "--json", "--seconds", str(seconds)]
    if script_only:
        args.append("--script-only")
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    side = json.loads(out.stdout)["scripted"]
    return side["playouts"] / max(side["cpu_seconds"], 1e-9), side.get("native_form", False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="how long each side runs")
    parser.add_argument(
        "--bin",
        default=os.path.join(HERE, "..", "target", "release", "boardrules"),
        help="the boardrules binary",
    )
    args = parser.parse_args()
    print(
        "| variant | shape | playouts/CPU s | base native | ÷ base native "
        "| base script | × base script |"
    )
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for name, shape, base in VARIANTS:
        path = os.path.join(HERE, "variants", name + ".rhai")
        game = path if os.path.exists(path) else name
        rate, native = bench(args.bin, game, args.seconds)
        base_native, _ = bench(args.bin, base, args.seconds)
        base_script, _ = bench(args.bin, base, args.seconds, script_only=True)
        ratio = rate / base_native
        ratios.append(ratio)
        how = "" if native else " (script)"
        print(
            f"| {name}{how} | {shape} | {rate:,.0f} | {base_native:,.0f} | 1/{1 / ratio:.1f} "
            f"| {base_script:,.0f} | {rate / base_script:.1f} |",
            flush=True,
        )
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\ngeo-mean of the ratios to the base's native rate: 1/{1 / geo:.2f}")


if __name__ == "__main__":
    sys.exit(main())
