// Backplane's side of the intentional differences from PyTorch 1.13 that no op's own test pins
// (docs/pytorch_parity.md, "Intentional differences"): one test per row, named after its key
// in conformance/parity/generator/differences.py.
#include <complex>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using C = std::complex<double>;
using testing::HasSubstr;

// complex32: float16 meeting a complex number computes in complex64 (PyTorch 1.13: complex32).
TEST(IntentionalDifferences, Complex32) {
  const Tensor half = tensor_of(ST::kFloat16, {1, 2});
  expect_complex_values(add(half, Scalar(complex<double>(0, 1))), ST::kComplex64,
                        {C(1, 1), C(2, 1)});
  expect_complex_values(mul(half, complex_tensor_of(ST::kComplex64, {C(0, 2)}).select(0, 0)),
                        ST::kComplex64, {C(0, 2), C(0, 4)});
}

// dtype-checked-first: an op without a kernel for the dtype refuses empty and one-element
// inputs too (PyTorch 1.13 returns them).
TEST(IntentionalDifferences, DtypeCheckedFirst) {
  const Tensor none = empty({0, 3}, ST::kComplex64, kCpu);
  EXPECT_THAT(message_of([&] { cummax(none, 0); }), HasSubstr("not implemented for 'complex64'"));
  EXPECT_THAT(message_of([&] { softmax(int_tensor_of(ST::kInt64, {3}), 0); }),
              HasSubstr("not implemented for 'int64'"));
  EXPECT_THAT(message_of([&] {
                mm(empty({2, 0}, ST::kBool, kCpu), empty({0, 2}, ST::kBool, kCpu));
              }),
              HasSubstr("not implemented for 'bool'"));
}

// bfloat16-arithmetic: sinc and special_ndtr of bfloat16 compute in float32 and round once
// (PyTorch 1.13 rounds every operation to bfloat16: sinc(100) = 3.1e-4, ndtr(-2.5) = 0.00586).
TEST(IntentionalDifferences, BFloat16Arithmetic) {
  const Tensor x = tensor_of(ST::kBFloat16, {100, -2.5});
  const std::vector<double> s = values_of(sinc(x));
  EXPECT_NEAR(s[0], 0.0, 1e-6);
  const std::vector<double> n = values_of(special_ndtr(x));
  EXPECT_NEAR(n[1], 0.0062096653, 0.0062096653 / 256);  // within bfloat16's rounding
}

// smith-division, for sinc: sin(pi z) / (pi z) of a tiny complex z is 1 (PyTorch 1.13's
// division squares the divisor's parts to 0: nan+nanj).
TEST(IntentionalDifferences, SincDividesWithSmithsAlgorithm) {
  const Tensor z =
      complex_tensor_of(ST::kComplex128, {C(5.562684646268003e-309, -5.562684646268003e-309)});
  expect_complex_values(sinc(z), ST::kComplex128, {C(1, 0)});
}

// extra-dtype: dtypes Backplane declares where PyTorch 1.13 has no CPU kernel.
TEST(IntentionalDifferences, ExtraDtype) {
  expect_complex_values(arange(Scalar(3), ST::kComplex64), ST::kComplex64,
                        {C(0, 0), C(1, 0), C(2, 0)});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_complex_values(nan_to_num(complex_tensor_of(ST::kComplex128, {C(nan, 2)})),
                        ST::kComplex128, {C(0, 2)});
  expect_int_values(pow(tensor_of(ST::kBool, {1, 0}), Scalar(true)), ST::kBool, {1, 0});
  const auto [low, high] = aminmax(tensor_of(ST::kFloat16, {2.5, -1, 4}));
  expect_values(low, ST::kFloat16, {-1});
  expect_values(high, ST::kFloat16, {4});
}

// linspace-vectorised-integers: integral linspace is the two-sided formula element by element,
// so the last element is end (PyTorch 1.13's vectorised loop gives 0 for this one) and the
// second half counts down from end.
TEST(IntentionalDifferences, LinspaceVectorisedIntegers) {
  expect_int_values(linspace(-1, 1, 8, ST::kInt64), ST::kInt64, {-1, 0, 0, 0, 0, 0, 0, 1});
  expect_int_values(linspace(-100, 100, 13, ST::kInt64), ST::kInt64,
                    {-100, -83, -66, -50, -33, -16, 0, 16, 33, 50, 66, 83, 100});
}

// internal-error: where PyTorch 1.13 fails an internal check, Backplane's structured ops promote
// (addcmul of mixed dtypes), reduce (logsumexp over dim=[]: every dim, as sum and amax) or name
// the problem (where into another dtype).
TEST(IntentionalDifferences, InternalError) {
  expect_values(addcmul(tensor_of(ST::kFloat32, {1, 2}), tensor_of(ST::kFloat32, {3, 4}),
                        tensor_of(ST::kFloat64, {1, 1})),
                ST::kFloat64, {4, 6});
  expect_values(logsumexp(tensor_of(ST::kFloat32, {1, 2}), {}), ST::kFloat32, {2.3132617},
                tolerance_of(ST::kFloat32));
  Tensor out = int_tensor_of(ST::kInt64, {0, 0});
  EXPECT_THAT(message_of([&] {
                where_out(out, tensor_of(ST::kBool, {1, 0}), tensor_of(ST::kFloat32, {1, 2}),
                          tensor_of(ST::kFloat32, {3, 4}));
              }),
              HasSubstr("int64"));
  const std::vector<Tensor> two_outs = {int_tensor_of(ST::kInt64, {}),
                                        int_tensor_of(ST::kInt64, {})};
  EXPECT_THAT(
      message_of([&] {
        unsafe_split_out(two_outs, tensor_of(ST::kFloat32, {1, 2, 3}), 1);
      }),
      HasSubstr("unsafe_split_Tensor_out() expected an out= argument of size 3, got size 2"));
}

// fma: complex products are (ac - bd) + (ad + bc)i with each product rounded, so partial
// products that overflow give inf - inf = nan (PyTorch's result depends on where its compiler
// fused a multiply-add; so does addcmul's, Backplane's and PyTorch's, by the ISA it runs).
TEST(IntentionalDifferences, Fma) {
  const double big = 3e38;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_complex_values(mul(complex_tensor_of(ST::kComplex64, {C(big, big)}),
                            complex_tensor_of(ST::kComplex64, {C(1.5, -2)})),
                        ST::kComplex64, {C(inf, nan)});
  // A complex product into an integral out: the product computed in complex, then its real part
  // truncated ((1.5+2j)(-3+0.5j) = -5.5-5.25j, exact here; in general its last bit is the
  // build's, which the truncation can show).
  Tensor out = int_tensor_of(ST::kInt64, {0});
  prod_out(out, complex_tensor_of(ST::kComplex64, {C(1.5, 2), C(-3, 0.5)}));
  expect_int_values(out, ST::kInt64, {-5});
}

// complex-pow: zeros and infinities as bases (C99 leaves cpow's special values unspecified).
TEST(IntentionalDifferences, ComplexPow) {
  const Tensor zero = complex_tensor_of(ST::kComplex128, {C(0, 0)});
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_complex_values(pow(zero, Scalar(-2)), ST::kComplex128, {C(inf, nan)});
  expect_complex_values(pow(zero, Scalar(2)), ST::kComplex128, {C(0, 0)});
}

// complex-sub-zero: self - alpha * other is an exact subtraction, so -0 - 0 stays -0 (PyTorch
// adds (-alpha) * other and gives +0).
TEST(IntentionalDifferences, ComplexSubZero) {
  const double inf = std::numeric_limits<double>::infinity();
  expect_complex_values(sub(complex_tensor_of(ST::kComplex64, {C(inf, -0.0), C(1, -0.0)}),
                            complex_tensor_of(ST::kComplex64, {C(2.5, 0), C(1, 0)})),
                        ST::kComplex64, {C(inf, -0.0), C(0, -0.0)});
}

// complex-to-bool: true when either part is non-zero (PyTorch 1.13 reads the real part only).
TEST(IntentionalDifferences, ComplexToBool) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor z = complex_tensor_of(ST::kComplex64, {C(0, 1), C(0, 0), C(-0.0, -0.0), C(nan, 0)});
  expect_int_values(z.to(ST::kBool), ST::kBool, {1, 0, 0, 1});
  // masked_fill.Tensor reads its 0-dim value in self's dtype the same way.
  const Tensor mask = int_tensor_of(ST::kBool, {1, 1});
  expect_int_values(masked_fill(int_tensor_of(ST::kBool, {0, 0}), mask,
                                complex_tensor_of(ST::kComplex64, {C(0, 1)}).view({})),
                    ST::kBool, {1, 1});
}

// nan-to-num-overlap: in-place ops refuse a self whose elements overlap, also nan_to_num_ of
// integers (an identity, which PyTorch 1.13 lets through).
TEST(IntentionalDifferences, NanToNumOverlap) {
  Tensor x = int_tensor_of(ST::kInt64, {1, 2, 3}).expand({2, 3});
  EXPECT_THAT(message_of([&] { x.nan_to_num_(); }),
              HasSubstr("more than one element of the written-to tensor refers to a single "
                        "memory location"));
}

// masked-fill-bool-mask: masked_fill takes bool masks only (PyTorch 1.13 also took uint8 with a
// deprecation warning, and integer and float masks).
TEST(IntentionalDifferences, MaskedFillBoolMask) {
  const Tensor x = tensor_of(ST::kFloat32, {1, 2});
  for (ST mask : {ST::kUInt8, ST::kInt64, ST::kFloat32}) {
    EXPECT_THAT(message_of([&] {
                  masked_fill(x, tensor_of(mask, {1, 0}), 5);
                }),
                HasSubstr("masked_fill_ only supports boolean masks, but got mask with dtype"));
  }
  expect_values(masked_fill(x, tensor_of(ST::kBool, {1, 0}), 5), ST::kFloat32, {5, 2});
}

// one-bound-nan-float16: clamp_min of float16 has no kernel, whatever the bound (1.13 filled the
// result with a NaN bound without running one).
TEST(IntentionalDifferences, OneBoundNanFloat16) {
  const Tensor x = tensor_of(ST::kFloat16, {1, 2});
  for (double bound : {std::numeric_limits<double>::quiet_NaN(), 1.0}) {
    EXPECT_THAT(message_of([&] { clamp_min(x, bound); }),
                HasSubstr("\"clamp_min\" not implemented for 'float16'"));
  }
  expect_values(
      clamp_min(x.to(ST::kFloat32), std::numeric_limits<double>::quiet_NaN()), ST::kFloat32,
      {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()});
}

// masked-fill-layout: masked_fill of a transposed tensor keeps its layout, as where does (1.13's
// composite cloned self contiguous first).
TEST(IntentionalDifferences, MaskedFillLayout) {
  const Tensor x = tensor_of(ST::kFloat32, {1, 2, 3, 4, 5, 6}).view({2, 3}).t();
  const Tensor mask = tensor_of(ST::kBool, {1, 0});
  const Tensor r = masked_fill(x, mask, 0);
  EXPECT_EQ(r.strides(), x.strides());
  expect_values(r.contiguous(), ST::kFloat32, {0, 4, 0, 5, 0, 6});
}

// masked-fill-out-cast: masked_fill.out casts its result into the out as every structured op,
// so an out it cannot be cast to is refused (1.13's generated out= copied into any dtype).
TEST(IntentionalDifferences, MaskedFillOutCast) {
  const Tensor x = tensor_of(ST::kFloat32, {1.5, 2}), mask = tensor_of(ST::kBool, {1, 0});
  Tensor narrow = empty({2}, ST::kInt64, kCpu);
  EXPECT_THAT(message_of([&] { masked_fill_out(narrow, x, mask, 5); }),
              HasSubstr("result type float32 can't be cast to the desired output type int64"));
  Tensor wide = empty({2}, ST::kFloat64, kCpu);
  masked_fill_out(wide, x, mask, 5);
  expect_values(wide, ST::kFloat64, {5, 2});
}

// hardtanh-fractional-bound: a uint8 self takes the bounds converted to uint8 directly, so a
// bound in (-1, 0) overflows (PyTorch 1.13 truncates it to the int64 0 first).
TEST(IntentionalDifferences, HardtanhFractionalBound) {
  const Tensor x = int_tensor_of(ST::kUInt8, {1, 5});
  EXPECT_THAT(message_of([&] { hardtanh(x, -0.5, 2.5); }),
              HasSubstr("value cannot be converted to type uint8_t without overflow"));
  expect_values(hardtanh(x, 0, 2), ST::kUInt8, {1, 2});
}

// gelu-bfloat16: bfloat16 gelu computes in float and rounds once (PyTorch 1.13 rounded
// 1 + erf(x / sqrt 2) to bfloat16 first, so gelu(-3) was -0).
TEST(IntentionalDifferences, GeluBFloat16) {
  expect_values(gelu(tensor_of(ST::kBFloat16, {-3.0})), ST::kBFloat16, {-0.00404822},
                tolerance_of(ST::kBFloat16));
}

// bfloat16-products: matrix products of bfloat16 sum in float and round once (1.13's small
// products rounded every partial sum: [1.5, 1.5, 1.5] . [1.5, 1.5, 1.5] by steps of bfloat16 is
// the same, so the case uses a sum whose partial sums do not fit: 256 + 1 + 1 = 258, where
// bfloat16 steps give 256).
TEST(IntentionalDifferences, BFloat16Products) {
  const Tensor a = tensor_of(ST::kBFloat16, {256, 1, 1}, {1, 3});
  const Tensor b = tensor_of(ST::kBFloat16, {1, 1, 1}, {3, 1});
  expect_values(mm(a, b), ST::kBFloat16, {258});
}

// empty-contraction-beta: addmm of integers over an empty contraction converts beta to the
// dtype as for any size (0.5 -> 0); 1.13 scaled self with mul_, which refused the float beta.
TEST(IntentionalDifferences, EmptyContractionBeta) {
  const Tensor self = int_tensor_of(ST::kInt32, {3, 4});
  const Tensor m1 = empty({2, 0}, ST::kInt32), m2 = empty({0, 2}, ST::kInt32);
  expect_int_values(addmm(self, m1, m2, 0.5).view({-1}), ST::kInt32, {0, 0, 0, 0});
  expect_int_values(addmm(self, m1, m2, 2).view({-1}), ST::kInt32, {6, 8, 6, 8});
}

// baddbmm-beta-zero: baddbmm with beta = 0 ignores self and whatever the output held (1.13's
// kernel read the output first: uninitialised memory for the functional op, NaN about half the
// time; self's NaN in place).
TEST(IntentionalDifferences, BaddbmmBetaZero) {
  Tensor self = tensor_of(ST::kFloat32, {kNan, kNan}, {1, 1, 2});
  const Tensor b1 = tensor_of(ST::kFloat32, {2}, {1, 1, 1});
  const Tensor b2 = tensor_of(ST::kFloat32, {3, 4}, {1, 1, 2});
  for (int i = 0; i < 100; ++i) {
    expect_values(baddbmm(self, b1, b2, 0).view({-1}), ST::kFloat32, {6, 8});
  }
  self.baddbmm_(b1, b2, 0);
  expect_values(self.view({-1}), ST::kFloat32, {6, 8});
}

// bfloat16-layer-norm: layer_norm of bfloat16 computes in float and rounds once, so it equals
// the float32 result rounded (1.13's was up to 0.03 off it).
TEST(IntentionalDifferences, BFloat16LayerNorm) {
  const std::vector<double> v = {-2.5, 0.75, 1.25, 3.0, -0.5, 2.0, 0.125};
  const Tensor x = tensor_of(ST::kBFloat16, v, {1, 7});
  const std::vector<int64_t> shape = {7};
  const Tensor exact = layer_norm(x.to(ST::kFloat32), shape, std::nullopt, std::nullopt, 0.25);
  expect_same(layer_norm(x, shape, std::nullopt, std::nullopt, 0.25), exact.to(ST::kBFloat16));
}

// scatter-src-rank: a src whose rank differs from index's is named as such (1.13 read src's
// sizes past its rank first: "Dimension out of range").
TEST(IntentionalDifferences, ScatterSrcRank) {
  const Tensor self = tensor_of(ST::kFloat32, {0, 0, 0, 0}, {2, 2});
  const Tensor index = int_tensor_of(ST::kInt64, {0}).view({1, 1});
  const Tensor src = tensor_of(ST::kFloat32, {5});
  const std::string expected = "Index tensor must have the same number of dimensions as src tensor";
  EXPECT_THAT(message_of([&] { scatter(self, 1, index, src); }), HasSubstr(expected));
  EXPECT_THAT(message_of([&] { scatter_add(self, 1, index, src); }), HasSubstr(expected));
}

// index-select-scalar: a 0-dim self takes exactly one index (1.13 returned a 0-dim tensor for
// two and wrote the second element past it).
TEST(IntentionalDifferences, IndexSelectScalar) {
  const Tensor self = tensor_of(ST::kFloat32, {5}).select(0, 0);  // 0-dim
  EXPECT_THAT(message_of([&] {
                index_select(self, 0, int_tensor_of(ST::kInt64, {0, 0}));
              }),
              HasSubstr("index_select(): Index to scalar can have only 1 value, got 2 value(s)"));
  expect_values(index_select(self, 0, int_tensor_of(ST::kInt64, {0})).view({1}), ST::kFloat32, {5});
}

// complex-dot: matmul of two complex vectors is their dot product (1.13 with Debian's BLAS
// returned 0).
TEST(IntentionalDifferences, ComplexDot) {
  const Tensor a = complex_tensor_of(ST::kComplex64, {C(1, 2), C(3, -1)});
  const Tensor b = complex_tensor_of(ST::kComplex64, {C(0, 1), C(2, 2)});
  // (1+2i)i + (3-i)(2+2i) = (-2+i) + (8+4i)
  expect_complex_values(matmul(a, b).view({1}), ST::kComplex64, {C(6, 5)});
}

// round-decimals-bfloat16: round(bfloat16, decimals=) scales and rounds in float, once (1.13
// rounded x * 100 to bfloat16 first: 0.28515625 gave 0.279296875).
TEST(IntentionalDifferences, RoundDecimalsBFloat16) {
  expect_values(round(tensor_of(ST::kBFloat16, {0.28515625}), 2), ST::kBFloat16, {0.2890625});
}

// c99-complex-inverse: complex asin / acos / atan / asinh / acosh / atanh of infinities, NaN and
// huge values are C99's (glibc's, NumPy's); 1.13's formula gave NaN or overflowed.
TEST(IntentionalDifferences, C99ComplexInverse) {
  const double inf = std::numeric_limits<double>::infinity();
  const double half_pi = 1.5707963267948966;
  expect_complex_values(asin(complex_tensor_of(ST::kComplex128, {C(inf, 0)})), ST::kComplex128,
                        {C(half_pi, inf)});
  expect_complex_values(acos(complex_tensor_of(ST::kComplex128, {C(1e30, 1)})), ST::kComplex128,
                        {C(1e-30, -69.77069997038132)}, tolerance_of(ST::kFloat64));
  expect_complex_values(atanh(complex_tensor_of(ST::kComplex128, {C(0, inf)})), ST::kComplex128,
                        {C(0, half_pi)});
}

// log1p-huge: log1p of values above 1e37 is finite (1.13's vectorised SLEEF kernel gave inf).
TEST(IntentionalDifferences, Log1pHuge) {
  expect_values(log1p(tensor_of(ST::kFloat32, {3e38})), ST::kFloat32, {88.59684582244185},
                tolerance_of(ST::kFloat32));
}

// polygamma-limits: trigamma's poles give +inf (1.13: pi^2 / sin^2 of a rounding, finite), and
// polygamma(n >= 2) gives its limit (-1)^(n+1) 0 at +inf (1.13: nan) and nan at -inf (1.13:
// +-inf).
TEST(IntentionalDifferences, PolygammaLimits) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_values(polygamma(1, tensor_of(ST::kFloat32, {-1, -2, 0, -1e30})), ST::kFloat32,
                {inf, inf, inf, inf});
  expect_values(polygamma(1, int_tensor_of(ST::kInt64, {-3})), ST::kFloat32, {inf});
  expect_values(polygamma(2, tensor_of(ST::kFloat64, {inf, -inf})), ST::kFloat64, {-0.0, nan});
  expect_values(special_polygamma(3, tensor_of(ST::kFloat64, {inf, -inf})), ST::kFloat64,
                {0.0, nan});
}

// computed-in-double: polygamma (n >= 1) and mvlgamma of float32 and bfloat16 are their values
// computed in double, rounded once (1.13 rounds pi x and x - j / 2 to the input's dtype first).
TEST(IntentionalDifferences, ComputedInDouble) {
  // trigamma(-1.9999999f) = 7.0368744e13 (1.13: 1.08e14); mpmath, 30 digits.
  expect_values(polygamma(1, tensor_of(ST::kFloat32, {-1.99999988079071044921875})), ST::kFloat32,
                {7.03687442e13}, tolerance_of(ST::kFloat32));
  // mvlgamma(-7.504394f, 2) = -13.027693833 (1.13: -13.027803).
  expect_values(mvlgamma(tensor_of(ST::kFloat32, {-7.504394054412842}), 2), ST::kFloat32,
                {-13.027693833289167}, tolerance_of(ST::kFloat32));
  // uint8 255 computes in float32: the nearest float to 2310.1448808 (1.13: 2310.1450, 1 ulp
  // off), also into a float64 out.
  Tensor out = empty({1}, ST::kFloat64, kCpu);
  special_multigammaln_out(out, int_tensor_of(ST::kUInt8, {255}), 2);
  expect_values(out, ST::kFloat64, {2310.144775390625});
  // P(a, a) of the float32 denormal a = 2.9e-39 is 1 - 2.6e-37 (1.13 computes in float: 0).
  const Tensor tiny = tensor_of(ST::kFloat32, {2.938735877055719e-39});
  expect_values(igamma(tiny, tiny), ST::kFloat32, {1.0});
}

// igamma-denormal-a: P(a, a) of the float64 denormal a = 5.6e-309 is 1 - 4e-306 (1.13: 0).
// Backplane's is 1 within the rounding of lgamma(a) = 708.4 in its series factor (2.4e-14).
TEST(IntentionalDifferences, IgammaDenormalA) {
  const Tensor a = tensor_of(ST::kFloat64, {5.562684646268003e-309});
  expect_values(igamma(a, a), ST::kFloat64, {1.0}, 1e-13);
  expect_values(special_gammainc(a, a), ST::kFloat64, {1.0}, 1e-13);
}

// zeta-limits: special_zeta gives its limits at the infinities, 0 at q = +inf and 0 / 1 / inf
// at s = +inf, and nan at q = -inf (1.13: nan, nan and inf), and its value far below zero, at
// once, where 1.13 sums -q terms (in float32 below -2^24 it never ends).
TEST(IntentionalDifferences, ZetaLimitsAndNegativeQ) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_values(special_zeta(tensor_of(ST::kFloat64, {2, 2, inf, inf, inf}),
                             tensor_of(ST::kFloat64, {inf, -inf, 2, 1, 0.5})),
                ST::kFloat64, {0.0, nan, 0.0, 1.0, inf});
  // s = nan at the poles q = 0, -1: nan (1.13: inf); s = 1 stays inf.
  expect_values(
      special_zeta(tensor_of(ST::kFloat64, {nan, nan, 1}), tensor_of(ST::kFloat64, {0, -1, 0})),
      ST::kFloat64, {nan, nan, inf});
  // zeta(2, -N - 1/2) = pi^2 - zeta(2, N + 3/2), about pi^2 - 1 / (N + 1).
  expect_values(special_zeta(tensor_of(ST::kFloat64, {2, 2}),
                             tensor_of(ST::kFloat64, {-1e9 - 0.5, -1e15 - 0.5})),
                ST::kFloat64, {9.869604400089358, 9.869604401089357}, 1e-15);
  expect_values(
      special_zeta(tensor_of(ST::kFloat32, {2, 2}), tensor_of(ST::kFloat32, {-1048575.5, -3e9})),
      ST::kFloat32, {9.869603447, inf}, tolerance_of(ST::kFloat32));
}

// autogen-out-cast: rsub's and remainder.Scalar_Tensor's out= ops check the out's dtype before
// computing, as every structured out= does (PyTorch 1.13 generates them from the functional op:
// they compute, reporting an integer division by zero, then copy with any cast).
TEST(IntentionalDifferences, AutogenOutCast) {
  Tensor out = int_tensor_of(ST::kInt64, {0, 0});
  EXPECT_THAT(message_of([&] {
                rsub_out(out, tensor_of(ST::kFloat32, {1.5, 2}), tensor_of(ST::kFloat32, {3, 4}));
              }),
              HasSubstr("result type float32 can't be cast to the desired output type int64"));
  // Into an out the result can be cast to, the values are the functional op's.
  Tensor wide = tensor_of(ST::kFloat64, {0, 0});
  rsub_out(wide, int_tensor_of(ST::kInt64, {1, 2}), int_tensor_of(ST::kInt64, {5, 5}), 2);
  expect_values(wide, ST::kFloat64, {3, 1});
  Tensor flags = empty({2}, ST::kBool, kCpu);
  EXPECT_THAT(message_of([&] {
                remainder_out(flags, Scalar(int64_t{3}), int_tensor_of(ST::kBool, {0, 1}));
              }),
              HasSubstr("result type int64 can't be cast to the desired output type bool"));
  EXPECT_THAT(message_of([&] {
                remainder_out(flags, Scalar(int64_t{3}), int_tensor_of(ST::kBool, {1, 1}));
              }),
              HasSubstr("result type int64 can't be cast to the desired output type bool"));
}

// nextafter-bfloat16: nextafter is declared for float32 and float64 only (PyTorch 1.13 also
// steps bfloat16's 8-bit mantissa; Backplane's kernels would compute it in float32).
TEST(IntentionalDifferences, NextafterBFloat16) {
  EXPECT_THAT(
      message_of([&] { nextafter(tensor_of(ST::kBFloat16, {1}), tensor_of(ST::kBFloat16, {2})); }),
      HasSubstr("not implemented for 'bfloat16'"));
  expect_values(nextafter(tensor_of(ST::kFloat32, {1}), tensor_of(ST::kFloat32, {2})), ST::kFloat32,
                {1.00000011920928955078125});
}

// fmax-reduced-zero: fmax and fmin of +0 and -0 give self in every floating dtype (the kernels
// compute float16 and bfloat16 in float32, as C's fmax; 1.13's float16 and bfloat16 loop gives
// other).
TEST(IntentionalDifferences, FmaxReducedZero) {
  for (ST dtype : {ST::kFloat16, ST::kBFloat16, ST::kFloat32}) {
    const Tensor a = tensor_of(dtype, {0.0, -0.0});
    const Tensor b = tensor_of(dtype, {-0.0, 0.0});
    expect_values(fmax(a, b), dtype, {0.0, -0.0});
    expect_values(fmin(a, b), dtype, {0.0, -0.0});
  }
}

// lcm-minimum: lcm of an int32 or int64 minimum and a number whose gcd with it is -1 wraps to the
// minimum, as int8 and int16 give (1.13 divides the minimum by -1 there and dies of SIGFPE).
TEST(IntentionalDifferences, LcmMinimum) {
  for (ST dtype : {ST::kInt8, ST::kInt16, ST::kInt32, ST::kInt64}) {
    const int64_t min = dtype == ST::kInt8    ? INT8_MIN
                        : dtype == ST::kInt16 ? INT16_MIN
                        : dtype == ST::kInt32 ? INT32_MIN
                                              : INT64_MIN;
    const Tensor a = int_tensor_of(dtype, {min, min, min, 6});
    const Tensor b = int_tensor_of(dtype, {5, -5, 3, -4});
    expect_int_values(gcd(a, b), dtype, {-1, -1, 1, 2});
    expect_int_values(lcm(a, b), dtype, {min, min, min, 12});
  }
}

// mvlgamma-layout: mvlgamma of a transposed tensor keeps its layout, as lgamma does (1.13's
// composite returned a contiguous tensor).
TEST(IntentionalDifferences, MvlgammaLayout) {
  const Tensor x = tensor_of(ST::kFloat32, {1, 2, 3, 4, 5, 6}).view({2, 3}).t();
  EXPECT_EQ(mvlgamma(x, 2).strides(), x.strides());
  EXPECT_EQ(lgamma(x).strides(), x.strides());
}

// complex-compare-parts: eq and ne of complex numbers into a complex tensor give 1 or 0 per
// element, whatever the operands' dtypes (1.13's vectorised loop, which runs when an operand is
// converted first, compared the parts apart: ne(1+3j, 1+2j) was 1j, eq 1+0j).
TEST(IntentionalDifferences, ComplexCompareParts) {
  const Tensor other = complex_tensor_of(ST::kComplex128, {C(1, 2), C(1, 2), C(5, 3)});
  Tensor x = complex_tensor_of(ST::kComplex64, {C(1, 3), C(1, 2), C(1, 2)});
  x.ne_(other);
  expect_complex_values(x, ST::kComplex64, {C(1, 0), C(0, 0), C(1, 0)});
  Tensor y = complex_tensor_of(ST::kComplex64, {C(1, 3), C(1, 2), C(1, 2)});
  y.eq_(other);
  expect_complex_values(y, ST::kComplex64, {C(0, 0), C(1, 0), C(0, 0)});
  Tensor z = complex_tensor_of(ST::kComplex64, {C(-4.9, -5), C(0, 0)});
  z.ne_(tensor_of(ST::kFloat64, {0.02, 0}));
  expect_complex_values(z, ST::kComplex64, {C(1, 0), C(0, 0)});
}

// angle-complex-layout: angle of a transposed complex tensor keeps the layout, as abs does (1.13
// returned a contiguous tensor).
TEST(IntentionalDifferences, AngleComplexLayout) {
  const Tensor z =
      complex_tensor_of(ST::kComplex64, {C(1, 1), C(2, 0), C(3, 0), C(0, 4)}).view({2, 2}).t();
  EXPECT_EQ(angle(z).strides(), z.strides());
  EXPECT_EQ(abs(z).strides(), z.strides());
}

// conj-physical-real-copy: conj_physical of a real tensor is a new tensor with self's values
// (1.13 returned self).
TEST(IntentionalDifferences, ConjPhysicalRealCopy) {
  const Tensor x = tensor_of(ST::kFloat32, {1, -2});
  const Tensor y = conj_physical(x);
  EXPECT_FALSE(y.is_same(x));
  EXPECT_NE(y.data_ptr(), x.data_ptr());
  expect_values(y, ST::kFloat32, {1, -2});
}

// scalar-loop: where PyTorch 1.13's vectorised CPU loop and its scalar loop disagree, Backplane
// gives the scalar loop's result everywhere (PyTorch's depends on the tensor's length).
TEST(IntentionalDifferences, ScalarLoop) {
  expect_complex_values(neg(complex_tensor_of(ST::kComplex64, {C(0, 0)})), ST::kComplex64,
                        {C(-0.0, -0.0)});
  expect_values(abs(complex_tensor_of(ST::kComplex64, {C(3e30, 4e30)})), ST::kFloat32, {5e30},
                tolerance_of(ST::kFloat32));
  const Tensor a = tensor_of(ST::kFloat64, {-2.5});
  const Tensor b = tensor_of(ST::kFloat64, {5.562684646268003e-309});
  expect_values(remainder(a, b), ST::kFloat64, {-0.0});
  expect_values(div(a, b, "floor"), ST::kFloat64, {-std::numeric_limits<double>::infinity()});
}

// Error messages Backplane words its own way for the same condition.
TEST(IntentionalDifferences, ErrorWording) {
  EXPECT_THAT(message_of([&] { arange(Scalar(0), Scalar(2), Scalar(-1)); }),
              HasSubstr("upper bound and lower bound inconsistent with step sign"));
  Tensor t = tensor_of(ST::kFloat32, {1, 2, 3});
  EXPECT_THAT(message_of([&] { t.resize_({-1}); }),
              HasSubstr("Trying to create tensor with negative dimension -1"));
  // mvlgamma.out and mvlgamma_ of integers: the structured ops' cast check (1.13: "mvlgamma:
  // result type int16 can't be cast to the desired output type float32"; "step must be
  // nonzero").
  Tensor out = int_tensor_of(ST::kInt64, {0});
  EXPECT_THAT(message_of([&] { mvlgamma_out(out, int_tensor_of(ST::kInt16, {3}), 2); }),
              HasSubstr("result type float32 can't be cast to the desired output type int64"));
  Tensor ints = int_tensor_of(ST::kInt32, {3});
  EXPECT_THAT(message_of([&] { ints.mvlgamma_(2); }),
              HasSubstr("result type float32 can't be cast to the desired output type int32"));
}

}  // namespace
}  // namespace bp
