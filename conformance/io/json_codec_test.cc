// The JSON codec on bad input: every tensor geometry it builds stays inside its storage (no
// negative stride, no overflow), integers are JSON integers within int64 range, and messages
// quote at most ~100 characters of input.
#include "conformance/io/json_codec.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The message of the exception `f` throws ("no error" when none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

std::string tensor_error(const std::string& text) {
  return error_of([&] { tensor_from_json(json::parse(text)); });
}

TEST(TensorFromJson, ReadsAStridedTensorInsideItsStorage) {
  const Tensor t = tensor_from_json(json::parse(
      R"({"dtype": "int64", "sizes": [2, 2], "strides": [1, 2], "storage_offset": 1,
          "storage": [0, 1, 2, 3, 4]})"));
  EXPECT_EQ(t.storage_offset(), 1);
  EXPECT_EQ(t.strides()[1], 2);
}

TEST(TensorFromJson, RefusesANegativeStrideThatStaysAboveTheStorageStart) {
  // 2 + (3 - 1) * -1 = 0 passed the old bounds check, which only looked at the last element.
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [3], "strides": [-1],
                             "storage_offset": 2, "storage": [1, 2, 3]})"),
            "strides[0] is -1: strides must be non-negative");
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [2, 2], "strides": [2, -4],
                             "storage_offset": 4, "storage": [1, 2, 3, 4, 5, 6]})"),
            "strides[1] is -4: strides must be non-negative");
}

TEST(TensorFromJson, RefusesStridesWhoseExtentOverflows) {
  // (3 - 1) * 2^62 wraps to INT64_MIN: below any storage size.
  EXPECT_THAT(tensor_error(R"({"dtype": "float32", "sizes": [3], "strides": [4611686018427387904],
                               "storage": [1]})"),
              StartsWith("sizes and strides overflow int64 at dimension 0"));
  EXPECT_THAT(tensor_error(R"({"dtype": "float32", "sizes": [2], "strides": [1],
                               "storage_offset": 9223372036854775807, "storage": [1]})"),
              HasSubstr("overflow int64"));
}

TEST(TensorFromJson, NamesAStorageTooSmallAndANegativeOffsetOrSize) {
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [2, 3], "storage": [1, 2, 3]})"),
            "sizes, strides and storage_offset need a storage of 6 elements, but it holds 3");
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [1], "storage_offset": -1,
                             "storage": [1, 2]})"),
            "storage_offset is -1: it must be non-negative");
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [-1, -1], "values": [1]})"),
            "sizes[0] is -1: sizes must be non-negative");
  EXPECT_THAT(tensor_error(R"({"dtype": "float32", "sizes": [4294967296, 4294967296],
                               "values": []})"),
              HasSubstr("sizes overflow int64"));
  EXPECT_THAT(tensor_error(R"({"dtype": "float32", "sizes": [2], "storage": {"a": 1}})"),
              StartsWith("\"storage\": expected a list of elements"));
}

TEST(TensorFromJson, IntegersMustBeJsonIntegersWithinInt64) {
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [2.5], "values": [1, 2]})"),
            "sizes[0] is 2.5: not a JSON integer within int64 range");
  // 1e23 is written back as 9.999999999999999e+22.
  EXPECT_THAT(
      tensor_error(R"({"dtype": "float32", "sizes": [1e23], "values": []})"),
      ::testing::MatchesRegex("sizes\\[0\\] is [0-9.e+]+: not a JSON integer within int64 range"));
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [2], "strides": [9223372036854775808],
                             "storage": [1, 2]})"),
            "strides[0] is 9223372036854775808: not a JSON integer within int64 range");
  EXPECT_EQ(tensor_error(R"({"dtype": "float32", "sizes": [1], "storage_offset": 0.5,
                             "storage": [1, 2]})"),
            "storage_offset is 0.5: not a JSON integer within int64 range");
  EXPECT_EQ(tensor_error(R"({"dtype": "int64", "sizes": [1], "values": [2.5]})"),
            "2.5 is not a JSON integer within int64 range");
  EXPECT_EQ(tensor_error(R"({"dtype": "int64", "sizes": [1], "values": [18446744073709551615]})"),
            "18446744073709551615 is not a JSON integer within int64 range");
}

TEST(ArgumentFromJson, IntArgumentsAndListsMustBeJsonIntegers) {
  Type int_type;
  int_type.kind = TypeKind::kInt;
  Type int_list = int_type;
  int_list.is_list = true;
  EXPECT_EQ(std::get<Value>(argument_from_json(json(-3), int_type)).to<int64_t>(), -3);
  EXPECT_EQ(error_of([&] { argument_from_json(json(0.5), int_type); }),
            "0.5 is not a JSON integer within int64 range");
  EXPECT_EQ(error_of([&] { argument_from_json(json::parse("[1, 2.5]"), int_list); }),
            "element [1] is 2.5: not a JSON integer within int64 range");
  EXPECT_EQ(error_of([&] { argument_from_json(json(3.5), int_list); }),
            "3.5 is not a JSON integer within int64 range");
  Type scalar;
  scalar.kind = TypeKind::kScalar;
  EXPECT_EQ(error_of([&] { argument_from_json(json::parse("9223372036854775808"), scalar); }),
            "9223372036854775808 is not a JSON integer within int64 range");
  Type tensors;
  tensors.is_list = true;
  EXPECT_EQ(error_of([&] {
              argument_from_json(json::parse(R"([{"dtype": "float32", "sizes": [], "values": [1]},
                                                 {"dtype": "float32", "sizes": [1], "strides": [-1],
                                                  "storage": [1]}])"),
                                 tensors);
            }),
            "element 1: strides[0] is -1: strides must be non-negative");
}

TEST(ExpectedOutputFromJson, UnspecifiedValuesOfAHugeShapeAllocateNothing) {
  FunctionSchema schema;
  schema.returns.resize(1);
  const ExpectedOutput o = expected_output_from_json(
      json::parse(R"({"dtype": "float32", "sizes": [2147483648, 2147483648],
                      "values_unspecified": true})"),
      schema);
  EXPECT_TRUE(o.value.values.empty());
  EXPECT_THAT(error_of([&] {
                expected_output_from_json(
                    json::parse(R"({"dtype": "float32", "sizes": [4294967296, 4294967296],
                                    "values_unspecified": true})"),
                    schema);
              }),
              HasSubstr("sizes overflow int64"));
  EXPECT_THAT(error_of([&] {
                expected_output_from_json(
                    json::parse(R"({"dtype": "float32", "sizes": [1], "values": [1],
                                  "storage_offset": 1e30})"),
                    schema);
              }),
              ::testing::MatchesRegex(
                  "storage_offset is [0-9.e+]+: not a JSON integer within int64 range"));
}

TEST(Excerpt, QuotesAtMostTheLimitThenSaysTheSize) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(100, 'a')), std::string(100, 'a'));
  EXPECT_EQ(excerpt(std::string(1000, 'a')), std::string(100, 'a') + "... (1000 bytes)");
  // Never cuts a UTF-8 character in two ("é" is 2 bytes: 99 'a' then é straddles byte 100).
  EXPECT_EQ(excerpt(std::string(99, 'a') + "\xC3\xA9" + std::string(10, 'b')),
            std::string(99, 'a') + "... (111 bytes)");
}

TEST(Malformed, QuotesAHugeValueShortly) {
  const std::string message = error_of([&] { dtype_from_json(json(std::string(1000000, 'x'))); });
  EXPECT_THAT(message, HasSubstr("... (1000002 bytes)"));
  EXPECT_LT(message.size(), 200u);
}

}  // namespace
}  // namespace bp::conformance
