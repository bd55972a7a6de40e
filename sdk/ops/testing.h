// Helpers for tests of ops (testonly): tensors from values, values from tensors on any device,
// and the message of an expected error.
//
//   Tensor t = tensor_of<float>({2, 2}, {1, 2, 3, 4});     // CPU float32
//   Tensor i = tensor_of<int64_t>({3}, {1, 2, 3}, dev);    // on any device with copy functions
//   values_of<float>(transpose(t, 0, 1));                   // {1, 3, 2, 4}: row-major, any strides
//   message_of([&] { view(t, {3}); });                      // "shape '[3]' is invalid for ..."
#ifndef BACKPLANE_SDK_OPS_TESTING_H_
#define BACKPLANE_SDK_OPS_TESTING_H_

#include <functional>
#include <string>
#include <vector>

#include "sdk/core/error.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor.h"
#include "sdk/ops/ops.h"

namespace bp::testing {

inline const Device kCpu(DeviceType::kCPU);
inline const Device kMeta(DeviceType::kMeta);

// A contiguous tensor of element type T holding `values` (row-major), on `device`.
template <typename T>
Tensor tensor_of(IntArrayRef sizes, const std::vector<T>& values, Device device = kCpu) {
  Tensor host = bp::empty(sizes, scalar_type_of<T>, kCpu);
  BP_CHECK(static_cast<size_t>(host.numel()) == values.size(), "tensor_of: ", values.size(),
           " values for sizes ", int_list_string(sizes));
  T* data = host.data_ptr<T>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];  // Also std::vector<bool>.
  return device.is_cpu() ? host : host.to(device, host.dtype());
}

// The elements of `t` (element type T, any strides, any device with data) in row-major order.
template <typename T>
std::vector<T> values_of(const Tensor& t) {
  const Tensor host = t.to(kCpu, t.dtype()).contiguous();
  const T* p = host.data_ptr<T>();
  return std::vector<T>(p, p + host.numel());
}

// The sizes / strides of `t` as a vector (for EXPECT_EQ and gmock matchers).
inline std::vector<int64_t> sizes_of(const Tensor& t) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}
inline std::vector<int64_t> strides_of(const Tensor& t) {
  return std::vector<int64_t>(t.strides().begin(), t.strides().end());
}

// The error `f` raises, or an Error of code kInternal saying "(no error)".
inline Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorCode::kInternal, "(no error)");
}

// error_of(f).message().
inline std::string message_of(const std::function<void()>& f) { return error_of(f).message(); }

}  // namespace bp::testing

#endif  // BACKPLANE_SDK_OPS_TESTING_H_
