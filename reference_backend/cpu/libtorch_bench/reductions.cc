// Reductions, scans and softmax (issue 23), Backplane next to libtorch (see support.h).
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

// Reductions, scans and normalisations of issue 23, float32, one thread: sum of a 4096 x 4096
// matrix over dim 0, over dim 1 and over every dim, cumsum of 1e6, softmax over the last dim of
// [4096, 1024], argmin of 1e6 (without a dim); and sum and amax over the short rows of
// [65536, 256].
// A [rows, cols] matrix summed over dim (0, 1, or -1 for every dim).
void BM_bp_sum(benchmark::State& state, int64_t rows, int64_t cols, int64_t dim) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({rows, cols});
  bp::Tensor out =
      bp_values(dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim == 0 ? cols : rows});
  const std::vector<int64_t> dims = dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
  measure(state, [&] { bp::sum_out(out, x, bp::IntArrayRef(dims), false); });
  state.SetItemsProcessed(state.iterations() * rows * cols);
  held_to(state, "read_sum_4096x4096");  // 65536 x 256 is as many elements
}

void BM_torch_sum(benchmark::State& state, int64_t rows, int64_t cols, int64_t dim) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({rows, cols});
  at::Tensor out =
      torch_values(dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim == 0 ? cols : rows});
  const std::vector<int64_t> dims = dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
  measure(state, [&] { at::sum_out(out, x, at::IntArrayRef(dims), false); });
  state.SetItemsProcessed(state.iterations() * rows * cols);
  held_to(state, "read_sum_4096x4096");  // 65536 x 256 is as many elements
}

// amax over the rows of [65536, 256]: short rows, where per-output costs show.
void BM_bp_amax_rows(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({65536, 256});
  bp::Tensor out = bp_values({65536});
  const int64_t dim = 1;
  measure(state, [&] { bp::amax_out(out, x, bp::IntArrayRef(&dim, 1), false); });
  state.SetItemsProcessed(state.iterations() * 65536 * 256);
}

void BM_torch_amax_rows(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({65536, 256});
  at::Tensor out = torch_values({65536});
  const int64_t dim = 1;
  measure(state, [&] { at::amax_out(out, x, at::IntArrayRef(&dim, 1), false); });
  state.SetItemsProcessed(state.iterations() * 65536 * 256);
}

void BM_bp_cumsum(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({kN});
  bp::Tensor out = bp_values({kN});
  measure(state, [&] { bp::cumsum_out(out, x, 0); });
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_torch_cumsum(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({kN});
  at::Tensor out = torch_values({kN});
  measure(state, [&] { at::cumsum_out(out, x, 0); });
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_bp_softmax(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({4096, 1024});
  bp::Tensor out = bp_values({4096, 1024});
  measure(state, [&] { bp::softmax_out(out, x, 1); });
  state.SetItemsProcessed(state.iterations() * 4096 * 1024);
}

void BM_torch_softmax(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({4096, 1024});
  at::Tensor out = torch_values({4096, 1024});
  measure(state, [&] { at::softmax_out(out, x, 1); });
  state.SetItemsProcessed(state.iterations() * 4096 * 1024);
}

void BM_bp_argmin(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({kN});
  bp::Tensor out = bp::native::empty({}, bp::ScalarType::kInt64, bp::Device(bp::DeviceType::kCPU));
  measure(state, [&] { bp::argmin_out(out, x); });
  state.SetItemsProcessed(state.iterations() * kN);
  held_to(state, "read_sum_1e6");
}

void BM_torch_argmin(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({kN});
  at::Tensor out = at::empty({}, at::kLong);
  measure(state, [&] { at::argmin_out(out, x); });
  state.SetItemsProcessed(state.iterations() * kN);
  held_to(state, "read_sum_1e6");
}

bool register_reductions() {
  for (int64_t dim : {0, 1, -1}) {
    register_side_by_side(
        dim < 0 ? "sum_all_4096x4096" : "sum_dim" + std::to_string(dim) + "_4096x4096", BM_bp_sum,
        BM_torch_sum, kSide, kSide, dim);
  }
  // Short rows: per-output costs (they once took 3x PyTorch's time here).
  register_side_by_side("sum_dim1_65536x256", BM_bp_sum, BM_torch_sum, 65536, 256, 1);
  register_side_by_side("amax_dim1_65536x256", BM_bp_amax_rows, BM_torch_amax_rows);
  register_side_by_side("cumsum_1e6", BM_bp_cumsum, BM_torch_cumsum);
  register_side_by_side("softmax_4096x1024", BM_bp_softmax, BM_torch_softmax);
  register_side_by_side("argmin_1e6", BM_bp_argmin, BM_torch_argmin);
  return true;
}
[[maybe_unused]] const bool registered_reductions = register_reductions();

}  // namespace
}  // namespace bp_bench
