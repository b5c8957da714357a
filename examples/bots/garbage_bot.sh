#!/bin/sh
# A misbehaving bot for testing referees: it writes something that is not a move.
echo "hello referee" > play.txt
