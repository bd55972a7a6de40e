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
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

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

// The largest of n > 0 contiguous elements, on vectors of dispatch_cpu's `width`, for a
// normalisation: a NaN element may be skipped (one max instruction per vector, not a compare, an
// or and a blend), since its term, hence the sum and every result, is NaN whatever the maximum.
template <typename T, typename Width>
[[gnu::always_inline]] inline T line_max(const T* in, int64_t n, Width) {
  using Narrow = Vectorized<T, Width::value, Width::isa>;
  using Raw = typename Narrow::Raw;
  constexpr int64_t kNarrow = Narrow::size();
  // x > m ? x : m: the maxps instruction (m when either is NaN).
  const auto larger = [](Raw x, Raw m) __attribute__((always_inline)) { return x > m ? x : m; };
  T max = in[0];
  int64_t i = 1;
  if (n >= kNarrow) {
    Raw m = Narrow::loadu(in).raw();
    i = kNarrow;
    if (n >= 4 * kNarrow) {
      // Four running maxima: one would wait on its own max at every step.
      Raw m1 = Narrow::loadu(in + kNarrow).raw(), m2 = Narrow::loadu(in + 2 * kNarrow).raw(),
          m3 = Narrow::loadu(in + 3 * kNarrow).raw();
      for (i = 4 * kNarrow; i + 4 * kNarrow <= n; i += 4 * kNarrow) {
        m = larger(Narrow::loadu(in + i).raw(), m);
        m1 = larger(Narrow::loadu(in + i + kNarrow).raw(), m1);
        m2 = larger(Narrow::loadu(in + i + 2 * kNarrow).raw(), m2);
        m3 = larger(Narrow::loadu(in + i + 3 * kNarrow).raw(), m3);
      }
      m = larger(larger(m1, m), larger(m3, m2));
    }
    for (; i + kNarrow <= n; i += kNarrow) m = larger(Narrow::loadu(in + i).raw(), m);
    max = m[0];
    for (int64_t k = 1; k < kNarrow; ++k) max = math::Max{}(max, m[k]);
  }
  for (; i < n; ++i) max = math::Max{}(max, in[i]);
  return max;
}

// A normalisation of a contiguous float or double line on vectors of the CPU's ISA: the maximum
// on vectors of dispatch_cpu's width, the sum of terms and the results, which compare nothing,
// on 64-byte vectors on AVX-512. The sum adds lane-wise partial sums, as PyTorch's vectorised
// softmax does. Where the result is a function of the term (Norm::of_term: softmax's
// term * (1 / sum)), the terms are stored as they are summed and the last pass scales them: one exp
// per element instead of two. `out` may be `in`.
template <typename Norm, typename T>
void normalize_contiguous(T* out, const T* in, int64_t n) {
  constexpr bool kOfTerm = requires(Norm f, T t) { f.of_term(t, t); };
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    // Locals, not the captures: the exp calls could write what the captures point at, and the
    // loops would reload them after every call.
    T* const out_line = out;
    const T* const in_line = in;
    const int64_t len = n;
    constexpr VecIsa kIsa = decltype(width)::isa;
    using Wide = Vectorized<T, kIsa == VecIsa::kAvx512 ? 64 : int{width}, kIsa>;
    constexpr int64_t kWide = Wide::size();
    const T max = line_max(in_line, len, width);
    const Norm norm{};
    const Wide vmax(max);
    Wide partial(T(0));
    int64_t i = 0;
    for (; i + kWide <= len; i += kWide) {
      // While the exps compute, fetch the next line of a contiguous input (and output), which
      // its maximum pass would otherwise wait on memory for. Prefetches never fault.
      __builtin_prefetch(in_line + len + i);
      __builtin_prefetch(out_line + len + i, /*rw=*/1);
      const Wide term = norm.term(Wide::loadu(in_line + i), vmax);
      if constexpr (kOfTerm) term.store(out_line + i);
      partial = partial + term;
    }
    T sum = reduce_add(partial);
    for (; i < len; ++i) {
      const T term = norm.term(in_line[i], max);
      if constexpr (kOfTerm) out_line[i] = term;
      sum = sum + term;
    }
    const T inverse = T(1) / sum;
    const Wide vsum(sum), vinverse(inverse);
    for (i = 0; i + kWide <= len; i += kWide) {
      if constexpr (kOfTerm) {
        norm.of_term(Wide::loadu(out_line + i), vinverse).store(out_line + i);
      } else {
        norm.apply(Wide::loadu(in_line + i), vmax, vsum).store(out_line + i);
      }
    }
    for (; i < len; ++i) {
      if constexpr (kOfTerm) {
        out_line[i] = norm.of_term(out_line[i], inverse);
      } else {
        out_line[i] = norm.apply(in_line[i], max, sum);
      }
    }
  });
}

// Scans whose running accumulator takes a pair of elements per step where the line is
// contiguous: the pair's own sum does not wait for the accumulator, so the chain of dependent
// adds is half as long (cumsum of 1e6 floats ran 1.4x faster). The running sum meets each pair as
// a whole, a reassociation: for a float cumsum in double, a difference beyond float's precision;
// integer sums are exact either way; and a sum that starts at +0 never turns -0 either way. Not
// cumprod (a reassociated complex product can flip the sign of a zero part, which PyTorch's
// order keeps) nor logcumsumexp (its step, an exp and a log, would double).
template <typename O>
inline constexpr bool kPairedScan = false;
template <typename S>
inline constexpr bool kPairedScan<math::SumOps<S>> = true;

// One line of a scan with ops O over elements of type S: out[i] (and indices[i], for ops that
// project a math::ValueIndex) is the scan of in[0..i]. Pointers and byte steps arrive as
// arguments, so they stay in registers (read through a captured array, the compiler could not
// rule out that the stores write them, and reloaded them at every element: 3x slower); a
// contiguous line runs on typed pointers.
template <typename O, typename S>
void scan_line(const char* in, int64_t in_step, char* out, int64_t out_step, char* indices,
               int64_t indices_step, int64_t n) {
  using V = typename O::value_t;
  using R = decltype(O{}.project(O{}.identity()));
  const O ops{};
  auto acc = ops.identity();
  if constexpr (!math::is_value_index_v<R>) {
    if (in_step == sizeof(S) && out_step == sizeof(S)) {
      const S* const x = reinterpret_cast<const S*>(in);
      S* const y = reinterpret_cast<S*>(out);
      int64_t i = 0;
      for (; kPairedScan<O> && i + 1 < n; i += 2) {
        const V x0 = element_cast<V>(x[i]), x1 = element_cast<V>(x[i + 1]);
        y[i] = element_cast<S>(ops.project(ops.reduce(acc, x0, i)));
        acc = ops.combine(acc, ops.reduce(ops.reduce(ops.identity(), x0, i), x1, i + 1));
        y[i + 1] = element_cast<S>(ops.project(acc));
      }
      for (; i < n; ++i) {
        acc = ops.reduce(acc, element_cast<V>(x[i]), i);
        y[i] = element_cast<S>(ops.project(acc));
      }
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    acc = ops.reduce(acc, element_cast<V>(*reinterpret_cast<const S*>(in + i * in_step)), i);
    const R r = ops.project(acc);
    if constexpr (math::is_value_index_v<R>) {
      *reinterpret_cast<S*>(out + i * out_step) = element_cast<S>(r.value);
      *reinterpret_cast<int64_t*>(indices + i * indices_step) = r.index;
    } else {
      *reinterpret_cast<S*>(out + i * out_step) = element_cast<S>(r);
    }
  }
}

}  // namespace along_dim_detail

// See the file comment. `indices`: the second output of scans whose ops project a
// math::ValueIndex (cummax); undefined otherwise.
template <template <typename> class Ops, uint32_t kDtypes>
void scan(std::string_view op_name, const Tensor& self, int64_t dim, const Tensor& out,
          const Tensor& indices = Tensor()) {
  check_dtype_supported(out.dtype(), kDtypes, op_name);
  const Tensor in = along_dim_detail::input_as(self, out.dtype());
  std::vector<Tensor> outputs = {out};
  if (indices.defined()) outputs.push_back(indices);
  visit_dtype<kDtypes>(out.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using O = Ops<S>;
    using R = decltype(O{}.project(O{}.identity()));
    constexpr bool kIndexed = math::is_value_index_v<R>;
    BP_INTERNAL_ASSERT(indices.defined() == kIndexed, op_name, ": a scan of ",
                       kIndexed ? "values and indices" : "values", " given ", outputs.size(),
                       " outputs");
    const int64_t x = static_cast<int64_t>(outputs.size());  // the input's operand index
    along_dim_detail::for_each_line(outputs, in, dim, [&](char** p, int64_t n, const int64_t* st) {
      along_dim_detail::scan_line<O, S>(p[x], st[x], p[0], st[0], kIndexed ? p[1] : nullptr,
                                        kIndexed ? st[1] : 0, n);
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
      if constexpr (std::is_same_v<S, M> &&
                    (std::is_same_v<S, float> || std::is_same_v<S, double>)) {
        if (st[0] == sizeof(S) && st[1] == sizeof(S)) {
          return along_dim_detail::normalize_contiguous<Norm>(reinterpret_cast<S*>(p[0]),
                                                              reinterpret_cast<const S*>(p[1]), n);
        }
      }
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
