#!/bin/sh
# A five-step bot that plays a random legal move, by the class protocol:
#   random_bot.sh OPPONENT_ID ME C1 … C25     (writes its path to play.txt)
# It asks boardrules for the legal moves ($BOARDRULES, default `boardrules` on the PATH).
me=$2
shift 2
"${BOARDRULES:-boardrules}" moves five_step --to-move "$me" --position "$*" | shuf -n 1 > play.txt
