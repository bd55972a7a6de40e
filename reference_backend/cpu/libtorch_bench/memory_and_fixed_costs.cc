// Issue 27's cases, Backplane next to libtorch (see support.h): a float32 -> float16 cast, exp
// in float64, a broadcast row, large outputs (preallocated and allocated per call), contiguous()
// of a transpose, and the fixed costs of 1-element calls.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "reference_backend/cpu/libtorch_bench/support.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

// Issue 27's cases, float32 unless named, one thread.
constexpr int64_t kTransposeSide = 4000;
// The float64 transpose's side: 64 MB like the float32 one's, and a multiple of every kernel's
// step, so no element goes through the scalar edge loop.
constexpr int64_t kTransposeSide64 = 2824;

// float32 -> float16 copy_ of 1.6e7 elements into a preallocated float16 tensor.
void BM_bp_copy_f16(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor src = bp_values({k16M});
  bp::Tensor dst = bp::native::empty({k16M}, bp::ScalarType::kFloat16, kCpu);
  measure(state, [&] { dst.copy_(src); });
  state.SetBytesProcessed(state.iterations() * k16M * (4 + 2));
  held_to(state, "memcpy_1.6e7");
}

void BM_torch_copy_f16(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor src = torch_values({k16M});
  at::Tensor dst = at::empty({k16M}, at::kHalf);
  measure(state, [&] { dst.copy_(src); });
  state.SetBytesProcessed(state.iterations() * k16M * (4 + 2));
  held_to(state, "memcpy_1.6e7");
}

// exp of 1e6 float64 elements, out=.
void BM_bp_exp_float64(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp::native::empty({kN}, bp::ScalarType::kFloat64, kCpu);
  fill_values(x.data_ptr<double>(), kN);
  bp::Tensor out = bp::native::empty({kN}, bp::ScalarType::kFloat64, kCpu);
  measure(state, [&] { bp::exp_out(out, x); });
  state.SetItemsProcessed(state.iterations() * kN);
  held_to(state, "mvec_exp_1e6");
}

void BM_torch_exp_float64(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = at::empty({kN}, at::kDouble);
  fill_values(x.data_ptr<double>(), kN);
  at::Tensor out = at::empty({kN}, at::kDouble);
  measure(state, [&] { at::exp_out(out, x); });
  state.SetItemsProcessed(state.iterations() * kN);
  held_to(state, "mvec_exp_1e6");
}

// mul of [1000, 1000] by a broadcast row [1, 1000], out=.
void BM_bp_mul_row(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({1000, 1000}), row = bp_values({1, 1000});
  bp::Tensor out = bp_values({1000, 1000});
  measure(state, [&] { bp::mul_out(out, x, row); });
  state.SetBytesProcessed(state.iterations() * (2 * kN + 1000) * 4);
  held_to(state, "memcpy_1e6");
}

void BM_torch_mul_row(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({1000, 1000}), row = torch_values({1, 1000});
  at::Tensor out = torch_values({1000, 1000});
  measure(state, [&] { at::mul_out(out, x, row); });
  state.SetBytesProcessed(state.iterations() * (2 * kN + 1000) * 4);
  held_to(state, "memcpy_1e6");
}

// add of two 1.6e7 vectors: into a preallocated out=, or functional (a new 64 MB output each
// call, freed at the end of the call).
void BM_bp_add_16M(benchmark::State& state, bool allocating) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({k16M}), y = bp_values({k16M});
  bp::Tensor out = bp_values({allocating ? 1 : k16M});
  if (allocating) {
    measure(state, [&] { benchmark::DoNotOptimize(bp::add(x, y)); });
  } else {
    measure(state, [&] { bp::add_out(out, x, y); });
  }
  state.SetBytesProcessed(state.iterations() * 3 * k16M * 4);
  held_to(state, "triad_1.6e7");
}

void BM_torch_add_16M(benchmark::State& state, bool allocating) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({k16M}), y = torch_values({k16M});
  at::Tensor out = torch_values({allocating ? 1 : k16M});
  if (allocating) {
    c10::InferenceMode no_autograd;
    measure(state, [&] { benchmark::DoNotOptimize(at::add(x, y)); });
  } else {
    measure(state, [&] { at::add_out(out, x, y); });
  }
  state.SetBytesProcessed(state.iterations() * 3 * k16M * 4);
  held_to(state, "triad_1.6e7");
}

// contiguous() of the transpose of a 4000 x 4000 float32 matrix (or 2824 x 2824 float64): a new
// tensor each call.
void BM_bp_contiguous_t(benchmark::State& state, bool float64) {
  bp::set_num_threads(1);
  const int64_t side = float64 ? kTransposeSide64 : kTransposeSide;
  bp::Tensor m = bp_values({side, side});
  if (float64) {
    m = bp::native::empty({side, side}, bp::ScalarType::kFloat64, kCpu);
    fill_values(m.data_ptr<double>(), side * side);
  }
  const bp::Tensor t = m.t();
  measure(state, [&] { benchmark::DoNotOptimize(t.contiguous()); });
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(t.nbytes()));
  held_to(state, "memcpy_1.6e7");
}

void BM_torch_contiguous_t(benchmark::State& state, bool float64) {
  at::set_num_threads(1);
  const int64_t side = float64 ? kTransposeSide64 : kTransposeSide;
  at::Tensor m = torch_values({side, side});
  if (float64) {
    m = at::empty({side, side}, at::kDouble);
    fill_values(m.data_ptr<double>(), side * side);
  }
  const at::Tensor t = m.t();
  c10::InferenceMode no_autograd;
  measure(state, [&] { benchmark::DoNotOptimize(t.contiguous()); });
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(t.nbytes()));
  held_to(state, "memcpy_1.6e7");
}

// Fixed costs on 1-element float32 tensors: functional add, add_out, empty. libtorch runs in
// InferenceMode (no autograd bookkeeping, which Backplane does not have either).
enum class Tiny { kAdd, kAddOut, kEmpty };

void BM_bp_tiny(benchmark::State& state, Tiny what) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({1}), y = bp_values({1});
  bp::Tensor out = bp_values({1});
  switch (what) {
    case Tiny::kAdd:
      measure(state, [&] { benchmark::DoNotOptimize(bp::add(x, y)); });
      break;
    case Tiny::kAddOut:
      measure(state, [&] { bp::add_out(out, x, y); });
      break;
    case Tiny::kEmpty:
      measure(state,
              [&] { benchmark::DoNotOptimize(bp::empty({1}, bp::ScalarType::kFloat32, kCpu)); });
      break;
  }
}

void BM_torch_tiny(benchmark::State& state, Tiny what) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({1}), y = torch_values({1});
  at::Tensor out = torch_values({1});
  c10::InferenceMode no_autograd;
  switch (what) {
    case Tiny::kAdd:
      measure(state, [&] { benchmark::DoNotOptimize(at::add(x, y)); });
      break;
    case Tiny::kAddOut:
      measure(state, [&] { at::add_out(out, x, y); });
      break;
    case Tiny::kEmpty:
      measure(state, [&] { benchmark::DoNotOptimize(at::empty({1}, at::kFloat)); });
      break;
  }
}

bool register_memory_and_fixed_costs() {
  register_side_by_side("copy_float32_to_float16_1.6e7", BM_bp_copy_f16, BM_torch_copy_f16);
  register_side_by_side("exp_float64", BM_bp_exp_float64, BM_torch_exp_float64);
  register_side_by_side("mul_1000x1000_by_row", BM_bp_mul_row, BM_torch_mul_row);
  register_side_by_side("add_out_1.6e7", BM_bp_add_16M, BM_torch_add_16M, false);
  register_side_by_side("add_allocating_1.6e7", BM_bp_add_16M, BM_torch_add_16M, true);
  register_side_by_side("contiguous_of_t_4000x4000", BM_bp_contiguous_t, BM_torch_contiguous_t,
                        false);
  register_side_by_side("contiguous_of_t_2824x2824_float64", BM_bp_contiguous_t,
                        BM_torch_contiguous_t, true);
  register_side_by_side("tiny_add_1", BM_bp_tiny, BM_torch_tiny, Tiny::kAdd);
  register_side_by_side("tiny_add_out_1", BM_bp_tiny, BM_torch_tiny, Tiny::kAddOut);
  register_side_by_side("tiny_empty_1", BM_bp_tiny, BM_torch_tiny, Tiny::kEmpty);
  return true;
}
[[maybe_unused]] const bool registered = register_memory_and_fixed_costs();

}  // namespace
}  // namespace bp_bench
