#!/bin/sh
# tally FILE: the words, lines and bytes of FILE.
exec wc -w -l -c "$1"
