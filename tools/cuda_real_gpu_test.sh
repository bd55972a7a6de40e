#!/usr/bin/env bash
# tools/cuda_real_gpu.sh on a machine without a GPU (CI): its options and usage errors, its dry
# run (the commands it would run on a GPU), and its clear message and exit status 3 when the
# CUDA plugin finds no usable GPU.
set -euo pipefail

script=tools/cuda_real_gpu.sh
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
unset BP_CUDA_DRIVER

# Runs the script with arguments; sets $out (stdout and stderr) and $rc.
try() {
  set +e
  out=$("$script" "$@" 2>&1)
  rc=$?
  set -e
}

try --help
[[ $rc -eq 0 && $out == *"--profile NAME"* && $out == *"--dry-run"* ]] || fail "--help: $rc $out"

try --bogus
[[ $rc -eq 2 && $out == *"unknown option '--bogus'"* ]] || fail "--bogus: $rc $out"
try --profile tier7
[[ $rc -eq 2 && $out == *"unknown profile 'tier7'"* ]] || fail "--profile tier7: $rc $out"
try --out
[[ $rc -eq 2 && $out == *"--out needs a folder"* ]] || fail "--out: $rc $out"

BP_CUDA_DRIVER=/elsewhere/libcuda_emulated.so try --dry-run
[[ $rc -eq 2 && $out == *"BP_CUDA_DRIVER=/elsewhere/libcuda_emulated.so selects another driver"* ]] ||
  fail "BP_CUDA_DRIVER set: $rc $out"

try --dry-run --out /tmp/nowhere --ops add.out
[[ $rc -eq 0 ]] || fail "--dry-run: $rc $out"
for expected in \
  "bazel build //conformance:backplane-conformance //reference_backend/cuda:libbackplane_cuda.so" \
  "bazel test //reference_backend/cuda:cuda_gpu_test" \
  "backplane-conformance --backend cuda --profile tier1-all-dtypes --isolate --report-dir /tmp/nowhere/conformance --ops add.out" \
  "cuda_bench --benchmark_out=/tmp/nowhere/cuda_bench.json" \
  "dry run, nothing ran"; do
  [[ $out == *"$expected"* ]] || fail "--dry-run does not say '$expected':\n$out"
done
[[ ! -e /tmp/nowhere ]] || fail "--dry-run created /tmp/nowhere"

# The built CLI and plugin are in this test's runfiles, where the script runs from.
try --no-build --bin-dir . --out "$TEST_TMPDIR/gpu"
if [[ $rc -eq 3 ]]; then
  [[ $out == *"no usable GPU on this machine"* && $out == *"CUDA unavailable"* ]] ||
    fail "no GPU: the message does not say why:\n$out"
  echo "no GPU: exit status 3, and: $out"
elif command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "this machine has a GPU: the no-GPU path was not checked (exit status $rc)"
else
  fail "no GPU, but exit status $rc:\n$out"
fi
echo "PASS"
