// Iteration plans through the C ABI: geometry after coalescing, operand byte strides and dtypes,
// outputs the plan allocates, reductions, 32-bit sub-plans, and errors.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::ElementsAre;

std::vector<int64_t> shape_of(const bp_iter_info& info) {
  return std::vector<int64_t>(info.shape, info.shape + info.ndim);
}

std::vector<int64_t> strides_of(const bp_iter_operand& op, size_t ndim) {
  return std::vector<int64_t>(op.strides, op.strides + ndim);
}

TEST(IterationPlans, BinaryPlanBroadcastsPromotesAndAllocatesItsOutput) {
  // On a device other than the CPU, operands keep their dtypes: the kernel casts as it loads.
  const HostBackend dev("plan_dev");
  const Tensor a = copy_to(filled(BP_DTYPE_INT32, {2, 3}), dev.device());
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev.device());
  const Plan plan(api(), {nullptr}, {a.get(), b.get()}, BP_ITER_BINARY_OP);
  const bp_iter_info info = plan.info();
  EXPECT_EQ(info.ntensors, 3u);
  EXPECT_EQ(info.noutputs, 1u);
  EXPECT_EQ(info.numel, 6);
  EXPECT_EQ(info.common_dtype, BP_DTYPE_FLOAT32);
  EXPECT_THAT(shape_of(info), ElementsAre(3, 2));  // fastest dimension first
  EXPECT_FALSE(info.is_contiguous);                // b is broadcast
  EXPECT_TRUE(info.has_contiguous_first_dim);
  EXPECT_TRUE(info.can_use_32bit_indexing);
  EXPECT_FALSE(info.is_reduction);
  EXPECT_EQ(info.num_output_elements, 6);
  EXPECT_TRUE(info.is_final_output);

  const bp_iter_operand out = plan.operand(0), in_a = plan.operand(1), in_b = plan.operand(2);
  EXPECT_TRUE(out.is_output);
  EXPECT_FALSE(out.is_read_write);
  EXPECT_EQ(out.dtype, BP_DTYPE_FLOAT32);
  EXPECT_THAT(strides_of(out, info.ndim), ElementsAre(4, 12));
  EXPECT_EQ(in_a.dtype, BP_DTYPE_INT32);
  EXPECT_EQ(in_a.device.device_type, dev.device().device_type);
  EXPECT_THAT(strides_of(in_b, info.ndim), ElementsAre(4, 0));
  EXPECT_EQ(in_a.data, a.data());

  const Tensor allocated = plan.tensor(0);
  EXPECT_EQ(allocated.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(allocated.dtype(), BP_DTYPE_FLOAT32);
  EXPECT_EQ(allocated.device().device_type, dev.device().device_type);
  EXPECT_EQ(allocated.data(), out.data);
}

TEST(IterationPlans, ContiguousOperandsCoalesceToOneDimension) {
  const Tensor a = filled(BP_DTYPE_FLOAT64, {4, 5}),
               out = Tensor::empty(api(), {4, 5}, BP_DTYPE_FLOAT64);
  const Plan plan(api(), {out.get()}, {a.get()}, BP_ITER_UNARY_OP);
  const bp_iter_info info = plan.info();
  EXPECT_THAT(shape_of(info), ElementsAre(20));
  EXPECT_TRUE(info.is_contiguous);
  EXPECT_THAT(strides_of(plan.operand(1), 1), ElementsAre(8));
}

TEST(IterationPlans, InPlaceOperandsAreReadWrite) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {3});
  const Plan plan(api(), {a.get()}, {a.get(), a.get()}, BP_ITER_BINARY_OP);
  EXPECT_TRUE(plan.operand(0).is_read_write);
}

TEST(IterationPlans, AReductionPlanHasOutputStrideZeroAlongReducedDimensions) {
  const Tensor in = Tensor::empty(api(), {4, 6}, BP_DTYPE_FLOAT32, kMeta);
  const Tensor out = Tensor::empty(api(), {4, 1}, BP_DTYPE_FLOAT32, kMeta);
  const Plan plan(api(), {out.get()}, {in.get()},
                  BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE);
  const bp_iter_info info = plan.info();
  EXPECT_TRUE(info.is_reduction);
  EXPECT_THAT(shape_of(info), ElementsAre(6, 4));
  EXPECT_THAT(strides_of(plan.operand(0), 2), ElementsAre(0, 4));
  EXPECT_THAT(strides_of(plan.operand(1), 2), ElementsAre(4, 24));
  EXPECT_EQ(info.num_output_elements, 4);
  EXPECT_EQ(info.num_reduce_dims, 1);
  EXPECT_FALSE(info.should_accumulate);
  EXPECT_TRUE(info.is_final_output);
}

struct SplitVisit {
  int plans = 0;
  int64_t elements = 0;
  bool all_32bit = true;
};

bp_error* count_sub_plan(void* user_data, const bp_iter* sub) {
  auto* visit = static_cast<SplitVisit*>(user_data);
  bp_iter_info info{};
  info.struct_size = sizeof info;
  if (bp_error* e = api()->iter_info(sub, &info)) return e;
  ++visit->plans;
  visit->elements += info.numel;
  visit->all_32bit = visit->all_32bit && info.can_use_32bit_indexing;
  return nullptr;
}

TEST(IterationPlans, SplitsIntoSubPlansThatFit32BitOffsets) {
  // 2^33 bytes of float32 Meta elements: a plan too large for 32-bit offsets, never allocated.
  const int64_t rows = int64_t{1} << 16, cols = int64_t{1} << 15;
  const Tensor big = Tensor::empty(api(), {rows, cols}, BP_DTYPE_FLOAT32, kMeta);
  const Plan plan(api(), {nullptr}, {big.get()}, BP_ITER_UNARY_OP);
  EXPECT_FALSE(plan.info().can_use_32bit_indexing);
  SplitVisit visit;
  check(api(), api()->iter_split_32bit(plan.get(), &count_sub_plan, &visit));
  EXPECT_GT(visit.plans, 1);
  EXPECT_EQ(visit.elements, rows * cols);
  EXPECT_TRUE(visit.all_32bit);

  const Tensor small = filled(BP_DTYPE_FLOAT32, {8});
  const Plan whole(api(), {nullptr}, {small.get()}, BP_ITER_UNARY_OP);
  SplitVisit one;
  check(api(), api()->iter_split_32bit(whole.get(), &count_sub_plan, &one));
  EXPECT_EQ(one.plans, 1);
  EXPECT_EQ(one.elements, 8);
}

bp_error* refuse(void*, const bp_iter*) {
  return api()->error_create(BP_ERROR_UNAVAILABLE, "launch failed");
}

TEST(IterationPlans, AVisitErrorStopsTheSplitAndIsReturnedAsIs) {
  const Tensor small = filled(BP_DTYPE_FLOAT32, {8});
  const Plan plan(api(), {nullptr}, {small.get()}, BP_ITER_UNARY_OP);
  const ErrorHandle error(api(), api()->iter_split_32bit(plan.get(), &refuse, nullptr));
  EXPECT_EQ(error.code(), BP_ERROR_UNAVAILABLE);
  EXPECT_EQ(error.message(), "launch failed");
}

TEST(IterationPlans, ACpuPlanCastsItsOutputsBack) {
  // int32 + float32 into a float64 out on the CPU: the int32 input is converted and the output
  // computed in float32 temporaries.
  const Tensor a = filled(BP_DTYPE_INT32, {3}), b = filled(BP_DTYPE_FLOAT32, {3}, 2);
  const Tensor out = Tensor::empty(api(), {3}, BP_DTYPE_FLOAT64);
  const Plan plan(api(), {out.get()}, {a.get(), b.get()}, BP_ITER_BINARY_OP);
  const bp_iter_operand o = plan.operand(0);
  ASSERT_EQ(o.dtype, BP_DTYPE_FLOAT32);  // the temporary
  ASSERT_EQ(plan.info().ndim, 1u);
  const bp_iter_operand x = plan.operand(1), y = plan.operand(2);
  for (int64_t i = 0; i < 3; ++i) {
    const float xi = static_cast<const float*>(x.data)[i * x.strides[0] / 4];
    const float yi = static_cast<const float*>(y.data)[i * y.strides[0] / 4];
    static_cast<float*>(o.data)[i * o.strides[0] / 4] = xi + yi;
  }
  check(api(), api()->iter_cast_outputs(plan.get()));
  EXPECT_EQ(out.to_host<double>(), (std::vector<double>{-4, 10, 2}));
}

TEST(IterationPlans, AFloatUnaryPlanPromotesIntegerInputsToFloat) {
  // exp of an int32 tensor: a float32 result. On the CPU the input is converted to a float32
  // temporary; on another device it keeps its dtype (the kernel converts while loading).
  const Tensor a = filled(BP_DTYPE_INT32, {3});
  const Plan plan(api(), {nullptr}, {a.get()}, BP_ITER_UNARY_FLOAT_OP);
  EXPECT_EQ(plan.info().common_dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(plan.tensor(0).dtype(), BP_DTYPE_FLOAT32);
  const bp_iter_operand x = plan.operand(1);
  ASSERT_EQ(x.dtype, BP_DTYPE_FLOAT32);
  std::vector<float> converted;
  for (int64_t i = 0; i < 3; ++i) {
    converted.push_back(static_cast<const float*>(x.data)[i * x.strides[0] / 4]);
  }
  const std::vector<int32_t> ints = a.to_host<int32_t>();
  EXPECT_EQ(converted, std::vector<float>(ints.begin(), ints.end()));

  const HostBackend dev("float_plan_dev");
  const Tensor on_dev = copy_to(filled(BP_DTYPE_INT64, {4}), dev.device());
  const Plan device_plan(api(), {nullptr}, {on_dev.get()}, BP_ITER_UNARY_FLOAT_OP);
  EXPECT_EQ(device_plan.info().common_dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(device_plan.operand(0).dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(device_plan.operand(1).dtype, BP_DTYPE_INT64);

  // Floating inputs keep their dtype; an integer output cannot hold the result.
  const Tensor d = filled(BP_DTYPE_FLOAT64, {2});
  EXPECT_EQ(Plan(api(), {nullptr}, {d.get()}, BP_ITER_UNARY_FLOAT_OP).info().common_dtype,
            BP_DTYPE_FLOAT64);
  const Tensor int_out = Tensor::empty(api(), {3}, BP_DTYPE_INT32);
  EXPECT_EQ(error_of([&] { Plan(api(), {int_out.get()}, {a.get()}, BP_ITER_UNARY_FLOAT_OP); }),
            "result type float32 can't be cast to the desired output type int32");
}

TEST(IterationPlans, ASameDtypePlanNamesTheOperandsTheirDtypesAndTheFlagThatAllowsThem) {
  const Tensor a = filled(BP_DTYPE_INT32, {3});
  const Tensor out = Tensor::empty(api(), {3}, BP_DTYPE_FLOAT32);
  EXPECT_EQ(error_of([&] { Plan(api(), {out.get()}, {a.get()}, BP_ITER_UNARY_OP); }),
            "bp_api.iter_build: the iterator config requires one dtype for every operand "
            "(BP_ITER_CHECK_ALL_SAME_DTYPE, part of BP_ITER_UNARY_OP), but output 0 is float32 "
            "and input 0 is int32. For an op with a floating result on integer input use "
            "BP_ITER_UNARY_FLOAT_OP (integer inputs promote to float); for inputs of different "
            "dtypes add BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE | "
            "BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS");
  const Tensor b = filled(BP_DTYPE_FLOAT64, {3});
  EXPECT_EQ(error_of([&] {
              Plan(api(), {nullptr}, {a.get(), b.get()},
                   BP_ITER_CHECK_ALL_SAME_DTYPE | BP_ITER_RESIZE_OUTPUTS);
            }),
            "bp_api.iter_build: the iterator config requires one dtype for every operand "
            "(BP_ITER_CHECK_ALL_SAME_DTYPE), but input 0 is int32 and input 1 is float64. For an "
            "op with a floating result on integer input use BP_ITER_UNARY_FLOAT_OP (integer "
            "inputs promote to float); for inputs of different dtypes add "
            "BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE | BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS");
}

TEST(IterationPlans, ErrorsArePyTorchsAndBadArgumentsAreCaught) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2}), b = filled(BP_DTYPE_FLOAT32, {3});
  EXPECT_EQ(error_of([&] {
              Plan(api(), {nullptr}, {a.get(), b.get()}, BP_ITER_BINARY_OP);
            }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
  EXPECT_EQ(error_of([&] { Plan(api(), {nullptr}, {a.get()}, 1u << 20); }),
            "bp_iter_config.flags has unknown bits 0x100000");
  EXPECT_EQ(error_of([&] { Plan(api(), {nullptr}, {nullptr}, BP_ITER_UNARY_OP); }),
            "bp_iter_config.inputs[0] is NULL");
  EXPECT_EQ(
      error_of([&] { Plan(api(), {nullptr}, {a.get()}, BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT); }),
      "BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT needs BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE");
  const Plan plan(api(), {nullptr}, {a.get()}, BP_ITER_UNARY_OP);
  bp_iter_operand op{};
  op.struct_size = sizeof op;
  const ErrorHandle error(api(), api()->iter_operand(plan.get(), 2, &op));
  EXPECT_EQ(error.code(), BP_ERROR_INDEX);
  EXPECT_EQ(error.message(), "operand index 2 is out of range for a plan of 2 operands");
}

}  // namespace
}  // namespace backplane::testing
