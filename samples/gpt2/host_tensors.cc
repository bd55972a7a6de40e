#include "samples/gpt2/host_tensors.h"

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "sdk/core/empty.h"
#include "sdk/ops/ops.h"

namespace gpt2 {
namespace {

const bp::Device kCpu(bp::DeviceType::kCPU);

// `t` as a contiguous CPU tensor (t itself when it already is one).
bp::Tensor contiguous_on_cpu(const bp::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous()) return t;
  return bp::_to_copy(t, std::nullopt, kCpu, false, bp::MemoryFormat::kContiguous);
}

}  // namespace

bp::Tensor tensor_from_host(const std::vector<float>& values, bp::IntArrayRef sizes,
                            bp::Device device) {
  if (static_cast<int64_t>(values.size()) != bp::multiply_integers(sizes)) {
    throw std::invalid_argument("tensor_from_host: " + std::to_string(values.size()) +
                                " values for sizes " + bp::int_list_string(sizes));
  }
  bp::Tensor host = bp::native::empty(sizes, bp::ScalarType::kFloat32, kCpu);
  std::memcpy(host.data_ptr(), values.data(), values.size() * sizeof(float));
  return device.is_cpu() ? host : bp::_to_copy(host, std::nullopt, device);
}

std::vector<float> floats_of(const bp::Tensor& t) {
  const bp::Tensor host = contiguous_on_cpu(t);
  const float* p = host.data_ptr<float>();
  return std::vector<float>(p, p + host.numel());
}

int64_t int64_of(const bp::Tensor& t) {
  if (t.numel() != 1) throw std::invalid_argument("int64_of: expected one element");
  return *contiguous_on_cpu(t).data_ptr<int64_t>();
}

}  // namespace gpt2
