#!/usr/bin/env bash
# Callgrind instruction counts of random playouts through the script (no native form): the
# figure of record for the walker's speed (the same count every run, unlike timings).
#
#   benches/callgrind.sh BINARY OUTFILE [NAME …]
#
# Run from the repository's root. Each NAME plays `BINARY bench SCRIPT --playouts N --seed 1
# --script-only` under valgrind and adds a line "NAME instructions" to OUTFILE (and prints it):
#   othello hex checkers dots ttt ttt_closures c4 c4_closures c4_pointers bt kalah
#                      benches/newcomer/*.rhai (othello 4 playouts, hex/checkers/dots 10,
#                      ttt* 200, the others 20)
#   ex_GAME            examples/games/GAME.rhai, 20 playouts
#   caro               rules/caro.rhai, 3 playouts
# Without NAMEs: every newcomer script and caro. Compare two binaries with `join A B`.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
BIN=$1
OUT=$2
shift 2
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(othello hex checkers dots ttt ttt_closures c4 c4_closures c4_pointers bt kalah caro)
: > "$OUT"
for name in "${names[@]}"; do
    case $name in
        othello) script=benches/newcomer/othello.rhai; playouts=4 ;;
        hex) script=benches/newcomer/hex.rhai; playouts=10 ;;
        checkers) script=benches/newcomer/checkers.rhai; playouts=10 ;;
        dots) script=benches/newcomer/dots_and_boxes.rhai; playouts=10 ;;
        ttt) script=benches/newcomer/tic_tac_toe.rhai; playouts=200 ;;
        ttt_closures) script=benches/newcomer/tic_tac_toe_closures.rhai; playouts=200 ;;
        c4) script=benches/newcomer/connect_four.rhai; playouts=20 ;;
        c4_closures) script=benches/newcomer/connect_four_closures.rhai; playouts=20 ;;
        c4_pointers) script=benches/newcomer/connect_four_pointers.rhai; playouts=20 ;;
        bt) script=benches/newcomer/breakthrough.rhai; playouts=20 ;;
        kalah) script=benches/newcomer/kalah.rhai; playouts=20 ;;
        caro) script=rules/caro.rhai; playouts=3 ;;
        ex_*) script=examples/games/${name#ex_}.rhai; playouts=20 ;;
        *) echo "unknown name: $name" >&2; exit 2 ;;
    esac
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$BIN" bench "$script" --playouts "$playouts" --seed 1 --script-only > /dev/null 2>&1
    echo "$name $(awk '/^summary:/ { print $2; exit }' "$out")" | tee -a "$OUT"
    rm -f "$out"
done
