#!/usr/bin/env bash
# Checks that a plugin built with backplane.hpp, with no visibility flags and no version script,
# exports nothing of the wrapper (namespace backplane) and exports bp_plugin_init. What else it
# exports (e.g. std::string members the C++ runtime instantiates, linker symbols) is the plugin's
# own business: vendors hide it with a version script, as libbackplane.so does.
set -euo pipefail

lib=$1
exported=$(readelf --dyn-syms -W "$lib" |
  awk '$5 == "GLOBAL" || $5 == "WEAK" { if ($7 != "UND") print $8 }' | sed 's/@.*//' | sort -u)

status=0
if ! grep -qx 'bp_plugin_init' <<<"$exported"; then
  echo "FAIL: $lib does not export bp_plugin_init" >&2
  status=1
fi
wrapper=$(c++filt <<<"$exported" | grep 'backplane::' || true)
if [[ -n "$wrapper" ]]; then
  echo "FAIL: the wrapper's symbols are exported:" >&2
  echo "$wrapper" >&2
  status=1
fi
((status == 0)) && echo "no wrapper symbols among $(wc -l <<<"$exported") exports"
exit $status
