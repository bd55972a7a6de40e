// The device prelude defines every function reference_backend/math/primitives.h defines for the
// host: the header is read, its bp::math functions are listed, and a kernel calling each of them
// (for float and double) must compile with NVRTC. A primitive added to the host header without
// its device counterpart fails here, naming it. (The traits need no check: host and device
// compile the same reference_backend/math/traits.h.)
#include <cctype>
#include <fstream>
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

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  const size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The identifier that ends at `end` (exclusive).
std::string identifier_before(const std::string& s, size_t end) {
  size_t b = end;
  while (b > 0 && (std::isalnum(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '_')) --b;
  return s.substr(b, end - b);
}

// Declarations at the start of a line: `[[attr]] inline T name(params) {`, `constexpr T name() {`.
Primitives parse(const std::string& header) {
  Primitives p;
  std::istringstream lines(without_detail(header));
  std::string line;
  while (std::getline(lines, line)) {
    line = trim(line);
    const bool declaration =
        starts_with(line, "[[") || starts_with(line, "inline ") || starts_with(line, "constexpr ");
    const size_t open = line.find('(');
    const size_t close = line.find(')', open);
    if (!declaration || open == std::string::npos || close == std::string::npos ||
        line.back() != '{') {
      continue;
    }
    const std::string name = identifier_before(line, open);
    if (name.empty() || starts_with(name, "operator")) continue;
    const std::string params = trim(line.substr(open + 1, close - open - 1));
    int count = params.empty() ? 0 : 1;
    for (char c : params) count += c == ',';
    p.functions.emplace_back(name, count);
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
  for (const char* expected : {"exp", "log", "sqrt", "sin", "tanh", "abs", "maximum"}) {
    EXPECT_TRUE(names.count(expected)) << expected << " not found in primitives.h";
  }
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
