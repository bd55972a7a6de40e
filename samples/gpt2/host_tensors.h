// Moving float32 data between host buffers and Backplane tensors on any device.
//
//   bp::Tensor w = tensor_from_host(values, {3, 4}, device);   // a copy, on `device`
//   std::vector<float> back = floats_of(w);                    // row-major, any strides
//   int64_t token = int64_of(bp::argmax(logits_row));          // a 0-d int64 tensor's value
//
// Thread safety: any thread.
#ifndef BACKPLANE_SAMPLES_GPT2_HOST_TENSORS_H_
#define BACKPLANE_SAMPLES_GPT2_HOST_TENSORS_H_

#include <cstdint>
#include <vector>

#include "sdk/core/device.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor.h"

namespace gpt2 {

// A contiguous float32 tensor of `sizes` on `device` holding `values` (their count must be the
// product of `sizes`; std::invalid_argument otherwise).
bp::Tensor tensor_from_host(const std::vector<float>& values, bp::IntArrayRef sizes,
                            bp::Device device);

// A float32 tensor's elements in row-major order, copied to the host.
std::vector<float> floats_of(const bp::Tensor& t);

// The value of a one-element int64 tensor.
int64_t int64_of(const bp::Tensor& t);

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_HOST_TENSORS_H_
