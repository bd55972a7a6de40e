#include "reference_backend/cuda/gpu_test_support.h"

#include <memory>

namespace bp::cuda {
namespace {

struct TestDevice {
  std::string why_not;
  std::unique_ptr<Driver> driver;
  std::unique_ptr<CudaDevice> device;
};

TestDevice& instance() {
  static TestDevice* d = [] {
    auto* t = new TestDevice();
    t->driver = Driver::load(&t->why_not);
    if (t->driver != nullptr) t->device = std::make_unique<CudaDevice>(*t->driver, 0, nullptr);
    return t;
  }();
  return *d;
}

}  // namespace

CudaDevice* test_device() { return instance().device.get(); }
const std::string& test_device_unavailable_reason() { return instance().why_not; }

}  // namespace bp::cuda
