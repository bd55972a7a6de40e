#include "conformance/runner/transfer_counters.h"

#include <array>
#include <atomic>

#include "sdk/core/allocator.h"

namespace bp::conformance {
namespace {

// Copy functions are plain function pointers: the wrapped functions and the counters live in
// tables by device type code.
struct Counted {
  DeviceCopyFns inner;
  bool active = false;
  std::atomic<int64_t> to_device{0};
  std::atomic<int64_t> to_host{0};
};
std::array<Counted, kDeviceTypeCodeLimit> counted;

Counted& of(Device d) { return counted[static_cast<size_t>(d.type)]; }

void to_host(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  Counted& c = of(src_device);
  c.inner.copy_to_host(dst, dst_device, src, src_device, nbytes);
  c.to_host += static_cast<int64_t>(nbytes);
}

void from_host(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  Counted& c = of(dst_device);
  c.inner.copy_from_host(dst, dst_device, src, src_device, nbytes);
  c.to_device += static_cast<int64_t>(nbytes);
}

void within_device(void* dst, Device dst_device, const void* src, Device src_device,
                   size_t nbytes) {
  of(dst_device).inner.copy_within_device(dst, dst_device, src, src_device, nbytes);
}

}  // namespace

void count_transfers(DeviceType type) {
  Counted& c = of(Device(type));
  if (!c.active) c.inner = device_copy_fns(type);
  // A missing function stays missing, so copy_bytes still names it.
  set_device_copy_fns(type, DeviceCopyFns{c.inner.copy_to_host ? &to_host : nullptr,
                                          c.inner.copy_from_host ? &from_host : nullptr,
                                          c.inner.copy_within_device ? &within_device : nullptr});
  c.active = true;
  c.to_device = 0;
  c.to_host = 0;
}

void stop_counting_transfers(DeviceType type) {
  Counted& c = of(Device(type));
  if (!c.active) return;
  set_device_copy_fns(type, c.inner);
  c.active = false;
}

Transfers transfers_of(DeviceType type) {
  const Counted& c = of(Device(type));
  return Transfers{c.to_device.load(), c.to_host.load()};
}

DeviceCopyFns uncounted_copy_fns(DeviceType type) {
  const Counted& c = of(Device(type));
  return c.active ? c.inner : device_copy_fns(type);
}

}  // namespace bp::conformance
