#include "sdk/version.h"

#include "absl/strings/str_format.h"

namespace bp {

std::string version_string() {
  return absl::StrFormat("%d.%d.%d", kVersionMajor, kVersionMinor, kVersionPatch);
}

}  // namespace bp
