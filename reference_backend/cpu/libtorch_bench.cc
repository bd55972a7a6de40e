// Backplane's CPU kernels next to libtorch's (Debian's libtorch-dev 1.13.1), in the same process,
// one thread each: the unary ops of issue 21 on 1e6 float32 elements, binary ops of issue 22 on
// 1e6 elements of the dtypes named beside them (out= variants; masked_fill: in place), issue 23's
// reductions, scans and softmax, and issue 27's cases (casts, broadcasts, allocating calls,
// contiguous() of a transpose, fixed costs of tiny calls). Next to them, under limit/, the limits
// of this machine measured in the same run: memcpy, STREAM's triad, a read-only sum and glibc's
// vector exp (libmvec). Every case reports page faults per call (faults_per_call, getrusage's
// minor faults over the timed loop); a case held to a limit names it in its label. Needs libtorch
// (the target is tagged manual: `bazel build //...` and `bazel test //...` skip it).
//
//   nice -n 10 bazel build --config=ci //reference_backend/cpu:libtorch_bench
//   ATEN_CPU_CAPABILITY=avx512 bazel-bin/reference_backend/cpu/libtorch_bench
//       --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
//       --benchmark_format=json > /tmp/r.json                        (one line, normal priority)
//   python3 reference_backend/cpu/libtorch_bench_table.py /tmp/r.json   # docs/performance.md's
//   table
//
// ATEN_CPU_CAPABILITY picks libtorch's kernels (default here: avx2; avx512 is its best on this
// machine); BP_CPU_CAPABILITY picks Backplane's. An op Backplane does not declare is left out
// (its torch row stays) and appears once its `bp::<op>_out` exists.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <immintrin.h>
#include <sys/resource.h>

#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "benchmark/benchmark.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

constexpr int64_t kN = 1000000;

// Minor page faults of this process so far (faults served without I/O: first touches of fresh
// pages, which is what a freshly mapped allocation costs).
int64_t minor_faults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// The timed loop of every case: calls `call` once per iteration and reports the page faults per
// call as the counter faults_per_call. One untimed call first touches the pages of outputs that
// setup left untouched, so a preallocated output's first-touch faults do not count.
template <typename Call>
void measure(benchmark::State& state, Call&& call) {
  call();
  const int64_t before = minor_faults();
  for (auto _ : state) call();
  state.counters["faults_per_call"] =
      static_cast<double>(minor_faults() - before) / static_cast<double>(state.iterations());
}

// Names the limit a case is held to (a benchmark limit/<name> of this binary); the table compares
// their bytes per second, or their items per second where the case counts no bytes.
void held_to(benchmark::State& state, const char* limit) {
  if (*limit != 0) state.SetLabel(limit);
}

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

// Matrix products at GPT-2 small's shapes (128 tokens, 768 wide), float32, one thread: x [m, k]
// times a weight stored [n, k] and transposed (as linear's), and attention's batched product.
// Items are multiply-adds times two: the table's G/s column is GFLOP/s.
void BM_bp_linear(benchmark::State& state, int64_t m, int64_t k, int64_t n) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({m, k}), w = bp_values({n, k});
  bp::Tensor out = bp_values({m, n});
  measure(state, [&] { bp::mm_out(out, x, w.t()); });
  state.SetItemsProcessed(state.iterations() * 2 * m * k * n);
}

void BM_torch_linear(benchmark::State& state, int64_t m, int64_t k, int64_t n) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({m, k}), w = torch_values({n, k});
  at::Tensor out = torch_values({m, n});
  measure(state, [&] { at::mm_out(out, x, w.t()); });
  state.SetItemsProcessed(state.iterations() * 2 * m * k * n);
}

void BM_bp_attention_scores(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor q = bp_values({12, 128, 64}), k = bp_values({12, 128, 64});
  bp::Tensor out = bp_values({12, 128, 128});
  measure(state, [&] { bp::bmm_out(out, q, k.transpose(1, 2)); });
  state.SetItemsProcessed(state.iterations() * 2 * 12 * 128 * 64 * 128);
}

void BM_torch_attention_scores(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor q = torch_values({12, 128, 64}), k = torch_values({12, 128, 64});
  at::Tensor out = torch_values({12, 128, 128});
  measure(state, [&] { at::bmm_out(out, q, k.transpose(1, 2)); });
  state.SetItemsProcessed(state.iterations() * 2 * 12 * 128 * 64 * 128);
}

// layer_norm over GPT-2 small's rows ([128, 768], weight and bias) and its token embedding
// (128 rows of a [50257, 768] table), float32, one thread.
void BM_bp_layer_norm(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({128, 768}), w = bp_values({768}), b = bp_values({768});
  const int64_t shape[] = {768};
  measure(state, [&] { benchmark::DoNotOptimize(bp::layer_norm(x, shape, w, b, 1e-5)); });
  state.SetItemsProcessed(state.iterations() * 128 * 768);
}

void BM_torch_layer_norm(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({128, 768}), w = torch_values({768}), b = torch_values({768});
  measure(state, [&] { benchmark::DoNotOptimize(at::layer_norm(x, {768}, w, b, 1e-5)); });
  state.SetItemsProcessed(state.iterations() * 128 * 768);
}

void BM_bp_embedding(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor table = bp_values({50257, 768});
  const bp::Tensor tokens = bp::remainder(bp::mul(bp::arange(128), 389), 50257);
  measure(state, [&] { benchmark::DoNotOptimize(bp::embedding(table, tokens)); });
  state.SetBytesProcessed(state.iterations() * 128 * 768 * 4);
}

void BM_torch_embedding(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor table = torch_values({50257, 768});
  const at::Tensor tokens = at::remainder(at::mul(at::arange(128), 389), 50257);
  measure(state, [&] { benchmark::DoNotOptimize(at::embedding(table, tokens)); });
  state.SetBytesProcessed(state.iterations() * 128 * 768 * 4);
}

bool register_products() {
  for (const auto& [name, m, k, n] : {std::tuple{"linear_qkv_128x768x2304", 128, 768, 2304},
                                      std::tuple{"linear_proj_128x768x768", 128, 768, 768},
                                      std::tuple{"linear_fc2_128x3072x768", 128, 3072, 768},
                                      std::tuple{"linear_1x768x2304", 1, 768, 2304}}) {
    benchmark::RegisterBenchmark((std::string("bp/") + name).c_str(), BM_bp_linear, m, k, n)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("torch/") + name).c_str(), BM_torch_linear, m, k, n)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("bp/bmm_attention_12x128x64x128", BM_bp_attention_scores)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/bmm_attention_12x128x64x128", BM_torch_attention_scores)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/layer_norm_128x768", BM_bp_layer_norm)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/layer_norm_128x768", BM_torch_layer_norm)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bp/embedding_128_of_50257x768", BM_bp_embedding)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("torch/embedding_128_of_50257x768", BM_torch_embedding)
      ->Unit(benchmark::kMicrosecond);
  return true;
}
[[maybe_unused]] const bool registered_products = register_products();

// Issue 27's cases, float32 unless named, one thread.
constexpr int64_t k16M = 16000000;  // 64 MB of float32: out of every cache
constexpr int64_t kTransposeSide = 4000;

template <typename T>
void fill_values(T* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(spread_value(i));
}

const bp::Device kCpu(bp::DeviceType::kCPU);

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

// contiguous() of the transpose of a 4000 x 4000 matrix: a new tensor each call.
void BM_bp_contiguous_t(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor t = bp_values({kTransposeSide, kTransposeSide}).t();
  measure(state, [&] { benchmark::DoNotOptimize(t.contiguous()); });
  state.SetBytesProcessed(state.iterations() * 2 * kTransposeSide * kTransposeSide * 4);
  held_to(state, "memcpy_1.6e7");
}

void BM_torch_contiguous_t(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor t = torch_values({kTransposeSide, kTransposeSide}).t();
  c10::InferenceMode no_autograd;
  measure(state, [&] { benchmark::DoNotOptimize(t.contiguous()); });
  state.SetBytesProcessed(state.iterations() * 2 * kTransposeSide * kTransposeSide * 4);
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

// The limits, on one thread: memcpy (bytes read + written), STREAM's triad a = b + s * c
// vectorised through dispatch_cpu as the kernels and sdk/iter/bandwidth_baselines.cc's BM_Triad
// are (that library is not linked: it registers every size on 1 and 2 threads), a read-only sum
// on four vector accumulators, and glibc's vector exp (libmvec, 4 ulp) called explicitly on
// 64-byte vectors (32-byte ones without AVX-512), out of place.
void BM_memcpy(benchmark::State& state, int64_t n) {
  const bp::Tensor a = bp_values({n});
  bp::Tensor b = bp_values({n});
  const float* src = a.data_ptr<float>();
  float* dst = b.data_ptr<float>();
  measure(state, [&] {
    std::memcpy(dst, src, static_cast<size_t>(n) * 4);
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(state.iterations() * 2 * n * 4);
}

void BM_triad(benchmark::State& state, int64_t n) {
  bp::Tensor a = bp_values({n});
  const bp::Tensor b = bp_values({n}), c = bp_values({n});
  float* pa = a.data_ptr<float>();
  const float* pb = b.data_ptr<float>();
  const float* pc = c.data_ptr<float>();
  const float s = 3;
  measure(state, [&] {
    bp::dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      using Vec = bp::Vectorized<float, width>;
      int64_t i = 0;
      for (; i + Vec::size() <= n; i += Vec::size()) {
        (Vec::loadu(pb + i) + Vec(s) * Vec::loadu(pc + i)).store(pa + i);
      }
      for (; i < n; ++i) pa[i] = pb[i] + s * pc[i];
    });
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(state.iterations() * 3 * n * 4);
}

void BM_read_sum(benchmark::State& state, int64_t n) {
  const bp::Tensor a = bp_values({n});
  const float* p = a.data_ptr<float>();
  measure(state, [&] {
    float total = 0;
    bp::dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      using Vec = bp::Vectorized<float, width>;
      constexpr int64_t kStep = 4 * Vec::size();
      Vec s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
      int64_t i = 0;
      for (; i + kStep <= n; i += kStep) {
        s0 = s0 + Vec::loadu(p + i);
        s1 = s1 + Vec::loadu(p + i + Vec::size());
        s2 = s2 + Vec::loadu(p + i + 2 * Vec::size());
        s3 = s3 + Vec::loadu(p + i + 3 * Vec::size());
      }
      float lanes[Vec::size()];
      ((s0 + s1) + (s2 + s3)).store(lanes);
      for (float lane : lanes) total += lane;
      for (; i < n; ++i) total += p[i];
    });
    benchmark::DoNotOptimize(total);
  });
  state.SetBytesProcessed(state.iterations() * n * 4);
  state.SetItemsProcessed(state.iterations() * n);
}

extern "C" {
// glibc's libmvec (x86_64 vector function ABI: 'e' AVX-512, 'd' AVX2; N lanes; one vector arg).
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_expf(__m512);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_exp(__m512d);
__attribute__((target("avx2"))) __m256 _ZGVdN8v_expf(__m256);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_exp(__m256d);
}

__attribute__((target("avx512f"))) void mvec_exp_avx512(const float* x, float* y, int64_t n) {
  const int64_t whole = n - n % 16;
  int64_t i = 0;
  for (; i < whole; i += 16) _mm512_storeu_ps(y + i, _ZGVeN16v_expf(_mm512_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx512f"))) void mvec_exp_avx512(const double* x, double* y, int64_t n) {
  const int64_t whole = n - n % 8;
  int64_t i = 0;
  for (; i < whole; i += 8) _mm512_storeu_pd(y + i, _ZGVeN8v_exp(_mm512_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx2"))) void mvec_exp_avx2(const float* x, float* y, int64_t n) {
  const int64_t whole = n - n % 8;
  int64_t i = 0;
  for (; i < whole; i += 8) _mm256_storeu_ps(y + i, _ZGVdN8v_expf(_mm256_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx2"))) void mvec_exp_avx2(const double* x, double* y, int64_t n) {
  const int64_t whole = n - n % 4;
  int64_t i = 0;
  for (; i < whole; i += 4) _mm256_storeu_pd(y + i, _ZGVdN4v_exp(_mm256_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

template <typename T>
void BM_mvec_exp(benchmark::State& state) {
  std::vector<T> x(kN), y(kN);
  fill_values(x.data(), kN);
  const bool avx512 = __builtin_cpu_supports("avx512f");
  measure(state, [&] {
    if (avx512) {
      mvec_exp_avx512(x.data(), y.data(), kN);
    } else {
      mvec_exp_avx2(x.data(), y.data(), kN);
    }
    benchmark::ClobberMemory();
  });
  state.SetItemsProcessed(state.iterations() * kN);
  state.SetLabel(avx512 ? "AVX-512" : "AVX2");
}

bool register_issue_27() {
  const auto add = [](const std::string& name, auto bp, auto torch, auto... args) {
    benchmark::RegisterBenchmark(("bp/" + name).c_str(), bp, args...)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("torch/" + name).c_str(), torch, args...)
        ->Unit(benchmark::kMicrosecond);
  };
  add("copy_float32_to_float16_1.6e7", BM_bp_copy_f16, BM_torch_copy_f16);
  add("exp_float64", BM_bp_exp_float64, BM_torch_exp_float64);
  add("mul_1000x1000_by_row", BM_bp_mul_row, BM_torch_mul_row);
  add("add_out_1.6e7", BM_bp_add_16M, BM_torch_add_16M, false);
  add("add_allocating_1.6e7", BM_bp_add_16M, BM_torch_add_16M, true);
  add("contiguous_of_t_4000x4000", BM_bp_contiguous_t, BM_torch_contiguous_t);
  add("tiny_add_1", BM_bp_tiny, BM_torch_tiny, Tiny::kAdd);
  add("tiny_add_out_1", BM_bp_tiny, BM_torch_tiny, Tiny::kAddOut);
  add("tiny_empty_1", BM_bp_tiny, BM_torch_tiny, Tiny::kEmpty);
  const auto limit = [](const std::string& name, auto run, auto... args) {
    benchmark::RegisterBenchmark(("limit/" + name).c_str(), run, args...)
        ->Unit(benchmark::kMicrosecond);
  };
  limit("memcpy_1e6", BM_memcpy, kN);
  limit("memcpy_1.6e7", BM_memcpy, k16M);
  limit("triad_1.6e7", BM_triad, k16M);
  limit("read_sum_1e6", BM_read_sum, kN);
  limit("read_sum_4096x4096", BM_read_sum, kSide * kSide);
  limit("mvec_expf_1e6", BM_mvec_exp<float>);
  limit("mvec_exp_1e6", BM_mvec_exp<double>);
  return true;
}
[[maybe_unused]] const bool registered_issue_27 = register_issue_27();

}  // namespace
}  // namespace bp_bench
