#include "conformance/runner/plugin_backend.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "sdk/core/allocator.h"

namespace bp::conformance {
namespace {

// Copy functions are plain function pointers: the counters live in a table by device type.
struct Counters {
  std::atomic<int64_t> to_device{0};
  std::atomic<int64_t> to_host{0};
};
std::array<Counters, kDeviceTypeCodeLimit> counters;

Counters& counters_of(Device d) { return counters[static_cast<size_t>(d.type)]; }

void free_block(void* p) { std::free(p); }

void to_host(void* dst, Device, const void* src, Device src_device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
  counters_of(src_device).to_host += static_cast<int64_t>(nbytes);
}

void from_host(void* dst, Device dst_device, const void* src, Device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
  counters_of(dst_device).to_device += static_cast<int64_t>(nbytes);
}

void within_device(void* dst, Device, const void* src, Device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
}

}  // namespace

// Host memory handed out as the plugin device's.
struct PluginBackend::HostMemory final : Allocator {
  explicit HostMemory(Device d) : device(d) {}
  DataPtr allocate(size_t nbytes) override {
    void* p = std::aligned_alloc(64, ((nbytes == 0 ? 1 : nbytes) + 63) / 64 * 64);
    return DataPtr(p, p, &free_block, device);
  }
  size_t alignment() const override { return 64; }
  Device device;
};

PluginBackend::PluginBackend(std::string name, std::string description)
    : backend_(register_backend(name)), description_(std::move(description)) {
  memory_ = std::make_unique<HostMemory>(device());
  set_allocator(backend_.device_type, memory_.get());
  set_device_copy_fns(backend_.device_type, DeviceCopyFns{&to_host, &from_host, &within_device});
  library_ = std::make_unique<Library>("bp");
}

PluginBackend::~PluginBackend() {
  library_.reset();
  set_device_copy_fns(backend_.device_type, DeviceCopyFns{});
  set_allocator(backend_.device_type, nullptr);
  unregister_backend(backend_.name);
}

Transfers PluginBackend::transfers() const {
  const Counters& c = counters_of(device());
  return Transfers{c.to_device.load(), c.to_host.load()};
}

}  // namespace bp::conformance
