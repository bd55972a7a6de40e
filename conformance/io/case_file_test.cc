// The case-file reader on good and bad input: it hands cases over one at a time as it parses
// them, checks "format" and "version" before any case, bounds nesting, quotes at most ~100
// characters of malformed input, and refuses a file without cases.
#include "conformance/io/case_file.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kHeader = R"("format": "backplane-conformance-cases", "version": 1)";

// A case of neg over `values` (float32).
std::string neg_case(const std::string& values) {
  return R"({"op": "neg", "args": {"self": {"dtype": "float32", "sizes": [1], "values": [)" +
         values + R"(]}}, "expect": {"outputs": []}})";
}

// The ops of the cases read from `text`, in the order the callback saw them.
std::vector<std::string> ops_read(const std::string& text) {
  std::vector<std::string> ops;
  read_case_text(text, "f.json", [&](size_t index, const json& c) {
    EXPECT_EQ(index, ops.size());
    ops.push_back(c.at("op").get<std::string>());
  });
  return ops;
}

std::string read_error(const std::string& text) {
  try {
    read_case_text(text, "f.json", [](size_t, const json&) {});
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(ReadCaseText, HandsOverEachCaseInOrder) {
  EXPECT_THAT(ops_read("{" + kHeader + R"(, "cases": [{"op": "a"}, {"op": "b"}, {"op": "c"}]})"),
              ElementsAre("a", "b", "c"));
  // Other keys ("repro") are skipped, whatever they hold.
  EXPECT_THAT(
      ops_read("{" + kHeader + R"(, "repro": {"actual": [[1, [2]]]}, "cases": [{"op": "a"}]})"),
      ElementsAre("a"));
}

TEST(ReadCaseText, HandsOverACaseBeforeParsingTheNext) {
  // The second case is cut short: the first was handed over already (one case in memory at a
  // time), then the reader fails.
  std::vector<std::string> seen;
  EXPECT_THROW(read_case_text("{" + kHeader + R"(, "cases": [{"op": "a"}, {"op": )", "f.json",
                              [&](size_t, const json& c) { seen.push_back(c.dump()); }),
               std::runtime_error);
  EXPECT_THAT(seen, ElementsAre(R"({"op":"a"})"));
}

TEST(ReadCaseText, ReadsTheHeaderFirstWhenItComesAfterTheCases) {
  // Files written before the header came first (nlohmann sorts keys: "cases" < "format").
  EXPECT_THAT(ops_read(R"({"cases": [{"op": "a"}, {"op": "b"}], )" + kHeader + "}"),
              ElementsAre("a", "b"));
  // ... and no case is handed over when the header says it is not a case file.
  int calls = 0;
  EXPECT_THROW(read_case_text(R"({"cases": [{"op": "a"}], "format": "other", "version": 1})",
                              "f.json", [&](size_t, const json&) { ++calls; }),
               std::runtime_error);
  EXPECT_EQ(calls, 0);
}

TEST(ReadCaseText, RefusesOtherFormatsAndNewerVersions) {
  EXPECT_EQ(read_error(R"({"format": "x", "version": 1, "cases": [{}]})"),
            "f.json: not a case file (\"format\" must be \"backplane-conformance-cases\")");
  EXPECT_EQ(read_error(R"({"format": "backplane-conformance-cases", "version": 2, "cases": [{}]})"),
            "f.json: case file version 2 is newer than this suite's (1)");
  EXPECT_THAT(read_error(R"({"format": "backplane-conformance-cases", "version": 1.5,
                             "cases": [{}]})"),
              HasSubstr("\"version\" must be an integer"));
  EXPECT_EQ(read_error("[1, 2]"), "f.json: not a case file (expected a JSON object)");
  EXPECT_EQ(read_error("{" + kHeader + "}"), "f.json: not a case file (it has no \"cases\" list)");
  EXPECT_EQ(read_error("{" + kHeader + R"(, "cases": 3})"), "f.json: \"cases\" must be a list");
}

TEST(ReadCaseText, AFileWithoutCasesIsAnError) {
  EXPECT_EQ(read_error("{" + kHeader + R"(, "cases": []})"), "f.json holds no cases");
}

TEST(ReadCaseText, BoundsNestingWithoutOverflowingTheStack) {
  for (const int depth : {kMaxCaseFileDepth, 100000}) {
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    // Inside a case, and in a skipped value.
    for (const std::string& text :
         {"{" + kHeader + R"(, "cases": [{"op": "a", "args": )" + deep + "}]}",
          "{" + kHeader + R"(, "repro": )" + deep + R"(, "cases": [{"op": "a"}]})"}) {
      EXPECT_EQ(read_error(text),
                "f.json: JSON nested deeper than 256 levels (the limit of case "
                "files)");
    }
  }
  // 256 levels in all are fine: document, "cases", case, then 253 more.
  const std::string fits = std::string(253, '[') + std::string(253, ']');
  EXPECT_EQ(read_error("{" + kHeader + R"(, "cases": [{"op": "a", "args": )" + fits + "}]}"),
            "no error");
}

TEST(ReadCaseText, QuotesAtMostAHundredCharactersOfAMalformedToken) {
  const std::string huge(10'000'000, 'x');
  for (const std::string& text : {"{" + kHeader + R"(, "cases": [{"op": ")" + huge,  // unclosed
                                  "{" + kHeader + R"(, "cases": [{"op": 1)" +
                                      std::string(400, '0') + "}]}"}) {  // a number beyond double
    const std::string message = read_error(text);
    EXPECT_THAT(message, StartsWith("f.json: "));
    EXPECT_THAT(message, ::testing::ContainsRegex("line 1, column|at byte"));
    EXPECT_THAT(message, HasSubstr(" bytes)"));
    EXPECT_LT(message.size(), 400u) << message.substr(0, 1000);
  }
}

TEST(ReadCaseFile, ReadsWhatWriteCaseFileWroteWithTheHeaderFirst) {
  const std::string path = ::testing::TempDir() + "/written.json";
  std::filesystem::remove(path);
  Case c;
  c.op = "neg";
  c.expect.outputs = {};
  write_case_file(path, {c, c});
  std::ifstream in(path);
  std::string first_line;
  std::getline(in, first_line);
  EXPECT_THAT(first_line, StartsWith("{" + kHeader));
  size_t n = 0;
  EXPECT_EQ(read_case_file(path, [&](size_t, const json& j) { n += j.at("op") == "neg"; }), 2u);
  EXPECT_EQ(n, 2u);
  EXPECT_THROW(read_case_file(path + ".missing", [](size_t, const json&) {}), std::runtime_error);
}

TEST(CaseFromJson, NamesTheArgumentAndTheBadValue) {
  const json c = json::parse(neg_case("1"));
  json bad = c;
  bad["args"]["self"] = json::parse(R"({"dtype": "float32", "sizes": [2], "strides": [-1],
                                         "storage_offset": 1, "storage": [1, 2]})");
  try {
    case_from_json(bad, Tolerances::builtin());
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "argument 'self': strides[0] is -1: strides must be non-negative");
  }
  bad = c;
  bad["op"] = std::string(100000, 'z');
  try {
    case_from_json(bad, Tolerances::builtin());
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u);
  }
  EXPECT_EQ(case_op_name(bad), std::string(100, 'z') + "... (100000 bytes)");
  EXPECT_EQ(case_op_name(json::parse(R"({"op": 5})")), "?");
  bad = c;
  bad["seed"] = -1;
  EXPECT_THROW(case_from_json(bad, Tolerances::builtin()), std::runtime_error);
}

// x[:, 0].add_(x[:, 1]) for x = arange(4).view(2, 2): two arguments over one named storage.
const char kSharedStorageCase[] = R"({
  "op": "add_.Tensor",
  "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3]}},
  "args": {"self": {"storage": "x", "sizes": [2], "strides": [2]},
           "other": {"storage": "x", "sizes": [2], "strides": [2], "storage_offset": 1}},
  "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [1, 5],
                          "storage": [1, 1, 5, 3]}],
             "returns_args": ["self"]}})";

const Tensor& tensor_arg(const Case& c, const std::string& name) {
  for (const SampleArg& a : c.args) {
    if (a.name == name) return std::get<TensorArg>(a.value).host;
  }
  throw std::runtime_error("no argument " + name);
}

TEST(CaseFromJson, ArgumentsNamingOneStorageShareIt) {
  const Case c = case_from_json(json::parse(kSharedStorageCase), Tolerances::builtin());
  const Tensor& self = tensor_arg(c, "self");
  const Tensor& other = tensor_arg(c, "other");
  EXPECT_TRUE(self.is_alias_of(other));
  EXPECT_EQ(other.storage_offset(), 1);
  ASSERT_TRUE(c.expect.outputs[0].storage.has_value());
  EXPECT_EQ(c.expect.outputs[0].storage->size(), 4u);
}

TEST(CaseFile, SharedStoragesAndWholeStoragesSurviveARoundTrip) {
  const Case c = case_from_json(json::parse(kSharedStorageCase), Tolerances::builtin());
  const json written = case_to_json(c);
  // The storage is written once, under a name both arguments give.
  ASSERT_TRUE(written.contains("storages"));
  EXPECT_EQ(written["storages"].size(), 1u);
  EXPECT_EQ(written["args"]["self"]["storage"], "s0");
  EXPECT_EQ(written["args"]["other"]["storage"], "s0");
  EXPECT_EQ(written["expect"]["outputs"][0]["storage"], json::parse("[1.0, 1.0, 5.0, 3.0]"));

  // Through a file, as --write-cases and repro files write it.
  const std::string path = ::testing::TempDir() + "/shared.json";
  write_case_file(path, {c});
  std::vector<Case> back;
  read_case_file(path, [&](size_t, const json& j) {
    back.push_back(case_from_json(j, Tolerances::builtin()));
  });
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(tensor_arg(back[0], "self").is_alias_of(tensor_arg(back[0], "other")));
  EXPECT_FALSE(tensor_arg(back[0], "self").is_alias_of(tensor_arg(c, "self")));
  EXPECT_EQ(tensor_arg(back[0], "other").storage_offset(), 1);
  EXPECT_EQ(case_to_json(back[0]), written);

  // A case without shared storages writes none.
  EXPECT_FALSE(case_to_json(case_from_json(json::parse(neg_case("1")), Tolerances::builtin()))
                   .contains("storages"));
}

TEST(CaseFromJson, NamesTheArgumentOrStorageThatIsWrong) {
  auto error = [](json c) {
    try {
      case_from_json(c, Tolerances::builtin());
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  json c = json::parse(kSharedStorageCase);
  c["args"]["other"]["storage"] = "y";
  EXPECT_EQ(error(c), "argument 'other': storage 'y' is not one of the case's \"storages\"");
  c = json::parse(kSharedStorageCase);
  c["args"]["other"]["storage_offset"] = 2;
  EXPECT_EQ(error(c),
            "argument 'other': sizes, strides and storage_offset need a storage of 5 elements, "
            "but it holds 4");
  c = json::parse(kSharedStorageCase);
  c["storages"]["x"]["values"][1] = "one";
  EXPECT_EQ(error(c),
            "storage 'x': expected a number or \"nan\", \"inf\", \"-inf\", \"-0.0\", got \"one\"");
  c = json::parse(kSharedStorageCase);
  c["expect"]["outputs"][0]["storage"] = "x";
  EXPECT_EQ(error(c), "output 0: \"storage\": expected a list of elements, got \"x\"");
}

}  // namespace
}  // namespace bp::conformance
