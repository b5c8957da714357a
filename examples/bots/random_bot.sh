#!/bin/sh
# A bot that plays a random legal move, by the class protocol:
#   random_bot.sh [GAME] OPPONENT_ID ME C1 … CN     (writes its move to play.txt)
# GAME (default five_step) is a game name or script; the referee runs it as, e.g.,
# `--p2 'examples/bots/random_bot.sh caro'`. It asks boardrules for the legal moves:
# $BOARDRULES, else $BOARDRULES_BIN (which the referee sets), else `boardrules` on the PATH.
case "$1" in
  *[!0-9]*) game=$1; shift ;;
  *) game=five_step ;;
esac
me=$2
shift 2
"${BOARDRULES:-${BOARDRULES_BIN:-boardrules}}" moves "$game" --to-move "$me" --cells "$*" \
  | shuf -n 1 > play.txt
