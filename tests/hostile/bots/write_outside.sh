#!/bin/sh
# Tries to write outside its own folder (where the opponent's folder is): with Landlock it may
# not. It plays 'escaped' (an illegal move) if the write worked, a legal move if it was stopped.
if echo cheat > ../hostile-bot-was-here 2>/dev/null; then
  rm -f ../hostile-bot-was-here
  echo escaped > play.txt
else
  echo "0 0 0 1" > play.txt
fi
