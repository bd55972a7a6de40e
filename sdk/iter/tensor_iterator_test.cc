#include "sdk/iter/tensor_iterator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/core/views.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/parallel.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);

// A float32 CPU tensor holding 0, 1, 2, ... in logical (C) order.
Tensor iota(IntArrayRef sizes, ScalarType dtype = ScalarType::kFloat32) {
  Tensor t = native::empty(sizes, dtype, kCpu);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T>) {
      T* p = static_cast<T*>(t.data_ptr());
      for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<T>(i);
    }
  });
  return t;
}

// Reads element `index` (logical N-d index) of a float32 tensor of any strides.
float at(const Tensor& t, IntArrayRef index) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.stride(d);
  return static_cast<const float*>(t.data_ptr())[offset];
}

// out = a + b over float32 operands of any strides, through for_each.
void add_float(TensorIterator& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      for (int64_t i = 0; i < n0; ++i) {
        float a, b;
        std::memcpy(&a, data[1] + i * strides[1] + j * strides[4], 4);
        std::memcpy(&b, data[2] + i * strides[2] + j * strides[5], 4);
        const float sum = a + b;
        std::memcpy(data[0] + i * strides[0] + j * strides[3], &sum, 4);
      }
    }
  });
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

// The built geometry: iteration shape, permutation (empty after a fast setup), each operand's
// byte strides (output first), and whether coalescing ran (only for 2 or more dims).
void expect_geometry(const TensorIterator& iter, IntArrayRef shape, IntArrayRef perm,
                     const std::vector<std::vector<int64_t>>& strides, bool coalesced = true) {
  EXPECT_EQ(iter.shape(), shape);
  EXPECT_EQ(iter.perm(), perm);
  EXPECT_EQ(iter.has_coalesced_dimensions(), coalesced);
  ASSERT_EQ(iter.ntensors(), static_cast<int>(strides.size()));
  for (int k = 0; k < iter.ntensors(); ++k) {
    EXPECT_EQ(iter.strides(k), IntArrayRef(strides[k])) << "operand " << k;
  }
}

TEST(TensorIterator, ContiguousOperandsCoalesceToOneDimension) {
  Tensor a = iota({4, 5}), b = iota({4, 5}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  expect_geometry(iter, {20}, {}, {{4}, {4}, {4}});
  EXPECT_TRUE(iter.is_contiguous());
  ASSERT_TRUE(iter.output().defined());
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({4, 5}));
  EXPECT_EQ(iter.output().strides(), IntArrayRef({5, 1}));
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
}

TEST(TensorIterator, TransposedInputKeepsItsLayoutForTheOutput) {
  Tensor base = iota({5, 4});
  Tensor a = native::transpose(base, 0, 1);  // sizes [4, 5], strides [1, 4]
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  // The output copies the input's (dense) strides: one coalesced dimension.
  EXPECT_EQ(iter.output().strides(), IntArrayRef({1, 4}));
  expect_geometry(iter, {20}, {}, {{4}, {4}});
}

TEST(TensorIterator, TransposedAndContiguousInputsIterateInTheFirstOperandsOrder) {
  Tensor a = native::transpose(iota({5, 4}), 0, 1);  // [4, 5] strides [1, 4]
  Tensor b = iota({4, 5});                           // [4, 5] strides [5, 1]
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  // The first input decides: its fastest dimension (dim 0) comes first; nothing coalesces.
  expect_geometry(iter, {4, 5}, {0, 1}, {{4, 16}, {4, 16}, {20, 4}});
  EXPECT_EQ(iter.output().strides(), IntArrayRef({1, 4}));
  add_float(iter);
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      EXPECT_EQ(at(iter.output(), {i, j}), at(a, {i, j}) + at(b, {i, j}));
    }
  }
}

TEST(TensorIterator, ChannelsLastOperandsGiveAChannelsLastOutput) {
  Tensor a = native::empty({2, 3, 4, 5}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast);
  Tensor b = native::empty({2, 3, 4, 5}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_TRUE(iter.output().is_contiguous(MemoryFormat::kChannelsLast));
  expect_geometry(iter, {120}, {}, {{4}, {4}, {4}});
}

TEST(TensorIterator, ChannelsLastAndContiguousInputsIterateChannelsFirst) {
  Tensor a = native::empty({2, 3, 4, 5}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast);
  Tensor b = iota({2, 3, 4, 5});
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  // a (strides N 60, C 1, H 15, W 3) decides the order C, W, H, N; W and H coalesce for every
  // operand (b's W and H are contiguous too), nothing else does.
  expect_geometry(iter, {3, 20, 2}, {1, 3, 2, 0}, {{4, 12, 240}, {4, 12, 240}, {80, 4, 240}});
  EXPECT_EQ(iter.output().strides(), IntArrayRef({60, 1, 15, 3}));
  // out = a + b element by element, in logical order.
  Tensor a_values = iota({2, 3, 4, 5});
  cast_copy(a, a_values);
  add_float(iter);
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t c = 0; c < 3; ++c) {
      for (int64_t h = 0; h < 4; ++h) {
        for (int64_t w = 0; w < 5; ++w) {
          ASSERT_EQ(at(iter.output(), {n, c, h, w}), 2 * at(b, {n, c, h, w}));
        }
      }
    }
  }
}

TEST(TensorIterator, BroadcastInputsGetZeroStrides) {
  Tensor a = iota({3, 1}), b = iota({4}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({3, 4}));
  expect_geometry(iter, {4, 3}, {1, 0}, {{4, 16}, {0, 4}, {4, 0}});
  add_float(iter);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(at(iter.output(), {i, j}), i + j);
  }
}

TEST(TensorIterator, ExpandedInputHasStrideZeroAndIsAScalarOperand) {
  Tensor scalar = iota({1});
  Tensor a = native::expand(scalar, {6});
  Tensor b = iota({6}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  expect_geometry(iter, {6}, {0}, {{4}, {0}, {4}}, /*coalesced=*/false);
  EXPECT_TRUE(iter.is_scalar(1));
  EXPECT_TRUE(iter.is_cpu_scalar(1));
  EXPECT_FALSE(iter.is_scalar(2));
  EXPECT_FALSE(iter.has_contiguous_first_dim());
}

TEST(TensorIterator, ExpandedAlongOneDimHasStrideZeroThere) {
  Tensor a = native::expand(iota({3, 1}), {3, 4});  // strides [1, 0]
  Tensor b = iota({3, 4}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  // a's stride-0 dim does not decide the order; b's does. Nothing coalesces.
  expect_geometry(iter, {4, 3}, {1, 0}, {{4, 16}, {0, 4}, {4, 16}});
  EXPECT_FALSE(iter.is_scalar(1));
  add_float(iter);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(at(iter.output(), {i, j}), i + (4 * i + j));
  }
}

TEST(TensorIterator, SlicedWithStepKeepsByteStrides) {
  Tensor base = iota({4, 10});
  Tensor a = native::slice(base, 1, 0, 8, 2);  // [4, 4] strides [10, 2]: rows do not continue
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  expect_geometry(iter, {4, 4}, {1, 0}, {{4, 16}, {8, 40}});
  EXPECT_TRUE(iter.output().is_contiguous());
}

TEST(TensorIterator, SliceWithStepOverAWholeRowCoalescesToOneStride) {
  Tensor a = native::slice(iota({4, 10}), 1, 0, 10, 2);  // [4, 5] strides [10, 2]: one stride-2 run
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  expect_geometry(iter, {20}, {1, 0}, {{4}, {8}});
}

TEST(TensorIterator, ZeroSizeAndZeroDimOperands) {
  Tensor a = iota({0, 3}), b = iota({3}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.numel(), 0);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({0, 3}));
  // b's stride 0 along the broadcast (empty) dim keeps the two dims apart.
  expect_geometry(iter, {3, 0}, {1, 0}, {{4, 12}, {4, 12}, {4, 0}});
  int calls = 0;
  iter.for_each([&](char**, const int64_t*, int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);

  Tensor s = iota({}), t = iota({}), out0;
  TensorIterator scalar_iter;
  scalar_iter.build_borrowing_binary_op(out0, s, t);
  EXPECT_EQ(scalar_iter.ndim(), 0);
  EXPECT_EQ(scalar_iter.numel(), 1);
  EXPECT_EQ(scalar_iter.output().dim(), 0);
  expect_geometry(scalar_iter, {}, {}, {{}, {}, {}}, /*coalesced=*/false);
  add_float(scalar_iter);
  EXPECT_EQ(at(scalar_iter.output(), {}), 0.0f);

  // A zero-dim operand with a 1-d one: broadcast, stride 0.
  Tensor v = iota({5}), out1;
  Tensor two = native::empty({}, ScalarType::kFloat32, kCpu);
  two.data_ptr<float>()[0] = 2;
  TensorIterator mixed;
  mixed.build_borrowing_binary_op(out1, v, two);
  expect_geometry(mixed, {5}, {0}, {{4}, {4}, {0}}, /*coalesced=*/false);
  EXPECT_TRUE(mixed.is_cpu_scalar(2));
  add_float(mixed);
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(at(mixed.output(), {i}), i + 2.0f);
}

TEST(TensorIterator, InPlaceOutputIsMarkedReadWrite) {
  Tensor a = iota({8}), b = iota({8});
  TensorIterator iter;
  iter.build_borrowing_binary_op(a, a, b);
  EXPECT_TRUE(iter.operand(0).is_read_write);
  EXPECT_FALSE(iter.operand(0).will_resize);
  EXPECT_TRUE(iter.output().is_same(a));
  add_float(iter);
  EXPECT_EQ(at(a, {3}), 6.0f);
}

TEST(TensorIterator, InPlaceOutputCannotBeBroadcast) {
  Tensor a = iota({3}), b = iota({2, 3});
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_binary_op(a, a, b);
            }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST(TensorIterator, WrongSizedOutputIsResized) {
  Tensor a = iota({2, 3}), b = iota({2, 3});
  Tensor out = native::empty({5}, ScalarType::kFloat32, kCpu);
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_TRUE(iter.operand(0).will_resize);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3}));
  EXPECT_TRUE(iter.output().is_same(out));
}

TEST(TensorIterator, RejectsOverlapLikePyTorch) {
  Tensor a = iota({4});
  Tensor expanded = native::expand(iota({1}), {4});
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_unary_op(expanded, a);
            }),
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.");
  Tensor base = iota({6});
  Tensor head = native::slice(base, 0, 0, 4), tail = native::slice(base, 0, 2, 6);
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_unary_op(head, tail);
            }),
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.");
}

TEST(TensorIterator, BroadcastErrorNamesTheSizes) {
  Tensor a = iota({3}), b = iota({4}), out;
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_binary_op(out, a, b);
            }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 0");
}

TEST(TensorIterator, PromotesInputsOnCpuWithTemporaries) {
  Tensor a = iota({4}, ScalarType::kInt32);
  Tensor b = iota({4}, ScalarType::kFloat64);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat64);
  EXPECT_EQ(iter.dtype(0), ScalarType::kFloat64);
  EXPECT_EQ(iter.input_dtype(0), ScalarType::kFloat64);  // a converted
  expect_geometry(iter, {4}, {}, {{8}, {8}, {8}}, /*coalesced=*/false);
  EXPECT_FALSE(iter.input(0).is_same(a));
  EXPECT_EQ(static_cast<const double*>(iter.input(0).data_ptr())[3], 3.0);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat64);
}

TEST(TensorIterator, ZeroDimTensorDoesNotPromoteWithinItsCategory) {
  Tensor a = iota({4}, ScalarType::kFloat32);
  Tensor b = iota({}, ScalarType::kFloat64);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
}

// Operands that agree in sizes, dtype and device but are not all contiguous tensors take the
// general path; each case checks what that path (and not the one-pass setup) decides.
TEST(TensorIterator, WrappedNumbersOfOneDtypePromoteAsScalars) {
  // PyTorch: a wrapped float64 counts as a Python float, so two of them give the default dtype.
  Tensor a = wrapped_scalar_tensor(Scalar(1.5)), b = wrapped_scalar_tensor(Scalar(2.0)), out;
  ASSERT_EQ(a.dtype(), ScalarType::kFloat64);
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.input_dtype(0), ScalarType::kFloat32);  // converted through a temporary
}

TEST(TensorIterator, SameSizedOperandsWithAGivenOutputOfAnotherLayoutKeepIt) {
  Tensor a = iota({3, 4}), b = iota({3, 4});
  Tensor out = native::transpose(native::empty({4, 3}, ScalarType::kFloat32, kCpu), 0, 1);
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_TRUE(iter.output().is_same(out));
  EXPECT_EQ(out.strides(), IntArrayRef({1, 3}));  // not restrided
  add_float(iter);
  EXPECT_EQ(at(out, {2, 1}), 2 * 9.0f);
}

TEST(TensorIterator, IntegerInputsOfOneDtypeStillPromoteToFloatWhenAsked) {
  Tensor a = iota({4}, ScalarType::kInt32), out;
  TensorIterator iter;
  iter.build_borrowing_unary_float_op(out, a);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
}

TEST(TensorIterator, DeclaredCommonDtypeConvertsInputsOnCpu) {
  // pow(int_tensor, 2.5): the meta function chose float32 from the Scalar exponent.
  Tensor a = iota({4}, ScalarType::kInt64), out;
  TensorIteratorConfig config;
  config.add_output(out).add_input(a).declare_common_dtype(ScalarType::kFloat32);
  TensorIterator iter = config.build();
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.input_dtype(0), ScalarType::kFloat32);  // a converted
  EXPECT_EQ(static_cast<const float*>(iter.input(0).data_ptr())[3], 3.0f);
}

TEST(TensorIterator, InputInOwnDtypeTakesNoPartInPromotionAndIsNotConverted) {
  // masked_fill(int8 self, bool mask): the common dtype is self's; the mask stays bool.
  Tensor self = iota({4}, ScalarType::kInt8), mask = iota({4}, ScalarType::kBool), out;
  TensorIteratorConfig config;
  config.promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .add_output(out)
      .add_input(self)
      .add_input_in_own_dtype(mask);
  TensorIterator iter = config.build();
  EXPECT_EQ(iter.common_dtype(), ScalarType::kInt8);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kInt8);
  EXPECT_TRUE(iter.input(1).is_same(mask));
  EXPECT_EQ(iter.input_dtype(1), ScalarType::kBool);
  // A float64 mask too: nothing promotes to it.
  Tensor wide = iota({4}, ScalarType::kFloat64), out2;
  TensorIteratorConfig config2;
  config2.promote_inputs_to_common_dtype(true)
      .add_output(out2)
      .add_input(self)
      .add_input_in_own_dtype(wide);
  TensorIterator iter2 = config2.build();
  EXPECT_EQ(iter2.common_dtype(), ScalarType::kInt8);
  EXPECT_EQ(iter2.input_dtype(1), ScalarType::kFloat64);
}

TEST(TensorIterator, DeclaredCommonDtypeLeavesOperandsOfOtherDevicesTheirDtype) {
  // Off the CPU, kernels cast while loading: the plan says what to cast to.
  Tensor a = native::empty({4}, ScalarType::kInt64, kMeta), out;
  TensorIteratorConfig config;
  config.add_output(out).add_input(a).declare_common_dtype(ScalarType::kFloat32);
  TensorIterator iter = config.build();
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
  EXPECT_TRUE(iter.input(0).is_same(a));
  EXPECT_EQ(iter.input_dtype(0), ScalarType::kInt64);
}

TEST(TensorIterator, DeclaredCommonDtypeOfTheInputsOwnKeepsTheOnePassSetup) {
  Tensor a = iota({2, 3}, ScalarType::kFloat32), out;
  TensorIteratorConfig config;
  config.add_output(out).add_input(a).declare_common_dtype(ScalarType::kFloat32);
  TensorIterator iter = config.build();
  EXPECT_TRUE(iter.input(0).is_same(a));
  expect_geometry(iter, {6}, {}, {{4}, {4}});
}

TEST(TensorIterator, CountsTheBuildsOfTheCallingThread) {
  const int64_t before = TensorIteratorBase::builds_on_this_thread();
  Tensor a = iota({4}), out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  EXPECT_EQ(TensorIteratorBase::builds_on_this_thread(), before + 1);
  int64_t other_thread = -1;
  std::thread([&] { other_thread = TensorIteratorBase::builds_on_this_thread(); }).join();
  EXPECT_EQ(other_thread, 0);
}

TEST(TensorIterator, CastsOutputsThroughATemporary) {
  Tensor a = iota({4}, ScalarType::kInt32), b = iota({4}, ScalarType::kInt32);
  Tensor out = native::empty({4}, ScalarType::kFloat64, kCpu);
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.dtype(0), ScalarType::kInt32);  // computes in the common dtype
  EXPECT_FALSE(iter.output().is_same(out));
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t) {
    for (int64_t i = 0; i < n0; ++i) {
      const int32_t x = *reinterpret_cast<int32_t*>(data[1] + i * strides[1]);
      const int32_t y = *reinterpret_cast<int32_t*>(data[2] + i * strides[2]);
      *reinterpret_cast<int32_t*>(data[0] + i * strides[0]) = x * 10 + y;
    }
  });
  iter.cast_outputs();
  EXPECT_TRUE(iter.output().is_same(out));
  EXPECT_EQ(out.data_ptr<double>()[3], 33.0);
}

TEST(TensorIterator, RejectsUnsafeCastToOutput) {
  Tensor a = iota({4}, ScalarType::kFloat32), b = iota({4}, ScalarType::kFloat32);
  Tensor out = native::empty({4}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_binary_op(out, a, b);
            }),
            "result type float32 can't be cast to the desired output type int64");
}

TEST(TensorIterator, UnaryOpRequiresOneDtype) {
  Tensor a = iota({4}, ScalarType::kFloat32);
  Tensor out = native::empty({4}, ScalarType::kFloat64, kCpu);
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_unary_op(out, a);
            }),
            "Found dtype float64 but expected float32");
}

TEST(TensorIterator, ComparisonAllocatesBoolOutput) {
  Tensor a = iota({4}, ScalarType::kInt32), b = iota({4}, ScalarType::kFloat32), out;
  TensorIterator iter;
  iter.build_borrowing_comparison_op(out, a, b);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kBool);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.input_dtype(0), ScalarType::kFloat32);
}

TEST(TensorIterator, UnaryFloatOpPromotesIntegersToFloat) {
  Tensor a = iota({4}, ScalarType::kInt64), out;
  TensorIterator iter;
  iter.build_borrowing_unary_float_op(out, a);
  EXPECT_EQ(iter.common_dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
}

TEST(TensorIterator, MetaOperandsProduceMetaOutputsWithoutData) {
  Tensor a = native::empty({3, 1}, ScalarType::kFloat32, kMeta);
  Tensor b = native::empty({1, 4}, ScalarType::kInt64, kMeta);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_TRUE(iter.is_meta());
  EXPECT_EQ(iter.output().device().type, DeviceType::kMeta);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(iter.output().dtype(), ScalarType::kFloat32);
  EXPECT_EQ(iter.output().data_ptr(), nullptr);
}

TEST(TensorIterator, DevicesMustMatch) {
  Tensor a = iota({4});
  Tensor b = native::empty({4}, ScalarType::kFloat32, kMeta);
  Tensor out;
  EXPECT_EQ(error_of([&] {
              TensorIterator iter;
              iter.build_borrowing_binary_op(out, a, b);
            }),
            "Expected all tensors to be on the same device, but found at least two devices, meta "
            "and cpu!");
}

TEST(TensorIterator, ReductionOutputGetsStrideZeroAlongReducedDims) {
  Tensor in = native::empty({4, 6}, ScalarType::kFloat32, kMeta);
  Tensor out = native::empty({4, 1}, ScalarType::kFloat32, kMeta);
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false)
      .add_output(out)
      .add_input(in)
      .resize_outputs(false)
      .is_reduction(true)
      .promote_inputs_to_common_dtype(true);
  TensorIterator iter = config.build();
  // Reduced dims come first; the output's stride is 0 there.
  EXPECT_EQ(iter.shape(), IntArrayRef({6, 4}));
  EXPECT_EQ(iter.strides(0), IntArrayRef({0, 4}));
  EXPECT_EQ(iter.strides(1), IntArrayRef({4, 24}));
  EXPECT_TRUE(iter.is_dim_reduced(0));
  EXPECT_EQ(iter.num_output_elements(), 4);
  EXPECT_EQ(iter.num_reduce_dims(), 1);
}

// A part of a 32-bit split: its first output element (in the whole iterator's dense output) and
// its number of elements.
struct Part {
  int64_t first;
  int64_t size;
  bool operator<(const Part& other) const { return first < other.first; }
};

// The parts of `iter.with_32bit_indexing()` (Meta operands: data pointers are byte offsets from
// null), after checking that each can use 32-bit indexing and that its float32 output is dense, so
// that it covers the interval [first, first + size) of the output's elements.
std::vector<Part> split_parts(const TensorIterator& iter) {
  std::vector<Part> parts;
  for (TensorIterator& sub : iter.with_32bit_indexing()) {
    EXPECT_TRUE(sub.can_use_32bit_indexing());
    int64_t dense = 4;
    for (int d = 0; d < sub.ndim(); ++d) {
      EXPECT_EQ(sub.strides(0)[d], dense) << "output stride " << d;
      dense *= sub.shape()[d];
    }
    parts.push_back(
        {static_cast<int64_t>(reinterpret_cast<uintptr_t>(sub.data_ptr(0))) / 4, sub.numel()});
  }
  return parts;
}

// The parts tile [0, numel) exactly once: no gap, no overlap.
void expect_exact_cover(std::vector<Part> parts, int64_t numel) {
  std::sort(parts.begin(), parts.end());
  int64_t next = 0;
  for (const Part& part : parts) {
    EXPECT_EQ(part.first, next);
    next = part.first + part.size;
  }
  EXPECT_EQ(next, numel);
}

int64_t offset_of(const TensorIterator& iter, int arg) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(iter.data_ptr(arg)));
}

TEST(TensorIterator, SplitsIteratorsWhoseOffsetsExceed32Bits) {
  // 2^31 float32 elements (2^33 bytes) on Meta: never allocated.
  const int64_t rows = int64_t{1} << 16, cols = int64_t{1} << 15;
  Tensor big = native::as_strided(native::empty({rows * cols}, ScalarType::kFloat32, kMeta),
                                  {rows, cols}, {cols, 1}, 0);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, big);
  EXPECT_EQ(iter.shape(), IntArrayRef({rows * cols}));
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  const std::vector<Part> parts = split_parts(iter);
  // Offsets below 2^31 bytes per part: 2^33 bytes make 4 parts of 2^29 elements.
  ASSERT_EQ(parts.size(), 4u);
  for (const Part& part : parts) EXPECT_EQ(part.size, int64_t{1} << 29);
  expect_exact_cover(parts, rows * cols);
}

TEST(TensorIterator, SplitsBroadcastIteratorsAndKeepsEveryOperandsOffset) {
  // [rows, 1] + [cols] -> [rows, cols] float32: 2^33 bytes of output, on Meta.
  const int64_t rows = int64_t{1} << 16, cols = int64_t{1} << 15;
  Tensor a = native::empty({rows, 1}, ScalarType::kFloat32, kMeta);
  Tensor b = native::empty({cols}, ScalarType::kFloat32, kMeta);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  // (Meta iterators skip coalescing: their meta functions only need the outputs.)
  expect_geometry(iter, {cols, rows}, {1, 0}, {{4, cols * 4}, {0, 4}, {4, 0}},
                  /*coalesced=*/false);
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  std::vector<Part> parts;
  for (TensorIterator& sub : iter.with_32bit_indexing()) {
    ASSERT_TRUE(sub.can_use_32bit_indexing());
    // Only the rows are split (the largest extent); each part starts at a whole row.
    ASSERT_EQ(sub.shape()[0], cols);
    const int64_t row = offset_of(sub, 0) / (cols * 4);
    EXPECT_EQ(offset_of(sub, 0), row * cols * 4);
    EXPECT_EQ(offset_of(sub, 1), row * 4);  // a: one element per row
    EXPECT_EQ(offset_of(sub, 2), 0);        // b: the same row for every part
    EXPECT_EQ(sub.strides(1), IntArrayRef({0, 4}));
    EXPECT_EQ(sub.strides(2), IntArrayRef({4, 0}));
    parts.push_back({row * cols, sub.numel()});
  }
  EXPECT_EQ(parts.size(), 4u);
  expect_exact_cover(parts, rows * cols);
}

TEST(TensorIterator, SplitsAnInputWithHugeStridesDownToSingleRows) {
  // 4 rows of 1024 floats, 2^31 bytes apart, viewed from a Meta storage of 2^31 floats: 4 KiB of
  // output, but input offsets up to 3 * 2^31 bytes.
  Tensor storage = native::empty({int64_t{1} << 31}, ScalarType::kFloat32, kMeta);
  Tensor a = native::as_strided(storage, {4, 1024}, {int64_t{1} << 29, 1}, 0);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  expect_geometry(iter, {1024, 4}, {1, 0}, {{4, 4096}, {4, int64_t{1} << 31}},
                  /*coalesced=*/false);
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  std::vector<Part> parts = split_parts(iter);
  ASSERT_EQ(parts.size(), 4u);
  int64_t visited = 0;
  for (TensorIterator& sub : iter.with_32bit_indexing()) {
    // A single row: narrowed to extent 1, the row dim coalesces away.
    EXPECT_EQ(sub.shape(), IntArrayRef({1024}));
    const int64_t row = offset_of(sub, 0) / 4096;
    EXPECT_EQ(offset_of(sub, 1), row << 31);
    EXPECT_EQ(sub.strides(1), IntArrayRef({4}));
    ++visited;
  }
  EXPECT_EQ(visited, 4);
  expect_exact_cover(parts, 4 * 1024);
}

TEST(TensorIterator, SplittingAReducedDimMarksPartsThatAccumulate) {
  // Sum over dim 1 of a [4, 2^30] Meta tensor: the kept dim splits into single rows, then each
  // row's reduced dim into halves.
  const int64_t n = int64_t{1} << 30;
  Tensor in = native::empty({4, n}, ScalarType::kFloat32, kMeta);
  Tensor out = native::empty({4, 1}, ScalarType::kFloat32, kMeta);
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false)
      .add_output(out)
      .add_input(in)
      .resize_outputs(false)
      .is_reduction(true);
  TensorIterator iter = config.build();
  EXPECT_EQ(iter.shape(), IntArrayRef({n, 4}));
  int parts = 0;
  int64_t reduced = 0;
  std::vector<int> first_writes(4, 0), finals(4, 0);
  for (TensorIterator& sub : iter.with_32bit_indexing()) {
    ASSERT_TRUE(sub.can_use_32bit_indexing());
    ASSERT_EQ(sub.shape(), IntArrayRef({n / 2, 1}));
    const int64_t row = offset_of(sub, 0) / 4;
    ASSERT_LT(row, 4);
    // The input part: its row, and the first or second half of it.
    const int64_t in_offset = offset_of(sub, 1) - row * n * 4;
    EXPECT_TRUE(in_offset == 0 || in_offset == n / 2 * 4) << in_offset;
    EXPECT_EQ(sub.should_accumulate(), in_offset != 0);
    EXPECT_EQ(sub.is_final_output(), in_offset != 0);
    first_writes[row] += !sub.should_accumulate();
    finals[row] += sub.is_final_output();
    reduced += sub.numel();
    ++parts;
  }
  EXPECT_EQ(parts, 8);
  EXPECT_EQ(reduced, 4 * n);
  // Every output is written first by exactly one part and finished by exactly one.
  EXPECT_EQ(first_writes, std::vector<int>(4, 1));
  EXPECT_EQ(finals, std::vector<int>(4, 1));
}

TEST(TensorIterator, ForEachVisitsEveryElementOnceAcrossThreads) {
  const int64_t n = 1 << 18;
  Tensor a = iota({n}), b = iota({n}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  add_float(iter);
  const float* o = static_cast<const float*>(iter.output().data_ptr());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(o[i], 2.0f * static_cast<float>(i)) << i;
}

TEST(TensorIterator, ForEachGivesEachThreadWholeRowsAsTwoDimensionalTiles) {
  const int before = get_num_threads();
  set_num_threads(2);
  // Not coalescible: iterates as [300, 1001] (dim 0: the transposed input's fast dim). Halves of
  // the elements would split row 500.
  Tensor a = native::t(iota({1001, 300})), b = iota({300, 1001}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  ASSERT_EQ(iter.shape(), IntArrayRef({300, 1001}));
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> tiles;
  iter.for_each([&](char**, const int64_t*, int64_t size0, int64_t size1) {
    std::lock_guard<std::mutex> lock(mu);
    tiles.emplace_back(size0, size1);
  });
  int64_t total = 0;
  for (const auto& [size0, size1] : tiles) {
    EXPECT_EQ(size0, 300);  // never a partial row
    total += size0 * size1;
  }
  EXPECT_EQ(total, 300 * 1001);
  // One tile per thread that ran (2 with OpenMP, 1 in builds without it).
  EXPECT_LE(tiles.size(), 2u);
  set_num_threads(before);
}

TEST(CastCopy, ConvertsBetweenDtypesWithBroadcast) {
  Tensor src = iota({3}, ScalarType::kInt64);
  Tensor dst = native::empty({2, 3}, ScalarType::kFloat16, kCpu);
  cast_copy(dst, src);
  const Half* h = dst.data_ptr<Half>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(static_cast<float>(h[i]), static_cast<float>(i % 3));
}

}  // namespace
}  // namespace bp
