// docs/abi.md documents every function of the table, in the table's order, with the declaration
// exactly as api.h has it (compared with whitespace normalised), so the reference cannot drift
// from the header.
#include <cctype>
#include <fstream>
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
  const size_t pointer = declaration.find("(*");
  if (pointer != std::string::npos) {
    const size_t begin = pointer + 2;
    return declaration.substr(begin, declaration.find(')', begin) - begin);
  }
  size_t begin = declaration.size();
  while (begin > 0 && (std::isalnum(declaration[begin - 1]) || declaration[begin - 1] == '_')) {
    --begin;
  }
  return declaration.substr(begin);
}

std::string without_comments(std::string text) {
  for (size_t open = text.find("/*"); open != std::string::npos; open = text.find("/*", open)) {
    text.replace(open, text.find("*/", open) + 2 - open, " ");
  }
  return text;
}

// The fields of `typedef struct bp_api { ... } bp_api;`, comments removed.
std::vector<Declaration> table_fields(const std::string& header) {
  const std::string text = without_comments(header);
  const size_t begin = text.find('{', text.find("typedef struct bp_api {"));
  const size_t end = text.find("} bp_api;");
  std::vector<Declaration> fields;
  std::istringstream body(text.substr(begin + 1, end - begin - 1));
  for (std::string decl; std::getline(body, decl, ';');) {
    const std::string normal = normalised(decl);
    if (!normal.empty()) fields.push_back({name_of(normal), normal + ";"});
  }
  return fields;
}

// The "### name" sections of "## The function table", each with the ```c block that follows.
std::vector<Declaration> documented(const std::string& doc) {
  const size_t begin = doc.find("## The function table");
  const size_t end = doc.find("\n## ", begin + 1);
  std::istringstream section(doc.substr(begin, end - begin));
  std::vector<Declaration> out;
  bool in_code = false;
  for (std::string line; std::getline(section, line);) {
    if (line.rfind("### ", 0) == 0) {
      out.push_back({line.substr(4), ""});
    } else if (line == "```c" && !out.empty() && out.back().text.empty()) {
      in_code = true;
    } else if (line == "```") {
      in_code = false;
    } else if (in_code) {
      out.back().text = normalised(out.back().text + " " + line);
    }
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
