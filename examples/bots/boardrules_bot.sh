#!/bin/sh
# The one-line wrapper a student hands to the class referee: boardrules as a five-step bot.
# The referee names its own boardrules in $BOARDRULES_BIN; otherwise `boardrules` on the PATH.
exec "${BOARDRULES_BIN:-boardrules}" bot five_step "$@"
