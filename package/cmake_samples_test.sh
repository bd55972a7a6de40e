#!/usr/bin/env bash
# The SDK package as a vendor uses it: unpacked outside the repository, the samples built out of
# tree with CMake (find_package(Backplane)), the client run on each sample plugin, the packaged
# conformance suite run on each, the pkg-config file read, and the docs' links followed. Missing
# cmake or pkg-config is a failure, not a skip: without them this test would check nothing.
#   cmake_samples_test.sh backplane-sdk.tar.gz path/to/doc_links.pl
set -euo pipefail

tarball=$1
doc_links=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for tool in cmake pkg-config; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (tools/setup installs it)"
done

echo "== unpacking $tarball"
tar -xzf "$tarball" -C "$tmp"
sdk=$tmp/backplane-sdk
for f in include/backplane/backplane.h include/backplane/backplane.hpp lib/libbackplane.so \
  lib/backplane/libbackplane_cuda.so bin/backplane-conformance \
  lib/cmake/Backplane/BackplaneConfig.cmake lib/cmake/Backplane/BackplaneConfigVersion.cmake \
  lib/pkgconfig/backplane.pc share/backplane/samples/CMakeLists.txt share/backplane/ops.txt; do
  [[ -e "$sdk/$f" ]] || fail "the package has no $f"
done

# The vendor docs (//docs:vendor_docs and the index), each link leading to a file of the package
# (and a heading of it, for #anchors): doc_links.pl rewrote them for their places in the package.
echo "== docs"
docs=$sdk/share/doc/backplane
for f in README.md writing_a_backend.md abi.md conformance_guide.md conformance.md \
  architecture.md pytorch_parity.md design/structured.md; do
  [[ -s "$docs/$f" ]] || fail "the package has no share/doc/backplane/$f"
done
grep -qF '](../../backplane/samples/c_plugin_minimal/mini_plugin.c)' "$docs/writing_a_backend.md" ||
  fail "the packaged guide does not link the packaged minimal sample"
mapfile -t markdown < <(find "$sdk" -name '*.md' | sort)
status=0
out=$(perl "$doc_links" check "$sdk" "${markdown[@]}") || status=$?
echo "$out"
((status == 0)) || fail "links in the package's docs lead nowhere (above)"
checked=$(sed -n 's/^checked \([0-9]*\) relative links in .*/\1/p' <<<"$out")
# (37 links when this was written: fewer means the checker stopped finding them.)
((${checked:-0} >= 35)) || fail "doc_links.pl checked ${checked:-no} links; the docs have more"

# In a sanitizer build the package's libraries need the sanitizer's runtime, which must come first
# in a program that is not built with it (toy_client is not).
# (readelf's output is read whole first: `readelf | grep -q` under pipefail fails when grep stops
# at an early match and readelf then dies of SIGPIPE, which happened with libasan listed first.)
preload=
needed=$(readelf -d "$sdk/lib/libbackplane.so")
for runtime in libasan.so libtsan.so; do
  if grep -q "NEEDED.*\[$runtime" <<<"$needed"; then
    preload=$(${CC:-cc} -print-file-name=$runtime)
  fi
done

# The op listing: users guessed sum.IntList_out; it is the out= variant of sum.dim_IntList, and
# the listing says so (and the packaged CLI describes it).
echo "== share/backplane/ops.txt"
ops_txt=$sdk/share/backplane/ops.txt
grep -qF 'sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)  # out, conformance entry sum.dim_IntList' \
  "$ops_txt" || fail "ops.txt does not list sum.IntList_out as the out= variant of sum.dim_IntList"
count=$(grep -c '^[a-z_0-9]*\(\.[A-Za-z_0-9]*\)\?(' "$ops_txt")
((count > 300)) || fail "ops.txt lists $count op schemas; expected every declared op"
schema=$("$sdk/bin/backplane-conformance" --schema sum.IntList_out) ||
  fail "backplane-conformance --schema sum.IntList_out exited with $?"
grep -qF 'a backend that registers only sum.IntList_out also gets sum.dim_IntList' <<<"$schema" ||
  fail "--schema sum.IntList_out does not say what the Common key serves: $schema"

# Release (-O3): what a vendor ships; warnings are errors.
echo "== cmake: configuring and building the samples"
build=$tmp/build
cmake -S "$sdk/share/backplane/samples" -B "$build" -DCMAKE_PREFIX_PATH="$sdk" \
  -DCMAKE_BUILD_TYPE=Release -DBACKPLANE_SAMPLES_WERROR=ON ||
  fail "cmake could not configure the samples against the package"
cmake --build "$build" --verbose || fail "cmake could not build the samples"

for plugin in libmini_plugin.so libtoy_plugin.so libtoy_cpp_plugin.so; do
  [[ -f "$build/$plugin" ]] || fail "the build made no $plugin"
  if grep -q 'NEEDED.*libbackplane' <<<"$(readelf -d "$build/$plugin")"; then
    fail "$plugin links libbackplane.so; a plugin needs only the headers"
  fi

  echo "== toy_client $plugin"
  LD_PRELOAD=$preload "$build/toy_client" "$build/$plugin" ||
    fail "toy_client exited with $? on $plugin"

  echo "== backplane-conformance --backend $plugin"
  status=0
  out=$("$sdk/bin/backplane-conformance" --backend "$build/$plugin" \
    --ops add.Tensor,mul.Tensor --dtypes float32 --quiet --no-repro 2>&1) || status=$?
  echo "$out"
  ((status == 0)) || fail "backplane-conformance exited with $status on $plugin"
  grep -q "Verdict: PASS" <<<"$out" || fail "backplane-conformance did not print 'Verdict: PASS'"
done

# --backend cuda finds the packaged CUDA plugin next to the CLI (run from elsewhere). Without a
# GPU the plugin declines to load (exit 2, with its reason); with one, add.out passes.
echo "== backplane-conformance --backend cuda"
status=0
out=$(cd "$tmp" && "$sdk/bin/backplane-conformance" --backend cuda --ops add.out \
  --dtypes float32 --quiet --no-repro 2>&1) || status=$?
echo "$out"
if ((status == 2)); then
  grep -qF "cannot test plugin $sdk/lib/backplane/libbackplane_cuda.so" <<<"$out" ||
    fail "--backend cuda did not load the package's CUDA plugin"
  grep -qF "CUDA unavailable: " <<<"$out" || fail "--backend cuda failed for another reason"
else
  ((status == 0)) || fail "backplane-conformance --backend cuda exited with $status"
  grep -q "Verdict: PASS" <<<"$out" || fail "--backend cuda did not print 'Verdict: PASS'"
fi

echo "== pkg-config"
export PKG_CONFIG_PATH=$sdk/lib/pkgconfig
flags=$(pkg-config --cflags --libs backplane) || fail "pkg-config does not find backplane.pc"
echo "$flags"
read -r -a words <<<"$flags"
include=''
libdir=''
for w in "${words[@]}"; do
  case "$w" in
    -I*) include=${w#-I} ;;
    -L*) libdir=${w#-L} ;;
  esac
done
[[ -n "$include" && "$(realpath "$include")" == "$(realpath "$sdk/include")" ]] ||
  fail "pkg-config's -I is not the package's include folder ($sdk/include)"
[[ -n "$libdir" && "$(realpath "$libdir")" == "$(realpath "$sdk/lib")" ]] ||
  fail "pkg-config's -L is not the package's lib folder ($sdk/lib)"
[[ " $flags " == *" -lbackplane "* ]] || fail "pkg-config's flags have no -lbackplane"

# A client built with pkg-config's flags alone links and runs (no RPATH: LD_LIBRARY_PATH).
${CC:-cc} -std=c99 -o "$tmp/toy_client_pkgconfig" "$sdk/share/backplane/samples/c_client/client.c" \
  "${words[@]}" || fail "the C client does not build with pkg-config's flags"
LD_LIBRARY_PATH=$sdk/lib LD_PRELOAD=$preload "$tmp/toy_client_pkgconfig" \
  "$build/libtoy_plugin.so" >/dev/null || fail "the client built with pkg-config's flags failed"

echo "PASS: the package builds and runs the samples with CMake, and pkg-config finds it"
