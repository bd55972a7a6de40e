// The SDK smoke check: proves a fresh build links and runs. `tools/bp conformance` runs it until
// the conformance suite lands.
#include <cstdio>

#include "sdk/version.h"

int main() {
  std::printf("Backplane %s: SDK smoke check passed\n", bp::version_string().c_str());
  return 0;
}
