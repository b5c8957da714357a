#!/bin/sh
# A predictable bot for testing referees and tournaments: it always plays the first legal move.
#   first_bot.sh [GAME] OPPONENT_ID ME C1 … CN     (writes its move to play.txt)
# GAME (default five_step) is a game name or script. Like random_bot.sh, it asks boardrules:
# $BOARDRULES, else $BOARDRULES_BIN (which the referee sets), else `boardrules` on the PATH.
case "$1" in
  *[!0-9]*) game=$1; shift ;;
  *) game=five_step ;;
esac
me=$2
shift 2
"${BOARDRULES:-${BOARDRULES_BIN:-boardrules}}" moves "$game" --to-move "$me" --cells "$*" \
  | head -n 1 > play.txt
