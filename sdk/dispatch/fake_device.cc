#include "sdk/dispatch/fake_device.h"

#include <cstdlib>
#include <cstring>

#include "sdk/core/tensor_impl.h"

namespace bp {
namespace {

void free_context(void* ctx) { std::free(ctx); }

void host_copy(void* dst, Device, const void* src, Device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
}

}  // namespace

Tensor make_contiguous_tensor(std::vector<int64_t> sizes, ScalarType dtype, Allocator* allocator) {
  std::vector<int64_t> strides(sizes.size());
  int64_t numel = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = numel;
    numel *= sizes[i];
  }
  Storage storage = Storage::allocate(static_cast<size_t>(numel) * element_size(dtype), allocator);
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), dtype, IntArrayRef(sizes),
                                               IntArrayRef(strides), 0));
}

Tensor cpu_tensor(std::vector<int64_t> sizes, ScalarType dtype) {
  return make_contiguous_tensor(std::move(sizes), dtype, cpu_allocator());
}

DataPtr FakeDevice::HostAllocator::allocate(size_t nbytes) {
  count.fetch_add(1);
  void* p = std::malloc(nbytes == 0 ? 1 : nbytes);
  return DataPtr(p, p, &free_context, device);
}

FakeDevice::FakeDevice(std::string name) : backend_(register_backend(name)) {
  allocator_.device = device();
  set_allocator(type(), &allocator_);
  set_device_copy_fns(type(), DeviceCopyFns{&host_copy, &host_copy, &host_copy});
}

FakeDevice::~FakeDevice() { unregister_backend(backend_.name); }

Tensor FakeDevice::empty(std::vector<int64_t> sizes, ScalarType dtype) const {
  return make_contiguous_tensor(std::move(sizes), dtype, const_cast<HostAllocator*>(&allocator_));
}

Tensor FakeDevice::from_floats(std::vector<int64_t> sizes, const std::vector<float>& values) const {
  Tensor t = empty(std::move(sizes), ScalarType::kFloat32);
  BP_CHECK(static_cast<size_t>(t.numel()) == values.size(), "from_floats: size mismatch");
  if (!values.empty()) std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(float));
  return t;
}

std::vector<float> FakeDevice::to_floats(const Tensor& t) {
  BP_CHECK(t.is_contiguous() && t.dtype() == ScalarType::kFloat32,
           "to_floats: contiguous float32 only");
  std::vector<float> out(static_cast<size_t>(t.numel()));
  if (!out.empty()) std::memcpy(out.data(), t.data_ptr(), out.size() * sizeof(float));
  return out;
}

}  // namespace bp
