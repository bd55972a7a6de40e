#!/usr/bin/env bash
# Checks libbackplane.so's dynamic symbol table against the committed list:
# - every listed symbol must still be exported (removing one breaks every client);
# - a new export must be a C ABI function (bp_*), and is reported so it gets committed;
#   anything else (a C++ symbol leaking out) fails.
set -euo pipefail

lib=$1
list=$2

# Defined GLOBAL and WEAK symbols of the dynamic symbol table (LOCAL entries, such as TLS
# variables the library uses itself, are not exports).
exported=$(readelf --dyn-syms -W "$lib" |
  awk '$5 == "GLOBAL" || $5 == "WEAK" { if ($7 != "UND") print $8 }' | sed 's/@.*//' | sort -u)
status=0

while IFS= read -r symbol; do
  [[ -z "$symbol" || "$symbol" == \#* ]] && continue
  if ! grep -qxF "$symbol" <<<"$exported"; then
    echo "FAIL: '$symbol' is listed in exported_symbols.txt but no longer exported" >&2
    status=1
  fi
done <"$list"

while IFS= read -r symbol; do
  [[ -z "$symbol" ]] && continue
  grep -qxF "$symbol" "$list" && continue
  if [[ "$symbol" == bp_* ]]; then
    echo "NOTE: '$symbol' is a new export: add it to sdk/exported_symbols.txt"
  else
    echo "FAIL: '$symbol' is exported but is not a C ABI symbol (check sdk/backplane.lds)" >&2
    status=1
  fi
done <<<"$exported"

if ((status == 0)); then
  echo "exported symbols: $(wc -l <<<"$exported") ok"
fi
exit $status
