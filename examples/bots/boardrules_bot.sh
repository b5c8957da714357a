#!/bin/sh
# The one-line wrapper a student hands to the class referee: boardrules as a five-step bot.
exec boardrules bot five_step "$@"
