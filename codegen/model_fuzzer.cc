// Fuzz target for the op declaration reader (libFuzzer; built and run by tools/fuzz, see
// docs/building.md): the input is one declaration file, read and validated as load_model does.
// Any text is either a model or a CodegenError whose message starts with "file:line: " (model.h);
// anything else aborts: another exception type, a message without the location, a crash or a
// sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using bp::codegen::CodegenError;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<bp::codegen::OpDecl> ops = bp::codegen::parse_declarations(text, "fuzz.yaml");
    const bp::codegen::Model model(std::move(ops), {"fuzz"});
    bp::codegen::validate(model);
  } catch (const CodegenError& e) {
    if (std::string_view(e.what()).starts_with("fuzz.yaml:")) return 0;
    std::cerr << "model_fuzzer: an error without its file:line: " << e.what() << "\n";
    std::abort();
  }
  return 0;
}
