#!/usr/bin/env bash
# backplane-conformance --backend cuda --profile tier1-all-dtypes --isolate, with the reference
# CUDA plugin over the emulated driver and NVRTC: the whole plugin (entry points, C ABI argument
# handling, 32-bit splitting, allocator, kernel cache, streams, every driver call) on every tier-1
# op in every dtype. Passes when the suite's verdict is PASS, the report names the emulated
# device, and the driver's counters show work done and no device memory left allocated. Then the
# tier-2 indexing ops (index_select, gather, scatter, scatter_add and the composites over them,
# embedding and masked_select; a few seconds): every case passes, none through the CPU fallback.
# Then the matrix products (mm, bmm, addmm, baddbmm, matmul, linear; about a second each) twice:
# through the jitted kernel alone, and through the emulated cuBLAS (the driver library exports it)
# where the plugin takes cuBLAS.
#
#   conformance_under_emulation_test.sh CLI PLUGIN DRIVER NVRTC
set -euo pipefail
cli=$1
export BP_CUDA_PLUGIN=$PWD/$2 BP_CUDA_DRIVER=$PWD/$3 BP_CUDA_NVRTC=$PWD/$4
out=${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:?}}
export BP_KERNEL_CACHE_DIR=$TEST_TMPDIR/kernels
export BP_EMULATED_CUDA_REPORT=$out/emulated_driver_counters.jsonl
rm -f "$BP_EMULATED_CUDA_REPORT"

start=$SECONDS
status=0
"$cli" --backend cuda --profile tier1-all-dtypes --isolate --quiet --no-repro \
  --json "$out/report.json" --text "$out/summary.txt" > "$TEST_TMPDIR/stdout.txt" || status=$?
echo "backplane-conformance took $((SECONDS - start)) s (exit status $status)"
tail -n 25 "$out/summary.txt" || true
fail() {
  echo "FAIL: $*"
  exit 1
}
((status == 0)) || fail "the suite did not pass on the emulated driver (report: $out/report.json)"
grep -q "emulated CUDA device (host)" "$out/report.json" ||
  fail "the report does not say it ran on the emulated CUDA device"
[[ -s $BP_EMULATED_CUDA_REPORT ]] || fail "the emulated driver recorded no counters"
counters=$(tail -n 1 "$BP_EMULATED_CUDA_REPORT")
echo "emulated driver counters: $counters"
field() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" <<<"$counters"; }
(($(field launches) > 0)) || fail "no kernel was launched"
(($(field bytes_host_to_device) > 0 && $(field bytes_device_to_host) > 0)) || fail "no copies"
(($(field live_allocations_at_exit) == 0)) || fail "device memory leaked: $counters"

indexing=index_select,gather,scatter,scatter_add,embedding,masked_select
status=0
"$cli" --backend cuda --ops "$indexing" --isolate --quiet --no-repro \
  --json "$out/indexing_report.json" --text "$out/indexing_summary.txt" \
  > "$TEST_TMPDIR/indexing_stdout.txt" || status=$?
grep "^Cases:" "$out/indexing_summary.txt" || true
((status == 0)) || fail "the indexing ops did not pass (report: $out/indexing_report.json)"
! grep -q '"cpu_fallback": [1-9]' "$out/indexing_report.json" ||
  fail "an indexing op ran through the CPU fallback (report: $out/indexing_report.json)"
counters=$(tail -n 1 "$BP_EMULATED_CUDA_REPORT")
(($(field live_allocations_at_exit) == 0)) || fail "device memory leaked: $counters"

linalg=mm,bmm,addmm,baddbmm,matmul,linear
for with in jitted cublas; do
  status=0
  cublas=()
  [[ $with == cublas ]] && cublas=(env "BP_CUDA_CUBLAS=$BP_CUDA_DRIVER")
  "${cublas[@]}" "$cli" --backend cuda --ops "$linalg" --isolate --quiet --no-repro \
    --json "$out/linalg_${with}_report.json" --text "$out/linalg_${with}_summary.txt" \
    > "$TEST_TMPDIR/linalg_${with}_stdout.txt" || status=$?
  grep "^Cases:" "$out/linalg_${with}_summary.txt" || true
  ((status == 0)) || fail "the matrix products ($with) did not pass (report: $out/linalg_${with}_report.json)"
  if [[ $with == cublas ]]; then
    grep -q "; cuBLAS " "$out/linalg_${with}_report.json" || fail "the plugin did not take the emulated cuBLAS"
    counters=$(tail -n 1 "$BP_EMULATED_CUDA_REPORT")
    (($(field cublas_gemms) > 0)) || fail "no product went through cuBLAS: $counters"
  fi
  counters=$(tail -n 1 "$BP_EMULATED_CUDA_REPORT")
  (($(field live_allocations_at_exit) == 0)) || fail "device memory leaked: $counters"
done
echo "PASS"
