// The checks of layer_norm / native_layer_norm and the shape of their work, shared by the
// composite (sdk/ops/native/layer_norm.cc) and the CPU backend's fused kernel: PyTorch 1.13's
// _check_layer_norm_inputs, in its order and with its messages, then its CPU kernel's dtypes
// (float32, float64, bfloat16; others are NotImplementedError).
//
//   const LayerNormShape s = check_layer_norm(x, {768}, weight, bias);   // x: [2, 128, 768]
//   // s.rows == 256, s.cols == 768, s.stat_sizes == {2, 128, 1}
//
// Thread safety: pure.
#ifndef BACKPLANE_SDK_STRUCTURED_LAYER_NORM_META_H_
#define BACKPLANE_SDK_STRUCTURED_LAYER_NORM_META_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::meta {

// Each normalised block is one row of a [rows, cols] view of the input.
struct LayerNormShape {
  int64_t rows = 1;
  int64_t cols = 1;
  // The shape of the mean and rstd outputs: the input's leading dims, then a 1 per normalised dim.
  std::vector<int64_t> stat_sizes;
  // The dtype the kernel computes in: float32 for bfloat16, else the input's.
  ScalarType compute = ScalarType::kFloat32;
};

// Throws bp::Error (kNotImplemented for an unsupported dtype) naming what is wrong; weight and
// bias may be absent.
LayerNormShape check_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                const std::optional<Tensor>& weight,
                                const std::optional<Tensor>& bias);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_LAYER_NORM_META_H_
