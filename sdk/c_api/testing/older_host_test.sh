#!/bin/bash
# An older host (C ABI 0.3: older_host.cc, built from the frozen 0.3 headers) refuses plugins built
# against today's headers, with both versions in its message, and without the plugins calling
# into its table (every function in it is NULL).
#
#   older_host_test.sh OLDER_HOST PLUGIN.so...
set -uo pipefail
host=$1
shift
current=$(sed -n 's/^#define BP_API_MINOR //p' sdk/include/backplane/api.h)
failures=0
for plugin in "$@"; do
  out=$("$host" "$plugin")
  status=$?
  echo "$out"
  if [[ $status != 3 ]]; then
    echo "FAIL: $plugin: exit status $status, expected 3 (refused)"
    failures=$((failures + 1))
  fi
  expected="was built against Backplane C ABI 0.$current, newer than this host's 0.3: upgrade Backplane"
  if [[ "$out" != *"($plugin) $expected"* ]]; then
    echo "FAIL: $plugin: expected the refusal '... ($plugin) $expected'"
    failures=$((failures + 1))
  fi
done
(( failures == 0 )) && echo PASS
exit $(( failures > 0 ))
