#!/bin/bash
# Checks a layout dump (layout_dump.c's output for some headers) against the golden tables of
# every released minor of the C ABI:
#   - the dump of minor V equals golden/V.txt line for line, when that table exists;
#   - every field of every older minor's table has the same offset and size in the dump (a field
#     never moves, shrinks or goes away within a major version), and no struct is smaller.
# Prints one line per difference, naming the struct, the field and both layouts, and exits 1 if
# there is any.
#
#   layout_check.sh DUMP GOLDEN_DIR
set -euo pipefail
dump=$1
golden=$2
version=$(sed -n 's/^version //p' "$dump")
[[ -n "$version" ]] || { echo "$dump: no 'version' line: not a layout dump" >&2; exit 2; }
failed=0

if [[ -f "$golden/$version.txt" ]] && ! diff -u "$golden/$version.txt" "$dump" > /tmp/layout_diff.$$; then
  echo "the dump of C ABI $version differs from its golden table $version.txt:"
  sed -n '3,$p' /tmp/layout_diff.$$
  failed=1
fi
rm -f /tmp/layout_diff.$$

declare -A have_field have_size
while read -r kind name a b; do
  case $kind in
    field) have_field[$name]="$a $b" ;;
    sizeof) have_size[$name]=$a ;;
  esac
done < "$dump"

for table in "$golden"/*.txt; do
  minor=$(basename "$table" .txt)
  # Only older minors of the same major (the dump's own minor is compared line for line above).
  [[ "${minor%%.*}" == "${version%%.*}" && "${minor#*.}" -lt "${version#*.}" ]] || continue
  while read -r kind name a b; do
    case $kind in
      field)
        got=${have_field[$name]:-}
        if [[ -z "$got" ]]; then
          echo "$name: C ABI $minor has it at offset $a (size $b) but these headers ($version)" \
            "do not have it"
          failed=1
        elif [[ "$got" != "$a $b" ]]; then
          echo "$name: C ABI $minor has it at offset $a (size $b) but these headers ($version)" \
            "have it at offset ${got% *} (size ${got#* })"
          failed=1
        fi
        ;;
      sizeof)
        got=${have_size[$name]:-0}
        if (( got < a )); then
          echo "sizeof($name): C ABI $minor has $a bytes but these headers ($version) have $got"
          failed=1
        fi
        ;;
    esac
  done < "$table"
done
if (( failed == 0 )); then
  echo "layout of C ABI $version: matches the golden tables of $(ls "$golden" | sed 's/\.txt$//' | tr '\n' ' ')"
fi
exit $failed
