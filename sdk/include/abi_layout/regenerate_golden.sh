#!/bin/bash
# Writes the golden layout tables (golden/<minor>.txt) of every released minor of the C ABI from
# the headers in git history, and of the current headers. Run by hand from the repository root
# when a minor is released (add its commit below); //sdk/include:abi_layout_test checks the
# tables. 0.0 never had headers of its own: its table is 0.1's headers with LAYOUT_MINOR=0 (the
# fields not marked "(0.1)").
#
#   sdk/include/abi_layout/regenerate_golden.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
here=sdk/include/abi_layout
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The last commit of each released minor (git log -G'BP_API_MINOR [0-9]' -- sdk/include).
declare -A release=([0.1]=cd1eabc [0.2]=00cac7f [0.3]=348b246 [0.4]=be083bf)

dump() {  # dump <minor> <include dir> [-DLAYOUT_MINOR=N]
  local minor=$1 include=$2
  shift 2
  cc -std=c99 -Wall -Wextra -pedantic -Werror -I "$include" "$@" "$here/layout_dump.c" \
    -o "$work/dump"
  "$work/dump" > "$here/golden/$minor.txt"
}

mkdir -p "$here/golden"
for minor in "${!release[@]}"; do
  mkdir -p "$work/$minor/backplane"
  for f in $(git ls-tree --name-only "${release[$minor]}" sdk/include/backplane/); do
    git show "${release[$minor]}:$f" > "$work/$minor/backplane/$(basename "$f")"
  done
  dump "$minor" "$work/$minor"
done
dump 0.0 "$work/0.1" -DLAYOUT_MINOR=0
current=$(sed -n 's/^#define BP_API_MINOR \([0-9]*\)$/0.\1/p' sdk/include/backplane/api.h)
dump "$current" sdk/include
ls "$here/golden"
