// Issue 30's chains, fused in lazy mode (sdk/fusion/lazy.h) next to Backplane eager and libtorch
// eager (see support.h), float32 [4096, 4096], one thread, result allocated per call:
//   gelu_chain     gelu(x * w + b), w and b of [4096];
//   softmax_chain  exp(x - x.amax(-1, keepdim=True)).sum(-1).
// bytes_per_element is the memory traffic of the path under a model in which every tensor an op
// reads or writes in full crosses memory once (x is 64 MB, far beyond the caches) and a fused
// group's tile-sized intermediates stay in cache; ideal_bytes_per_element is that of reading x
// once and writing the result once. Bytes processed count the ideal traffic, so bytes_per_second
// compares each path with the memory roof at the ideal.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <cstdint>

#include "benchmark/benchmark.h"
#include "reference_backend/cpu/libtorch_bench/support.h"
#include "sdk/fusion/lazy.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

constexpr int64_t kElements = kSide * kSide;

void count_bytes(benchmark::State& state, double path_bytes, double ideal_bytes) {
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(ideal_bytes * kElements));
  state.counters["bytes_per_element"] = path_bytes;
  state.counters["ideal_bytes_per_element"] = ideal_bytes;
}

// gelu(x * w + b): eager reads and writes [4096, 4096] three times (24 B per element); fused
// reads x and writes y (8 B).
bp::Tensor bp_gelu_chain(const bp::Tensor& x, const bp::Tensor& w, const bp::Tensor& b) {
  return bp::gelu(bp::add(bp::mul(x, w), b));
}

void BM_bp_gelu_chain(benchmark::State& state) {
  bp::set_num_threads(1);
  const bool fused = state.range(0) != 0;
  const bp::Tensor x = bp_values({kSide, kSide}), w = bp_values({kSide}), b = bp_values({kSide});
  measure(state, [&] {
    bp::Tensor y;
    if (fused) {
      bp::fusion::LazyScope lazy;
      y = bp_gelu_chain(x, w,
                        b);  // held past the scope: realised (a dropped result is not computed)
    } else {
      y = bp_gelu_chain(x, w, b);
    }
    benchmark::DoNotOptimize(y.data_ptr());
  });
  count_bytes(state, fused ? 8 : 24, 8);
}

void BM_torch_gelu_chain(benchmark::State& state) {
  at::set_num_threads(1);
  c10::InferenceMode inference;
  const at::Tensor x = torch_values({kSide, kSide}), w = torch_values({kSide}),
                   b = torch_values({kSide});
  measure(state, [&] { benchmark::DoNotOptimize(at::gelu(x * w + b)); });
  count_bytes(state, 24, 8);
}

// exp(x - x.amax(-1, keepdim)).sum(-1): eager reads x twice, writes and reads two [4096, 4096]
// intermediates (20 B per element); fused reads x once (4 B; the result is 4096 floats).
bp::Tensor bp_softmax_chain(const bp::Tensor& x) {
  return bp::sum(bp::exp(bp::sub(x, bp::amax(x, {-1}, true))), bp::IntArrayRef{-1});
}

void BM_bp_softmax_chain(benchmark::State& state) {
  bp::set_num_threads(1);
  const bool fused = state.range(0) != 0;
  const bp::Tensor x = bp_values({kSide, kSide});
  measure(state, [&] {
    bp::Tensor y;
    if (fused) {
      bp::fusion::LazyScope lazy;
      y = bp_softmax_chain(x);  // held past the scope: realised (a dropped result is not computed)
    } else {
      y = bp_softmax_chain(x);
    }
    benchmark::DoNotOptimize(y.data_ptr());
  });
  count_bytes(state, fused ? 4 : 20, 4);
}

void BM_torch_softmax_chain(benchmark::State& state) {
  at::set_num_threads(1);
  c10::InferenceMode inference;
  const at::Tensor x = torch_values({kSide, kSide});
  measure(state, [&] { benchmark::DoNotOptimize((x - x.amax(-1, true)).exp().sum(-1)); });
  count_bytes(state, 20, 4);
}

const bool registered = [] {
  for (const char* chain : {"gelu_chain_4096", "softmax_chain_4096"}) {
    const bool gelu = chain[0] == 'g';
    auto* bp_fn = gelu ? &BM_bp_gelu_chain : &BM_bp_softmax_chain;
    benchmark::RegisterBenchmark((std::string("bp/") + chain).c_str(), bp_fn)
        ->Arg(0)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("bp_fused/") + chain).c_str(), bp_fn)
        ->Arg(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("torch/") + chain).c_str(),
                                 gelu ? &BM_torch_gelu_chain : &BM_torch_softmax_chain)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace bp_bench
