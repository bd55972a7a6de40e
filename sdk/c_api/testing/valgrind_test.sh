#!/usr/bin/env bash
# Runs a program under Valgrind's memcheck and fails on any error or definite/indirect leak.
# Memory still reachable at exit (process-wide registries that are never destroyed by design) is
# not a leak. A sanitizer build cannot run under Valgrind: the test then says so and stops.
set -euo pipefail

program=$1
# nm's output is read whole first: `nm | grep -q` under pipefail fails when grep stops reading
# before nm has written everything (SIGPIPE), and then a sanitizer build went to Valgrind.
symbols=$(nm "$program" 2>/dev/null || true)
if [[ $symbols == *__asan_init* || $symbols == *__tsan_init* ]]; then
  echo "SKIPPED: $program is built with a sanitizer, which cannot run under Valgrind"
  exit 0
fi
if ! command -v valgrind >/dev/null; then
  echo "FAIL: valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
fi
exec valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect "$program"
