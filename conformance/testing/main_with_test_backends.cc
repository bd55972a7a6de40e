// backplane-conformance with the test backends of broken_backends.h as well (--list-backends).
#include <iostream>

#include "conformance/cli/cli.h"
#include "conformance/testing/broken_backends.h"

int main(int argc, char** argv) {
  return bp::conformance::run_cli(std::vector<std::string>(argv + 1, argv + argc),
                                  bp::conformance::test_backend_factories(), std::cout, std::cerr);
}
