#!/bin/sh
# Plays a legal first move of five_step, but first leaves a process behind in a new session
# (setsid: out of the bot's process group), which would outlive the bot. $1 is the opponent's
# id, $2 this bot's player number; HOSTILE_TOKEN makes the leftover process easy to find.
setsid sh -c "sleep ${HOSTILE_TOKEN:-7.77}" </dev/null >/dev/null 2>&1 &
echo "0 0 0 1" > play.txt
