#!/bin/sh
# Makes the ICC profiles the colour tests convert photos to (committed; re-run to re-make them).
# Needs a C compiler and liblcms2-dev (Scripts/bootstrap installs it).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/mkprofiles" mkprofiles.c -llcms2 -lm
"$tmp/mkprofiles"
ls -l *.icc
