#!/bin/sh
# Writes a 6 GB sparse play.txt: a referee that reads it whole runs out of memory.
truncate -s 6G play.txt
