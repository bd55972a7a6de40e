/* Backplane C ABI: the entry point of a plugin (a shared library loaded by the host).
 *
 *   BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* api, bp_plugin_desc* desc) {
 *     if (!bp_plugin_begin(api, desc, "npu")) return NULL;  // first: name, version check
 *     desc->unload = my_unload;                             // optional
 *     ... api->backend_register(...), api->kernel_register(...)
 *     return NULL;
 *   }
 *
 * The host finds bp_plugin_init with dlsym after dlopen (api->plugin_load, or the colon-separated
 * list of paths in the environment variable BP_PLUGINS, loaded at the first bp_get_api() call),
 * calls it, checks the API version the plugin reports in `desc`, and keeps `api` valid for the
 * plugin's lifetime. A plugin links nothing of Backplane: everything it needs comes through
 * `api`.
 *
 * Versions: the host refuses a plugin built against another major version or a newer minor
 * version than its own (see api.h). A table of another major version may have another layout,
 * so a plugin must not call through `api` before it knows the major versions match:
 * bp_plugin_begin fills desc's name and version and says whether the plugin may go on; when it
 * may not, the plugin returns NULL at once and the host reports the mismatch (with both
 * versions) in its error and load record.
 *
 * If bp_plugin_init returns an error, or reports an incompatible version, the host destroys the
 * error, undoes the registrations the plugin made during init and reports the plugin as not
 * loaded. On unload the host calls desc->unload, then drops whatever the plugin registered and
 * did not unregister, then dlcloses it once no memory of its backends is left.
 */
#ifndef BACKPLANE_PLUGIN_H_
#define BACKPLANE_PLUGIN_H_

#include "backplane/api.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define BP_PLUGIN_EXPORT __declspec(dllexport)
#else
#define BP_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Filled by the plugin in bp_plugin_init. The first four fields never change in any version. */
typedef struct bp_plugin_desc {
  size_t struct_size; /* set by the host */
  const char* name;   /* the plugin's name, for messages and load records; static storage */
  int32_t api_major;  /* BP_API_MAJOR / BP_API_MINOR the plugin was built against */
  int32_t api_minor;
  void* user_data; /* passed back to unload */
  void (*unload)(void* user_data);
} bp_plugin_desc;

/* The symbol every plugin exports. */
typedef bp_error* (*bp_plugin_init_fn)(const bp_api* api, bp_plugin_desc* desc);
#define BP_PLUGIN_INIT_SYMBOL "bp_plugin_init"

/* Records the plugin's name and the API version of these headers in `desc`, and returns whether
 * the host's table has the same major version and at least this minor version (the plugin may
 * then use every function of these headers). Reads only the frozen first fields of `api`. */
static inline bool bp_plugin_begin(const bp_api* api, bp_plugin_desc* desc, const char* name) {
  desc->name = name;
  desc->api_major = BP_API_MAJOR;
  desc->api_minor = BP_API_MINOR;
  return api->major_version == BP_API_MAJOR && api->minor_version >= BP_API_MINOR;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_PLUGIN_H_ */
