// Runs the range factories' jitted kernels (arange, linspace, logspace: no inputs, the element's
// index), compiled as host C++ (emulator.h), with the computation, dtype and argument values the
// plugin's kernels use (range_factories.h), and compares with the CPU backend's out= ops in
// every dtype the kernel catalog builds them for, into a contiguous out (vector stores and their
// tail) and a strided one. linspace and logspace compare bit for bit: both backends evaluate the
// same element formula (reference_backend/math/factories.h) in the same types.
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/range_factories.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

// The output dtypes the catalog builds `kernels` for.
std::vector<Dtype> out_dtypes(const std::vector<ElementwiseKernel>& kernels) {
  std::vector<Dtype> dtypes;
  for (const ElementwiseKernel& k : kernels) {
    if (dtypes.empty() || dtypes.back() != k.out_dtype) dtypes.push_back(k.out_dtype);
  }
  return dtypes;
}

// Expects `actual` (an emulated device's tensor) to hold exactly the bytes of `expected` (CPU).
void expect_same_bits(const Tensor& actual, const Tensor& expected, const std::string& what) {
  const Tensor a = converted(actual, actual.dtype());
  const Tensor e = converted(expected, expected.dtype());
  ASSERT_EQ(a.sizes(), e.sizes()) << what;
  ASSERT_EQ(a.dtype(), e.dtype()) << what;
  const size_t itemsize = a.itemsize();
  int reported = 0;
  for (int64_t i = 0; i < a.numel() && reported < 5; ++i) {
    const char* x = static_cast<const char*>(a.data_ptr()) + i * static_cast<int64_t>(itemsize);
    const char* y = static_cast<const char*>(e.data_ptr()) + i * static_cast<int64_t>(itemsize);
    if (std::memcmp(x, y, itemsize) != 0) {
      ADD_FAILURE() << what << ": element " << i << " differs from the CPU backend's";
      ++reported;
    }
  }
  // The values too, for the message.
  if (reported > 0) expect_same_values(actual, expected, what);
}

class RangeFactoryEmulation : public ::testing::Test {
 protected:
  // Runs `factory` into a device tensor of `expected`'s length and dtype, contiguous and strided,
  // checking the kernel chosen, and compares with `expected` (the CPU's result).
  void run_and_compare(const RangeFactory& factory, const Tensor& expected, const std::string& what,
                       bool exact) {
    const int64_t length = expected.numel();
    const ScalarType dtype = expected.dtype();
    for (bool strided : {false, true}) {
      SCOPED_TRACE(strided ? "strided" : "contiguous");
      const Tensor base = device_.empty({strided ? 2 * length : length}, dtype);
      const Tensor out = strided ? native::as_strided(base, {length}, {2}, 0) : base;
      TensorIterator iter = build_plan(0, {out}, {});
      const ElementwiseLaunch launch = plan_elementwise(
          factory.computation, factory.dtype, dtype_of(dtype), plan_of(iter), factory.values);
      ASSERT_EQ(launch.kernel.variant, strided ? Variant::kStrided : Variant::kVectorized);
      run_emulated(launch.kernel.entry_name(), launch.blocks, jit::kThreads, launch.params());
      if (exact) {
        expect_same_bits(out, expected, what);
      } else {
        expect_same_values(out, expected, what);
      }
    }
  }

  EmulatedDevice device_;
};

TEST_F(RangeFactoryEmulation, ArangeWritesStartPlusIndexTimesStepInEveryDtypeAndLayout) {
  constexpr int64_t kLength = 1035;
  for (Dtype dtype : out_dtypes(arange_kernels())) {
    SCOPED_TRACE(info(dtype).name);
    const bool integral = info(dtype).is_integral;
    // Integers wrap past int8's range as the CPU's int64 accumulation converted does; floating
    // steps that are not exact in binary show the dtype the range is computed in.
    const Scalar start = integral ? Scalar(int64_t{-70}) : Scalar(0.1);
    const Scalar step = integral ? Scalar(int64_t{3}) : Scalar(0.3);
    const Scalar end = integral ? Scalar(int64_t{-70 + 3 * kLength}) : Scalar(0.1 + 0.3 * 1034.5);
    Tensor expected = cpu_tensor({kLength}, scalar_type_of(dtype));
    call_op("arange.start_out", {Value(start), Value(end), Value(step), Value(expected)});
    run_and_compare(arange_factory(abi_value(start), abi_value(step), dtype), expected, "arange",
                    /*exact=*/false);
  }
}

// Ranges of each kind of dtype (every value fits int8 and uint8; floating ends not exact in
// binary, so the dtype the elements are computed in shows), each way up.
struct Range {
  Scalar start, end;
};
std::vector<Range> sample_ranges(Dtype dtype, double integral_start, double integral_end,
                                 Range floating, Range complex_range) {
  const DtypeInfo& i = info(dtype);
  Range r = i.is_complex    ? complex_range
            : i.is_floating ? floating
                            : Range{Scalar(static_cast<int64_t>(integral_start)),
                                    Scalar(static_cast<int64_t>(integral_end))};
  return {r, Range{r.end, r.start}};
}

// Lengths: the two-sided formula's smallest cases (its halves meet at steps / 2) and two full
// blocks of vector stores with a tail.
constexpr int64_t kSteps[] = {2, 3, 1035};

TEST_F(RangeFactoryEmulation, LinspaceMatchesTheCpuBackendBitForBitInEveryDtypeAndLayout) {
  const std::vector<Dtype> dtypes = out_dtypes(linspace_kernels());
  EXPECT_EQ(dtypes.size(), static_cast<size_t>(kNumDtypes - 1));  // all but bool
  for (Dtype dtype : dtypes) {
    SCOPED_TRACE(info(dtype).name);
    const auto ranges = sample_ranges(
        dtype, -3, 100, {Scalar(-0.1), Scalar(2.7)},
        {Scalar(std::complex<double>(0.1, -1)), Scalar(std::complex<double>(2.7, 3.3))});
    for (const Range& r : ranges) {
      for (int64_t steps : kSteps) {
        SCOPED_TRACE(steps);
        Tensor expected = cpu_tensor({steps}, scalar_type_of(dtype));
        call_op("linspace.out", {Value(r.start), Value(r.end), Value(steps), Value(expected)});
        run_and_compare(linspace_factory(abi_value(r.start), abi_value(r.end), steps, dtype),
                        expected, "linspace", /*exact=*/true);
      }
    }
  }
}

TEST_F(RangeFactoryEmulation, LogspaceMatchesTheCpuBackendBitForBitInEveryDtypeAndLayout) {
  const std::vector<Dtype> dtypes = out_dtypes(logspace_kernels());
  EXPECT_EQ(dtypes.size(), static_cast<size_t>(kNumDtypes - 2));  // all but bool and float16
  for (Dtype dtype : dtypes) {
    SCOPED_TRACE(info(dtype).name);
    // Integral outputs: powers of 2 up to 2^6 (they fit int8).
    const bool integral = info(dtype).is_integral;
    const double base = integral ? 2.0 : 10.0;
    const auto ranges = sample_ranges(
        dtype, 0, 6, {Scalar(-2.1), Scalar(2.7)},
        {Scalar(std::complex<double>(0.1, -1)), Scalar(std::complex<double>(1.7, 2.3))});
    for (const Range& r : ranges) {
      for (int64_t steps : kSteps) {
        SCOPED_TRACE(steps);
        Tensor expected = cpu_tensor({steps}, scalar_type_of(dtype));
        call_op("logspace.out",
                {Value(r.start), Value(r.end), Value(steps), Value(base), Value(expected)});
        run_and_compare(logspace_factory(abi_value(r.start), abi_value(r.end), steps, base, dtype),
                        expected, "logspace", /*exact=*/true);
      }
    }
  }
}

}  // namespace
}  // namespace bp::cuda
