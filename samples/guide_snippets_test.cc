// docs/writing_a_backend.md shows code taken from the samples, so that a vendor who reads the
// guide and then copies a sample finds the same names and statements. Every ```c and ```cpp
// block of the guide must appear, line by line and in order, in one sample or public header
// (whitespace normalised; lines with "..." mark elisions and are skipped). A block that is not
// taken from a file (an alternative the samples do not use) says so on the line before it:
// <!-- snippet: not from a sample -->.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {

const char kGuide[] = "docs/writing_a_backend.md";
const char kNotFromASample[] = "<!-- snippet: not from a sample -->";

// Where snippets may come from.
const std::vector<std::string> kSources = {
    "samples/c_plugin_minimal/mini_plugin.c", "samples/c_plugin/toy_plugin.c",
    "samples/cpp_plugin/toy_cpp_plugin.cc",   "sdk/include/backplane/api.h",
    "sdk/include/backplane/backend.h",        "sdk/include/backplane/iter.h",
    "sdk/include/backplane/plugin.h",         "sdk/include/backplane/types.h",
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The line with runs of whitespace made one space, none at either end.
std::string normalised(const std::string& line) {
  std::string out;
  std::istringstream words(line);
  for (std::string w; words >> w;) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The non-blank lines of `text`, normalised.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (std::string n = normalised(line); !n.empty()) out.push_back(n);
  }
  return out;
}

struct Snippet {
  int line;                        // of the opening fence in the guide
  bool exempt;                     // marked as not taken from a file
  std::vector<std::string> lines;  // normalised; blank and elision ("...") lines left out
};

std::vector<Snippet> c_snippets(const std::string& guide) {
  std::vector<Snippet> out;
  std::istringstream in(guide);
  std::string previous;
  bool inside = false;
  int number = 0;
  for (std::string line; std::getline(in, line); previous = line) {
    ++number;
    if (!inside && (line == "```c" || line == "```cpp")) {
      inside = true;
      out.push_back({number, normalised(previous) == kNotFromASample, {}});
    } else if (inside && line.rfind("```", 0) == 0) {
      inside = false;
    } else if (inside) {
      const std::string n = normalised(line);
      if (!n.empty() && n.find("...") == std::string::npos) out.back().lines.push_back(n);
    }
  }
  return out;
}

// How many lines of `snippet`, from its first, appear in `source` in order (a greedy
// subsequence match): all of them when the snippet was taken from the source.
size_t lines_matched(const std::vector<std::string>& snippet,
                     const std::vector<std::string>& source) {
  size_t next = 0;
  for (const std::string& line : source) {
    if (next < snippet.size() && line == snippet[next]) ++next;
  }
  return next;
}

TEST(WritingABackendGuide, EveryCSnippetIsTakenFromASampleOrAHeader) {
  std::vector<std::vector<std::string>> sources;
  for (const std::string& path : kSources) sources.push_back(lines_of(read_file(path)));
  int checked = 0;
  for (const Snippet& s : c_snippets(read_file(kGuide))) {
    if (s.exempt) continue;
    ++checked;
    size_t best = 0;  // the source that has the most of the snippet
    std::vector<size_t> matched;
    for (const auto& source : sources) matched.push_back(lines_matched(s.lines, source));
    for (size_t i = 0; i < sources.size(); ++i) best = matched[i] > matched[best] ? i : best;
    EXPECT_EQ(matched[best], s.lines.size())
        << kGuide << ":" << s.line << ": this snippet is in no sample or header; the closest, "
        << kSources[best] << ", lacks (after the lines before it): " << s.lines[matched[best]];
  }
  // The guide shows the entry point, the allocator and copies, the kernel, the loop, read_alpha,
  // the fallback and the C++ kernels: far more than a handful of blocks.
  EXPECT_GE(checked, 12);
}

TEST(WritingABackendGuide, PointsToBothCSamples) {
  const std::string guide = read_file(kGuide);
  for (const std::string link :
       {"](../samples/c_plugin_minimal/mini_plugin.c)", "](../samples/c_plugin/toy_plugin.c)"}) {
    EXPECT_NE(guide.find(link), std::string::npos) << kGuide << " has no link " << link;
  }
}

}  // namespace
