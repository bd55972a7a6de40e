// docs/abi.md documents every function of the table, in the table's order, with the declaration
// exactly as api.h has it (compared with whitespace normalised), so the reference cannot drift
// from the header.
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string normalised(const std::string& s) {
  std::string out;
  std::istringstream words(s);
  for (std::string w; words >> w;) out += (out.empty() ? "" : " ") + w;
  return out;
}

struct Declaration {
  std::string name;
  std::string text;  // normalised, ending with ';'
};

// "bp_error* (*op_call)(...)" -> "op_call"; "bp_kernel_fn cpu_fallback" -> "cpu_fallback".
std::string name_of(const std::string& declaration) {
  std::smatch m;
  if (std::regex_search(declaration, m, std::regex(R"(\(\*(\w+)\))"))) return m[1];
  std::regex_search(declaration, m, std::regex(R"((\w+)\s*$)"));
  return m[1];
}

// The fields of `typedef struct bp_api { ... } bp_api;`, comments removed.
std::vector<Declaration> table_fields(std::string header) {
  header = std::regex_replace(header, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
  const size_t begin = header.find('{', header.find("typedef struct bp_api {"));
  const size_t end = header.find("} bp_api;");
  std::vector<Declaration> fields;
  std::istringstream body(header.substr(begin + 1, end - begin - 1));
  for (std::string decl; std::getline(body, decl, ';');) {
    const std::string text = normalised(decl);
    if (!text.empty()) fields.push_back({name_of(text), text + ";"});
  }
  return fields;
}

// The "### name" sections of "## The function table", each with its first ```c block.
std::vector<Declaration> documented(const std::string& doc) {
  const size_t begin = doc.find("## The function table");
  const size_t end = doc.find("\n## ", begin + 1);
  const std::string section = doc.substr(begin, end - begin);
  std::vector<Declaration> out;
  const std::regex entry(R"(### (\w+)\n\n```c\n([\s\S]*?)```)");
  for (std::sregex_iterator it(section.begin(), section.end(), entry), e; it != e; ++it) {
    out.push_back({(*it)[1], normalised((*it)[2])});
  }
  return out;
}

TEST(AbiDoc, DocumentsEveryTableFieldInOrderWithTheHeadersDeclaration) {
  const std::vector<Declaration> header = table_fields(read_file("sdk/include/backplane/api.h"));
  const std::vector<Declaration> doc = documented(read_file("docs/abi.md"));
  ASSERT_GT(header.size(), 40u);
  std::vector<std::string> header_names, doc_names;
  for (const auto& d : header) header_names.push_back(d.name);
  for (const auto& d : doc) doc_names.push_back(d.name);
  ASSERT_EQ(doc_names, header_names) << "docs/abi.md's function sections differ from bp_api";
  for (size_t i = 0; i < header.size(); ++i) {
    EXPECT_EQ(doc[i].text, header[i].text) << "the declaration of " << header[i].name;
  }
}

}  // namespace
