// Files for the suite's tests: a fresh folder for a run's reports, and whole-file reads and
// writes (reports, summaries, case files, a child's captured output).
//
//   const std::string dir = temp_dir("reports");     // <TempDir>/reports, empty
//   write_file(dir + "/cases.json", R"({...})");
//   const nlohmann::json report = read_json_file(dir + "/report.json");
#ifndef BACKPLANE_CONFORMANCE_TESTING_TEST_FILES_H_
#define BACKPLANE_CONFORMANCE_TESTING_TEST_FILES_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {

// A new empty folder `name` under the test's temporary directory (emptied if it exists).
inline std::string temp_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The whole text of a file; "" when it cannot be read (the test's expectations then fail).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A JSON file (a report), parsed. Throws nlohmann::json::parse_error when it is not JSON.
inline nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_TESTING_TEST_FILES_H_
