#!/bin/sh
# A misbehaving bot for testing referees: it crashes with a message on stderr.
echo "crash_bot: out of cheese" >&2
exit 3
