// Composite reductions: the full-reduction overloads (sum, mean, prod, max, min, all, any without
// a dim) and aminmax, count_nonzero (int? dim), var_mean and std_mean, each built on the dim
// overloads' ops, so every backend that has those has these, with PyTorch's own checks first.
#include <optional>
#include <tuple>
#include <vector>

#include "sdk/core/error.h"
#include "sdk/core/promotion.h"
#include "sdk/core/views.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"
#include "sdk/structured/reduction_meta.h"

namespace bp::native {
namespace {

// `self` as a vector (a view when its strides allow): the input of the reductions over one dim
// (prod, all, any) when every dim is reduced.
Tensor flattened(const Tensor& self) {
  const int64_t flat[] = {-1};
  return bp::reshape(self, flat);
}

// The out= of a full sum or product, as PyTorch's: the result computed in its own dtype, then
// converted into `out` (resized to 0-dim), whatever out's dtype.
Tensor& copy_into_out(const Tensor& result, Tensor& out) {
  BP_CHECK(out.device() == result.device(), "Expected out tensor to have device ", result.device(),
           ", but got ", out.device(), " instead");
  out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

// max() and min() have no identity: PyTorch's message names the full overload.
void check_not_empty(const Tensor& self, const char* name) {
  BP_CHECK(self.numel() != 0, name,
           ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
           "reduction dim with the 'dim' argument.");
}

// An out= tensor of a composite with several outputs must have its output's exact dtype, as a
// structured op's.
void check_out_dtype(const Tensor& out, ScalarType dtype) {
  BP_CHECK_TYPE(out.dtype() == dtype, "Expected out tensor to have dtype ", dtype, ", but got ",
                out.dtype(), " instead");
}

// aminmax's checks; returns the input its reductions run on: a 0-dim input reduced over a dim is
// a 1-element vector (so keepdim gives [1], as PyTorch's).
Tensor aminmax_input(const Tensor& self, std::optional<int64_t> dim) {
  if (!dim) {
    BP_CHECK(self.numel() != 0,
             "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
             "identity.");
    return self;
  }
  const int64_t d = wrap_dim(*dim, self.dim());
  if (self.dim() == 0) return flattened(self);
  BP_CHECK_INDEX(self.size(d) != 0, "aminmax: Expected reduction dim ", d,
                 " to have non-zero size.");
  return self;
}

std::vector<int64_t> dims_of(std::optional<int64_t> dim) {
  return dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{};
}

// var_mean / std_mean: PyTorch's check (its own name in the message), then the two ops.
void check_spread_mean(const Tensor& self, const char* name) {
  BP_CHECK(is_floating_point(self.dtype()) || is_complex(self.dtype()), name,
           " only support floating point and complex dtypes");
}

// The out= forms of var_mean / std_mean: the functional op's check, the dims, then each out's
// exact dtype (the spread's real dtype, the mean's input dtype).
void check_spread_mean_outs(const Tensor& self, const char* name,
                            const std::optional<IntArrayRef>& dim, bool keepdim,
                            const Tensor& spread, const Tensor& mean) {
  check_spread_mean(self, name);
  meta::reduction_shape(self, dim.value_or(IntArrayRef()), keepdim);
  check_out_dtype(spread, to_real_type(self.dtype()));
  check_out_dtype(mean, self.dtype());
}

}  // namespace

Tensor sum_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return bp::sum(self, std::optional<IntArrayRef>(), false, dtype);
}

Tensor& sum_all_out(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out) {
  return copy_into_out(sum_all(self, dtype), out);
}

Tensor mean_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return bp::mean(self, std::optional<IntArrayRef>(), false, dtype);
}

Tensor prod_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return bp::prod(flattened(self), 0, false, dtype);
}

Tensor& prod_all_out(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out) {
  return copy_into_out(prod_all(self, dtype), out);
}

Tensor max_all(const Tensor& self) {
  check_not_empty(self, "max()");
  return bp::amax(self, {}, false);
}

Tensor min_all(const Tensor& self) {
  check_not_empty(self, "min()");
  return bp::amin(self, {}, false);
}

Tensor all_all(const Tensor& self) { return bp::all(flattened(self), 0, false); }

Tensor& all_all_out(const Tensor& self, Tensor& out) {
  return bp::all_out(out, flattened(self), 0, false);
}

Tensor any_all(const Tensor& self) { return bp::any(flattened(self), 0, false); }

Tensor& any_all_out(const Tensor& self, Tensor& out) {
  return bp::any_out(out, flattened(self), 0, false);
}

std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  const Tensor input = aminmax_input(self, dim);
  const std::vector<int64_t> dims = dims_of(dim);
  return {bp::amin(input, dims, keepdim), bp::amax(input, dims, keepdim)};
}

std::tuple<Tensor&, Tensor&> aminmax_out(const Tensor& self, std::optional<int64_t> dim,
                                         bool keepdim, Tensor& min, Tensor& max) {
  const Tensor input = aminmax_input(self, dim);
  check_out_dtype(min, self.dtype());
  check_out_dtype(max, self.dtype());
  const std::vector<int64_t> dims = dims_of(dim);
  bp::amin_out(min, input, dims, keepdim);
  bp::amax_out(max, input, dims, keepdim);
  return {min, max};
}

Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  return bp::count_nonzero(self, IntArrayRef(dims_of(dim)));
}

Tensor& count_nonzero_out(const Tensor& self, std::optional<int64_t> dim, Tensor& out) {
  return bp::count_nonzero_out(out, self, IntArrayRef(dims_of(dim)));
}

std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  check_spread_mean(self, "var_mean");
  return {bp::var(self, dim, correction, keepdim), bp::mean(self, dim, keepdim)};
}

std::tuple<Tensor&, Tensor&> var_mean_out(const Tensor& self, std::optional<IntArrayRef> dim,
                                          const std::optional<Scalar>& correction, bool keepdim,
                                          Tensor& out0, Tensor& out1) {
  check_spread_mean_outs(self, "var_mean", dim, keepdim, out0, out1);
  bp::var_out(out0, self, dim, correction, keepdim);
  bp::mean_out(out1, self, dim, keepdim);
  return {out0, out1};
}

std::tuple<Tensor, Tensor> std_mean(const Tensor& self, std::optional<IntArrayRef> dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  check_spread_mean(self, "std_mean");
  return {bp::std(self, dim, correction, keepdim), bp::mean(self, dim, keepdim)};
}

std::tuple<Tensor&, Tensor&> std_mean_out(const Tensor& self, std::optional<IntArrayRef> dim,
                                          const std::optional<Scalar>& correction, bool keepdim,
                                          Tensor& out0, Tensor& out1) {
  check_spread_mean_outs(self, "std_mean", dim, keepdim, out0, out1);
  bp::std_out(out0, self, dim, correction, keepdim);
  bp::mean_out(out1, self, dim, keepdim);
  return {out0, out1};
}

}  // namespace bp::native
