#!/usr/bin/env bash
# Runs what only a real GPU can show (docs/cuda.md): the GPU unit tests, the conformance suite on
# the reference CUDA plugin (`backplane-conformance --backend cuda`) and the CUDA benchmarks, on
# the machine's real driver (libcuda.so.1). Every result goes to one folder.
#
#   tools/cuda_real_gpu.sh                      # build, then everything; results in out/cuda_real_gpu
#   tools/cuda_real_gpu.sh --out /tmp/gpu --profile tier1 --no-bench
#   tools/cuda_real_gpu.sh --dry-run            # print the commands only (no GPU needed)
#
# Exit status: 0 everything passed; 1 a step failed (the summary names it); 2 usage error;
# 3 no usable GPU (the plugin's reason is printed).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tools/cuda_real_gpu.sh [options]

Runs, on the real CUDA driver and GPU of this machine:
  1. //reference_backend/cuda:cuda_gpu_test   kernels, reductions, allocator, kernel cache on the device
  2. backplane-conformance --backend cuda     the conformance suite, each entry isolated
  3. //reference_backend/cuda:cuda_bench      bandwidth of jitted kernels, NVRTC / cache costs

options:
  --out DIR        where results go (default: out/cuda_real_gpu)
  --profile NAME   conformance profile (default: tier1-all-dtypes; also tier1)
  --ops NAMES      only these conformance entries (passed to --ops)
  --no-build       use the binaries already built (in --bin-dir)
  --bin-dir DIR    where the built binaries are (default: bazel-bin)
  --no-tests       skip step 1
  --no-conformance skip step 2
  --no-bench       skip step 3
  --bench-args A   extra arguments for cuda_bench (e.g. "--benchmark_min_time=0.5")
  --dry-run        print the commands, run nothing
  -h, --help       this text

Needs: a CUDA driver (libcuda.so.1) and a GPU of compute capability 7.5 or newer, the CUDA
toolkit's NVRTC (libnvrtc.so.13), Bazel as in docs/building.md. BP_CUDA_DRIVER must be unset
(it selects another driver, such as the emulated one). BP_BAZEL_FLAGS: extra flags for every
bazel command, as for tools/bp.
EOF
}

die_usage() {
  echo "cuda_real_gpu: $1" >&2
  echo "run tools/cuda_real_gpu.sh --help for the options" >&2
  exit 2
}

out="out/cuda_real_gpu"
profile="tier1-all-dtypes"
ops=""
build=1 tests=1 conformance=1 bench=1 dry_run=0
bench_args=""
bin_dir="bazel-bin"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) [[ $# -ge 2 ]] || die_usage "--out needs a folder"; out="$2"; shift 2 ;;
    --profile) [[ $# -ge 2 ]] || die_usage "--profile needs a name"; profile="$2"; shift 2 ;;
    --ops) [[ $# -ge 2 ]] || die_usage "--ops needs names"; ops="$2"; shift 2 ;;
    --bench-args) [[ $# -ge 2 ]] || die_usage "--bench-args needs arguments"; bench_args="$2"; shift 2 ;;
    --bin-dir) [[ $# -ge 2 ]] || die_usage "--bin-dir needs a folder"; bin_dir="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-tests) tests=0; shift ;;
    --no-conformance) conformance=0; shift ;;
    --no-bench) bench=0; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die_usage "unknown option '$1'" ;;
  esac
done
case "$profile" in
  tier1 | tier1-all-dtypes) ;;
  *) die_usage "unknown profile '$profile' (tier1 or tier1-all-dtypes)" ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ -n "${BP_CUDA_DRIVER:-}" ]]; then
  echo "cuda_real_gpu: BP_CUDA_DRIVER=$BP_CUDA_DRIVER selects another driver than the real" \
    "libcuda.so.1; unset it to run on the GPU" >&2
  exit 2
fi

# Prints a command, then runs it unless --dry-run.
run() {
  echo "+ $*"
  [[ $dry_run -eq 1 ]] || "$@"
}

read -ra bazel_flags <<<"${BP_BAZEL_FLAGS:-}"
cli=$bin_dir/conformance/backplane-conformance
bench_bin=$bin_dir/reference_backend/cuda/cuda_bench
if [[ $build -eq 1 ]]; then
  run bazel build "${bazel_flags[@]}" //conformance:backplane-conformance \
    //reference_backend/cuda:libbackplane_cuda.so //reference_backend/cuda:cuda_bench
fi
run mkdir -p "$out"

# The plugin's own check decides whether this machine has a usable GPU: it loads libcuda.so.1,
# initialises it and counts devices, and says why not ("CUDA unavailable: ...").
if [[ $dry_run -eq 0 ]]; then
  [[ -x $cli ]] || { echo "cuda_real_gpu: no $cli (build it, or drop --no-build)" >&2; exit 1; }
  probe="$out/probe.txt"
  set +e
  "$cli" --backend cuda --ops add.out --dtypes float32 --no-repro --text "$out/probe_report.txt" \
    >"$probe" 2>&1
  probe_status=$?
  set -e
  if grep -q "CUDA unavailable" "$probe" "$out/probe_report.txt" 2>/dev/null; then
    reason=$(grep -h -o -m1 "CUDA unavailable.*" "$probe" "$out/probe_report.txt" 2>/dev/null |
      head -n1)
    echo "cuda_real_gpu: no usable GPU on this machine: $reason" >&2
    exit 3
  fi
  if [[ $probe_status -ne 0 ]]; then
    echo "cuda_real_gpu: the CUDA probe (add.out float32) failed; its output:" >&2
    cat "$probe" >&2
    exit 1
  fi
else
  echo "+ $cli --backend cuda --ops add.out --dtypes float32 --no-repro --text $out/probe_report.txt"
fi

failed=()
step() {
  local name="$1"
  shift
  echo "== $name"
  if ! run "$@"; then failed+=("$name"); fi
}

if [[ $tests -eq 1 ]]; then
  step "cuda_gpu_test" bazel test "${bazel_flags[@]}" //reference_backend/cuda:cuda_gpu_test \
    --test_output=all --cache_test_results=no
fi
if [[ $conformance -eq 1 ]]; then
  conformance_args=(--backend cuda --profile "$profile" --isolate --report-dir "$out/conformance")
  [[ -z $ops ]] || conformance_args+=(--ops "$ops")
  step "conformance ($profile)" "$cli" "${conformance_args[@]}"
fi
if [[ $bench -eq 1 ]]; then
  # shellcheck disable=SC2086  # --bench-args is split into arguments on purpose
  step "cuda_bench" "$bench_bin" --benchmark_out="$out/cuda_bench.json" \
    --benchmark_out_format=json $bench_args
fi

echo "== results in $out"
if [[ $dry_run -eq 1 ]]; then
  echo "cuda_real_gpu: dry run, nothing ran"
  exit 0
fi
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "cuda_real_gpu: failed: ${failed[*]}" >&2
  exit 1
fi
echo "cuda_real_gpu: every step passed"
