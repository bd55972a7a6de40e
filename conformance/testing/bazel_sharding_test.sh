#!/usr/bin/env bash
# Run by Bazel in shards (shard_count in BUILD.bazel): each shard runs the conformance CLI with
# Bazel's sharding environment and no --shard. The CLI must run only its shard (fewer cases than
# the whole selection, and some), name the shard in its summary, and touch TEST_SHARD_STATUS_FILE
# (the protocol's "this test supports sharding").
set -euo pipefail
cli=$1
: "${TEST_TOTAL_SHARDS:?run by Bazel with shard_count}"
: "${TEST_SHARD_INDEX:?run by Bazel with shard_count}"
: "${TEST_SHARD_STATUS_FILE:?run by Bazel with shard_count}"
rm -f "$TEST_SHARD_STATUS_FILE"
selection=(--ops add,neg,abs,mul,sum --dtypes float32 --quiet --no-repro)

cases_of() { sed -n 's/^Cases: \([0-9]*\) passed.*/\1/p' "$1"; }

"$cli" "${selection[@]}" --text "$TEST_TMPDIR/shard.txt" >/dev/null
[[ -f "$TEST_SHARD_STATUS_FILE" ]] || { echo "FAIL: TEST_SHARD_STATUS_FILE not touched"; exit 1; }
shard="shard $((TEST_SHARD_INDEX + 1))/$TEST_TOTAL_SHARDS"
grep -q "$shard" "$TEST_TMPDIR/shard.txt" || { echo "FAIL: the summary does not say '$shard'"; exit 1; }

env -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX -u TEST_SHARD_STATUS_FILE \
  "$cli" "${selection[@]}" --text "$TEST_TMPDIR/whole.txt" >/dev/null
part=$(cases_of "$TEST_TMPDIR/shard.txt")
whole=$(cases_of "$TEST_TMPDIR/whole.txt")
if ! ((part > 0 && part < whole)); then
  echo "FAIL: $shard ran $part cases of the selection's $whole"
  exit 1
fi
echo "PASS: $shard ran $part of $whole cases"
