// An "older host" for the compatibility tests: the host side of plugin loading compiled against
// the frozen headers of the previous minor (sdk/include/frozen/0.3), so that a plugin built
// against today's headers meets a host of C ABI 0.3, as it would on a machine with the previous
// release of libbackplane.
//
//   older_host PLUGIN.so   prints what the host decided; exits 0 (accepted), 3 (refused), 1
//                          (init returned an error), 2 (usage, dlopen or dlsym failure)
//
// It offers the plugin a function table of 0.3's size in which only the frozen fields
// (struct_size, major_version, minor_version) are set and every function is NULL: a plugin that
// called anything before learning the host's version would crash the test. It then runs the
// host's own version check (plugin_version.cc, compiled here with 0.3's BP_API_MAJOR / MINOR),
// whose messages are those libbackplane 0.3 gives. It cannot run an accepted plugin further
// (its table has no functions): today's host runs plugins built from the frozen headers
// (abi_compat_test).
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "backplane/plugin.h"
#include "sdk/c_api/plugin_version.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: older_host PLUGIN.so\n");
    return 2;
  }
  const char* path = argv[1];
  bp_api table;
  std::memset(&table, 0, sizeof table);
  table.struct_size = sizeof table;
  table.major_version = BP_API_MAJOR;
  table.minor_version = BP_API_MINOR;
  std::printf("host: C ABI %d.%d, bp_api of %zu bytes\n", BP_API_MAJOR, BP_API_MINOR, sizeof table);
  void* handle = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::printf("cannot load plugin '%s': %s\n", path, ::dlerror());
    return 2;
  }
  auto init = reinterpret_cast<bp_plugin_init_fn>(::dlsym(handle, BP_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) {
    std::printf("plugin '%s' has no '%s' symbol\n", path, BP_PLUGIN_INIT_SYMBOL);
    return 2;
  }
  bp_plugin_desc desc;
  std::memset(&desc, 0, sizeof desc);
  desc.struct_size = sizeof desc;
  desc.api_major = -1;
  desc.api_minor = -1;
  bp_error* error = init(&table, &desc);
  const std::string who =
      std::string("plugin '") + (desc.name ? desc.name : path) + "' (" + path + ")";
  std::printf("plugin: reports C ABI %d.%d\n", desc.api_major, desc.api_minor);
  const std::string refusal =
      bp::c_api::plugin_version_refusal(who, desc.api_major, desc.api_minor);
  if (!refusal.empty()) {
    std::printf("refused: %s\n", refusal.c_str());  // `error`, if any, is not read: see api.h
    return 3;
  }
  if (error != nullptr) {
    std::printf("%s failed to initialise\n", who.c_str());
    return 1;
  }
  std::printf("accepted: %s\n", who.c_str());
  return 0;
}
