#!/bin/sh
# A misbehaving bot for testing referees: it thinks for 5 seconds (the limit is 1).
sleep 5
echo "0 0 0 1" > play.txt
