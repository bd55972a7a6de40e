// The CPU kernels of the op families that run along one dim and keep the input's shape, generic
// over their scalar math: the CPU kernel of every op declared with `scan:` or `normalize:`.
//
//   // Generated for cumsum.out (declared `scan: SumOps`, `dtypes: all`):
//   scan<math::SumOps, 0xFFFu>("cumsum", self, dim, call.output(0));
//   // Generated for softmax.int_out (declared `normalize: Softmax`, `dtypes: floating`):
//   normalize<math::Softmax, 0x1C0u>("softmax", self, dim, call.output(0));
//
// The input is first converted to the output's dtype S (PyTorch's `self.to(out.dtype())`); each
// line along `dim` then runs in order:
//   scan       a reduction's ops struct Ops<S> (math/reduction.h, math/scan.h) run as a running
//              reduction: acc = identity(), then for each element acc = reduce(acc, x[i], i) and
//              out[i] = S(project(acc)) (and indices[i] when project gives a ValueIndex), so the
//              accumulator is the reduction's (PyTorch's CPU acc_type: double for float32, ...);
//   normalize  math/normalization.h's two-pass statistic (max, then the sum of terms) and
//              pointwise apply, in the compute type (float for float16 / bfloat16).
// Lines run in parallel (TensorIterator over the other dims, with `dim` squashed).
//
// Errors: an output dtype outside kDtypes (kNotImplemented): "\"cumsum\" not implemented for
// 'bool'"; `dim` out of range (kIndexError, checked by the meta function first).
//
// Thread safety: lines run on several threads; the math must be pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_ALONG_DIM_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_ALONG_DIM_H_

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reference_backend/cpu/pointwise.h"
#include "reference_backend/math/math.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::cpu {

namespace along_dim_detail {

// Calls line(ptrs, n, steps) for every line along `dim` of `outputs` (one or two) and `in`, all of
// the same sizes: ptrs[k] points at the line's first element of operand k (the outputs, then the
// input), n is the line's length and steps[k] the byte stride along it. Lines run in parallel.
template <typename Line>
void for_each_line(const std::vector<Tensor>& outputs, const Tensor& in, int64_t dim,
                   const Line& line) {
  if (in.numel() == 0) return;
  const int64_t d = wrap_dim(dim, in.dim());
  const bool has_dims = in.dim() > 0;
  const int64_t n = has_dims ? in.sizes()[d] : 1;
  const size_t ntensors = outputs.size() + 1;
  int64_t steps[3] = {};
  TensorIteratorConfig config;
  for (size_t k = 0; k < outputs.size(); ++k) {
    config.add_output(outputs[k]);
    if (has_dims)
      steps[k] = outputs[k].strides()[d] * static_cast<int64_t>(element_size(outputs[k].dtype()));
  }
  if (has_dims)
    steps[outputs.size()] = in.strides()[d] * static_cast<int64_t>(element_size(in.dtype()));
  config.add_input(in)
      .check_all_same_dtype(false)
      .set_check_mem_overlap(false)  // in place: each element is read before it is written
      .resize_outputs(false);
  if (has_dims) {
    config.declare_static_shape(in.sizes(), IntArrayRef(&d, 1));
  } else {
    config.declare_static_shape(in.sizes());
  }
  TensorIterator iter = config.build();
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    char* ptrs[3];
    for (int64_t j = 0; j < n1; ++j) {
      for (int64_t i = 0; i < n0; ++i) {
        for (size_t k = 0; k < ntensors; ++k) {
          ptrs[k] = data[k] + i * strides[k] + j * strides[ntensors + k];
        }
        line(ptrs, n, steps);
      }
    }
  });
}

// `self` as `dtype` (itself when it has it).
Tensor input_as(const Tensor& self, ScalarType dtype);

template <typename T>
T& at(char* p, int64_t i, int64_t step) {
  return *reinterpret_cast<T*>(p + i * step);
}

}  // namespace along_dim_detail

// See the file comment. `indices`: the second output of scans whose ops project a
// math::ValueIndex (cummax); undefined otherwise.
template <template <typename> class Ops, uint32_t kDtypes>
void scan(std::string_view op_name, const Tensor& self, int64_t dim, const Tensor& out,
          const Tensor& indices = Tensor()) {
  using along_dim_detail::at;
  check_dtype_supported(out.dtype(), kDtypes, op_name);
  const Tensor in = along_dim_detail::input_as(self, out.dtype());
  std::vector<Tensor> outputs = {out};
  if (indices.defined()) outputs.push_back(indices);
  visit_dtype<kDtypes>(out.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using O = Ops<S>;
    using V = typename O::value_t;
    using R = decltype(O{}.project(O{}.identity()));
    constexpr bool kIndexed = math::is_value_index_v<R>;
    BP_INTERNAL_ASSERT(indices.defined() == kIndexed, op_name, ": a scan of ",
                       kIndexed ? "values and indices" : "values", " given ", outputs.size(),
                       " outputs");
    const int64_t x = static_cast<int64_t>(outputs.size());  // the input's operand index
    along_dim_detail::for_each_line(outputs, in, dim, [&](char** p, int64_t n, const int64_t* st) {
      const O ops{};
      auto acc = ops.identity();
      for (int64_t i = 0; i < n; ++i) {
        acc = ops.reduce(acc, element_cast<V>(at<const S>(p[x], i, st[x])), i);
        const R r = ops.project(acc);
        if constexpr (kIndexed) {
          at<S>(p[0], i, st[0]) = element_cast<S>(r.value);
          at<int64_t>(p[1], i, st[1]) = r.index;
        } else {
          at<S>(p[0], i, st[0]) = element_cast<S>(r);
        }
      }
    });
  });
}

// See the file comment.
template <typename Norm, uint32_t kDtypes>
void normalize(std::string_view op_name, const Tensor& self, int64_t dim, const Tensor& out) {
  using along_dim_detail::at;
  check_dtype_supported(out.dtype(), kDtypes, op_name);
  const Tensor in = along_dim_detail::input_as(self, out.dtype());
  visit_dtype<kDtypes>(out.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using M = opmath_t<S>;
    along_dim_detail::for_each_line({out}, in, dim, [](char** p, int64_t n, const int64_t* st) {
      auto x = [&](int64_t i) { return static_cast<M>(at<const S>(p[1], i, st[1])); };
      M max = x(0);
      for (int64_t i = 1; i < n; ++i) max = math::Max{}(max, x(i));
      M sum = 0;
      for (int64_t i = 0; i < n; ++i) sum = sum + Norm{}.term(x(i), max);
      for (int64_t i = 0; i < n; ++i)
        at<S>(p[0], i, st[0]) = static_cast<S>(Norm{}.apply(x(i), max, sum));
    });
  });
}

}  // namespace bp::cpu

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_ALONG_DIM_H_
