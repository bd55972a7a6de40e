#include "sdk/c_api/backends.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "sdk/c_api/convert.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/structs.h"
#include "sdk/core/allocator.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/fusion/group_runners.h"

namespace bp::c_api {
namespace {

thread_local const PluginScope* tls_loading_plugin = nullptr;
thread_local bool tls_has_current_device = false;
thread_local Device tls_current_device;

DeviceIndex current_index(DeviceType type) {
  if (tls_has_current_device && tls_current_device.type == type && tls_current_device.index > 0) {
    return tls_current_device.index;
  }
  return 0;
}

// A backend's allocator and copy functions. Shared by the backend and by every allocation it
// made, so freeing memory after the backend is gone still reaches the plugin's deallocate.
class DeviceFunctions final : public Allocator,
                              public std::enable_shared_from_this<DeviceFunctions> {
 public:
  DeviceFunctions(DeviceType type, std::string label, const bp_allocator& allocator,
                  const bp_copy_fns& copies, const bp_stream_fns& streams,
                  const bp_backend_desc& desc, std::shared_ptr<void> library)
      : type_(type),
        label_(std::move(label)),
        allocator_(allocator),
        copies_(copies),
        streams_(streams),
        release_user_data_(desc.user_data),
        on_released_(desc.on_released),
        library_(std::move(library)) {}

  ~DeviceFunctions() override {
    if (on_released_ != nullptr) on_released_(release_user_data_);
    // library_ goes last: the plugin's code must outlive on_released.
  }

  DataPtr allocate(size_t nbytes) override {
    const Device device(type_, current_index(type_));
    void* ptr = nullptr;
    if (bp_error* err =
            allocator_.allocate(allocator_.user_data, to_bp_device(device), nbytes, &ptr)) {
      throw_backend_error(err, label_, detail::str_cat("allocate ", nbytes, " bytes"));
    }
    auto* allocation = new Allocation{shared_from_this(), ptr, device};
    DataPtr owned(ptr, allocation, &free_allocation, device);
    // The host would write through it: a clear error instead (the plugin's memory error).
    BP_CHECK_WITH_CODE(ErrorCode::kInternal, ptr != nullptr || nbytes == 0, "[", label_,
                       "] the allocator returned NULL for ", nbytes,
                       " bytes without an error (an allocator that cannot provide memory must "
                       "return an error, e.g. BP_ERROR_OUT_OF_MEMORY)");
    BP_CHECK_WITH_CODE(ErrorCode::kInternal, reinterpret_cast<uintptr_t>(ptr) % alignment() == 0,
                       "[", label_, "] the allocator returned ", ptr, ", which is not aligned to ",
                       alignment(), " bytes as its bp_allocator.alignment says");
    return owned;
  }

  size_t alignment() const override {
    return allocator_.alignment != 0 ? allocator_.alignment : 16;
  }

  void copy(bp_error* (*fn)(const bp_copy_fns&, void*, Device, const void*, Device, size_t),
            const char* what, void* dst, Device dst_device, const void* src, Device src_device,
            size_t nbytes) const {
    if (bp_error* err = fn(copies_, dst, dst_device, src, src_device, nbytes)) {
      throw_backend_error(err, label_, detail::str_cat(what, " (", nbytes, " bytes)"));
    }
  }

  void synchronize(Device device) const {
    if (copies_.synchronize == nullptr) return;
    if (bp_error* err = copies_.synchronize(copies_.user_data, to_bp_device(device))) {
      throw_backend_error(err, label_, "synchronize");
    }
  }

  const bp_stream_fns& streams() const { return streams_; }

 private:
  struct Allocation {
    std::shared_ptr<DeviceFunctions> owner;
    void* ptr;
    Device device;
  };

  static void free_allocation(void* context) {
    auto* allocation = static_cast<Allocation*>(context);
    const bp_allocator& a = allocation->owner->allocator_;
    if (allocation->ptr != nullptr) {
      a.deallocate(a.user_data, to_bp_device(allocation->device), allocation->ptr);
    }
    delete allocation;
  }

  const DeviceType type_;
  const std::string label_;
  const bp_allocator allocator_;
  const bp_copy_fns copies_;
  const bp_stream_fns streams_;  // all NULL when the backend has no streams
  void* const release_user_data_;
  void (*const on_released_)(void*);
  const std::shared_ptr<void> library_;
};

// Device type code -> its backend's functions, for the copy trampolines (DeviceCopyFn carries no
// user data).
std::array<std::atomic<DeviceFunctions*>, kDeviceTypeCodeLimit> device_functions{};

const DeviceFunctions& functions_of(DeviceType type) {
  DeviceFunctions* f = device_functions[static_cast<int>(type)].load(std::memory_order_acquire);
  BP_CHECK_NOT_IMPLEMENTED(f != nullptr, "no backend is registered for device type '", type, "'");
  return *f;
}

void copy_to_host(void* dst, Device dst_device, const void* src, Device src_device, size_t n) {
  functions_of(src_device.type)
      .copy([](const bp_copy_fns& c, void* d, Device, const void* s, Device sd,
               size_t k) { return c.to_host(c.user_data, d, s, to_bp_device(sd), k); },
            "copy to host", dst, dst_device, src, src_device, n);
}

void copy_from_host(void* dst, Device dst_device, const void* src, Device src_device, size_t n) {
  functions_of(dst_device.type)
      .copy([](const bp_copy_fns& c, void* d, Device dd, const void* s, Device,
               size_t k) { return c.from_host(c.user_data, d, to_bp_device(dd), s, k); },
            "copy from host", dst, dst_device, src, src_device, n);
}

void copy_within_device(void* dst, Device dst_device, const void* src, Device src_device,
                        size_t n) {
  functions_of(dst_device.type)
      .copy(
          [](const bp_copy_fns& c, void* d, Device dd, const void* s, Device sd, size_t k) {
            return c.within_device(c.user_data, d, to_bp_device(dd), s, to_bp_device(sd), k);
          },
          "copy within device", dst, dst_device, src, src_device, n);
}

struct BackendState {
  uint64_t id = 0;
  std::string name;
  std::string label;
  std::string plugin_name;
  uint64_t plugin_id = 0;
  DeviceType device_type = DeviceType::kCPU;
  DispatchKey key = DispatchKey::kUndefined;
  int32_t device_count = 1;
  bool builtin_cuda = false;
  std::shared_ptr<DeviceFunctions> functions;
  std::map<uint64_t, KernelRegistration> registrations;
  RegistrationHandle group_runner;  // bp_fusion_fns.run_group, when the backend has one
};

// A registration of no backend (add_unowned_registration), with its plugin (0: none).
struct Registry {
  std::mutex mutex;
  std::map<uint64_t, std::unique_ptr<BackendState>> backends;
  std::map<uint64_t, uint64_t> registration_owner;  // registration id -> backend id
  // Registrations of no backend: id -> (the plugin loading when it was made, or 0; it).
  std::map<uint64_t, std::pair<uint64_t, KernelRegistration>> unowned;
  uint64_t next_id = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: memory may be freed during exit
  return *r;
}

uint64_t id_of(const void* handle) { return reinterpret_cast<uintptr_t>(handle); }
template <typename T>
T* handle_for(uint64_t id) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(id));
}

BackendState& find_locked(Registry& r, const bp_backend* handle, const char* function) {
  require(handle, function, "backend");
  auto it = r.backends.find(id_of(handle));
  BP_CHECK(it != r.backends.end(), "bp_api.", function,
           ": unknown backend handle (it was unregistered, or never registered)");
  return *it->second;
}

BackendState* find_by_type_locked(Registry& r, DeviceType type) {
  for (auto& [id, state] : r.backends) {
    if (state->device_type == type) return state.get();
  }
  return nullptr;
}

// Unregisters `state` from the dispatcher and the device tables; returns what must be released
// outside the lock (its functions may run the plugin's on_released and unload its library).
std::shared_ptr<DeviceFunctions> teardown_locked(Registry& r, BackendState& state) {
  for (auto& [id, reg] : state.registrations) r.registration_owner.erase(id);
  state.registrations.clear();
  state.group_runner.reset();  // undoes each dispatcher registration, then frees its state
  const int code = static_cast<int>(state.device_type);
  device_functions[code].store(nullptr, std::memory_order_release);
  set_device_copy_fns(state.device_type, DeviceCopyFns{});
  set_allocator(state.device_type, nullptr);
  if (!state.builtin_cuda) unregister_backend(state.name);
  return std::move(state.functions);
}

std::string plugin_name_of(const PluginScope* scope) {
  if (scope == nullptr || scope->desc == nullptr || scope->desc->name == nullptr) return "";
  return scope->desc->name;
}

// ---- ABI functions -------------------------------------------------------------------------

bp_error* backend_register(const bp_backend_desc* in, bp_backend** out) {
  return guarded([&] {
    require(in, "backend_register", "desc");
    require(out, "backend_register", "out");
    const bp_backend_desc desc = read_struct(in, "bp_backend_desc");
    BP_CHECK(desc.name != nullptr, "bp_backend_desc.name is required");
    BP_CHECK(desc.allocator != nullptr, "bp_backend_desc.allocator is required");
    BP_CHECK(desc.copies != nullptr, "bp_backend_desc.copies is required");
    BP_CHECK(desc.device_count >= 0, "bp_backend_desc.device_count is ", desc.device_count);
    const bp_allocator allocator = read_struct(desc.allocator, "bp_allocator");
    const bp_copy_fns copies = read_struct(desc.copies, "bp_copy_fns");
    bp_stream_fns streams{};
    if (desc.streams != nullptr) {
      streams = read_struct(desc.streams, "bp_stream_fns");
      BP_CHECK(streams.create != nullptr && streams.destroy != nullptr &&
                   streams.synchronize != nullptr && streams.wait != nullptr,
               "bp_stream_fns.create, destroy, synchronize and wait are required");
    }
    bp_fusion_fns fusion{};
    if (desc.fusion != nullptr) {
      fusion = read_struct(desc.fusion, "bp_fusion_fns");
      BP_CHECK(fusion.run_group != nullptr, "bp_fusion_fns.run_group is required");
    }
    BP_CHECK(allocator.allocate != nullptr && allocator.deallocate != nullptr,
             "bp_allocator.allocate and bp_allocator.deallocate are required");
    BP_CHECK(
        copies.to_host != nullptr && copies.from_host != nullptr && copies.within_device != nullptr,
        "bp_copy_fns.to_host, from_host and within_device are required");
    BP_CHECK(allocator.alignment == 0 || (allocator.alignment & (allocator.alignment - 1)) == 0,
             "bp_allocator.alignment must be a power of two, got ", allocator.alignment);

    const PluginScope* scope = tls_loading_plugin;
    auto state = std::make_unique<BackendState>();
    state->name = desc.name;
    state->plugin_name = plugin_name_of(scope);
    state->plugin_id = scope != nullptr ? scope->plugin_id : 0;
    state->label = state->plugin_name.empty() || state->plugin_name == state->name
                       ? state->name
                       : state->name + " (plugin " + state->plugin_name + ")";
    state->device_count = desc.device_count == 0 ? 1 : desc.device_count;

    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (state->name == "cuda") {
      for (const auto& [id, other] : r.backends) {
        BP_CHECK(!other->builtin_cuda, "backend 'cuda' is already registered");
      }
      state->builtin_cuda = true;
      state->device_type = DeviceType::kCUDA;
      state->key = DispatchKey::kCUDA;
    } else {
      const Backend backend = register_backend(state->name);
      state->device_type = backend.device_type;
      state->key = backend.key;
    }
    try {
      state->functions = std::make_shared<DeviceFunctions>(
          state->device_type, state->label, allocator, copies, streams, desc,
          scope != nullptr ? scope->library : nullptr);
      device_functions[static_cast<int>(state->device_type)].store(state->functions.get(),
                                                                   std::memory_order_release);
      set_allocator(state->device_type, state->functions.get());
      set_device_copy_fns(state->device_type,
                          DeviceCopyFns{&copy_to_host, &copy_from_host, &copy_within_device});
      if (fusion.run_group != nullptr) {
        state->group_runner = fusion::register_group_runner(
            state->device_type, [fusion, label = state->label](std::string_view group_json,
                                                               absl::Span<const Tensor> buffers) {
              std::vector<bp_tensor*> handles;
              handles.reserve(buffers.size());
              for (const Tensor& t : buffers) handles.push_back(handle_of(t));
              const std::string text(group_json);
              bool accepted = false;
              if (bp_error* err = fusion.run_group(fusion.user_data, text.c_str(), handles.data(),
                                                   handles.size(), &accepted)) {
                throw_backend_error(err, label, "run_group (a fused group)");
              }
              return accepted;
            });
      }
    } catch (...) {
      teardown_locked(r, *state);
      throw;
    }
    state->id = r.next_id++;
    *out = handle_for<bp_backend>(state->id);
    r.backends.emplace(state->id, std::move(state));
  });
}

bp_error* backend_unregister(bp_backend* backend) {
  std::shared_ptr<DeviceFunctions> released;
  bp_error* error = guarded([&] {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    BackendState& state = find_locked(r, backend, "backend_unregister");
    released = teardown_locked(r, state);
    r.backends.erase(state.id);
  });
  released.reset();  // outside the lock: may run on_released and unload the plugin
  return error;
}

bp_error* backend_device_type(const bp_backend* backend, int32_t* out) {
  return guarded([&] {
    require(out, "backend_device_type", "out");
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    *out = static_cast<int32_t>(find_locked(r, backend, "backend_device_type").device_type);
  });
}

bp_error* backend_list(void (*visit)(void*, const bp_backend_info*), void* user_data) {
  return guarded([&] {
    require(reinterpret_cast<const void*>(visit), "backend_list", "visit");
    struct Entry {
      std::string name, key, plugin;
      int32_t type, count;
      DispatchKey sort_key;
    };
    std::vector<Entry> entries;
    {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mutex);
      for (const auto& [id, s] : r.backends) {
        entries.push_back({s->name, std::string(dispatch_key_name(s->key)), s->plugin_name,
                           static_cast<int32_t>(s->device_type), s->device_count, s->key});
      }
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.sort_key < b.sort_key; });
    for (const Entry& e : entries) {
      bp_backend_info info{sizeof info, e.name.c_str(), e.type,
                           e.count,     e.key.c_str(),  e.plugin.c_str()};
      visit(user_data, &info);
    }
  });
}

bp_error* device_synchronize(bp_device in) {
  return guarded([&] {
    const Device device = to_device(in);
    synchronize_device(device);
  });
}

}  // namespace

LoadingPluginGuard::LoadingPluginGuard(const PluginScope* scope) : previous_(tls_loading_plugin) {
  tls_loading_plugin = scope;
}

LoadingPluginGuard::~LoadingPluginGuard() { tls_loading_plugin = previous_; }

void unregister_plugin_backends(uint64_t plugin_id) noexcept {
  std::vector<std::shared_ptr<DeviceFunctions>> released;
  std::vector<KernelRegistration> undone;  // newest first
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto it = r.unowned.rbegin(); it != r.unowned.rend(); ++it) {
      if (it->second.first == plugin_id) undone.push_back(std::move(it->second.second));
    }
    std::erase_if(r.unowned, [&](const auto& entry) { return entry.second.first == plugin_id; });
    for (auto it = r.backends.begin(); it != r.backends.end();) {
      if (it->second->plugin_id == plugin_id) {
        try {
          released.push_back(teardown_locked(r, *it->second));
        } catch (...) {
          // The device tables cannot refuse a valid backend's own type; nothing to report to.
        }
        it = r.backends.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Outside the lock: undoing a wrapper key's registration destroys its kernels' registrations.
  for (KernelRegistration& registration : undone) registration.handle.reset();
  released.clear();  // outside the lock
}

std::string loading_plugin_name() { return plugin_name_of(tls_loading_plugin); }

bp_registration* add_registration(
    bp_backend* backend, const char* function,
    absl::FunctionRef<KernelRegistration(DispatchKey key, const std::string& label)> make) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  BackendState& state = find_locked(r, backend, function);
  KernelRegistration registration = make(state.key, state.label);
  const uint64_t id = r.next_id++;
  state.registrations.emplace(id, std::move(registration));
  r.registration_owner.emplace(id, state.id);
  return handle_for<bp_registration>(id);
}

bp_registration* add_unowned_registration(
    absl::FunctionRef<KernelRegistration(bp_registration* handle)> make) {
  Registry& r = registry();
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    id = r.next_id++;
  }
  // Made outside the lock: registering with the dispatcher may take a while, and the wrapper
  // keys' registrations call back into this registry.
  KernelRegistration registration = make(handle_for<bp_registration>(id));
  const uint64_t plugin_id = tls_loading_plugin != nullptr ? tls_loading_plugin->plugin_id : 0;
  std::lock_guard<std::mutex> lock(r.mutex);
  r.unowned.emplace(id, std::pair{plugin_id, std::move(registration)});
  return handle_for<bp_registration>(id);
}

bool is_unowned_registration(const bp_registration* handle) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.unowned.contains(id_of(handle));
}

void destroy_registration(bp_registration* handle) noexcept {
  if (handle == nullptr) return;
  KernelRegistration undone;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (auto it = r.unowned.find(id_of(handle)); it != r.unowned.end()) {
      undone = std::move(it->second.second);
      r.unowned.erase(it);
    } else if (auto owner = r.registration_owner.find(id_of(handle));
               owner != r.registration_owner.end()) {
      BackendState& state = *r.backends.at(owner->second);
      auto it = state.registrations.find(owner->first);
      undone = std::move(it->second);
      state.registrations.erase(it);
      r.registration_owner.erase(owner);
    } else {
      return;
    }
  }
  undone.handle.reset();
}

CurrentDeviceGuard::CurrentDeviceGuard(std::optional<Device> device) {
  if (!device || !is_backend_device(*device)) return;
  active_ = true;
  previous_ = tls_current_device;
  const bool had = tls_has_current_device;
  tls_current_device = *device;
  tls_has_current_device = true;
  if (!had) previous_ = Device(DeviceType::kMeta);  // marks "nothing was set"
}

CurrentDeviceGuard::~CurrentDeviceGuard() {
  if (!active_) return;
  tls_has_current_device = !previous_.is_meta();
  tls_current_device = previous_;
}

std::optional<Device> device_of_arguments(absl::Span<const Value> args) {
  for (const Value& v : args) {
    if (!v.is_tensor()) continue;
    const Tensor& t = v.ref<Tensor>();
    if (t.defined() && is_backend_device(t.device())) return t.device();
  }
  return std::nullopt;
}

void check_device_exists(Device device) {
  if (!is_backend_device(device)) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const BackendState* state = find_by_type_locked(r, device.type);
  BP_CHECK(state != nullptr, "no backend is registered for device type '", device.type, "'");
  BP_CHECK(device.index < state->device_count, "device index ", device.index,
           " is out of range for backend '", state->name, "' (device_count ", state->device_count,
           ")");
}

DeviceIndex current_device_index(DeviceType type) { return current_index(type); }

void synchronize_device(Device device) {
  if (!is_backend_device(device)) return;
  check_device_exists(device);
  functions_of(device.type).synchronize(device);
}

BackendStreams backend_streams(Device device) {
  check_device_exists(device);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const BackendState* state = find_by_type_locked(r, device.type);
  BP_CHECK(state != nullptr, "no backend is registered for device type '", device.type, "'");
  BackendStreams out;
  out.name = state->name;
  out.label = state->label;
  out.fns = state->functions->streams();
  out.has_streams = out.fns.create != nullptr;
  out.owner = state->functions;
  return out;
}

bool is_registered_backend(DeviceType type, const void* owner) {
  return device_functions[static_cast<int>(type)].load(std::memory_order_acquire) == owner;
}

void install_backend_functions(bp_api& api) {
  api.backend_register = &backend_register;
  api.backend_unregister = &backend_unregister;
  api.backend_device_type = &backend_device_type;
  api.backend_list = &backend_list;
  api.device_synchronize = &device_synchronize;
}

}  // namespace bp::c_api
