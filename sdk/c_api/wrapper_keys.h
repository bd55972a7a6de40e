// Wrapper keys registered through the C ABI (api->wrapper_key_register): their handles, the
// registrations made under them, and switching them on per thread or globally.
//
//   bp_wrapper_key* w;  api->wrapper_key_register("npu_profiler", &w);   // a key above Common
//   api->wrapper_kernel_register(w, NULL, count_and_redispatch, &n, &r);  // every op
//   api->wrapper_key_set_enabled(w, BP_WRAPPER_SCOPE_THREAD, true);
//   api->wrapper_key_unregister(w);                                       // undoes r too
//
// A wrapper key's handle is an unowned registration (backends.h) whose undoing frees the key,
// so a plugin's wrapper keys go when it unloads, as its backends do.
//
// Thread safety: every function may be called from any thread.
#ifndef BACKPLANE_SDK_C_API_WRAPPER_KEYS_H_
#define BACKPLANE_SDK_C_API_WRAPPER_KEYS_H_

#include <string>

#include "backplane/backplane.h"
#include "sdk/dispatch/dispatch_key.h"

namespace bp::c_api {

struct WrapperKeyInfo {
  DispatchKey key;
  std::string label;  // for messages: "npu_profiler"
};

// The key behind a live handle. Errors (naming `function`): a NULL or unregistered handle.
WrapperKeyInfo wrapper_key_info(const bp_wrapper_key* wrapper, const char* function);

// Undoes `registration` when `wrapper` is unregistered. Returns false (and keeps nothing) when
// the wrapper is no longer registered.
bool track_wrapper_registration(const bp_wrapper_key* wrapper, bp_registration* registration);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_WRAPPER_KEYS_H_
