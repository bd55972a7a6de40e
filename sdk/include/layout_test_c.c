/* The struct layouts as a C compiler sees them (see layout_fingerprint.inc). */
#include <stddef.h>

#include "backplane/backplane.h"
#include "sdk/include/layout_fingerprint.inc"

const size_t* bp_layout_as_c(size_t* n) {
  *n = sizeof kLayout / sizeof kLayout[0];
  return kLayout;
}
