// Fuzz target for the case-file reader (libFuzzer; built and run by tools/fuzz, see
// docs/building.md): the input is a case file's text, read as `--cases` and `--replay` read one
// (the JSON document, its "cases", then each case decoded on its own). Exceptions are how bad input
// is reported; a crash, a hang or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>

#include "conformance/io/case_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bp::conformance;
  try {
    const json doc = json::parse(data, data + size);
    for (const json& c : doc.at("cases")) {
      try {
        (void)case_from_json(c, Tolerances::builtin());
      } catch (const std::exception&) {
      }
    }
  } catch (const std::exception&) {
  }
  return 0;
}
