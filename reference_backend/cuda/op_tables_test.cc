// The plugin's tables agree with the SDK's definitions they mirror: dense dtype codes and names
// (the codegen writes dtype masks in the SDK's order), the generated rows match the op table, and
// the kernel catalog's natural output dtypes are the meta functions'.
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/op_arguments.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "reference_backend/cuda/reduction_catalog.h"
#include "reference_backend/cuda/reduction_ops.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/scalar_type.h"
#include "sdk/ops/op_table.h"

namespace bp::cuda {
namespace {

TEST(OpTables, DenseDtypeCodesAndNamesAreTheSdks) {
  for (int c = 0; c < kNumDtypes; ++c) {
    const ScalarTypeInfo& sdk = kScalarTypeInfos[static_cast<size_t>(c)];
    const DtypeInfo& mine = info(dtype_of_code(c));
    EXPECT_EQ(mine.name, sdk.name);
    EXPECT_EQ(mine.itemsize, sdk.itemsize);
    EXPECT_EQ(dtype_from_abi(mine.abi), dtype_of_code(c));
    EXPECT_EQ(mine.abi & 0xFF, static_cast<int>(sdk.dlpack_code));
    EXPECT_EQ((mine.abi >> 8) & 0xFF, sdk.dlpack_bits);
    EXPECT_EQ(mine.pytorch_type, pytorch_cpp_type_name(sdk.type));
  }
}

TEST(OpTables, NaturalOutputsAreWhatTheMetaFunctionsGiveFunctionalCalls) {
  auto natural = [](const char* op, Dtype dtype) {
    return natural_output(*find_pointwise_op(op), dtype);
  };
  EXPECT_EQ(natural("add.out", Dtype::kInt64), Dtype::kInt64);
  EXPECT_EQ(natural("exp.out", Dtype::kFloat16), Dtype::kFloat16);
  EXPECT_EQ(natural("eq.Tensor_out", Dtype::kFloat32), Dtype::kBool);
  EXPECT_EQ(natural("isnan.out", Dtype::kInt32), Dtype::kBool);
  EXPECT_EQ(natural("abs.out", Dtype::kComplex64), Dtype::kFloat32);
  EXPECT_EQ(natural("abs.out", Dtype::kFloat16), Dtype::kFloat16);
  // A bool exponent keeps pow(bool) in bool (an int one would promote it).
  EXPECT_EQ(natural("pow.Tensor_Scalar_out", Dtype::kBool), Dtype::kBool);
  EXPECT_EQ(natural("sub.out", Dtype::kBool), std::nullopt);  // not declared for bool
  // Every op has kernels.
  ASSERT_FALSE(pointwise_ops().empty());
  for (const PointwiseOp& op : pointwise_ops()) {
    EXPECT_FALSE(kernels_of(op).empty()) << op.name << " (" << op.source << ")";
  }
}

TEST(OpTables, PointwiseRowsMatchTheOpTable) {
  for (const PointwiseOp& op : pointwise_ops()) {
    const OpInfo* sdk = find_op_info(op.name);
    ASSERT_NE(sdk, nullptr) << op.name;
    EXPECT_EQ(std::string(sdk->math), op.functor);
    EXPECT_EQ(sdk->dtypes, op.dtypes);
    const std::optional<OpArguments> args = find_op_arguments(op.name);
    ASSERT_TRUE(args.has_value());
    EXPECT_EQ(args->count(), op.num_arguments);
    EXPECT_EQ(args->index_of("out"), op.out);
  }
}

TEST(OpTables, ArgumentNamesAreFoundByPosition) {
  const std::optional<OpArguments> add = find_op_arguments("add.out");
  ASSERT_TRUE(add.has_value());
  EXPECT_EQ(add->index_of("self"), 0);
  EXPECT_EQ(add->index_of("alpha"), 2);
  EXPECT_EQ(add->index_of("out"), 3);
  EXPECT_EQ(add->index_of("missing"), -1);
  EXPECT_FALSE(find_op_arguments("no_such_op.out").has_value());
}

TEST(OpTables, ReductionRowsMatchTheOpTable) {
  ASSERT_FALSE(reduction_ops().empty());
  for (const ReductionOp& op : reduction_ops()) {
    const OpInfo* sdk = find_op_info(op.name);
    ASSERT_NE(sdk, nullptr) << op.name;
    EXPECT_EQ(sdk->dtypes, op.dtypes) << op.name;
    const std::optional<OpArguments> args = find_op_arguments(op.name);
    ASSERT_TRUE(args.has_value());
    EXPECT_EQ(args->count(), op.num_arguments);
    EXPECT_EQ(args->index_of("self"), op.self);
    EXPECT_EQ(args->index_of("dim"), op.dim);
    EXPECT_EQ(args->index_of("keepdim"), op.keepdim);
    for (int o = 0; o < op.num_outputs; ++o) EXPECT_GT(op.outputs[o], op.self) << op.name;
  }
  EXPECT_EQ(find_reduction_op("argmax.out")->result(0), ReduceResult::kIndex);
  EXPECT_STREQ(find_reduction_op("norm.out")->if_none[0], "2");
}

TEST(OpTables, ReductionKernelsReduceInTheDtypesTheMetaFunctionsGive) {
  auto natural = [](const char* op, Dtype dtype) {
    const std::optional<ReduceKernel> k = natural_reduction(*find_reduction_op(op), dtype);
    return k ? std::make_pair(k->dtype, k->out) : std::make_pair(Dtype::kBool, Dtype::kBool);
  };
  using P = std::pair<Dtype, Dtype>;
  // Reduced in the result's dtype: int32 sums in int64, logsumexp of integers in float32.
  EXPECT_EQ(natural("sum.IntList_out", Dtype::kInt32), P(Dtype::kInt64, Dtype::kInt64));
  EXPECT_EQ(natural("logsumexp.out", Dtype::kInt16), P(Dtype::kFloat32, Dtype::kFloat32));
  // Reduced in the input's dtype.
  EXPECT_EQ(natural("var.correction_out", Dtype::kComplex64),
            P(Dtype::kComplex64, Dtype::kFloat32));
  EXPECT_EQ(natural("argmax.out", Dtype::kFloat16), P(Dtype::kFloat16, Dtype::kInt64));
  // norm with dtype=: a complex input stays complex (its result's dtype is real).
  EXPECT_EQ(natural("norm.dtype_out", Dtype::kComplex64), P(Dtype::kComplex64, Dtype::kFloat32));
  EXPECT_EQ(natural("all.out", Dtype::kUInt8), P(Dtype::kUInt8, Dtype::kUInt8));
  EXPECT_EQ(natural("any.out", Dtype::kFloat32), P(Dtype::kFloat32, Dtype::kBool));
  EXPECT_FALSE(natural_reduction(*find_reduction_op("amax.out"), Dtype::kComplex64));
  // Every declared reduction has kernels.
  std::set<std::string> families;
  for (const ReduceKernel& k : reduction_kernels()) families.insert(k.family());
  EXPECT_EQ(families, reduction_families());
}

}  // namespace
}  // namespace bp::cuda
