// Backplane's release version.
//
// The C ABI carries its own (major, minor) API version, checked when a plugin loads; this is the
// version of the SDK release as a whole, shown by tools and reports.
#ifndef BACKPLANE_SDK_VERSION_H_
#define BACKPLANE_SDK_VERSION_H_

#include <string>

namespace bp {

inline constexpr int kVersionMajor = 0;
inline constexpr int kVersionMinor = 1;
inline constexpr int kVersionPatch = 0;

// "major.minor.patch", e.g. "0.1.0".
std::string version_string();

}  // namespace bp

#endif  // BACKPLANE_SDK_VERSION_H_
