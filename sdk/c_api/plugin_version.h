// The host's version check of a plugin: which C ABI versions it refuses, and the message it gives.
//
//   const std::string why = plugin_version_refusal(who, desc.api_major, desc.api_minor);
//   if (!why.empty()) ...  // "plugin 'npu' (p) was built against Backplane C ABI 0.5, newer
//                          //  than this host's 0.4: upgrade Backplane"
//
// The host's version is the BP_API_MAJOR / BP_API_MINOR of the headers this file is compiled
// with: plugins.cc compiles it with today's headers, and the "older host" of the compatibility
// tests (sdk/c_api/testing/older_host.cc) compiles the same file with the frozen headers of the
// previous minor (sdk/include/frozen/), so both directions run the one check the host has. It
// depends on nothing but the C headers and the standard library for that reason.
//
// Thread safety: a pure function.
#ifndef BACKPLANE_SDK_C_API_PLUGIN_VERSION_H_
#define BACKPLANE_SDK_C_API_PLUGIN_VERSION_H_

#include <cstdint>
#include <string>

namespace bp::c_api {

// Why a plugin that reports C ABI major.minor must not load ("" when it may): another major
// version (the layouts may differ), or a newer minor version than this host's (it may call
// functions past the end of this host's table). `who` names the plugin ("plugin 'npu' (path)").
std::string plugin_version_refusal(const std::string& who, int32_t major, int32_t minor);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_PLUGIN_VERSION_H_
