#include "sdk/iter/tensor_iterator.h"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/cast_copy.h"

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

TEST(TensorIterator, ContiguousOperandsCoalesceToOneDimension) {
  Tensor a = iota({4, 5}), b = iota({4, 5}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.shape(), IntArrayRef({20}));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(iter.strides(k), IntArrayRef({4}));
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
  EXPECT_EQ(iter.shape(), IntArrayRef({20}));
}

TEST(TensorIterator, TransposedAndContiguousInputsIterateInTheFirstOperandsOrder) {
  Tensor a = native::transpose(iota({5, 4}), 0, 1);  // [4, 5] strides [1, 4]
  Tensor b = iota({4, 5});                           // [4, 5] strides [5, 1]
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  // The first input decides: its fastest dimension (dim 0) comes first.
  EXPECT_EQ(iter.perm(), IntArrayRef({0, 1}));
  EXPECT_EQ(iter.shape(), IntArrayRef({4, 5}));
  EXPECT_EQ(iter.strides(1), IntArrayRef({4, 16}));
  EXPECT_EQ(iter.strides(2), IntArrayRef({20, 4}));
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
  EXPECT_EQ(iter.shape(), IntArrayRef({120}));
}

TEST(TensorIterator, BroadcastInputsGetZeroStrides) {
  Tensor a = iota({3, 1}), b = iota({4}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(iter.shape(), IntArrayRef({4, 3}));
  EXPECT_EQ(iter.strides(0), IntArrayRef({4, 16}));
  EXPECT_EQ(iter.strides(1), IntArrayRef({0, 4}));
  EXPECT_EQ(iter.strides(2), IntArrayRef({4, 0}));
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
  EXPECT_EQ(iter.strides(1), IntArrayRef({0}));
  EXPECT_TRUE(iter.is_scalar(1));
  EXPECT_TRUE(iter.is_cpu_scalar(1));
  EXPECT_FALSE(iter.is_scalar(2));
  EXPECT_FALSE(iter.has_contiguous_first_dim());
}

TEST(TensorIterator, SlicedWithStepKeepsByteStrides) {
  Tensor base = iota({4, 10});
  Tensor a = native::slice(base, 1, 0, 8, 2);  // [4, 4] strides [10, 2]: rows do not continue
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  EXPECT_EQ(iter.shape(), IntArrayRef({4, 4}));
  EXPECT_EQ(iter.strides(1), IntArrayRef({8, 40}));
  EXPECT_EQ(iter.strides(0), IntArrayRef({4, 16}));
  EXPECT_TRUE(iter.output().is_contiguous());
}

TEST(TensorIterator, SliceWithStepOverAWholeRowCoalescesToOneStride) {
  Tensor a = native::slice(iota({4, 10}), 1, 0, 10, 2);  // [4, 5] strides [10, 2]: one stride-2 run
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  EXPECT_EQ(iter.shape(), IntArrayRef({20}));
  EXPECT_EQ(iter.strides(1), IntArrayRef({8}));
  EXPECT_EQ(iter.strides(0), IntArrayRef({4}));
}

TEST(TensorIterator, ZeroSizeAndZeroDimOperands) {
  Tensor a = iota({0, 3}), b = iota({3}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  EXPECT_EQ(iter.numel(), 0);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({0, 3}));
  int calls = 0;
  iter.for_each([&](char**, const int64_t*, int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);

  Tensor s = iota({}), t = iota({}), out0;
  TensorIterator scalar_iter;
  scalar_iter.build_borrowing_binary_op(out0, s, t);
  EXPECT_EQ(scalar_iter.ndim(), 0);
  EXPECT_EQ(scalar_iter.numel(), 1);
  EXPECT_EQ(scalar_iter.output().dim(), 0);
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

TEST(TensorIterator, SplitsIteratorsWhoseOffsetsExceed32Bits) {
  // 2^33 bytes of float32 elements, never allocated: expanded from one Meta element.
  const int64_t rows = int64_t{1} << 16, cols = int64_t{1} << 15;
  Tensor big = native::as_strided(native::empty({rows * cols}, ScalarType::kFloat32, kMeta),
                                  {rows, cols}, {cols, 1}, 0);
  Tensor out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, big);
  EXPECT_FALSE(iter.can_use_32bit_indexing());
  int64_t total = 0;
  int parts = 0;
  for (TensorIterator& sub : iter.with_32bit_indexing()) {
    EXPECT_TRUE(sub.can_use_32bit_indexing());
    total += sub.numel();
    ++parts;
  }
  EXPECT_EQ(total, rows * cols);
  // Largest offset per part below 2^31 bytes: 2^33 bytes make 4 halvings' worth of parts.
  EXPECT_EQ(parts, 4);
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

TEST(CastCopy, ConvertsBetweenDtypesWithBroadcast) {
  Tensor src = iota({3}, ScalarType::kInt64);
  Tensor dst = native::empty({2, 3}, ScalarType::kFloat16, kCpu);
  cast_copy(dst, src);
  const Half* h = dst.data_ptr<Half>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(static_cast<float>(h[i]), static_cast<float>(i % 3));
}

}  // namespace
}  // namespace bp
