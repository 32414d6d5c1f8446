#!/usr/bin/env bash
# backup.sh SRC DEST: copy every regular file under SRC into DEST, keeping the folder layout, and print
# how many files it copied.
set -eu
src=$1
dest=$2
count=0
for f in $(cd $src && find . -type f); do
  mkdir -p $dest/$(dirname $f)
  cp $src/$f $dest/$f
  count=$((count + 1))
done
echo "copied $count files"
