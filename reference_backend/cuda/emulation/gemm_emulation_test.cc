// Runs the batched matrix product kernel (gemm_kernel.h) in every dtype it supports, compiled as
// host C++ with the threads of a block run concurrently (emulator.h), and compares its output
// with a loop in double precision (complex<double>; integers reduced to the dtype's width as the
// CPU's wrapping arithmetic does): shapes across tile edges, transposed and strided operands, a
// batch broadcast b, a broadcast c, beta 0 over a c full of NaN, alpha 0, k = 0, a transposed
// output and more batches, rows and columns than one block holds.
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/emulator.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/gemm_kernel.h"
#include "reference_backend/cuda/host_values.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

using C = std::complex<double>;

// A contiguous CPU tensor of `dtype`: small integers for integral dtypes, quarters in [-3, 3]
// otherwise (exact in every floating dtype, and sums of their products exact in float), an
// imaginary part for complex dtypes. `fill` replaces every value when given.
Tensor values(std::vector<int64_t> sizes, ScalarType dtype, uint64_t seed,
              std::optional<double> fill = std::nullopt) {
  Tensor t = random_tensor(sizes, ScalarType::kComplex128, seed);  // overwritten
  auto* data = t.data_ptr<complex<double>>();
  const bool integral = info(dtype_of(dtype)).is_integral;
  const bool unsigned_ = dtype == ScalarType::kUInt8;
  uint64_t state = seed;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % 25) - 12;
  };
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double re = fill       ? *fill
                      : integral ? double(unsigned_ ? std::abs(next() % 10) : next() % 10)
                                 : next() / 4.0;
    const double im = is_complex(dtype) && !fill ? next() / 4.0 : 0.0;
    data[i] = complex<double>(re, im);
  }
  return converted(t, dtype);
}

// x's element [b, i, j] (x viewed as 3 dims, contiguous complex128 after converted()).
C at(const Tensor& x, int64_t b, int64_t i, int64_t j) {
  const auto v = x.data_ptr<complex<double>>()[(b * x.size(1) + i) * x.size(2) + j];
  return C(v.real(), v.imag());
}

class GemmEmulation : public ::testing::Test {
 protected:
  // out = beta * c + alpha * (a @ b) for CPU tensors a [B, n, k], b [B, k, p] and c (of the
  // product's shape, any strides; undefined: no c), each copied to the device with its strides;
  // out on the device with `out_strides` (contiguous when empty).
  void check(const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta,
             const std::string& what, std::vector<int64_t> out_strides = {}) {
    const ScalarType type = a.dtype();
    const Dtype dtype = dtype_of(type);
    const GemmKernel k{dtype};
    SCOPED_TRACE(what + ": " + k.entry_name());
    const int64_t batches = a.size(0), n = a.size(1), kk = a.size(2), p = b.size(2);
    const Tensor da = device_.copy_of(a), db = device_.copy_of(b);
    const Tensor dc = c.defined() ? device_.copy_of(c) : Tensor();
    const Tensor out = device_.empty({batches, n, p}, type, out_strides);
    auto strides = [](const Tensor& t) {
      return std::array<int64_t, 3>{t.stride(0), t.stride(1), t.stride(2)};
    };
    GemmGeometry g;
    g.batches = batches;
    g.n = n;
    g.p = p;
    g.k = kk;
    g.out = {out.data_ptr(), strides(out)};
    g.a = {da.data_ptr(), strides(da)};
    g.b = {db.data_ptr(), strides(db)};
    g.add = c.defined() && beta != 0;
    g.alpha_zero = alpha == 0;
    if (g.add) g.c = {dc.data_ptr(), strides(dc)};
    // As the plugin: the Scalar in the dtype, then in the compute type.
    // Integral dtypes take integer Scalars (as a caller of an integer product would pass).
    auto scalar = [&](double v) {
      const Scalar s = info(dtype).is_integral ? Scalar(static_cast<int64_t>(v)) : Scalar(v);
      const jit::Value in_dtype = scalar_as(abi_value(s), dtype);
      return element_as(in_dtype.bytes, dtype, dtype, gemm_compute_dtype(dtype));
    };
    g.alpha = scalar(alpha);
    g.beta = scalar(beta);
    const GemmLaunch launch = plan_gemm(k, g);
    ASSERT_GT(launch.grid_x, 0u);
    const emulation::EmulatedKernel kernel = emulation::find_emulated_kernel(k.entry_name());
    ASSERT_TRUE(kernel) << k.entry_name() << " was not built for emulation";
    emulation::emulate_launch(kernel, {launch.grid_x, launch.grid_y, launch.grid_z},
                              {jit::kGemmTile, jit::kGemmTile}, &launch.args);
    ++launches_;

    // The reference, in double precision, then converted to the dtype (through int64 for
    // integral dtypes: the low bits of the exact sum are the wrapped sum's).
    const Tensor wa = converted(a, ScalarType::kComplex128);
    const Tensor wb = converted(b, ScalarType::kComplex128);
    const Tensor wc = g.add ? converted(c, ScalarType::kComplex128) : Tensor();
    Tensor expected = values({batches, n, p}, ScalarType::kComplex128, 0);
    auto* e = expected.data_ptr<complex<double>>();
    for (int64_t bi = 0; bi < batches; ++bi) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < p; ++j) {
          C sum = 0;
          for (int64_t x = 0; x < kk; ++x) sum += at(wa, bi, i, x) * at(wb, bi, x, j);
          C r = alpha * sum;  // at alpha 0 too: 0 * NaN is NaN
          if (g.add) r += beta * at(wc, bi, i, j);
          e[(bi * n + i) * p + j] = complex<double>(r.real(), r.imag());
        }
      }
    }
    if (info(dtype).is_integral) expected = converted(expected, ScalarType::kInt64);
    expect_same_values(out, converted(expected, type), what);
  }

  EmulatedDevice device_;
  int launches_ = 0;
};

TEST_F(GemmEmulation, EveryDtypeMatchesADoublePrecisionLoop) {
  ASSERT_FALSE(all_gemm_kernels().empty());
  uint64_t seed = 1;
  for (const GemmKernel& k : all_gemm_kernels()) {
    const ScalarType t = scalar_type_of(k.dtype);
    auto v = [&](std::vector<int64_t> sizes) { return values(sizes, t, ++seed); };
    // 2 x 2 tiles of out, two steps along k (the last partial), alpha and beta not 1.
    check(v({2, 19, 21}), v({2, 21, 17}), v({2, 19, 17}), 2, -3, "[2, 19, 21] @ [2, 21, 17] + c");
    check(v({1, 5, 3}), v({1, 3, 4}), Tensor(), 1, 0, "mm");
  }
  EXPECT_EQ(launches_, 2 * static_cast<int>(all_gemm_kernels().size()));
}

TEST_F(GemmEmulation, StridedOperandsBroadcastsAndSpecialScalars) {
  uint64_t seed = 100;
  for (ScalarType t :
       {ScalarType::kFloat32, ScalarType::kInt64, ScalarType::kComplex128, ScalarType::kBFloat16}) {
    auto v = [&](std::vector<int64_t> sizes) { return values(sizes, t, ++seed); };
    const Tensor a = v({2, 18, 20}), b = v({2, 20, 9});
    const Tensor c = v({2, 18, 9});
    check(native::transpose(v({2, 20, 18}), 1, 2), b, c, 1, 1, "transposed a");
    check(a, native::transpose(v({2, 9, 20}), 1, 2), c, 1, 1, "transposed b");
    check(native::transpose(native::transpose(v({20, 2, 18}), 0, 2), 0, 1), b, c, 1, 1,
          "a of permuted strides");
    check(a, native::expand(v({1, 20, 9}), {2, 20, 9}), c, 1, 1, "b broadcast over the batch");
    check(a, b, native::expand(v({1, 1, 9}), {2, 18, 9}), 1, 2, "c broadcast");
    check(a, b, native::expand(v({1, 18, 1}), {2, 18, 9}), 1, 2, "c broadcast along columns");
    check(a, b, Tensor(), 2, 0, "no c");
    check(a, b, c, 1, 0, "beta 0: c unread", {});
    check(v({3, 4, 0}), v({3, 0, 5}), v({3, 4, 5}), 2, 3, "k = 0");
    check(v({3, 4, 0}), v({3, 0, 5}), Tensor(), 2, 0, "k = 0, no c");
    check(v({2, 1, 7}), v({2, 7, 1}), Tensor(), 1, 0, "1 x 1");
    check(a, b, c, 1, 1, "transposed out", {18 * 9, 1, 18});
    if (t != ScalarType::kInt64) {
      check(a, b, values({2, 18, 9}, t, 0, std::nan("")), 1, 0, "beta 0 over NaN");
      check(values({2, 18, 20}, t, 0, std::nan("")), b, c, 0, 2, "alpha 0 over NaN");
    }
  }
}

TEST_F(GemmEmulation, MoreBatchesRowsAndColumnsThanABlock) {
  check(values({3, 40, 50}, ScalarType::kFloat64, 7), values({3, 50, 33}, ScalarType::kFloat64, 8),
        values({3, 40, 33}, ScalarType::kFloat64, 9), 0.5, 0.25, "3 x 3 x 3 blocks");
}

TEST(GemmPlan, LimitsFallBackToTheCpu) {
  GemmGeometry g;
  g.batches = 1;
  g.n = 2;
  g.p = 2;
  g.k = 2;
  g.out.strides = {4, 2, 1};
  g.a.strides = {4, 2, 1};
  g.b.strides = {4, 2, int64_t{1} << 31};  // past 32-bit byte offsets
  EXPECT_THROW(plan_gemm(GemmKernel{Dtype::kFloat32}, g), BeyondKernelLimits);
  g.b.strides = {4, 2, -1};
  EXPECT_THROW(plan_gemm(GemmKernel{Dtype::kFloat32}, g), BeyondKernelLimits);
  g.b.strides = {4, 2, 1};
  g.n = 65536 * jit::kGemmTile;
  EXPECT_THROW(plan_gemm(GemmKernel{Dtype::kFloat32}, g), BeyondKernelLimits);
  g.n = 0;
  EXPECT_EQ(plan_gemm(GemmKernel{Dtype::kFloat32}, g).grid_x, 0u);
  EXPECT_FALSE(gemm_supports(Dtype::kFloat16));
  EXPECT_FALSE(gemm_supports(Dtype::kBool));
}

}  // namespace
}  // namespace bp::cuda
