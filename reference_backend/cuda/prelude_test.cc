// The device prelude defines every function and trait reference_backend/math/primitives.h
// defines for the host: the header is read, its bp::math functions and traits are listed, and a
// kernel calling each of them (for float and double) must compile with NVRTC. A primitive added
// to the host header without its device counterpart fails here, naming it.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/jit_sources.h"
#include "reference_backend/cuda/nvrtc.h"

namespace bp::cuda {
namespace {

struct Primitives {
  std::vector<std::pair<std::string, int>> functions;  // name, parameter count
  std::vector<std::string> bool_traits, type_traits;
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// primitives.h without its `namespace detail { ... }` block (helpers, not primitives).
std::string without_detail(std::string text) {
  const size_t start = text.find("namespace detail {");
  if (start == std::string::npos) return text;
  int depth = 0;
  for (size_t i = text.find('{', start); i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) return text.erase(start, i + 1 - start);
  }
  return text;
}

Primitives parse(const std::string& header) {
  Primitives p;
  const std::string text = without_detail(header);
  const std::regex function(
      R"((?:inline|constexpr)\s+(?:constexpr\s+)?\w+\s+(\w+)\s*\(([^()]*)\)\s*\{)");
  for (std::sregex_iterator it(text.begin(), text.end(), function), end; it != end; ++it) {
    const std::string params = (*it)[2];
    int count = params.find_first_not_of(" \t\n") == std::string::npos ? 0 : 1;
    for (char c : params) count += c == ',';
    p.functions.emplace_back((*it)[1], count);
  }
  const std::regex bool_trait(R"(inline constexpr bool (\w+)\s*=)");
  std::set<std::string> seen;
  for (std::sregex_iterator it(text.begin(), text.end(), bool_trait), end; it != end; ++it) {
    if (seen.insert((*it)[1]).second) p.bool_traits.push_back((*it)[1]);
  }
  const std::regex type_trait(R"(using (\w+) = typename)");
  for (std::sregex_iterator it(text.begin(), text.end(), type_trait), end; it != end; ++it) {
    p.type_traits.push_back((*it)[1]);
  }
  return p;
}

const Primitives& primitives() {
  static const Primitives p = parse(read("reference_backend/math/primitives.h"));
  return p;
}

TEST(Prelude, TheHostPrimitivesAreFound) {
  std::set<std::string> names;
  for (const auto& [name, count] : primitives().functions) names.insert(name);
  for (const char* expected : {"exp", "log", "sqrt", "sin", "tanh", "infinity", "quiet_nan"}) {
    EXPECT_TRUE(names.count(expected)) << expected << " not found in primitives.h";
  }
  EXPECT_FALSE(primitives().bool_traits.empty());
  EXPECT_FALSE(primitives().type_traits.empty());
}

TEST(Prelude, DefinesEveryHostPrimitiveForTheDevice) {
  std::string body;
  for (const char* t : {"float", "double"}) {
    for (const auto& [name, count] : primitives().functions) {
      std::string call = "bp::math::" + name;
      if (count == 0) {
        call += std::string("<") + t + ">()";
      } else {
        call += "(";
        for (int i = 0; i < count; ++i) call += std::string(i ? ", " : "") + t + "(0.5)";
        call += ")";
      }
      body += "  out[n++] = static_cast<double>(" + call + ");  // " + name + "\n";
    }
    for (const std::string& trait : primitives().bool_traits) {
      body += "  out[n++] = bp::math::" + trait + "<" + t + "> ? 1.0 : 0.0;\n";
    }
    for (const std::string& trait : primitives().type_traits) {
      body += "  out[n++] = static_cast<double>(bp::math::" + trait + "<" + t + ">(0.5));\n";
    }
  }
  const std::string source = program_head() +
                             "\nextern \"C\" __global__ void prelude_check(double* out) {\n"
                             "  int n = 0;\n" +
                             body + "}\n";
  const Nvrtc::Output out = Nvrtc::get().compile(source, "prelude_check.cu", 90, Nvrtc::kCubin);
  EXPECT_TRUE(out.ok) << "the device prelude (jit/prelude_math.cuh) lacks a primitive of "
                         "reference_backend/math/primitives.h:\n"
                      << out.log;
}

}  // namespace
}  // namespace bp::cuda
