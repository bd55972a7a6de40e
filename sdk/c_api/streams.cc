#include "sdk/c_api/streams.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "sdk/c_api/backends.h"
#include "sdk/c_api/convert.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"

namespace bp::c_api {
namespace {

// One stream: a created one (native handle, its backend's hooks kept alive) or a device's
// default stream (no hooks kept: looked up at each call, the backend may change).
struct StreamRecord {
  Device device;
  bool is_default = false;
  void* native = nullptr;  // the backend's handle; null for default, CPU and Meta streams
  BackendStreams backend;  // created backend streams only
};

using Record = std::shared_ptr<const StreamRecord>;
using DeviceKey = std::pair<int, int>;  // (type code, index)

struct Table {
  std::mutex mutex;
  std::map<uint64_t, Record> streams;
  std::map<DeviceKey, uint64_t> defaults;  // device -> its default stream's id
  uint64_t next_id = 1;
};

Table& table() {
  static Table* t = new Table();  // never destroyed: default streams live for the process
  return *t;
}

// This thread's current stream id per device (absent: the default stream).
thread_local std::map<DeviceKey, uint64_t> tls_current;

DeviceKey key_of(Device device) { return {static_cast<int>(device.type), device.index}; }

uint64_t id_of(const bp_stream* handle) { return reinterpret_cast<uintptr_t>(handle); }
bp_stream* handle_for(uint64_t id) {
  return reinterpret_cast<bp_stream*>(static_cast<uintptr_t>(id));
}

// `in` with the index a stream is kept under: -1 for CPU and Meta, the thread's current index
// for a backend's -1. Errors: an unknown device.
Device resolve(bp_device in) {
  Device device = to_device(in);
  if (!is_backend_device(device)) return Device(device.type);
  if (device.index == -1) device.index = current_device_index(device.type);
  check_device_exists(device);
  return device;
}

Record find(const bp_stream* handle, const char* function) {
  require(handle, function, "stream");
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.streams.find(id_of(handle));
  BP_CHECK(it != t.streams.end(), "bp_api.", function,
           ": unknown stream handle (it was destroyed, or never created)");
  return it->second;
}

uint64_t default_id(Device device) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto [it, added] = t.defaults.emplace(key_of(device), 0);
  if (added) {
    try {
      auto record = std::make_shared<StreamRecord>();
      record->device = device;
      record->is_default = true;
      it->second = t.next_id++;
      t.streams.emplace(it->second, std::move(record));
    } catch (...) {
      t.defaults.erase(it);
      throw;
    }
  }
  return it->second;
}

// The hooks that serve `record` for the length of a call: its own, or for a default stream those
// of the device's backend now (has_streams is false for CPU, Meta and backends without streams).
BackendStreams hooks_of(const StreamRecord& record) {
  if (!is_backend_device(record.device)) return BackendStreams{};
  if (!record.is_default) return record.backend;
  return backend_streams(record.device);
}

// Throws a hook's error as "[npu] stream <what>: <message>" with its code (NULL: nothing).
void hook_error(bp_error* err, const BackendStreams& b, const char* what) {
  if (err != nullptr) {
    throw_backend_error(err, b.label, detail::str_cat("stream ", what));
  }
}

void synchronize(const StreamRecord& record) {
  if (!is_backend_device(record.device)) return;
  const BackendStreams b = hooks_of(record);
  if (!b.has_streams) {
    synchronize_device(record.device);  // a default stream of a backend without streams
    return;
  }
  hook_error(b.fns.synchronize(b.fns.user_data, to_bp_device(record.device), record.native), b,
             "synchronize");
}

// ---- ABI functions -------------------------------------------------------------------------

bp_error* stream_create(bp_device in, bp_stream** out) {
  return guarded([&] {
    require(out, "stream_create", "out");
    const Device device = resolve(in);
    auto record = std::make_shared<StreamRecord>();
    record->device = device;
    if (is_backend_device(device)) {
      record->backend = backend_streams(device);
      const BackendStreams& b = record->backend;
      BP_CHECK_NOT_IMPLEMENTED(b.has_streams, "backend '", b.name,
                               "' has no streams (its bp_backend_desc.streams is NULL)");
      void* native = nullptr;
      hook_error(b.fns.create(b.fns.user_data, to_bp_device(device), &native), b, "create");
      if (native == nullptr) {
        throw_backend_error(make_error(BP_ERROR_INTERNAL, "create returned a NULL stream"), b.label,
                            "stream create");
      }
      record->native = native;
    }
    Table& t = table();
    try {
      std::lock_guard<std::mutex> lock(t.mutex);
      const uint64_t id = t.next_id++;
      t.streams.emplace(id, record);
      *out = handle_for(id);
    } catch (...) {
      if (record->native != nullptr) {
        const BackendStreams& b = record->backend;
        destroy_error(b.fns.destroy(b.fns.user_data, to_bp_device(device), record->native));
      }
      throw;
    }
  });
}

bp_error* stream_destroy(bp_stream* handle) {
  return guarded([&] {
    if (handle == nullptr) return;
    Record record;
    {
      Table& t = table();
      std::lock_guard<std::mutex> lock(t.mutex);
      auto it = t.streams.find(id_of(handle));
      BP_CHECK(it != t.streams.end(),
               "bp_api.stream_destroy: unknown stream handle (it was destroyed, or never "
               "created)");
      if (it->second->is_default) return;  // default streams live for the process
      record = std::move(it->second);
      t.streams.erase(it);
    }
    if (record->native == nullptr) return;  // CPU and Meta streams
    const BackendStreams& b = record->backend;
    const bp_device device = to_bp_device(record->device);
    bp_error* sync_error = b.fns.synchronize(b.fns.user_data, device, record->native);
    bp_error* destroy_error_object = b.fns.destroy(b.fns.user_data, device, record->native);
    if (sync_error != nullptr) {
      destroy_error(destroy_error_object);
      hook_error(sync_error, b, "synchronize");
    }
    hook_error(destroy_error_object, b, "destroy");
    // `record` goes last: it may be what keeps the plugin loaded (on_released may run here).
  });
}

// This thread's current stream of `device` (resolved): the one set, while it lives and its
// backend is still registered (the device type may have been reused since), else the default.
uint64_t current_id(Device device) {
  auto it = tls_current.find(key_of(device));
  if (it != tls_current.end()) {
    Table& t = table();
    std::unique_lock<std::mutex> lock(t.mutex);
    auto found = t.streams.find(it->second);
    if (found != t.streams.end()) {
      const StreamRecord& record = *found->second;
      if (record.native == nullptr ||
          is_registered_backend(record.device.type, record.backend.owner.get())) {
        return it->second;
      }
    }
    lock.unlock();
    tls_current.erase(it);
  }
  return default_id(device);
}

bp_error* stream_current(bp_device in, bp_stream** out) {
  return guarded([&] {
    require(out, "stream_current", "out");
    *out = handle_for(current_id(resolve(in)));
  });
}

bp_error* stream_set_current(bp_stream* handle, bp_stream** previous) {
  return guarded([&] {
    const Record record = find(handle, "stream_set_current");
    if (record->native != nullptr) {
      BP_CHECK(is_registered_backend(record->device.type, record->backend.owner.get()),
               "bp_api.stream_set_current: the stream's backend '", record->backend.name,
               "' was unregistered");
    }
    if (previous != nullptr) *previous = handle_for(current_id(record->device));
    if (record->is_default) {
      tls_current.erase(key_of(record->device));
    } else {
      tls_current[key_of(record->device)] = id_of(handle);
    }
  });
}

bp_error* stream_synchronize(bp_stream* handle) {
  return guarded([&] { synchronize(*find(handle, "stream_synchronize")); });
}

bp_error* stream_wait(bp_stream* waiter_handle, bp_stream* waitee_handle) {
  return guarded([&] {
    const Record waiter = find(waiter_handle, "stream_wait");
    const Record waitee = find(waitee_handle, "stream_wait");
    BP_CHECK(waiter->device == waitee->device, "bp_api.stream_wait: the streams are on different ",
             "devices (", waiter->device, " waits for ", waitee->device, ")");
    if (waiter == waitee || !is_backend_device(waiter->device)) return;
    // Created streams carry their backend: both (and a default stream's backend) must be the
    // same registration.
    const StreamRecord* created = nullptr;
    for (const Record& r : {waiter, waitee}) {
      if (r->is_default) continue;
      BP_CHECK(created == nullptr || created->backend.owner == r->backend.owner,
               "bp_api.stream_wait: the streams belong to different registrations of the "
               "backend of ",
               r->device);
      created = r.get();
    }
    if (created != nullptr && (waiter->is_default || waitee->is_default)) {
      BP_CHECK(is_registered_backend(created->device.type, created->backend.owner.get()),
               "bp_api.stream_wait: the stream's backend '", created->backend.name,
               "' was unregistered");
    }
    const BackendStreams b = created != nullptr ? created->backend : hooks_of(*waiter);
    if (!b.has_streams) return;  // default streams of a backend without streams: one queue
    hook_error(
        b.fns.wait(b.fns.user_data, to_bp_device(waiter->device), waiter->native, waitee->native),
        b, "wait");
  });
}

bp_error* stream_query(bp_stream* handle, bool* idle) {
  return guarded([&] {
    require(idle, "stream_query", "idle");
    const Record record = find(handle, "stream_query");
    const BackendStreams b = hooks_of(*record);
    if (!b.has_streams || b.fns.query == nullptr) {
      synchronize(*record);
      *idle = true;
      return;
    }
    bool result = false;
    hook_error(b.fns.query(b.fns.user_data, to_bp_device(record->device), record->native, &result),
               b, "query");
    *idle = result;
  });
}

bp_error* stream_native(const bp_stream* handle, bp_device* device, void** native) {
  return guarded([&] {
    const Record record = find(handle, "stream_native");
    if (device != nullptr) *device = to_bp_device(record->device);
    if (native != nullptr) *native = record->native;
  });
}

}  // namespace

void install_stream_functions(bp_api& api) {
  api.stream_create = &stream_create;
  api.stream_destroy = &stream_destroy;
  api.stream_current = &stream_current;
  api.stream_set_current = &stream_set_current;
  api.stream_synchronize = &stream_synchronize;
  api.stream_wait = &stream_wait;
  api.stream_query = &stream_query;
  api.stream_native = &stream_native;
}

}  // namespace bp::c_api
