#include "reference_backend/cuda/abi.h"

#include <atomic>

namespace bp::cuda {
namespace {
std::atomic<const bp_api*> g_api{nullptr};
}  // namespace

const bp_api* api() { return g_api.load(std::memory_order_acquire); }
void set_api(const bp_api* a) { g_api.store(a, std::memory_order_release); }

TensorMeta meta_of(const bp_tensor* t) {
  bp_tensor_info info{};
  info.struct_size = sizeof info;
  check(api()->tensor_info(t, &info));
  TensorMeta m;
  m.sizes.assign(info.sizes, info.sizes + info.ndim);
  m.strides.assign(info.strides, info.strides + info.ndim);
  m.numel = info.numel;
  m.dtype = info.dtype;
  m.device = info.device;
  m.data = info.data;
  return m;
}

bool is_contiguous(const bp_tensor* t) {
  bool out = false;
  check(api()->tensor_is_contiguous(t, BP_MEMORY_FORMAT_CONTIGUOUS, &out));
  return out;
}

}  // namespace bp::cuda
