#!/usr/bin/env bash
# //python:python_test: the pytest suite of `import backplane` under Debian's /usr/bin/python3
# (which has numpy, pytest and, optionally, torch), importing the package from the build tree
# in the runfiles. -rs lists every skipped test with its reason; a skip is never a pass.
set -euo pipefail

runfiles=${TEST_SRCDIR:-$PWD/..}/${TEST_WORKSPACE:-backplane}
export PYTHONPATH="$runfiles/python"
export BP_TOY_PLUGIN="$runfiles/samples/c_plugin/libtoy_plugin.so"
export BP_CPU_EXPECTED_FAILURES="$runfiles/conformance/expected_failures/cpu.txt"
# An ASan build of _C.so (--config=asan-ubsan) loads into the uninstrumented interpreter only
# with the ASan runtime preloaded, and with libstdc++ too (python3 does not link it, and ASan's
# __cxa_throw interceptor aborts on the first C++ exception when the real one was not loaded
# at start). Leak checking is off there: CPython and numpy keep their allocations until exit.
# (readelf's output is read whole first: `readelf | grep -q` under pipefail failed whenever grep
# quit before readelf finished writing, SIGPIPE, and then the runtime was not preloaded.)
dynamic=$(readelf -d "$runfiles/python/backplane/_C.so")
if [[ $dynamic == *NEEDED*libasan* ]]; then
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  export PYTHONMALLOC=malloc  # ASan sees every object allocation, not obmalloc arenas
fi
# pytest writes nothing into the (read-only) runfiles tree.
export PYTHONDONTWRITEBYTECODE=1
cd "${TEST_TMPDIR:-$(mktemp -d)}"
exec /usr/bin/python3 -m pytest -p no:cacheprovider -rs -q \
  "$runfiles/python/tests" "$runfiles/python/examples" "$@"
