// The op codegen: reads the op declarations and writes the generated C++ (and docs).
//
//   codegen --emit=sdk --out_dir=bazel-out/.../sdk/ops sdk/ops/factories.yaml sdk/ops/binary.yaml
//   codegen --emit=cpu --out_dir=... sdk/ops/*.yaml
//   codegen --emit=cuda --out_dir=... sdk/ops/*.yaml
//   codegen --check sdk/ops/*.yaml        # validate only
//
// Exits 1 with "file:line: message" on stderr for a bad declaration. Files whose content did not
// change are not rewritten.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/emit.h"
#include "codegen/model.h"

namespace {

void write_if_changed(const std::filesystem::path& path, const std::string& text) {
  std::ifstream in(path);
  if (in) {
    std::stringstream old;
    old << in.rdbuf();
    if (old.str() == text) return;
  }
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

int usage() {
  std::cerr << "usage: codegen (--emit=sdk|cpu|cuda --out_dir=DIR | --check) FILE.yaml...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string emit, out_dir;
  bool check_only = false;
  std::vector<std::string> yaml;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--emit=", 0) == 0) {
      emit = arg.substr(7);
    } else if (arg.rfind("--out_dir=", 0) == 0) {
      out_dir = arg.substr(10);
    } else if (arg == "--check") {
      check_only = true;
    } else if (arg.rfind("--", 0) == 0) {
      return usage();
    } else {
      yaml.push_back(arg);
    }
  }
  if (yaml.empty() ||
      (!check_only && (out_dir.empty() || (emit != "sdk" && emit != "cpu" && emit != "cuda")))) {
    return usage();
  }
  try {
    const bp::codegen::Model model = bp::codegen::load_model(yaml);
    if (check_only) return 0;
    const bp::codegen::Files files = emit == "sdk"   ? bp::codegen::emit_sdk(model)
                                     : emit == "cpu" ? bp::codegen::emit_cpu(model)
                                                     : bp::codegen::emit_cuda(model);
    std::filesystem::create_directories(out_dir);
    for (const auto& [name, text] : files)
      write_if_changed(std::filesystem::path(out_dir) / name, text);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
