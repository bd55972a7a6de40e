// Test helper: an in-process "device" backed by host memory, registered as a plugin backend with
// its own allocator and copy functions, so dispatcher tests can make tensors that live on a
// plugin device.
//
//   FakeDevice dev("fakedev");                 // register_backend + allocator + copy fns
//   Tensor t = dev.empty({2, 3}, ScalarType::kFloat32);
//   t.device().type == dev.type();           // dispatches to dev.key() (and Common)
//   dev.allocations();                         // how many buffers the allocator handed out
//
// Destruction unregisters the backend. Test-only (testonly = True).
#ifndef BACKPLANE_SDK_DISPATCH_FAKE_DEVICE_H_
#define BACKPLANE_SDK_DISPATCH_FAKE_DEVICE_H_

#include <atomic>
#include <string>
#include <vector>

#include "sdk/core/allocator.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/backend_registry.h"

namespace bp {

// A contiguous tensor of `sizes` whose storage comes from `allocator` (uninitialised).
Tensor make_contiguous_tensor(std::vector<int64_t> sizes, ScalarType dtype, Allocator* allocator);
// A contiguous CPU tensor.
Tensor cpu_tensor(std::vector<int64_t> sizes, ScalarType dtype = ScalarType::kFloat32);

class FakeDevice {
 public:
  explicit FakeDevice(std::string name);
  ~FakeDevice();
  FakeDevice(const FakeDevice&) = delete;
  FakeDevice& operator=(const FakeDevice&) = delete;

  DeviceType type() const { return backend_.device_type; }
  DispatchKey key() const { return backend_.key; }
  Device device() const { return Device(backend_.device_type, 0); }
  const std::string& name() const { return backend_.name; }

  Tensor empty(std::vector<int64_t> sizes, ScalarType dtype) const;
  // A tensor on this device holding `values` (float32).
  Tensor from_floats(std::vector<int64_t> sizes, const std::vector<float>& values) const;
  // The float32 contents of a contiguous tensor of this device, copied to the host.
  static std::vector<float> to_floats(const Tensor& t);

  int64_t allocations() const { return allocator_.count.load(); }

 private:
  struct HostAllocator : Allocator {
    DataPtr allocate(size_t nbytes) override;
    Device device;
    std::atomic<int64_t> count{0};
  };

  Backend backend_;
  HostAllocator allocator_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_FAKE_DEVICE_H_
