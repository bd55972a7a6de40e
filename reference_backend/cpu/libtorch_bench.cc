// Backplane's CPU kernels next to libtorch's (Debian's libtorch-dev 1.13.1), in the same process:
// the unary ops of issue 21 on 1e6 float32 elements, and binary ops of issue 22 on 1e6 elements
// of the dtypes named beside them, out= variants (masked_fill: in place), one thread each. Needs
// libtorch (the target is tagged manual: `bazel build //...` and `bazel test //...` skip it).
//
//   ATEN_CPU_CAPABILITY=avx512 bazel run --config=ci //reference_backend/cpu:libtorch_bench --
//       --benchmark_repetitions=9 --benchmark_format=json > /tmp/r.json   (one line)
//   python3 reference_backend/cpu/libtorch_bench_table.py /tmp/r.json   # op | bp | torch | ratio
//
// ATEN_CPU_CAPABILITY picks libtorch's kernels (default here: avx2; avx512 is its best on this
// machine); BP_CPU_CAPABILITY picks Backplane's. An op Backplane does not declare is left out
// (its torch row stays) and appears once its `bp::<op>_out` exists.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

constexpr int64_t kN = 1000000;

// The same values for both libraries: [-3, 3) for most ops, [0.1, 10) for the logarithms.
float value(int64_t i, bool positive) {
  const float t = static_cast<float>((i * 7919) % kN) / static_cast<float>(kN);
  return positive ? 0.1f + 9.9f * t : -3.0f + 6.0f * t;
}

bp::Tensor bp_input(bool positive) {
  bp::Tensor t =
      bp::native::empty({kN}, bp::ScalarType::kFloat32, bp::Device(bp::DeviceType::kCPU));
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

at::Tensor torch_input(bool positive) {
  at::Tensor t = at::empty({kN}, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

// Op names are found by argument-dependent lookup at instantiation, so an op Backplane does not
// declare yet makes its concept false instead of failing the build.
#define BP_BENCH_OP(op, positive)                                                             \
  template <typename T>                                                                       \
  concept Has_##op = requires(T t) {                                                          \
    op##_out(t, t);                                                                           \
  };                                                                                          \
  template <typename T>                                                                       \
  void BM_bp_##op(benchmark::State& state) {                                                  \
    bp::set_num_threads(1);                                                                   \
    T x = bp_input(positive), out = bp_input(positive);                                       \
    for (auto _ : state) op##_out(out, x);                                                    \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
  }                                                                                           \
  void BM_torch_##op(benchmark::State& state) {                                               \
    at::set_num_threads(1);                                                                   \
    at::Tensor x = torch_input(positive), out = torch_input(positive);                        \
    for (auto _ : state) at::op##_out(out, x);                                                \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
  }                                                                                           \
  template <typename T>                                                                       \
  bool register_##op() {                                                                      \
    if constexpr (Has_##op<T>) {                                                              \
      benchmark::RegisterBenchmark("bp/" #op, BM_bp_##op<T>)->Unit(benchmark::kMicrosecond);  \
    }                                                                                         \
    benchmark::RegisterBenchmark("torch/" #op, BM_torch_##op)->Unit(benchmark::kMicrosecond); \
    return true;                                                                              \
  }                                                                                           \
  [[maybe_unused]] const bool registered_##op = register_##op<bp::Tensor>();

BP_BENCH_OP(exp, false)
BP_BENCH_OP(log, true)
BP_BENCH_OP(sin, false)
BP_BENCH_OP(tanh, false)
BP_BENCH_OP(sigmoid, false)
BP_BENCH_OP(gelu, false)
BP_BENCH_OP(erf, false)
BP_BENCH_OP(log1p, true)

// Binary ops: x and y of a dtype (y equal to x at every third element, so comparisons find both
// answers; never 0, so that integer divisions do not raise), into an out of another or the same
// dtype, each spelled as Backplane and libtorch do. `name` says the dtypes.
template <typename T>
void fill_pair(T* x, T* y) {
  for (int64_t i = 0; i < kN; ++i) {
    x[i] = static_cast<T>(value(i, false) * 1000);
    y[i] = i % 3 == 0 ? x[i] : static_cast<T>(x[i] + 1);
    if (y[i] == T(0)) y[i] = T(1);
  }
}

template <typename T>
void bp_pair(bp::ScalarType dtype, bp::Tensor& x, bp::Tensor& y) {
  const bp::Device cpu(bp::DeviceType::kCPU);
  x = bp::native::empty({kN}, dtype, cpu);
  y = bp::native::empty({kN}, dtype, cpu);
  fill_pair(x.data_ptr<T>(), y.data_ptr<T>());
}

template <typename T>
void torch_pair(at::ScalarType dtype, at::Tensor& x, at::Tensor& y) {
  x = at::empty({kN}, dtype);
  y = at::empty({kN}, dtype);
  fill_pair(x.data_ptr<T>(), y.data_ptr<T>());
}

#define BP_BENCH_BINARY_OP(op, name, T, bp_dtype, at_dtype, bp_out, at_out, ...)                  \
  template <typename Tensor>                                                                      \
  concept Has_##name = requires(Tensor t) {                                                       \
    op##_out(t, t, t __VA_OPT__(, ) __VA_ARGS__);                                                 \
  };                                                                                              \
  template <typename Tensor>                                                                      \
  void BM_bp_##name(benchmark::State& state) {                                                    \
    bp::set_num_threads(1);                                                                       \
    Tensor x, y;                                                                                  \
    bp_pair<T>(bp::ScalarType::bp_dtype, x, y);                                                   \
    Tensor out =                                                                                  \
        bp::native::empty({kN}, bp::ScalarType::bp_out, bp::Device(bp::DeviceType::kCPU));        \
    for (auto _ : state) op##_out(out, x, y __VA_OPT__(, ) __VA_ARGS__);                          \
    state.SetItemsProcessed(state.iterations() * kN);                                             \
  }                                                                                               \
  void BM_torch_##name(benchmark::State& state) {                                                 \
    at::set_num_threads(1);                                                                       \
    at::Tensor x, y;                                                                              \
    torch_pair<T>(at::ScalarType::at_dtype, x, y);                                                \
    at::Tensor out = at::empty({kN}, at::ScalarType::at_out);                                     \
    for (auto _ : state) at::op##_out(out, x, y __VA_OPT__(, ) __VA_ARGS__);                      \
    state.SetItemsProcessed(state.iterations() * kN);                                             \
  }                                                                                               \
  template <typename Tensor>                                                                      \
  bool register_##name() {                                                                        \
    if constexpr (Has_##name<Tensor>) {                                                           \
      benchmark::RegisterBenchmark("bp/" #name, BM_bp_##name<Tensor>)                             \
          ->Unit(benchmark::kMicrosecond);                                                        \
    }                                                                                             \
    benchmark::RegisterBenchmark("torch/" #name, BM_torch_##name)->Unit(benchmark::kMicrosecond); \
    return true;                                                                                  \
  }                                                                                               \
  [[maybe_unused]] const bool registered_##name = register_##name<bp::Tensor>();

BP_BENCH_BINARY_OP(ne, ne_float32_to_bool, float, kFloat32, Float, kBool, Bool)
BP_BENCH_BINARY_OP(ne, ne_float32_to_float32, float, kFloat32, Float, kFloat32, Float)
BP_BENCH_BINARY_OP(ne, ne_int64_to_bool, int64_t, kInt64, Long, kBool, Bool)
BP_BENCH_BINARY_OP(bitwise_xor, bitwise_xor_int32, int32_t, kInt32, Int, kInt32, Int)
BP_BENCH_BINARY_OP(bitwise_xor, bitwise_xor_int64, int64_t, kInt64, Long, kInt64, Long)
BP_BENCH_BINARY_OP(bitwise_xor, bitwise_xor_uint8, uint8_t, kUInt8, Byte, kUInt8, Byte)
BP_BENCH_BINARY_OP(minimum, minimum_float32, float, kFloat32, Float, kFloat32, Float)
BP_BENCH_BINARY_OP(minimum, minimum_int32, int32_t, kInt32, Int, kInt32, Int)
BP_BENCH_BINARY_OP(minimum, minimum_int64, int64_t, kInt64, Long, kInt64, Long)
BP_BENCH_BINARY_OP(floor_divide, floor_divide_float32, float, kFloat32, Float, kFloat32, Float)
BP_BENCH_BINARY_OP(floor_divide, floor_divide_float64, double, kFloat64, Double, kFloat64, Double)
BP_BENCH_BINARY_OP(floor_divide, floor_divide_int32, int32_t, kInt32, Int, kInt32, Int)
BP_BENCH_BINARY_OP(floor_divide, floor_divide_int64, int64_t, kInt64, Long, kInt64, Long)
BP_BENCH_BINARY_OP(div, div_trunc_float32, float, kFloat32, Float, kFloat32, Float, "trunc")
BP_BENCH_BINARY_OP(div, div_trunc_int32, int32_t, kInt32, Int, kInt32, Int, "trunc")
BP_BENCH_BINARY_OP(remainder, remainder_float32, float, kFloat32, Float, kFloat32, Float)
BP_BENCH_BINARY_OP(remainder, remainder_float64, double, kFloat64, Double, kFloat64, Double)
BP_BENCH_BINARY_OP(fmod, fmod_float32, float, kFloat32, Float, kFloat32, Float)
BP_BENCH_BINARY_OP(fmod, fmod_float64, double, kFloat64, Double, kFloat64, Double)

// masked_fill_ (in place, the form models use): float32 self, a bool mask set at about half the
// elements, in runs of ~60 (`runs`: positive values of value(), which libtorch's branchy loop
// predicts well) or at pseudo-random elements (`random`), the value 1.5.
bool mask_at(int64_t i, bool random) {
  if (!random) return value(i, false) > 0;
  uint64_t h = static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull;
  h ^= h >> 29;
  return (h * 0xbf58476d1ce4e5b9ull) >> 63;
}

template <typename Tensor>
concept Has_masked_fill_ = requires(Tensor t) {
  t.masked_fill_(t, 1.5);
};

template <typename Tensor>
void BM_bp_masked_fill(benchmark::State& state, bool random) {
  bp::set_num_threads(1);
  Tensor x = bp_input(false);
  Tensor mask = bp::native::empty({kN}, bp::ScalarType::kBool, bp::Device(bp::DeviceType::kCPU));
  bool* m = mask.template data_ptr<bool>();
  for (int64_t i = 0; i < kN; ++i) m[i] = mask_at(i, random);
  for (auto _ : state) x.masked_fill_(mask, 1.5);
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_torch_masked_fill(benchmark::State& state, bool random) {
  at::set_num_threads(1);
  at::Tensor x = torch_input(false);
  at::Tensor mask = at::empty({kN}, at::kBool);
  bool* m = mask.data_ptr<bool>();
  for (int64_t i = 0; i < kN; ++i) m[i] = mask_at(i, random);
  for (auto _ : state) x.masked_fill_(mask, 1.5);
  state.SetItemsProcessed(state.iterations() * kN);
}

template <typename Tensor>
bool register_masked_fill() {
  for (bool random : {false, true}) {
    const std::string name = std::string("masked_fill_float32_") + (random ? "random" : "runs");
    if constexpr (Has_masked_fill_<Tensor>) {
      benchmark::RegisterBenchmark(("bp/" + name).c_str(), BM_bp_masked_fill<Tensor>, random)
          ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark(("torch/" + name).c_str(), BM_torch_masked_fill, random)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}
[[maybe_unused]] const bool registered_masked_fill = register_masked_fill<bp::Tensor>();

// Reductions, scans and normalisations of issue 23, float32, one thread: sum of a 4096 x 4096
// matrix over dim 0, over dim 1 and over every dim, cumsum of 1e6, softmax over the last dim of
// [4096, 1024], argmin of 1e6 (without a dim); and sum and amax over the short rows of
// [65536, 256].
float spread_value(int64_t i) {
  return -3.0f + 6.0f * static_cast<float>((i * 7919) % 100003) / 100003.0f;
}

bp::Tensor bp_values(std::vector<int64_t> sizes) {
  bp::Tensor t =
      bp::native::empty(sizes, bp::ScalarType::kFloat32, bp::Device(bp::DeviceType::kCPU));
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = spread_value(i);
  return t;
}

at::Tensor torch_values(std::vector<int64_t> sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = spread_value(i);
  return t;
}

constexpr int64_t kSide = 4096;

// A [rows, cols] matrix summed over dim (0, 1, or -1 for every dim).
void BM_bp_sum(benchmark::State& state, int64_t rows, int64_t cols, int64_t dim) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({rows, cols});
  bp::Tensor out =
      bp_values(dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim == 0 ? cols : rows});
  const std::vector<int64_t> dims = dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
  for (auto _ : state) bp::sum_out(out, x, bp::IntArrayRef(dims), false);
  state.SetItemsProcessed(state.iterations() * rows * cols);
}

void BM_torch_sum(benchmark::State& state, int64_t rows, int64_t cols, int64_t dim) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({rows, cols});
  at::Tensor out =
      torch_values(dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim == 0 ? cols : rows});
  const std::vector<int64_t> dims = dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
  for (auto _ : state) at::sum_out(out, x, at::IntArrayRef(dims), false);
  state.SetItemsProcessed(state.iterations() * rows * cols);
}

// amax over the rows of [65536, 256]: short rows, where per-output costs show.
void BM_bp_amax_rows(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({65536, 256});
  bp::Tensor out = bp_values({65536});
  const int64_t dim = 1;
  for (auto _ : state) bp::amax_out(out, x, bp::IntArrayRef(&dim, 1), false);
  state.SetItemsProcessed(state.iterations() * 65536 * 256);
}

void BM_torch_amax_rows(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({65536, 256});
  at::Tensor out = torch_values({65536});
  const int64_t dim = 1;
  for (auto _ : state) at::amax_out(out, x, at::IntArrayRef(&dim, 1), false);
  state.SetItemsProcessed(state.iterations() * 65536 * 256);
}

void BM_bp_cumsum(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({kN});
  bp::Tensor out = bp_values({kN});
  for (auto _ : state) bp::cumsum_out(out, x, 0);
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_torch_cumsum(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({kN});
  at::Tensor out = torch_values({kN});
  for (auto _ : state) at::cumsum_out(out, x, 0);
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_bp_softmax(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({4096, 1024});
  bp::Tensor out = bp_values({4096, 1024});
  for (auto _ : state) bp::softmax_out(out, x, 1);
  state.SetItemsProcessed(state.iterations() * 4096 * 1024);
}

void BM_torch_softmax(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({4096, 1024});
  at::Tensor out = torch_values({4096, 1024});
  for (auto _ : state) at::softmax_out(out, x, 1);
  state.SetItemsProcessed(state.iterations() * 4096 * 1024);
}

void BM_bp_argmin(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({kN});
  bp::Tensor out = bp::native::empty({}, bp::ScalarType::kInt64, bp::Device(bp::DeviceType::kCPU));
  for (auto _ : state) bp::argmin_out(out, x);
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_torch_argmin(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({kN});
  at::Tensor out = at::empty({}, at::kLong);
  for (auto _ : state) at::argmin_out(out, x);
  state.SetItemsProcessed(state.iterations() * kN);
}

bool register_reductions() {
  for (int64_t dim : {0, 1, -1}) {
    const std::string name =
        dim < 0 ? "sum_all_4096x4096" : "sum_dim" + std::to_string(dim) + "_4096x4096";
    benchmark::RegisterBenchmark(("bp/" + name).c_str(), BM_bp_sum, kSide, kSide, dim)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("torch/" + name).c_str(), BM_torch_sum, kSide, kSide, dim)
        ->Unit(benchmark::kMicrosecond);
  }
  // Short rows: per-output costs (they once took 3x PyTorch's time here).
  benchmark::RegisterBenchmark("bp/sum_dim1_65536x256", BM_bp_sum, 65536, 256, 1)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/sum_dim1_65536x256", BM_torch_sum, 65536, 256, 1)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/amax_dim1_65536x256", BM_bp_amax_rows)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/amax_dim1_65536x256", BM_torch_amax_rows)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/cumsum_1e6", BM_bp_cumsum)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/cumsum_1e6", BM_torch_cumsum)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/softmax_4096x1024", BM_bp_softmax)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/softmax_4096x1024", BM_torch_softmax)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/argmin_1e6", BM_bp_argmin)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/argmin_1e6", BM_torch_argmin)->Unit(benchmark::kMicrosecond);
  return true;
}
[[maybe_unused]] const bool registered_reductions = register_reductions();

}  // namespace
}  // namespace bp_bench
