#!/usr/bin/env bash
# Matches of boardrules' Gomocup brain against Rapfi under the c-gomoku-cli manager, as issue
# #29 asks: time forfeits, ERROR replies, illegal moves and crashes counted from the logs.
# Not run by CI (it needs the two tools, built from their sources, and minutes per match).
#
#   benches/gomocup/match.sh build            # build the tools into $TOOLS (once)
#   benches/gomocup/match.sh run NAME [ARGS]  # play a match into $TOOLS/results/NAME
#   benches/gomocup/match.sh summary DIR      # count results and problems of a match
#
# Environment (defaults in brackets):
#   TOOLS       where the tools and results go                               [/work/tools]
#   RAPFI_SRC   a checkout of github.com/dhbloo/rapfi (or a git dir of it)     [$TOOLS/rapfi-src]
#   CLI_SRC     a checkout of github.com/nkg114mc/c-gomoku-cli (or a git dir)  [$TOOLS/cgc-src]
#   BRAIN       the boardrules binary to play            [target/release/boardrules of this checkout]
#   RULE        Gomocup rule: 0 freestyle, 1 exactly five, 4 renju                          [0]
#   GAMES       games (colours alternate)                                                 [100]
#   TC          c-gomoku-cli's time control: MATCH/TURN in seconds, per engine and game  [10/5]
#   RAPFI_OPTS  extra engine options for the opponent: nodes=10000, depth=1, …             []
#   OURS_OPTS   extra engine options for boardrules, e.g. nodes=60000 (sent as INFO max_node:
#               with both sides bounded by positions, a match is the same on any load)    []
#   OPENINGS    an openings file (offset notation, e.g. benches/gomocup/openings15.txt):
#               each opening is played twice, colours swapped; GAMES counts both        []
#   OPPONENT    another brain to play instead of Rapfi (named "opponent"), e.g. a second copy
#               of ours for long games that test the clock                                 []
#
# Examples (the issue's goals):
#   benches/gomocup/match.sh run free100                              # 0 forfeits, 0 ERROR
#   RULE=4 GAMES=20 benches/gomocup/match.sh run renju20
#   GAMES=10 RAPFI_OPTS=nodes=10000 benches/gomocup/match.sh run free-10k   # >= 3/10 wanted
#   RULE=4 GAMES=10 RAPFI_OPTS=depth=1 benches/gomocup/match.sh run renju-d1  # >= 5/10 wanted
#   GAMES=40 RAPFI_OPTS=nodes=10000 OURS_OPTS=nodes=60000 TC=1000/30 \
#       OPENINGS=benches/gomocup/openings15.txt benches/gomocup/match.sh run free-by-nodes
#                                        # two versions of ours compared, whatever the load
#
# Rapfi plays with its classical evaluation: with no config.toml beside the binary it loads the
# internal config built into it, which needs no network file.
set -euo pipefail

TOOLS=${TOOLS:-/work/tools}
RAPFI_SRC=${RAPFI_SRC:-$TOOLS/rapfi-src}
CLI_SRC=${CLI_SRC:-$TOOLS/cgc-src}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
BRAIN=${BRAIN:-$HERE/target/release/boardrules}
RULE=${RULE:-0}
GAMES=${GAMES:-100}
TC=${TC:-10/5}
RAPFI_OPTS=${RAPFI_OPTS:-}
OPPONENT=${OPPONENT:-}
OURS_OPTS=${OURS_OPTS:-}
OPENINGS=${OPENINGS:-}

# A source tree from DIR: DIR itself, or (a bare git directory) its HEAD unpacked beside it.
tree_of() {
    local dir=$1 out=$2
    if [ -d "$dir/.git" ] || [ ! -e "$dir/HEAD" ]; then
        echo "$dir"
    else
        mkdir -p "$out" && git --git-dir="$dir" archive HEAD | tar -x -C "$out"
        echo "$out"
    fi
}

build() {
    mkdir -p "$TOOLS/bin" "$TOOLS/engines/rapfi" "$TOOLS/results"
    command -v cmake >/dev/null || pip install cmake
    local rapfi cli
    rapfi=$(tree_of "$RAPFI_SRC" "$TOOLS/rapfi-tree")
    cli=$(tree_of "$CLI_SRC" "$TOOLS/cgc-tree")
    # Rapfi without the training/database command modules; AVX-512 off for older machines.
    cmake -S "$rapfi/Rapfi" -B "$TOOLS/rapfi-build" -DCMAKE_BUILD_TYPE=Release \
        -DNO_COMMAND_MODULES=ON -DUSE_AVX512=OFF -DUSE_VNNI=OFF
    make -C "$TOOLS/rapfi-build" -j2
    cp "$TOOLS/rapfi-build/pbrain-rapfi" "$TOOLS/engines/rapfi/"
    # g++ 12 needs the extra flags for c-gomoku-cli's 2021 sources.
    CXXFLAGS="-fpermissive -include cstring -include cstdint" make -C "$cli/src"
    cp "$cli/src/c-gomoku-cli" "$TOOLS/bin/"
}

run() {
    local name=$1
    shift
    local dir=$TOOLS/results/$name
    mkdir -p "$dir" "$dir/brain"
    # Started as a manager starts a brain: a binary named pbrain-…, no arguments.
    cp "$BRAIN" "$dir/brain/pbrain-boardrules"
    local opponent=(name=rapfi cmd="$TOOLS/engines/rapfi/pbrain-rapfi")
    if [ -n "$OPPONENT" ]; then
        mkdir -p "$dir/opponent" && cp "$OPPONENT" "$dir/opponent/pbrain-opponent"
        opponent=(name=opponent cmd="$dir/opponent/pbrain-opponent")
    fi
    local openings=()
    if [ -n "$OPENINGS" ]; then
        openings=(-openings file="$(realpath "$OPENINGS")" type=offset order=sequential -repeat)
    fi
    cd "$dir"
    # shellcheck disable=SC2086 # RAPFI_OPTS and OURS_OPTS are lists of engine options
    "$TOOLS/bin/c-gomoku-cli" -each tc="$TC" \
        -engine name=boardrules cmd="$dir/brain/pbrain-boardrules" $OURS_OPTS \
        -engine "${opponent[@]}" $RAPFI_OPTS "${openings[@]}" \
        -rule "$RULE" -boardsize 15 -games "$GAMES" -concurrency 1 -drawafter 225 \
        -pgn "$name.pgn" -sgf "$name.sgf" -msg "$name.txt" -debug "$@" >stdout.txt 2>&1 || true
    summary "$dir"
}

summary() {
    local dir=$1
    local log=$dir/c-gomoku-cli.1.log
    echo "== $dir"
    grep -h '^Score of' "$dir/stdout.txt" | tail -1 || true
    echo "how games ended:"
    grep -h '^\[1\] Finished game' "$dir/stdout.txt" | sed 's/.*{//; s/}.*//' | sort | uniq -c || true
    echo "ERROR replies of boardrules: $(grep -c "boardrules -> ERROR" "$log" || true)"
    echo "ERROR replies of the opponent: $(grep -Ec "(opponent|rapfi) -> ERROR" "$log" || true)"
    echo "time forfeits:  $(grep -c 'timeout at' "$dir/stdout.txt" || true)"
    echo "illegal moves:  $(grep -c 'illegal move' "$dir/stdout.txt" || true)"
    echo "crashes:        $(grep -Ec 'crashed|terminated' "$dir/stdout.txt" || true)"
    echo "smallest time_left given to boardrules (ms): $(grep 'boardrules <- INFO time_left' "$log" |
        awk '{print $NF}' | sort -n | head -1)"
    # A move's time is the fall of time_left from one move to the next (the game's last move of
    # ours is not seen).
    awk '/boardrules <- START/ { prev = -1 }
         /boardrules <- INFO time_left/ {
             n = $NF; if (prev >= 0) { d = prev - n; sum += d; count++; if (d > most) most = d }
             prev = n }
         END { if (count) printf "boardrules time a move: mean %.0f ms, most %d ms (%d moves)\n",
             sum / count, most, count }' "$log"
}

case ${1:-} in
build) build ;;
run) shift && run "$@" ;;
summary) summary "$2" ;;
*) sed -n '2,34p' "$0" && exit 2 ;;
esac
