// Unary ops (issue 21), binary ops (issue 22) and masked_fill_, Backplane next to libtorch (see
// support.h).
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

// Op names are found by argument-dependent lookup at instantiation, so an op Backplane does not
// declare yet makes its concept false instead of failing the build.
#define BP_BENCH_OP(op, positive, limit)                                                      \
  template <typename T>                                                                       \
  concept Has_##op = requires(T t) {                                                          \
    op##_out(t, t);                                                                           \
  };                                                                                          \
  template <typename T>                                                                       \
  void BM_bp_##op(benchmark::State& state) {                                                  \
    bp::set_num_threads(1);                                                                   \
    T x = bp_input(positive), out = bp_input(positive);                                       \
    measure(state, [&] { op##_out(out, x); });                                                \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
    held_to(state, limit);                                                                    \
  }                                                                                           \
  void BM_torch_##op(benchmark::State& state) {                                               \
    at::set_num_threads(1);                                                                   \
    at::Tensor x = torch_input(positive), out = torch_input(positive);                        \
    measure(state, [&] { at::op##_out(out, x); });                                            \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
    held_to(state, limit);                                                                    \
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

BP_BENCH_OP(exp, false, "mvec_expf_1e6")
BP_BENCH_OP(log, true, "")
BP_BENCH_OP(sin, false, "")
BP_BENCH_OP(tanh, false, "")
BP_BENCH_OP(sigmoid, false, "mvec_expf_1e6")
BP_BENCH_OP(gelu, false, "")
BP_BENCH_OP(erf, false, "")
BP_BENCH_OP(log1p, true, "")

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
    measure(state, [&] { op##_out(out, x, y __VA_OPT__(, ) __VA_ARGS__); });                      \
    state.SetItemsProcessed(state.iterations() * kN);                                             \
  }                                                                                               \
  void BM_torch_##name(benchmark::State& state) {                                                 \
    at::set_num_threads(1);                                                                       \
    at::Tensor x, y;                                                                              \
    torch_pair<T>(at::ScalarType::at_dtype, x, y);                                                \
    at::Tensor out = at::empty({kN}, at::ScalarType::at_out);                                     \
    measure(state, [&] { at::op##_out(out, x, y __VA_OPT__(, ) __VA_ARGS__); });                  \
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
  measure(state, [&] { x.masked_fill_(mask, 1.5); });
  state.SetItemsProcessed(state.iterations() * kN);
}

void BM_torch_masked_fill(benchmark::State& state, bool random) {
  at::set_num_threads(1);
  at::Tensor x = torch_input(false);
  at::Tensor mask = at::empty({kN}, at::kBool);
  bool* m = mask.data_ptr<bool>();
  for (int64_t i = 0; i < kN; ++i) m[i] = mask_at(i, random);
  measure(state, [&] { x.masked_fill_(mask, 1.5); });
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

}  // namespace
}  // namespace bp_bench
