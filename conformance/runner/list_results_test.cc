// How the executor and case files handle results that are not one tensor: a `Tensor[]` result is
// checked element by element (count, values, geometry, aliasing of each piece), a `Tensor[]`
// argument names its elements "tensors[i]", and a ScalarType result is compared as a value; all
// three survive a case file's round trip.
#include <string>
#include <vector>

#include "conformance/io/case_file.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/execute.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/empty.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor iota(const Sizes& sizes) {
  RefTensor r{ScalarType::kInt64, sizes, {}};
  for (int64_t i = 0; i < r.numel(); ++i) r.values.push_back(Wide{i, {}});
  return make_contiguous(r);
}

// The expected piece [start, start + length) of rows of a contiguous 2-d int64 `self`.
ExpectedOutput rows(const Tensor& self, int64_t start, int64_t length) {
  RefTensor r{ScalarType::kInt64, {length, self.sizes()[1]}, {}};
  for (int64_t i = start * self.sizes()[1]; i < (start + length) * self.sizes()[1]; ++i) {
    r.values.push_back(Wide{i, {}});
  }
  ExpectedOutput o = Expected::output(r);
  o.strides = Sizes{self.sizes()[1], 1};
  o.storage_offset = start * self.sizes()[1];
  o.aliases = "self";
  return o;
}

Case split_case(const Tensor& self, std::vector<ExpectedOutput> outputs) {
  Case c;
  c.op = "split.Tensor";
  c.args = {{"self", TensorArg{self}}, {"split_size", Value(int64_t{2})}};
  c.expect.outputs = std::move(outputs);
  c.expect.tolerances.resize(c.expect.outputs.size());
  c.expect.check_meta = true;
  return c;
}

TEST(ListResults, EachPieceOfATensorListIsCheckedAsAnOutput) {
  const CpuBackend cpu;
  const Tensor self = iota({5, 3});
  const CaseOutcome good =
      execute(split_case(self, {rows(self, 0, 2), rows(self, 2, 2), rows(self, 4, 1)}), cpu);
  EXPECT_EQ(good.verdict, Verdict::kPass) << ::testing::PrintToString(good.failures);
  EXPECT_EQ(good.actual.size(), 3u);

  ExpectedOutput moved = rows(self, 2, 2);
  moved.storage_offset = 9;
  const CaseOutcome wrong_offset =
      execute(split_case(self, {rows(self, 0, 2), moved, rows(self, 4, 1)}), cpu);
  EXPECT_THAT(wrong_offset.failures, ElementsAre("output 1: storage offset 6, expected 9"));

  const CaseOutcome too_few = execute(split_case(self, {rows(self, 0, 2), rows(self, 2, 2)}), cpu);
  EXPECT_THAT(too_few.failures, ElementsAre("returned 3 values, expected 2"));

  ExpectedOutput not_a_view = rows(self, 4, 1);
  not_a_view.aliases = "";
  const CaseOutcome aliasing =
      execute(split_case(self, {rows(self, 0, 2), rows(self, 2, 2), not_a_view}), cpu);
  EXPECT_THAT(aliasing.failures,
              ElementsAre(HasSubstr("output 2: shares storage with argument 'self'")));
}

TEST(ListResults, AnEmptyListIsAResult) {
  const CpuBackend cpu;
  Case c;
  c.op = "unbind.int";
  c.args = {{"self", TensorArg{iota({0, 3})}}};
  EXPECT_EQ(execute(c, cpu).verdict, Verdict::kPass);
  // The case file keeps the empty "outputs" (not an error-less case without expectations).
  const Case back = case_from_json(case_to_json(c), Tolerances::builtin());
  EXPECT_FALSE(back.expect.error.has_value());
  EXPECT_TRUE(back.expect.outputs.empty());
}

TEST(ListResults, ListArgumentsNameTheirElementsForAliasing) {
  const CpuBackend cpu;
  const Tensor column = iota({2, 1});
  const Tensor row = iota({1, 3});
  Case c;
  c.op = "broadcast_tensors";
  c.args = {{"tensors", TensorListArg{{column, row}}}};
  RefTensor first{ScalarType::kInt64, {2, 3}, {}}, second{ScalarType::kInt64, {2, 3}, {}};
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      first.values.push_back(Wide{i, {}});
      second.values.push_back(Wide{j, {}});
    }
  }
  c.expect.outputs = {Expected::output(first), Expected::output(second)};
  c.expect.outputs[0].aliases = "tensors[0]";
  c.expect.outputs[1].aliases = "tensors[1]";
  c.expect.tolerances.resize(2);
  EXPECT_EQ(execute(c, cpu).verdict, Verdict::kPass);

  c.expect.outputs[0].aliases = "tensors[1]";  // a view, but of the other element
  EXPECT_THAT(execute(c, cpu).failures,
              ElementsAre("output 0: is not a view of 'tensors[1]' (it has storage of its own)"));

  json written = case_to_json(c);
  written.erase("dtype");  // then the first tensor's, here the list's first element's
  const Case back = case_from_json(written, Tolerances::builtin());
  ASSERT_EQ(back.args.size(), 1u);
  const auto* list = std::get_if<TensorListArg>(&back.args[0].value);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->host.size(), 2u);
  EXPECT_EQ(list->host[1].sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(back.dtype, ScalarType::kInt64);
}

TEST(ListResults, AScalarTypeResultIsComparedAsAValue) {
  const CpuBackend cpu;
  Case c;
  c.op = "result_type.Scalar_Scalar";
  c.args = {{"scalar1", Value(Scalar(int64_t{1}))}, {"scalar2", Value(Scalar(2.5))}};
  c.expect = {};
  c.expect.outputs = Expected::of_plain(Value(ScalarType::kFloat32)).outputs;
  c.expect.check_meta = true;
  EXPECT_EQ(execute(c, cpu).verdict, Verdict::kPass);

  const Case back = case_from_json(case_to_json(c), Tolerances::builtin());
  ASSERT_EQ(back.expect.outputs.size(), 1u);
  ASSERT_TRUE(back.expect.outputs[0].plain.has_value());
  EXPECT_EQ(back.expect.outputs[0].plain->ref<ScalarType>(), ScalarType::kFloat32);

  c.expect.outputs = Expected::of_plain(Value(ScalarType::kFloat64)).outputs;
  EXPECT_THAT(execute(c, cpu).failures, ElementsAre("returned float32, expected float64"));
}

}  // namespace
}  // namespace bp::conformance
