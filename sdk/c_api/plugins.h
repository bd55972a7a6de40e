// Plugin loading (plugin.h): dlopen, the entry symbol, the version check, load records, the
// BP_PLUGINS environment variable, and unloading.
//
//   bp_plugin* p;
//   bp_error* err = api->plugin_load("/opt/npu/libnpu_plugin.so", &p);   // or BP_PLUGINS=...
//   api->plugin_load_records(print_record, NULL);                       // every attempt
//   api->plugin_unload(p);
//
// Every attempt, failed or not, is kept as a load record (path, plugin name, cause, both API
// versions). Backends a plugin registers during its init belong to it: a failed init drops them,
// and so does unloading. Plugin handles are ids, so a stale handle gives an error.
//
// BP_PLUGIN_LOAD_TIMEOUT=N (seconds; unset or 0: off): each load first runs dlopen and the
// plugin's init in a forked child, and refuses a plugin whose init crashes, exits or does not
// return within N s ("plugin PATH: bp_plugin_init crashed (signal 11: Segmentation fault)").
// Without it, a fatal signal during a load prints which plugin was loading, then the previous
// handler (or the default action) runs.
//
// Thread safety: every function may be called from any thread; loads are serialised.
#ifndef BACKPLANE_SDK_C_API_PLUGINS_H_
#define BACKPLANE_SDK_C_API_PLUGINS_H_

#include "backplane/backplane.h"

namespace bp::c_api {

// The table plugins receive in bp_plugin_init (set once, before any load).
void set_host_api(const bp_api* api);

// Loads each path of $BP_PLUGINS (colon-separated); failures become warnings and load records.
void load_plugins_from_environment();

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_PLUGINS_H_
