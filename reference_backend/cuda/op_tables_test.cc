// The plugin's tables agree with the SDK's definitions they mirror: dense dtype codes and names
// (the codegen writes dtype masks in the SDK's order), the generated rows match the op table, and
// the kernel catalog's natural output dtypes are the meta functions'.
#include <limits>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/host_values.h"
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
    // An op's alternatives are consecutive rows; the op table names the first one's functor.
    const std::span<const PointwiseOp> rows = pointwise_alternatives(op.name);
    ASSERT_FALSE(rows.empty()) << op.name;
    EXPECT_EQ(std::string(sdk->math), rows.front().functor);
    EXPECT_TRUE(&op >= rows.data() && &op < rows.data() + rows.size()) << op.name;
    if (rows.size() == 1) {
      EXPECT_EQ(sdk->dtypes, op.dtypes);
    } else {
      EXPECT_EQ(sdk->dtypes & op.dtypes, op.dtypes) << op.name << " " << op.functor;
    }
    const std::optional<OpArguments> args = find_op_arguments(op.name);
    ASSERT_TRUE(args.has_value());
    EXPECT_EQ(args->count(), op.num_arguments);
    EXPECT_EQ(args->index_of("out"), op.out);
  }
}

// Boxed arguments as the C ABI passes them: a stand-in tensor handle, None, a str, a number.
bp_value tensor_value() {
  static int dummy;
  bp_value v{};
  v.tag = BP_VALUE_TENSOR;
  v.u.tensor = reinterpret_cast<bp_tensor*>(&dummy);
  return v;
}
bp_value none_value() { return bp_value{}; }
bp_value str_value(const char* s) {
  bp_value v{};
  v.tag = BP_VALUE_STRING;
  v.u.s = s;
  return v;
}
bp_value number_value(double d) {
  bp_value v{};
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = d;
  return v;
}

const char* chosen(const char* op, const std::vector<bp_value>& args) {
  const PointwiseOp* row = select_alternative(pointwise_alternatives(op), args.data());
  return row == nullptr ? "none" : row->functor;
}

TEST(OpTables, AlternativesAreChosenByTheArgumentsGiven) {
  const bp_value t = tensor_value(), none = none_value(), two = number_value(2);
  // clamp(self, min, max, out): Scalar bounds.
  EXPECT_STREQ(chosen("clamp.out", {t, two, two, t}), "Clamp");
  EXPECT_STREQ(chosen("clamp.out", {t, two, none, t}), "ClampMin");
  EXPECT_STREQ(chosen("clamp.out", {t, none, two, t}), "ClampMax");
  EXPECT_STREQ(chosen("clamp.out", {t, none, none, t}), "none");  // the meta function refuses
  // clamp.Tensor: optional tensor bounds are inputs when given.
  EXPECT_STREQ(chosen("clamp.Tensor_out", {t, none, t, t}), "ClampMax");
  const std::vector<bp_value> max_only = {t, none, t, t};
  const PointwiseOp* clamp_max =
      select_alternative(pointwise_alternatives("clamp.Tensor_out"), max_only.data());
  ASSERT_NE(clamp_max, nullptr);
  EXPECT_EQ(clamp_max->num_inputs, 2);
  EXPECT_EQ(clamp_max->inputs[1], 2);
  // div's rounding modes; only the rounded ones refuse complex (PyTorch's "div_trunc" not
  // implemented for 'ComplexFloat').
  EXPECT_STREQ(chosen("div.out_mode", {t, t, none, t}), "Div");
  EXPECT_STREQ(chosen("div.out_mode", {t, t, str_value("trunc"), t}), "DivTrunc");
  EXPECT_STREQ(chosen("div.out_mode", {t, t, str_value("floor"), t}), "DivFloor");
  const PointwiseOp& trunc = pointwise_alternatives("div.out_mode")[1];
  EXPECT_STREQ(trunc.error_name, "div_trunc");
  EXPECT_FALSE(trunc.supports(Dtype::kComplex64));
  EXPECT_TRUE(pointwise_alternatives("div.out_mode")[0].supports(Dtype::kComplex64));
  EXPECT_EQ(trunc.divisor, 1);
  EXPECT_EQ(find_pointwise_op("remainder.Tensor_out")->divisor, 1);
  EXPECT_EQ(find_pointwise_op("add.out")->divisor, -1);
  // where's condition is read as bool.
  EXPECT_EQ(find_pointwise_op("where.self_out")->bool_inputs, 1u);
}

TEST(OpTables, NanToNumReplacementsDefaultToTheDtypesLimitsInItsRealType) {
  const PointwiseOp& op = *find_pointwise_op("nan_to_num.out");
  auto as_double = [&](int j, Dtype dtype, const bp_value& v) {
    const Dtype to = math_argument_dtype(op, j, dtype);
    return value_to_double(math_argument(op, j, v, dtype), to);
  };
  EXPECT_EQ(math_argument_dtype(op, 1, Dtype::kComplex64), Dtype::kFloat32);
  EXPECT_EQ(math_argument_dtype(op, 1, Dtype::kFloat16), Dtype::kFloat32);
  EXPECT_EQ(as_double(0, Dtype::kFloat32, none_value()), 0.0);
  EXPECT_EQ(as_double(1, Dtype::kFloat16, none_value()), 65504.0);
  EXPECT_EQ(as_double(2, Dtype::kFloat16, none_value()), -65504.0);
  EXPECT_EQ(as_double(1, Dtype::kComplex128, none_value()), std::numeric_limits<double>::max());
  EXPECT_EQ(as_double(2, Dtype::kBFloat16, none_value()), -3.3895313892515355e38);
  EXPECT_EQ(as_double(1, Dtype::kFloat32, number_value(7.5)), 7.5);
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
