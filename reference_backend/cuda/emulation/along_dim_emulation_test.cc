// Runs every scan and normalisation kernel (each declared op in each of its dtypes), compiled as
// host C++ with the threads of a block run concurrently (emulator.h), and compares its output
// with the CPU backend's kernel for the same op: lines along the fastest, a middle and the
// slowest dim, lines longer than a warp (several chunks, carried), transposed and expanded
// inputs, a 0-dim tensor, and more lines than one block holds; indices too for scans that
// report them (cummax).
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/along_dim_kernel.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

class AlongDimEmulation : public ::testing::Test {
 protected:
  // Runs kernel k along `dim` of `input` (CPU, of the kernel's dtype) on the emulated device and
  // compares with the op's CPU kernel.
  void check(const AlongDimKernel& k, const Tensor& input, int64_t dim, const std::string& what) {
    SCOPED_TRACE(what + ": " + k.entry_name());
    const Tensor in = device_.copy_of(input);
    const std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end());
    const Tensor out = device_.empty(sizes, scalar_type_of(k.dtype));
    const bool indexed = k.op->indices >= 0;
    const Tensor indices = device_.empty(sizes, ScalarType::kInt64);
    LineGeometry geometry{sizes,
                          {out.strides().begin(), out.strides().end()},
                          {in.strides().begin(), in.strides().end()},
                          out.data_ptr(),
                          in.data_ptr(),
                          {},
                          nullptr};
    if (indexed) {
      geometry.indices_strides = {indices.strides().begin(), indices.strides().end()};
      geometry.indices = indices.data_ptr();
    }
    const AlongDimLaunch launch = plan_along_dim(k, geometry, dim);
    ASSERT_GT(launch.grid_x, 0u);
    ASSERT_TRUE(run_emulated(k.entry_name(), launch.grid_x, jit::kLineThreads, &launch.args));
    ++launches_;

    // The CPU kernel of the same out= op, its other arguments left at None.
    Stack args(static_cast<size_t>(k.op->num_arguments));
    const Tensor expected = converted(input, input.dtype());  // overwritten
    args[static_cast<size_t>(k.op->self)] = Value(input);
    args[static_cast<size_t>(k.op->dim)] = Value(dim);
    args[static_cast<size_t>(k.op->out)] = Value(expected);
    const Tensor expected_indices = random_tensor(sizes, ScalarType::kInt64, 0);  // overwritten
    if (indexed) args[static_cast<size_t>(k.op->indices)] = Value(expected_indices);
    call_op(k.op->name, std::move(args));
    expect_same_values(out, expected, what);
    if (indexed) expect_same_values(indices, expected_indices, what + ", indices");
  }

  EmulatedDevice device_;
  int launches_ = 0;
};

// A complex product meeting an infinite part is NaN or infinite by the order of its steps (C99
// leaves the special values of complex multiplication to the implementation), and the device
// carries partial products across the chunks of a line: complex cumprod is compared on finite
// inputs (special parts replaced by 1.5).
Tensor comparable_input(const AlongDimKernel& k, Tensor input) {
  if (std::string(k.op->name).rfind("cumprod", 0) != 0 || !is_complex(input.dtype())) return input;
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, complex<float>> || std::is_same_v<T, complex<double>>) {
      using R = decltype(T().real());
      T* data = input.data_ptr<T>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        const R re = std::isfinite(data[i].real()) ? data[i].real() : R(1.5);
        const R im = std::isfinite(data[i].imag()) ? data[i].imag() : R(1.5);
        data[i] = T(re, im);
      }
    }
  });
  return input;
}

// Each emulated block runs its 128 threads concurrently with a barrier per shuffled word, so
// the cases keep to a few blocks each.
TEST_F(AlongDimEmulation, EveryKernelMatchesTheCpu) {
  ASSERT_FALSE(all_along_dim_kernels().empty());
  uint64_t seed = 1;
  for (const AlongDimKernel& k : all_along_dim_kernels()) {
    check(k, comparable_input(k, random_tensor({3, 37, 2}, scalar_type_of(k.dtype), ++seed)), 1,
          "dim 1 of [3, 37, 2] (2 chunks per line)");
  }
  EXPECT_EQ(launches_, static_cast<int>(all_along_dim_kernels().size()));
}

TEST_F(AlongDimEmulation, EveryDimLongLinesStridedInputsAndZeroDimTensors) {
  uint64_t seed = 100;
  int kernels = 0;
  for (const AlongDimKernel& k : all_along_dim_kernels()) {
    if (k.dtype != Dtype::kFloat32 && k.dtype != Dtype::kInt64) continue;
    ++kernels;
    const ScalarType t = scalar_type_of(k.dtype);
    const Tensor small = random_tensor({3, 5, 2}, t, ++seed);
    for (int64_t dim : {0, 1, 2})
      check(k, small, dim, "dim " + std::to_string(dim) + " of [3, 5, 2]");
    check(k, random_tensor({2, 200}, t, ++seed), 1, "7 chunks per line");
    check(k, native::transpose(random_tensor({40, 9}, t, ++seed), 0, 1), 1, "transposed");
    check(k, native::expand(random_tensor({1, 33}, t, ++seed), {7, 33}), 1, "expanded");
    check(k, random_tensor({}, t, ++seed), 0, "0-dim");
    check(k, random_tensor({21, 3}, t, ++seed), 1, "6 blocks of lines");
  }
  EXPECT_GE(kernels, 4);
}

}  // namespace
}  // namespace bp::cuda
