// The CPU kernels of the indexing ops (sdk/ops/indexing.yaml): index_select, gather, scatter
// (+ reduce) and scatter_add, after their meta functions (sdk/structured/indexing_meta.h).
//
// Each checks every index against the indexed dim before it writes anything, so an out-of-range
// index leaves the output (an in-place self included) as it was; PyTorch checks as it goes and
// leaves a part written. Then the three operands (the written one, the read one and the index)
// are viewed with the index's sizes, the indexed operand with stride 0 along `dim`, and each line
// along `dim` runs in order: TensorIterator over the other dims (in parallel: lines differ in
// another dim, so they never write the same element), as PyTorch's cpu_scatter_gather_base_kernel.
// Copies move element bytes (one instantiation per element size); reductions compute in the
// math's compute type (float for float16 / bfloat16), in index order, as PyTorch.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/pointwise.h"
#include "reference_backend/math/math.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/error.h"
#include "sdk/core/views.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/ops/ops.h"

namespace bp::cpu {
namespace {

// `t` with at least one dim (a 0-dim tensor as [1]), as PyTorch's ensure_nonempty.
Tensor at_least_1d(const Tensor& t) {
  const int64_t one = 1;
  return t.dim() == 0 ? as_strided(t, IntArrayRef(&one, 1), IntArrayRef(&one, 1)) : t;
}

// `t` (at least 1-D) seen with `sizes`: its own strides, and stride 0 along `dim` when
// `indexed` (the line's base; the index picks the element).
Tensor restride(const Tensor& t, IntArrayRef sizes, int64_t dim, bool indexed) {
  std::vector<int64_t> strides(t.strides().begin(), t.strides().end());
  if (indexed) strides[static_cast<size_t>(dim)] = 0;
  return as_strided(t, sizes, strides);
}

// Calls line(dst, src, index, n, dst_step, src_step, index_step) for every line along `dim` of
// three tensors of the same sizes (at least 1-D): pointers at the line's first elements and byte
// steps along it. Lines run in parallel.
template <typename Line>
void for_each_line(const Tensor& dst, const Tensor& src, const Tensor& index, int64_t dim,
                   const Line& line) {
  if (index.numel() == 0) return;
  const int64_t n = index.size(dim);
  const int64_t steps[3] = {dst.stride(dim) * static_cast<int64_t>(element_size(dst.dtype())),
                            src.stride(dim) * static_cast<int64_t>(element_size(src.dtype())),
                            index.stride(dim) * static_cast<int64_t>(element_size(index.dtype()))};
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(dst)
                            .add_input(src)
                            .add_input(index)
                            .check_all_same_dtype(false)
                            .set_check_mem_overlap(false)  // dst's lines meet only along dim
                            .resize_outputs(false)
                            .declare_static_shape(index.sizes(), IntArrayRef(&dim, 1))
                            .build();
  iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      for (int64_t i = 0; i < n0; ++i) {
        line(data[0] + i * strides[0] + j * strides[3], data[1] + i * strides[1] + j * strides[4],
             data[2] + i * strides[2] + j * strides[5], n, steps[0], steps[1], steps[2]);
      }
    }
  });
}

// Calls f(I{}) with the C++ type of an int32 or int64 index.
template <typename F>
void visit_index_type(ScalarType dtype, const F& f) {
  if (dtype == ScalarType::kInt32) {
    f(int32_t{});
  } else {
    BP_INTERNAL_ASSERT(dtype == ScalarType::kInt64, "an index of dtype ", dtype);
    f(int64_t{});
  }
}

// The first index (in row-major order) outside [0, size), if any.
std::optional<int64_t> first_out_of_range(const Tensor& index, int64_t size) {
  const Tensor contiguous = index.contiguous();
  std::optional<int64_t> bad;
  visit_index_type(index.dtype(), [&](auto tag) {
    using I = decltype(tag);
    const I* p = contiguous.data_ptr<I>();
    const int64_t n = contiguous.numel();
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] < 0 || p[i] >= size) {
        bad = p[i];
        return;
      }
    }
  });
  return bad;
}

// gather's and scatter's range check.
void check_in_range(const Tensor& index, int64_t dim, int64_t size) {
  const std::optional<int64_t> bad = first_out_of_range(index, size);
  BP_CHECK(!bad, "index ", bad.value_or(0), " is out of bounds for dimension ", dim, " with size ",
           size);
}

// An element of `kBytes` bytes, moved as one value.
template <size_t kBytes>
struct Element {
  unsigned char bytes[kBytes];
};

// Calls f(Element<n>{}) for the element size of `dtype`.
template <typename F>
void visit_element_size(ScalarType dtype, const F& f) {
  switch (element_size(dtype)) {
    case 1:
      return f(Element<1>{});
    case 2:
      return f(Element<2>{});
    case 4:
      return f(Element<4>{});
    case 8:
      return f(Element<8>{});
    case 16:
      return f(Element<16>{});
    default:
      BP_INTERNAL_ASSERT(false, "an element of ", element_size(dtype), " bytes");
  }
}

template <typename T>
T& at(char* p, int64_t i, int64_t step) {
  return *reinterpret_cast<T*>(p + i * step);
}

// out[j] = self_base[index[j]] along each line; self_stride: self's byte stride along dim.
void gather_lines(const Tensor& out, const Tensor& self_view, const Tensor& index, int64_t dim,
                  int64_t self_stride) {
  visit_element_size(out.dtype(), [&](auto element) {
    using E = decltype(element);
    visit_index_type(index.dtype(), [&](auto index_tag) {
      using I = decltype(index_tag);
      for_each_line(out, self_view, index, dim,
                    [&](char* dst, char* src, char* idx, int64_t n, int64_t dst_step,
                        int64_t /*src_step*/, int64_t idx_step) {
                      for (int64_t j = 0; j < n; ++j) {
                        const int64_t k = at<I>(idx, j, idx_step);
                        at<E>(dst, j, dst_step) = at<E>(src, k, self_stride);
                      }
                    });
    });
  });
}

// How scatter combines src into what out holds.
enum class Combine { kAssign, kAdd, kMultiply };

Combine combine_of(std::string_view reduce) {
  return reduce == "add" ? Combine::kAdd : Combine::kMultiply;  // checked by the meta function
}

// out_base[index[j]] = combine(out_base[index[j]], src[j]) along each line, in index order.
void scatter_lines(const Tensor& out, const Tensor& index, const Tensor& src, int64_t dim,
                   Combine combine) {
  const Tensor out_view = restride(out, index.sizes(), dim, /*indexed=*/true);
  const Tensor src_view = restride(src, index.sizes(), dim, /*indexed=*/false);
  const int64_t out_stride = out.stride(dim) * static_cast<int64_t>(element_size(out.dtype()));
  if (combine == Combine::kAssign) {
    visit_element_size(out.dtype(), [&](auto element) {
      using E = decltype(element);
      for_each_line(out_view, src_view, index, dim,
                    [&](char* dst, char* from, char* idx, int64_t n, int64_t /*dst_step*/,
                        int64_t src_step, int64_t idx_step) {
                      for (int64_t j = 0; j < n; ++j) {
                        at<E>(dst, at<int64_t>(idx, j, idx_step), out_stride) =
                            at<E>(from, j, src_step);
                      }
                    });
    });
    return;
  }
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const bool add = combine == Combine::kAdd;
    for_each_line(out_view, src_view, index, dim,
                  [&](char* dst, char* from, char* idx, int64_t n, int64_t /*dst_step*/,
                      int64_t src_step, int64_t idx_step) {
                    for (int64_t j = 0; j < n; ++j) {
                      T& o = at<T>(dst, at<int64_t>(idx, j, idx_step), out_stride);
                      const M a = element_cast<M>(o), b = element_cast<M>(at<T>(from, j, src_step));
                      o = element_cast<T>(add ? math::Add{}(a, b, M(1)) : math::Mul{}(a, b));
                    }
                  });
  });
}

// scatter's kernels: out = self, then src (a tensor, or `value` in out's dtype) combined in.
void scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
             const Scalar* value, const Tensor& out, Combine combine) {
  const Tensor out1 = at_least_1d(out);
  const Tensor index1 = at_least_1d(index);
  const int64_t d = wrap_dim(dim, out1.dim());
  // Checked before out is written: a bad index leaves it (an in-place self) as it was.
  if (index.numel() != 0) check_in_range(index, d, out1.size(d));
  if (!out.is_same(self)) bp::copy_(const_cast<Tensor&>(out), self);
  if (index.numel() == 0) return;
  Tensor source;
  if (src != nullptr) {
    source = at_least_1d(*src);
  } else {
    // value.to<T>() in full_like checks it fits out's dtype, as PyTorch.
    const Tensor one = bp::full({}, *value, out.dtype(), out.device());
    std::vector<int64_t> zeros(static_cast<size_t>(index1.dim()), 0);
    source = as_strided(one, index1.sizes(), zeros);
  }
  scatter_lines(out1, index1, source, d, combine);
}

// index_select's range check, with PyTorch 1.13's two messages (its dim-1 path has its own).
void check_select_range(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  const std::optional<int64_t> bad = first_out_of_range(index, size);
  if (!bad) return;
  BP_CHECK(!(self.dim() > 1 && dim == 1), "INDICES element is out of DATA bounds, id=", *bad,
           " axis_dim=", size);
  BP_CHECK_INDEX(false, "index out of range in self");
}

// index_select of contiguous self and out: one copy of a run of elements per index.
void select_contiguous(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  const int64_t es = static_cast<int64_t>(element_size(self.dtype()));
  int64_t outer = 1, inner = es;
  for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
  for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
  const int64_t rows = self.size(dim), n = index.numel();
  const Tensor idx = index.contiguous();
  const char* from = static_cast<const char*>(self.data_ptr());
  char* to = static_cast<char*>(out.data_ptr());
  visit_index_type(idx.dtype(), [&](auto tag) {
    using I = decltype(tag);
    const I* k = idx.data_ptr<I>();
    // About 64 KiB of copies per task.
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / inner);
    parallel_for(0, outer * n, grain, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t o = r / n, j = r % n;
        std::memcpy(to + r * inner, from + (o * rows + k[j]) * inner, static_cast<size_t>(inner));
      }
    });
  });
}

}  // namespace

void index_select_out(structured_index_select_out&, const Tensor& self, int64_t dim,
                      const Tensor& index, const Tensor& out) {
  const int64_t d = wrap_dim(dim, self.dim());
  if (index.numel() == 0) return;
  check_select_range(self, d, index);
  if (out.numel() == 0) return;
  if (self.dim() == 0) {
    bp::copy_(const_cast<Tensor&>(out), self);
    return;
  }
  if (self.is_contiguous() && out.is_contiguous()) return select_contiguous(self, d, index, out);
  // The index seen with out's sizes: stride 0 but along dim.
  std::vector<int64_t> index_strides(static_cast<size_t>(out.dim()), 0);
  index_strides[static_cast<size_t>(d)] = index.dim() == 0 ? 0 : index.stride(0);
  const Tensor index_view = as_strided(index, out.sizes(), index_strides);
  gather_lines(out, restride(self, out.sizes(), d, /*indexed=*/true), index_view, d,
               self.stride(d) * static_cast<int64_t>(element_size(self.dtype())));
}

void gather_out(structured_gather_out&, const Tensor& self, int64_t dim, const Tensor& index,
                bool /*sparse_grad*/, const Tensor& out) {
  if (index.numel() == 0) return;
  const Tensor self1 = at_least_1d(self), index1 = at_least_1d(index), out1 = at_least_1d(out);
  const int64_t d = wrap_dim(dim, self1.dim());
  check_in_range(index, d, self1.size(d));
  gather_lines(out1, restride(self1, index1.sizes(), d, /*indexed=*/true), index1, d,
               self1.stride(d) * static_cast<int64_t>(element_size(self1.dtype())));
}

void scatter_src_out(structured_scatter_src_out&, const Tensor& self, int64_t dim,
                     const Tensor& index, const Tensor& src, const Tensor& out) {
  scatter(self, dim, index, &src, nullptr, out, Combine::kAssign);
}

void scatter_value_out(structured_scatter_value_out&, const Tensor& self, int64_t dim,
                       const Tensor& index, const Scalar& value, const Tensor& out) {
  scatter(self, dim, index, nullptr, &value, out, Combine::kAssign);
}

void scatter_reduce_out(structured_scatter_reduce_out&, const Tensor& self, int64_t dim,
                        const Tensor& index, const Tensor& src, std::string_view reduce,
                        const Tensor& out) {
  scatter(self, dim, index, &src, nullptr, out, combine_of(reduce));
}

void scatter_value_reduce_out(structured_scatter_value_reduce_out&, const Tensor& self, int64_t dim,
                              const Tensor& index, const Scalar& value, std::string_view reduce,
                              const Tensor& out) {
  scatter(self, dim, index, nullptr, &value, out, combine_of(reduce));
}

void scatter_add_out(structured_scatter_add_out&, const Tensor& self, int64_t dim,
                     const Tensor& index, const Tensor& src, const Tensor& out) {
  scatter(self, dim, index, &src, nullptr, out, Combine::kAdd);
}

}  // namespace bp::cpu
