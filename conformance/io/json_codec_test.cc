// The JSON codec on bad input: every tensor geometry it builds stays inside its storage (no
// negative stride, no overflow), integers are JSON integers within int64 range, and messages
// quote at most ~100 characters of input.
#include "conformance/io/json_codec.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

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

TEST(StoragesFromJson, TensorsNamingAStorageAreViewsOfIt) {
  const NamedStorages storages = storages_from_json(
      json::parse(R"({"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5]}})"));
  const Tensor self =
      tensor_from_json(json::parse(R"({"storage": "x", "sizes": [2, 3]})"), &storages);
  const Tensor column = tensor_from_json(
      json::parse(R"({"dtype": "float32", "storage": "x", "sizes": [2], "strides": [3],
                      "storage_offset": 1})"),
      &storages);
  EXPECT_TRUE(self.is_alias_of(column));
  EXPECT_TRUE(self.is_alias_of(storages.at("x")));
  EXPECT_EQ(self.dtype(), ScalarType::kFloat32);  // the storage's, when the tensor gives none
  EXPECT_EQ(column.storage_offset(), 1);
  EXPECT_EQ(read_tensor(column).values[1].z.real(), 4);
}

TEST(StoragesFromJson, NamesTheStorageAndWhatIsWrong) {
  const NamedStorages storages =
      storages_from_json(json::parse(R"({"x": {"dtype": "int64", "values": [0, 1, 2]}})"));
  auto error = [&](const std::string& text) {
    return error_of([&] { tensor_from_json(json::parse(text), &storages); });
  };
  EXPECT_EQ(error(R"({"storage": "y", "sizes": [2]})"),
            "storage 'y' is not one of the case's \"storages\"");
  EXPECT_EQ(error_of([&] { tensor_from_json(json::parse(R"({"storage": "x", "sizes": [1]})")); }),
            "storage 'x' is not one of the case's \"storages\"");
  EXPECT_EQ(error(R"({"dtype": "float32", "storage": "x", "sizes": [2]})"),
            "dtype \"float32\" differs from int64, the dtype of storage 'x'");
  // The geometry check applies to every view of a shared storage.
  EXPECT_EQ(error(R"({"storage": "x", "sizes": [2], "storage_offset": 2})"),
            "sizes, strides and storage_offset need a storage of 4 elements, but it holds 3");
  EXPECT_EQ(error(R"({"storage": "x", "sizes": [2], "strides": [-1], "storage_offset": 2})"),
            "strides[0] is -1: strides must be non-negative");
  EXPECT_EQ(error(R"({"storage": "x", "sizes": [1], "values": [1]})"),
            "a tensor gives \"values\" or a \"storage\", not both, got "
            "{\"sizes\":[1],\"storage\":\"x\",\"values\":[1]}");
  EXPECT_EQ(error_of([] { storages_from_json(json::parse(R"({"x": {"dtype": "int64"}})")); }),
            "storage 'x': expected {\"dtype\", \"values\"}, got {\"dtype\":\"int64\"}");
  EXPECT_EQ(error_of([] {
              storages_from_json(json::parse(R"({"x": {"dtype": "int64", "values": [1.5]}})"));
            }),
            "storage 'x': 1.5 is not a JSON integer within int64 range");
  EXPECT_EQ(error_of([] { storages_from_json(json::parse("[1]")); }),
            "\"storages\": expected an object of named storages, got [1]");
}

TEST(SharedStoragesToJson, NamesOnlyStoragesSeveralTensorsViewAndWritesThemOnce) {
  const NamedStorages storages =
      storages_from_json(json::parse(R"({"x": {"dtype": "float32", "values": [0, 1, 2, 3]}})"));
  const Tensor a = tensor_from_json(json::parse(R"({"storage": "x", "sizes": [2, 2]})"), &storages);
  const Tensor b = tensor_from_json(
      json::parse(R"({"storage": "x", "sizes": [2, 2], "strides": [1, 2]})"), &storages);
  const Tensor own = tensor_from_json(json::parse(R"({"dtype": "int64", "sizes": [1],
                                                      "values": [7]})"));
  std::vector<SampleArg> args = {{"self", TensorArg{a}},
                                 {"others", TensorListArg{{own, b}}},
                                 {"alpha", Value(Scalar(int64_t{2}))}};
  StorageNames names;
  const json written = shared_storages_to_json(args, &names);
  EXPECT_EQ(written,
            json::parse(R"({"s0": {"dtype": "float32", "values": [0.0, 1.0, 2.0, 3.0]}})"));
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(argument_to_json(args[0].value, &names),
            json::parse(R"({"dtype": "float32", "sizes": [2, 2], "strides": [2, 1],
                            "storage_offset": 0, "storage": "s0"})"));
  const json list = argument_to_json(args[1].value, &names);
  EXPECT_EQ(list[0]["storage"], json::parse("[7]"));  // a storage of its own stays inline
  EXPECT_EQ(list[1]["storage"], "s0");
  // Read back: one storage again, viewed by both.
  const NamedStorages back = storages_from_json(written);
  const Tensor a2 = tensor_from_json(argument_to_json(args[0].value, &names), &back);
  const Tensor b2 = tensor_from_json(list[1], &back);
  EXPECT_TRUE(a2.is_alias_of(b2));
  EXPECT_EQ(b2.strides(), IntArrayRef({1, 2}));
}

TEST(ElementFromJson, ComplexNumbersTakeEitherSpelling) {
  for (const char* text : {"[1.5, \"-inf\"]", R"({"real": 1.5, "imag": "-inf"})"}) {
    const Wide w = element_from_json(json::parse(text), ScalarType::kComplex64);
    EXPECT_EQ(w.z, cd(1.5, -INFINITY)) << text;
  }
  EXPECT_EQ(element_from_json(json(2), ScalarType::kComplex128).z, cd(2, 0));
  EXPECT_EQ(error_of([] { element_from_json(json::parse("[1, 2, 3]"), ScalarType::kComplex64); }),
            "a complex number is [real, imag], got [1,2,3]");
  EXPECT_EQ(error_of([] {
              element_from_json(json::parse(R"({"re": 1, "im": 2})"), ScalarType::kComplex64);
            }),
            "a complex number is {\"real\": .., \"imag\": ..}, got {\"im\":2,\"re\":1}");
  // Written as [real, imag].
  EXPECT_EQ(element_to_json(from_complex(cd(1, -0.0)), ScalarType::kComplex64),
            json::parse("[1.0, \"-0.0\"]"));
}

TEST(ArgumentFromJson, AScalarsKindFollowsItsJsonSpelling) {
  Type scalar;
  scalar.kind = TypeKind::kScalar;
  auto read = [&](const char* text) {
    return std::get<Value>(argument_from_json(json::parse(text), scalar)).to<Scalar>();
  };
  EXPECT_EQ(read("2").type(), ScalarType::kInt64);
  EXPECT_EQ(read("2.0").type(), ScalarType::kFloat64);
  EXPECT_EQ(read("\"nan\"").type(), ScalarType::kFloat64);
  EXPECT_EQ(read("true").type(), ScalarType::kBool);
  EXPECT_EQ(read(R"({"real": 1, "imag": 2})").to<complex<double>>(), complex<double>(1, 2));
  EXPECT_EQ(read("[1, 2]").to<complex<double>>(), complex<double>(1, 2));
  // Written back as JSON spells each kind.
  EXPECT_EQ(argument_to_json(Value(Scalar(2.0))), json(2.0));
  EXPECT_TRUE(argument_to_json(Value(Scalar(2.0))).is_number_float());
  EXPECT_EQ(argument_to_json(Value(Scalar(complex<double>(1, 2)))),
            json::parse(R"({"real": 1.0, "imag": 2.0})"));
}

TEST(ArgumentFromJson, AnUnsupportedTypeIsNamed) {
  const FunctionSchema schema = parse_schema("f(Layout layout, Generator[] g) -> Tensor");
  EXPECT_EQ(error_of([&] { argument_from_json(json("strided"), schema.arguments[0].type); }),
            "arguments of type Layout are not supported in case files, got \"strided\"");
  EXPECT_EQ(error_of([&] { argument_from_json(json::parse("[1]"), schema.arguments[1].type); }),
            "arguments of type Generator[] are not supported in case files, got [1]");
}

TEST(ExpectedOutputFromJson, AWholeStorageRoundTrips) {
  const FunctionSchema schema = parse_schema("f(Tensor self) -> Tensor");
  const json text = json::parse(R"({"dtype": "float32", "sizes": [2], "values": [1, 7],
                                    "storage": [0, 1, "nan", "-0.0", 7, 5]})");
  const ExpectedOutput o = expected_output_from_json(text, schema);
  ASSERT_TRUE(o.storage.has_value());
  ASSERT_EQ(o.storage->size(), 6u);
  EXPECT_TRUE(std::isnan((*o.storage)[2].z.real()));
  EXPECT_EQ(expected_output_to_json(o)["storage"], text["storage"]);
  EXPECT_EQ(error_of([&] {
              expected_output_from_json(json::parse(R"({"dtype": "int64", "sizes": [1],
                                                        "values": [1], "storage": [1, 0.5]})"),
                                        schema);
            }),
            "\"storage\"[1]: 0.5 is not a JSON integer within int64 range");
  EXPECT_EQ(error_of([&] {
              expected_output_from_json(json::parse(R"({"dtype": "int64", "sizes": [1],
                                                        "values": [1], "storage": 3})"),
                                        schema);
            }),
            "\"storage\": expected a list of elements, got 3");
}

TEST(ExpectedOutputFromJson, AResultTypeTheSuiteDoesNotCheckIsNamed) {
  const FunctionSchema scalar_result = parse_schema("f(Tensor self) -> Scalar");
  EXPECT_EQ(
      error_of([&] { expected_output_from_json(json::parse(R"({"value": 1})"), scalar_result); }),
      "a result of type Scalar is not supported in case files (the suite checks tensors, "
      "Tensor[] and bool, int, float and ScalarType values)");
  const FunctionSchema dtype_result = parse_schema("f(Tensor self) -> ScalarType");
  EXPECT_EQ(expected_output_from_json(json::parse(R"({"value": "int8"})"), dtype_result)
                .plain->ref<ScalarType>(),
            ScalarType::kInt8);
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
