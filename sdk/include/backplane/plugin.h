/* Backplane C ABI: the entry point of a plugin (a shared library loaded by the host).
 *
 *   BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* api, bp_plugin_desc* desc) {
 *     desc->name = "npu";                  // desc->struct_size is set by the host
 *     desc->api_major = BP_API_MAJOR;
 *     desc->api_minor = BP_API_MINOR;
 *     desc->unload = my_unload;            // optional
 *     ... api->backend_register(...), api->kernel_register(...)
 *     return NULL;
 *   }
 *
 * The host finds bp_plugin_init with dlsym after dlopen (api->plugin_load, or the colon-separated
 * list of paths in the environment variable BP_PLUGINS at start), checks the API version the
 * plugin reports, and keeps `api` valid for the plugin's lifetime. A plugin links nothing of
 * Backplane: everything it needs comes through `api`. On unload the host calls desc->unload,
 * then drops whatever the plugin registered and did not unregister, then dlcloses it.
 *
 * If bp_plugin_init returns an error, the host destroys it, undoes the plugin's registrations
 * and reports the plugin as not loaded.
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_PLUGIN_H_ */
