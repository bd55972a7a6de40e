// The op codegen: reads the op declarations and writes the generated C++ (and docs).
//
//   codegen --emit=sdk --out_dir=bazel-out/.../sdk/ops sdk/ops/factories.yaml sdk/ops/binary.yaml
//   codegen --emit=cpu [--cpu_shards=unary:2,binary:2] --out_dir=... sdk/ops/*.yaml
//   codegen --emit=cuda --out_dir=... sdk/ops/*.yaml
//   codegen --emit=python --out_dir=... sdk/ops/*.yaml
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
  std::cerr
      << "usage: codegen (--emit=sdk|cpu|cuda|python [--cpu_shards=FAMILY:N,...] --out_dir=DIR | "
         "--check) FILE.yaml...\n";
  return 2;
}

// "unary:2,binary:2" -> {unary: 2, binary: 2}; false on a malformed list or a count below 1.
bool parse_cpu_shards(const std::string& text, bp::codegen::CpuShards& shards) {
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0) return false;
    int n = 0;
    try {
      size_t used = 0;
      n = std::stoi(item.substr(colon + 1), &used);
      if (used != item.size() - colon - 1) return false;
    } catch (const std::exception&) {
      return false;
    }
    if (n < 1) return false;
    shards[item.substr(0, colon)] = n;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string emit, out_dir;
  bp::codegen::CpuShards cpu_shards;
  bool check_only = false;
  std::vector<std::string> yaml;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--emit=", 0) == 0) {
      emit = arg.substr(7);
    } else if (arg.rfind("--out_dir=", 0) == 0) {
      out_dir = arg.substr(10);
    } else if (arg.rfind("--cpu_shards=", 0) == 0) {
      if (!parse_cpu_shards(arg.substr(13), cpu_shards)) return usage();
    } else if (arg == "--check") {
      check_only = true;
    } else if (arg.rfind("--", 0) == 0) {
      return usage();
    } else {
      yaml.push_back(arg);
    }
  }
  if (yaml.empty() || (!check_only && (out_dir.empty() || (emit != "sdk" && emit != "cpu" &&
                                                           emit != "cuda" && emit != "python")))) {
    return usage();
  }
  try {
    const bp::codegen::Model model = bp::codegen::load_model(yaml);
    if (check_only) return 0;
    const bp::codegen::Files files = emit == "sdk"    ? bp::codegen::emit_sdk(model)
                                     : emit == "cpu"  ? bp::codegen::emit_cpu(model, cpu_shards)
                                     : emit == "cuda" ? bp::codegen::emit_cuda(model)
                                                      : bp::codegen::emit_python(model);
    std::filesystem::create_directories(out_dir);
    for (const auto& [name, text] : files)
      write_if_changed(std::filesystem::path(out_dir) / name, text);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
