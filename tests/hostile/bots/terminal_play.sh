#!/bin/sh
# Writes a play.txt that tries to clear the screen and set the window title when echoed.
printf '\033[2J\033]0;owned\007 9z\n' > play.txt
