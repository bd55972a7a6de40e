// backplane-conformance: the conformance suite's command line, testing the reference CPU backend,
// the reference CUDA plugin (--backend cuda) or any C-ABI plugin (--backend path/to/plugin.so).
// See cli.h and docs/conformance_guide.md.
#include <iostream>

#include "conformance/cli/cli.h"

int main(int argc, char** argv) {
  using bp::conformance::run_cli;
  return run_cli(std::vector<std::string>(argv + 1, argv + argc),
                 {bp::conformance::cpu_backend_factory(), bp::conformance::cuda_backend_factory()},
                 std::cout, std::cerr);
}
