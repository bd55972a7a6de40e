// Fuzz target for parse_schema (libFuzzer; built and run by tools/fuzz, see docs/building.md):
// any text either parses or throws bp::Error, and a schema that parses prints back to itself
// (schema.h: parse_schema(to_string(s)) == s). Anything else aborts: an escaped exception of
// another type, a crash, a sanitizer report, or a schema whose printed form reads differently.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "sdk/core/error.h"
#include "sdk/dispatch/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bp::FunctionSchema schema;
  try {
    schema = bp::parse_schema(text);
  } catch (const bp::Error&) {
    return 0;  // a clear "expected ... but found" is the answer to bad text
  }
  const std::string printed = bp::to_string(schema);
  try {
    if (bp::parse_schema(printed) == schema) return 0;
    std::cerr << "schema_fuzzer: '" << printed << "' reads back as a different schema\n";
  } catch (const std::exception& e) {
    std::cerr << "schema_fuzzer: '" << printed << "' does not parse: " << e.what() << "\n";
  }
  std::abort();
}
