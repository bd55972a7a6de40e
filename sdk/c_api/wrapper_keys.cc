#include "sdk/c_api/wrapper_keys.h"

#include <map>
#include <mutex>
#include <vector>

#include "sdk/c_api/backends.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"

namespace bp::c_api {
namespace {

struct WrapperState {
  DispatchKey key;
  std::string name;
  std::vector<bp_registration*> registrations;  // kernels under the key (some may be undone)
};

struct Registry {
  std::mutex mutex;
  std::map<const void*, WrapperState> wrappers;  // by handle
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: plugins may unload during exit
  return *r;
}

// Undoes what a wrapper key holds: its kernels, its global switch, the key itself.
void release(const void* handle) noexcept {
  WrapperState state;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.wrappers.find(handle);
    if (it == r.wrappers.end()) return;
    state = std::move(it->second);
    r.wrappers.erase(it);
  }
  for (bp_registration* registration : state.registrations) destroy_registration(registration);
  remove_global_included_key(state.key);
  try {
    unregister_wrapper_key(state.key);
  } catch (...) {
    // Registered by this file and freed only here: nothing to report to.
  }
}

bp_error* wrapper_key_register(const char* name, bp_wrapper_key** out) {
  return guarded([&] {
    require(name, "wrapper_key_register", "name");
    require(out, "wrapper_key_register", "out");
    const DispatchKey key = register_wrapper_key(name);
    bp_registration* handle = add_unowned_registration([&](bp_registration* h) {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mutex);
      r.wrappers.emplace(h, WrapperState{key, name, {}});
      return KernelRegistration{RegistrationHandle([h] { release(h); }), nullptr};
    });
    *out = reinterpret_cast<bp_wrapper_key*>(handle);
  });
}

bp_error* wrapper_key_unregister(bp_wrapper_key* wrapper) {
  return guarded([&] {
    wrapper_key_info(wrapper, "wrapper_key_unregister");  // checks the handle
    destroy_registration(reinterpret_cast<bp_registration*>(wrapper));
  });
}

bp_error* wrapper_key_set_enabled(bp_wrapper_key* wrapper, int32_t scope, bool enabled) {
  return guarded([&] {
    const DispatchKey key = wrapper_key_info(wrapper, "wrapper_key_set_enabled").key;
    if (scope == BP_WRAPPER_SCOPE_THREAD) {
      LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
      local.included = enabled ? local.included.add(key) : local.included.remove(key);
    } else if (scope == BP_WRAPPER_SCOPE_GLOBAL) {
      if (enabled) {
        add_global_included_key(key);
      } else {
        remove_global_included_key(key);
      }
    } else {
      BP_CHECK(false, "bp_api.wrapper_key_set_enabled: unknown scope ", scope,
               " (BP_WRAPPER_SCOPE_THREAD = 1, BP_WRAPPER_SCOPE_GLOBAL = 2)");
    }
  });
}

}  // namespace

WrapperKeyInfo wrapper_key_info(const bp_wrapper_key* wrapper, const char* function) {
  require(wrapper, function, "key");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.wrappers.find(wrapper);
  BP_CHECK(it != r.wrappers.end(), "bp_api.", function,
           ": unknown wrapper key handle (it was unregistered, or never registered)");
  return {it->second.key, it->second.name};
}

bool track_wrapper_registration(const bp_wrapper_key* wrapper, bp_registration* registration) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.wrappers.find(wrapper);
  if (it == r.wrappers.end()) return false;
  it->second.registrations.push_back(registration);
  return true;
}

void install_wrapper_functions(bp_api& api) {
  api.wrapper_key_register = &wrapper_key_register;
  api.wrapper_key_unregister = &wrapper_key_unregister;
  api.wrapper_key_set_enabled = &wrapper_key_set_enabled;
}

}  // namespace bp::c_api
