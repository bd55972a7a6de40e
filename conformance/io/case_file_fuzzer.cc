// Fuzz target for the case-file reader (libFuzzer; built and run by tools/fuzz, see
// docs/building.md): the input is a case file's text, read as `--cases` and `--replay` read one
// (streamed, each case decoded on its own). Exceptions are how bad input is reported; a crash, a
// hang or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "conformance/io/case_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bp::conformance;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    read_case_text(text, "fuzz.json", [](size_t, const json& c) {
      try {
        (void)case_from_json(c, Tolerances::builtin());
      } catch (const std::exception&) {
      }
    });
  } catch (const std::exception&) {
  }
  return 0;
}
