// The struct layouts as a C++ compiler sees them (see layout_fingerprint.inc).
#include <cstddef>

#include "backplane/backplane.h"

namespace {
#include "sdk/include/layout_fingerprint.inc"
}  // namespace

extern "C" const size_t* bp_layout_as_cxx(size_t* n) {
  *n = sizeof kLayout / sizeof kLayout[0];
  return kLayout;
}
