#!/usr/bin/env bash
# The sample client runs its ops on each sample plugin's device and prints the expected values.
#   toy_client_test.sh path/to/toy_client plugin.so...
set -euo pipefail
client=$1
shift
for plugin in "$@"; do
  out=$("$client" "$plugin")
  echo "$out"
  device=$(sed -n 's/^loaded .*: backend \(.*\)$/\1/p' <<<"$out")
  [[ -n "$device" ]] || { echo "FAIL: $plugin: no 'loaded ...: backend NAME' line" >&2; exit 1; }
  for line in "add(x, y, alpha=2) = [21, 42, 63, 84] on $device:0" \
    "mul(sum, x) = [21, 84, 189, 336] on $device:0" \
    "exp(x) = [2.71828, 7.38906, 20.0855, 54.5981] on $device:0" \
    "mul(x, bad) failed as expected: [mul.Tensor] The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"; do
    grep -qxF "$line" <<<"$out" || { echo "FAIL: $plugin: expected the line: $line" >&2; exit 1; }
  done
done
echo PASS
