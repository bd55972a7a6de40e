#include "conformance/runner/plugin_backend.h"

#include <cstdlib>
#include <cstring>

#include "sdk/core/allocator.h"

namespace bp::conformance {
namespace {

void free_block(void* p) { std::free(p); }

// The device's memory is host memory: every copy is a memcpy (counted by transfer_counters).
void copy_memory(void* dst, Device, const void* src, Device, size_t nbytes) {
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
  set_device_copy_fns(backend_.device_type,
                      DeviceCopyFns{&copy_memory, &copy_memory, &copy_memory});
  count_transfers(backend_.device_type);
  library_ = std::make_unique<Library>("bp");
}

PluginBackend::~PluginBackend() {
  library_.reset();
  stop_counting_transfers(backend_.device_type);
  set_device_copy_fns(backend_.device_type, DeviceCopyFns{});
  set_allocator(backend_.device_type, nullptr);
  unregister_backend(backend_.name);
}

Transfers PluginBackend::transfers() const { return transfers_of(backend_.device_type); }

}  // namespace bp::conformance
