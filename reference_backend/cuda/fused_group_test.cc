// Reading fused groups (fused_group.h) and their kernels' source (fused_group_kernel.h), without
// a GPU: what is taken and declined, the out= rows functional ops map to, and the structure-only
// kernel names. The kernels run under the emulated driver in
// emulation/driver:fused_groups_under_emulation_test.
#include "reference_backend/cuda/fused_group.h"

#include <optional>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/fused_group_catalog.h"
#include "reference_backend/cuda/fused_group_kernel.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

using ::testing::HasSubstr;

std::string entry(const std::string& name) {
  for (const FusedCatalogEntry& e : fused_group_catalog()) {
    if (e.name == name) return e.json;
  }
  ADD_FAILURE() << "no catalogue entry " << name;
  return "";
}

FusedGroup parse(const std::string& json) {
  std::string why_not;
  std::optional<FusedGroup> g = parse_fused_group(json, &why_not);
  EXPECT_TRUE(g.has_value()) << why_not;
  return g.value_or(FusedGroup{});
}

std::string declined(const std::string& json) {
  std::string why_not;
  EXPECT_FALSE(parse_fused_group(json, &why_not).has_value());
  return why_not;
}

// `json` with the first `from` replaced by `to`.
std::string edited(std::string json, const std::string& from, const std::string& to) {
  const size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) json.replace(at, from.size(), to);
  return json;
}

TEST(FusedGroup, FunctionalOpsMapToTheirOutRows) {
  EXPECT_STREQ(pointwise_row_of("mul.Tensor", {true, true})->name, "mul.out");
  EXPECT_STREQ(pointwise_row_of("bp::gelu", {true, false})->name, "gelu.out");
  EXPECT_STREQ(pointwise_row_of("pow.Tensor_Scalar", {true, false})->name, "pow.Tensor_Scalar_out");
  EXPECT_STREQ(reduction_row_of("sum.dim_IntList", {true, false, false, false})->name,
               "sum.IntList_out");
  EXPECT_STREQ(reduction_row_of("amax", {true, false, false})->name, "amax.out");
  EXPECT_EQ(pointwise_row_of("no_such_op", {true}), nullptr);
}

TEST(FusedGroup, EveryCatalogueEntryIsTaken) {
  std::set<std::string> names;
  for (const FusedKernel& k : fused_catalog_kernels()) names.insert(k.entry_name());
  EXPECT_EQ(names.size(), fused_group_catalog().size()) << "two entries share a kernel";
}

TEST(FusedGroup, APointwiseChainIsOneLoopOverItsElements) {
  const FusedGroup g = parse(entry("gelu_mul_add"));
  EXPECT_FALSE(g.has_reductions);
  EXPECT_EQ(g.rows(), 64 * 96);
  EXPECT_EQ(g.row_size(), 1);
  ASSERT_EQ(g.loads.size(), 3u);
  EXPECT_EQ(g.loads[1].outer_strides, (std::vector<int64_t>{0, 4}));  // w broadcast over rows
  const FusedKernel k = fused_kernel_of(g);
  EXPECT_FALSE(k.cooperative);
  EXPECT_THAT(k.body, HasSubstr("bp::math::Mul{}(in[0], in[1])"));
  EXPECT_THAT(k.body, HasSubstr("bp::math::Add{}(in[0], in[1], arg0)"));
  EXPECT_THAT(k.body, HasSubstr("bp::math::Gelu{}(in[0], arg0)"));
  EXPECT_THAT(k.source(), HasSubstr("struct FusedArgs"));
}

TEST(FusedGroup, ARowReductionChainRunsRowByRow) {
  const FusedGroup g = parse(entry("exp_sub_amax_sum"));
  EXPECT_TRUE(g.has_reductions);
  EXPECT_EQ(g.rows(), 64);
  EXPECT_EQ(g.row_size(), 96);
  EXPECT_EQ(g.nodes[0].space, FusedSpace::kOuter);  // amax
  EXPECT_EQ(g.nodes[1].owner, 3);                   // sub, computed in sum's loop
  const FusedKernel k = fused_kernel_of(g);
  EXPECT_TRUE(k.cooperative);
  EXPECT_THAT(k.body, HasSubstr("bp::math::MaxOps<float>"));
  EXPECT_THAT(k.body, HasSubstr("bp::math::SumOps<float>"));
}

TEST(FusedGroup, ARowGroupWithAnElementwiseRootStoresInALastLoopOverTheRow) {
  const FusedGroup g = parse(entry("exp_sub_amax"));
  EXPECT_EQ(g.root().space, FusedSpace::kInner);
  EXPECT_EQ(g.nodes[1].owner, 2);  // sub, computed in the store loop
  EXPECT_EQ(g.out_inner_strides, (std::vector<int64_t>{4}));
  EXPECT_THAT(fused_kernel_of(g).body, HasSubstr("args.out + o.at[0] + e.at[0]"));
}

TEST(FusedGroup, ACpuScalarIsPassedByValueInTheComputeType) {
  // x * 2.5 (a wrapped number), then + b and gelu.
  const FusedGroup g =
      parse(edited(entry("gelu_mul_add"), R"({"load": {"buffer": 1, "index_strides": [0, 1]}})",
                   R"({"scalar": {"value": 2.5, "dtype": "float64",
                                                   "wrapped_number": true}})"));
  ASSERT_EQ(g.loads.size(), 2u);
  const FusedInput& scalar = g.nodes[0].inputs[1];
  ASSERT_GE(scalar.value, 0);
  EXPECT_EQ(value_to_double(g.values[static_cast<size_t>(scalar.value)], Dtype::kFloat32), 2.5);
  EXPECT_THAT(fused_kernel_of(g).body,
              HasSubstr("bp::jit::value_as<float>(args.values[" + std::to_string(scalar.value)));
}

TEST(FusedGroup, KernelsDependOnTheStructureOnly) {
  const std::string json = entry("gelu_mul_add");
  const std::string other_sizes = edited(edited(json, R"("sizes": [64, 96], "strides": [96, 1])",
                                                R"("sizes": [7, 96], "strides": [96, 1])"),
                                         R"("value": "none")", R"("value": "tanh")");
  EXPECT_EQ(fused_kernel_of(parse(json)).entry_name(),
            fused_kernel_of(parse(other_sizes)).entry_name());
  // x read as float16 (mul's S stays float32): another load, another kernel.
  const std::string other_dtype = edited(json, R"("dtype": "float32", "sizes": [64, 96])",
                                         R"("dtype": "float16", "sizes": [64, 96])");
  EXPECT_NE(fused_kernel_of(parse(json)).entry_name(),
            fused_kernel_of(parse(other_dtype)).entry_name());
}

TEST(FusedGroup, WhatOneKernelCannotRunIsDeclined) {
  const std::string sum = entry("exp_sub_amax_sum");
  EXPECT_THAT(declined(edited(sum, R"("reduction_dims": [1], "keepdim": true)",
                              R"("reduction_dims": [0], "keepdim": true)")),
              HasSubstr("reductions over different ranges"));
  EXPECT_THAT(declined(edited(sum, R"("sizes": [64, 1])", R"("sizes": [1, 1])")),
              HasSubstr("a reduction whose result is not per row"));
  EXPECT_THAT(declined(edited(entry("gelu_mul_add"), R"("op": "gelu")", R"("op": "sort")")),
              HasSubstr("no pointwise kernel for sort"));
  EXPECT_THAT(
      declined(edited(entry("relu_mul_mixed"), R"("dtype": "float16")", R"("dtype": "complex64")")),
      HasSubstr("complex"));
  EXPECT_THAT(declined("not json"), HasSubstr("malformed group"));
}

}  // namespace
}  // namespace bp::cuda
