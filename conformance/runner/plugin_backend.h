// PluginBackend: a backend on a plugin device (its own device type and dispatch key, as
// register_backend hands out), whose memory is host memory behind counting copy functions, so
// the report can say how many bytes an op moved between host and device.
//
//   PluginBackend b("mydev", "a test backend");
//   b.library().impl("add.out", b.key(), KernelFunction::make_from_boxed(&my_add_out));
//   b.library().fallback(b.key(), KernelFunction::make_from_boxed(&cpu_fallback), "cpu_fallback");
//
// In-process test backends (conformance/testing) use it directly; C-ABI plugins loaded from a
// shared library are LoadedPluginBackend (loaded_plugin_backend.h), counted the same way.
//
// Thread safety: construction and destruction on one thread; the counters are atomic.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_PLUGIN_BACKEND_H_
#define BACKPLANE_CONFORMANCE_RUNNER_PLUGIN_BACKEND_H_

#include <memory>
#include <string>

#include "conformance/runner/backend.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/dispatch/library.h"

namespace bp::conformance {

class PluginBackend final : public Backend {
 public:
  // Registers the backend `name` (a device type and a dispatch key), its host-memory allocator
  // and counting copy functions. Errors: those of register_backend (name taken, no free key).
  PluginBackend(std::string name, std::string description);
  // Unregisters the kernels (the library), then the backend.
  ~PluginBackend() override;
  PluginBackend(const PluginBackend&) = delete;
  PluginBackend& operator=(const PluginBackend&) = delete;

  std::string name() const override { return backend_.name; }
  std::string description() const override { return description_; }
  Device device() const override { return Device(backend_.device_type, 0); }
  DispatchKey key() const override { return backend_.key; }
  Transfers transfers() const override;

  // Registrations of the backend's kernels; they go away with the backend.
  Library& library() { return *library_; }

 private:
  struct HostMemory;

  bp::Backend backend_;  // the registry's record: name, device type, key
  std::string description_;
  std::unique_ptr<HostMemory> memory_;
  std::unique_ptr<Library> library_;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_PLUGIN_BACKEND_H_
