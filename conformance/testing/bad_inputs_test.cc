// Bad case files and repro files through the command line, as a vendor's CI would run them: each
// input of the table is run with --cases and with --replay, and must end with a non-zero status
// and a short message naming what is wrong; none may crash the run, hang it or end green.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "conformance/testing/broken_backends.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A case file holding `cases` (JSON text of the list's elements).
std::string case_file(const std::string& cases) {
  return R"({"format": "backplane-conformance-cases", "version": 1, "cases": [)" + cases + "]}";
}

// An add.Tensor case: self given as `self`, other a scalar 1, expecting [2, 3]. Valid when self
// is the float32 tensor [1, 2].
std::string add_case(const std::string& self) {
  return R"({"op": "add.Tensor", "args": {"self": )" + self +
         R"(, "other": {"dtype": "float32", "sizes": [], "values": [1]}},
             "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [2, 3]}]}})";
}

struct BadInput {
  std::string name;
  std::string text;                   // the file
  std::vector<std::string> messages;  // what stderr must say
};

std::vector<BadInput> bad_inputs() {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  return {
      // What each did before is noted (checked with the suite's binary before the fix).
      // 1 + (2 - 1) * -1 = 0 passed the old check, which looked at the last element only: PASS.
      {"negative stride",
       case_file(add_case(R"({"dtype": "float32", "sizes": [2], "strides": [-1],
                              "storage_offset": 1, "storage": [2, 1]})")),
       {"argument 'self': strides[0] is -1: strides must be non-negative"}},
      // Read 4 GB before the storage: SIGSEGV.
      {"far negative stride",
       case_file(add_case(R"({"dtype": "float32", "sizes": [2], "strides": [-1000000000],
                              "storage_offset": 1, "storage": [2, 1]})")),
       {"argument 'self': strides[0] is -1000000000: strides must be non-negative"}},
      // (3 - 1) * stride wrapped below the storage size, so the old check passed; element 1 lay
      // terabytes away: SIGSEGV.
      {"stride overflowing int64",
       case_file(add_case(R"({"dtype": "float32", "sizes": [3], "strides": [4611687118953693184],
                              "storage": [1, 2]})")),
       {"argument 'self': sizes and strides overflow int64 at dimension 0"}},
      {"storage too small",
       case_file(add_case(R"({"dtype": "float32", "sizes": [2], "strides": [1000000],
                              "storage": [1, 2]})")),
       {"need a storage of 1000001 elements, but it holds 2"}},
      // Truncated to 2: PASS.
      {"fractional size",
       case_file(add_case(R"({"dtype": "float32", "sizes": [2.5], "values": [1, 2]})")),
       {"argument 'self': sizes[0] is 2.5: not a JSON integer within int64 range"}},
      // Truncated to 1: PASS.
      {"fractional stride",
       case_file(add_case(R"({"dtype": "float32", "sizes": [2], "strides": [1.5],
                              "storage": [1, 2]})")),
       {"argument 'self': strides[0] is 1.5: not a JSON integer within int64 range"}},
      // Became INT64_MIN: "expected -9223372036854775808 values".
      {"size beyond int64",
       case_file(add_case(R"({"dtype": "float32", "sizes": [1e23], "values": [1, 2]})")),
       {"argument 'self': sizes[0] is ", "not a JSON integer within int64 range"}},
      // Truncated to [0]: PASS.
      {"fractional int in a list",
       case_file(R"({"op": "sum.dim_IntList", "args": {"self": {"dtype": "float32", "sizes": [2],
                     "values": [1, 2]}, "dim": [0.5]},
                     "expect": {"outputs": [{"dtype": "float32", "sizes": [], "values": [3]}]}})"),
       {"argument 'dim': element [0] is 0.5: not a JSON integer within int64 range"}},
      // An error before too ("expected an integer, got 0.5"); now it names the argument.
      {"fractional int argument",
       case_file(R"({"op": "cumsum", "args": {"self": {"dtype": "float32", "sizes": [2],
                     "values": [1, 2]}, "dim": 0.5},
                     "expect": {"outputs": [{"dtype": "float32", "sizes": [2],
                     "values": [1, 3]}]}})"),
       {"argument 'dim': 0.5 is not a JSON integer within int64 range"}},
      // Overflowed the stack in the recursive copy of the parsed cases: SIGSEGV.
      {"nesting 100,000 deep",
       case_file(R"({"op": "neg", "args": {"self": )" + deep + R"(}, "expect": {"outputs": []}})"),
       {"JSON nested deeper than 256 levels"}},
      // Echoed whole to stderr.
      {"20 MB malformed token",
       R"({"format": "backplane-conformance-cases", "version": 1, "cases": [{"op": ")" +
           std::string(20'000'000, 'x'),
       {"missing closing quote", "... (20000001 bytes)"}},
      // --replay printed nothing and exited 0; --cases said "Verdict: FAIL" without a reason.
      {"no cases", case_file(""), {"holds no cases"}},
      {"not a case file", R"({"format": "something else", "cases": [{}]})", {"not a case file"}},
  };
}

std::string write_input(const BadInput& input) {
  const std::string dir = ::testing::TempDir() + "/bad_inputs";
  std::filesystem::create_directories(dir);
  std::string file = input.name;
  for (char& c : file) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  const std::string path = dir + "/" + file + ".json";
  std::ofstream(path) << input.text;
  return path;
}

TEST(BadInputs, EndWithAnErrorNamingTheProblemAndNeverGreen) {
  for (const BadInput& input : bad_inputs()) {
    const std::string path = write_input(input);
    for (const std::string mode : {"--cases", "--replay"}) {
      SCOPED_TRACE(input.name + " with " + mode);
      const CliRun r = run_cli_quietly({mode, path, "--no-repro"}, test_backend_factories());
      EXPECT_NE(r.status, 0);
      EXPECT_THAT(r.out, Not(HasSubstr("Verdict: PASS")));
      for (const std::string& m : input.messages) EXPECT_THAT(r.err, HasSubstr(m));
      // Short, whatever the input's size: at most ~100 characters of it are quoted.
      EXPECT_LT(r.err.size(), 1000u) << r.err.substr(0, 2000);
      EXPECT_LT(r.out.size(), 4000u) << r.out.substr(0, 2000);
    }
  }
}

TEST(BadInputs, AValidCaseOfTheTablesShapePasses) {
  // The table's cases differ from this one by their fault only.
  BadInput good{"valid",
                case_file(add_case(R"({"dtype": "float32", "sizes": [2], "strides": [1],
                                                "storage_offset": 1, "storage": [0, 1, 2]})")),
                {}};
  const std::string path = write_input(good);
  for (const std::string mode : {"--cases", "--replay"}) {
    const CliRun r = run_cli_quietly({mode, path, "--no-repro"}, test_backend_factories());
    EXPECT_EQ(r.status, 0) << mode << r.out << r.err;
  }
}

TEST(BadInputs, ABadCaseDoesNotStopTheOthers) {
  // --cases records a case that cannot be read as failed and runs the next.
  BadInput mixed{
      "mixed",
      case_file(add_case(R"({"dtype": "float32", "sizes": [2], "values": [1, 2]})") + ", " +
                add_case(R"({"dtype": "float32", "sizes": [2.5], "values": [1, 2]})") +
                ", {\"op\": 5}, " +
                add_case(R"({"dtype": "float32", "sizes": [2], "values": [1, 2]})")),
      {}};
  const std::string path = write_input(mixed);
  const std::string json_path = ::testing::TempDir() + "/bad_inputs/mixed_report.json";
  const CliRun r = run_cli_quietly({"--cases", path, "--no-repro", "--json", json_path},
                                   test_backend_factories());
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("case 1 (add.Tensor): argument 'self': sizes[0] is 2.5"));
  EXPECT_THAT(r.err, HasSubstr("case 2 (?)"));
  std::ifstream in(json_path);
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["totals"]["cases"]["passed"], 2);
  EXPECT_EQ(report["totals"]["cases"]["failed"], 2);
}

}  // namespace
}  // namespace bp::conformance
