#!/bin/bash
# The golden layout tables hold for today's headers and for the frozen copy of the previous
# minor's, and the check fails, naming the field, when a field moves (a copy of today's headers
# with two fields reordered, made by //sdk/include:mutated_headers).
#
#   layout_test.sh CHECK GOLDEN_DIR CURRENT_DUMP FROZEN_DUMP MUTATED_DUMP
set -uo pipefail
check=$1 golden=$2 current=$3 frozen=$4 mutated=$5
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for dump in "$current" "$frozen" "$mutated"; do
  "$dump" > "$TEST_TMPDIR/$(basename "$dump").txt" || fail "$dump did not run"
done
current_txt=$TEST_TMPDIR/$(basename "$current").txt
frozen_txt=$TEST_TMPDIR/$(basename "$frozen").txt
mutated_txt=$TEST_TMPDIR/$(basename "$mutated").txt

# Every released minor has a table, and today's headers have one too.
for minor in 0.0 0.1 0.2 0.3 "$(sed -n 's/^version //p' "$current_txt")"; do
  [[ -f "$golden/$minor.txt" ]] || fail "no golden table for C ABI $minor"
done

out=$("$check" "$current_txt" "$golden") || fail "today's headers: $out"
echo "$out"
[[ "$(sed -n 's/^version //p' "$frozen_txt")" == 0.3 ]] || fail "the frozen headers are not 0.3"
out=$("$check" "$frozen_txt" "$golden") || fail "the frozen 0.3 headers: $out"
echo "$out"

out=$("$check" "$mutated_txt" "$golden")
status=$?
echo "$out"
[[ $status == 1 ]] || fail "the check passed the headers with reordered fields (status $status)"
for expected in \
  "bp_api.tensor_retain: C ABI 0.0 has it at offset 96 (size 8) but these headers" \
  "bp_api.tensor_release: C ABI 0.3 has it at offset 104 (size 8) but these headers" \
  "bp_iter_info.is_reduction: C ABI 0.1 has it at offset"; do
  [[ "$out" == *"$expected"* ]] || fail "the check did not say: $expected"
done

(( failures == 0 )) && echo "PASS" || echo "$failures failure(s)"
exit $(( failures > 0 ))
