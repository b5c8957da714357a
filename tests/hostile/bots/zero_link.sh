#!/bin/sh
# Makes play.txt a symlink to /dev/zero: a referee that follows it reads without end.
ln -s /dev/zero play.txt
