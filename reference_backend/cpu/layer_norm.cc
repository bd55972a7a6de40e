// native_layer_norm on the CPU, fused: per row, one pass for the mean, one for the mean square
// of the deviations, one writing (x - mean) * rstd * weight + bias. The composite every other
// device gets (sdk/ops/native/layer_norm.cc) makes six passes over the data with four temporary
// tensors. The arithmetic is the composite's, in the compute type (float32 for bfloat16, which
// is rounded once at the end), so the two agree to rounding.
#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include "reference_backend/cpu/cpu_kernels.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"
#include "sdk/structured/layer_norm_meta.h"

namespace bp::cpu {
namespace {

// The contiguous elements of an optional weight or bias in the compute type, or null.
Tensor affine_operand(const std::optional<Tensor>& t, ScalarType compute) {
  if (!t || !t->defined()) return Tensor();
  return t->to(compute).contiguous();
}

template <typename T>
const T* data_or_null(const Tensor& t) {
  return t.defined() ? static_cast<const T*>(t.data_ptr()) : nullptr;
}

// out[r] = (x[r] - mean[r]) * rstd[r] * weight + bias for the rows of a contiguous [rows, cols] x.
template <typename T>
void normalise_rows(const Tensor& x, const Tensor& weight, const Tensor& bias, T eps,
                    const Tensor& out, const Tensor& mean, const Tensor& rstd) {
  const int64_t rows = x.size(0), cols = x.size(1);
  const T* const xs = static_cast<const T*>(x.data_ptr());
  const T* const w = data_or_null<T>(weight);
  const T* const b = data_or_null<T>(bias);
  T* const ys = static_cast<T*>(out.data_ptr());
  T* const means = static_cast<T*>(mean.data_ptr());
  T* const rstds = static_cast<T*>(rstd.data_ptr());
  // About 32K elements per task, whole rows.
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, cols));
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      using Vec = Vectorized<T, width>;
      constexpr int64_t n = Vec::size();
      for (int64_t r = begin; r < end; ++r) {
        const T* const xr = xs + r * cols;
        T* const yr = ys + r * cols;
        // Two accumulators hide the adds' latency; the tail's missing lanes load as 0.
        Vec s0(T(0)), s1(T(0));
        int64_t i = 0;
        for (; i + 2 * n <= cols; i += 2 * n) {
          s0 = s0 + Vec::loadu(xr + i);
          s1 = s1 + Vec::loadu(xr + i + n);
        }
        for (; i + n <= cols; i += n) s0 = s0 + Vec::loadu(xr + i);
        if (i < cols) s1 = s1 + Vec::loadu(xr + i, cols - i);
        const T m = reduce_add(s0 + s1) / static_cast<T>(cols);
        const Vec mv(m);
        Vec q0(T(0)), q1(T(0));
        for (i = 0; i + 2 * n <= cols; i += 2 * n) {
          const Vec d0 = Vec::loadu(xr + i) - mv, d1 = Vec::loadu(xr + i + n) - mv;
          q0 = q0 + d0 * d0;
          q1 = q1 + d1 * d1;
        }
        for (; i + n <= cols; i += n) {
          const Vec d = Vec::loadu(xr + i) - mv;
          q0 = q0 + d * d;
        }
        T square_sum = reduce_add(q0 + q1);
        for (; i < cols; ++i) square_sum += (xr[i] - m) * (xr[i] - m);
        const T rs = T(1) / std::sqrt(square_sum / static_cast<T>(cols) + eps);
        means[r] = m;
        rstds[r] = rs;
        const Vec rv(rs);
        // The weight and bias are each present or not: four loops, no test per element.
        const auto write = [&](auto with_weight, auto with_bias) __attribute__((always_inline)) {
          const auto one = [&](Vec y, int64_t at) __attribute__((always_inline)) {
            if constexpr (decltype(with_weight)::value) y = y * Vec::loadu(w + at);
            if constexpr (decltype(with_bias)::value) y = y + Vec::loadu(b + at);
            return y;
          };
          int64_t j = 0;
          for (; j + n <= cols; j += n) one((Vec::loadu(xr + j) - mv) * rv, j).store(yr + j);
          for (; j < cols; ++j) {
            T y = (xr[j] - m) * rs;
            if constexpr (decltype(with_weight)::value) y = y * w[j];
            if constexpr (decltype(with_bias)::value) y = y + b[j];
            yr[j] = y;
          }
        };
        using Yes = std::true_type;
        using No = std::false_type;
        if (w != nullptr && b != nullptr) {
          write(Yes(), Yes());
        } else if (w != nullptr) {
          write(Yes(), No());
        } else if (b != nullptr) {
          write(No(), Yes());
        } else {
          write(No(), No());
        }
      }
    });
  });
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     double eps) {
  const meta::LayerNormShape shape = meta::check_layer_norm(input, normalized_shape, weight, bias);
  const ScalarType dtype = input.dtype(), compute = shape.compute;
  const Tensor x = input.to(compute).contiguous().view({shape.rows, shape.cols});
  const Tensor w = affine_operand(weight, compute), b = affine_operand(bias, compute);
  const Device cpu = input.device();
  Tensor out = bp::empty({shape.rows, shape.cols}, compute, cpu);
  Tensor mean = bp::empty({shape.rows}, compute, cpu);
  Tensor rstd = bp::empty({shape.rows}, compute, cpu);
  if (compute == ScalarType::kFloat64) {
    normalise_rows<double>(x, w, b, eps, out, mean, rstd);
  } else {
    normalise_rows<float>(x, w, b, static_cast<float>(eps), out, mean, rstd);
  }
  return {out.to(dtype).view(input.sizes()), mean.to(dtype).view(shape.stat_sizes),
          rstd.to(dtype).view(shape.stat_sizes)};
}

}  // namespace bp::cpu
