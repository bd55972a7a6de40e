// backplane-conformance's command line, as a function so tests can drive it.
//
//   BackendFactories backends = {cpu_backend_factory()};
//   int status = run_cli({"--ops", "add", "--json", "r.json"}, backends, std::cout, std::cerr);
//
// Exit status: 0 when the verdict passes, 1 when it fails (unexpected failures, no case run, a
// profile gap, registered ops without an entry), 2 for usage errors. `--help` lists the options;
// docs/conformance_guide.md is the guide, docs/conformance.md has the formats.
//
// Thread safety: one call at a time (it runs ops and may fork).
#ifndef BACKPLANE_CONFORMANCE_CLI_CLI_H_
#define BACKPLANE_CONFORMANCE_CLI_CLI_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "conformance/runner/backend.h"

namespace bp::conformance {

// A backend the CLI can test, by name (--backend NAME).
struct BackendFactory {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Backend>()> make;
};
using BackendFactories = std::vector<BackendFactory>;

BackendFactory cpu_backend_factory();
// "cuda": the reference CUDA plugin (libbackplane_cuda.so) loaded as a plugin backend. The library
// is found at $BP_CUDA_PLUGIN, else at reference_backend/cuda/ under the working directory (bazel
// test runfiles) or under the bazel-bin tree this program sits in (build it first: bazel build
// //reference_backend/cuda:libbackplane_cuda.so), else beside this program (an SDK package).
BackendFactory cuda_backend_factory();

int run_cli(const std::vector<std::string>& args, const BackendFactories& backends,
            std::ostream& out, std::ostream& err);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_CLI_CLI_H_
