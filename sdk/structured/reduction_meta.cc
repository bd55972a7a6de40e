#include "sdk/structured/reduction_meta.h"

#include <bitset>
#include <cmath>
#include <string>

#include "sdk/core/error.h"
#include "sdk/core/promotion.h"

namespace bp::meta {
namespace {

constexpr int64_t kMaxDims = 64;
using DimMask = std::bitset<kMaxDims>;

// Reduced dims as a mask over self's dims (every dim when `dims` is empty).
DimMask reduced_dims_mask(const Tensor& self, IntArrayRef dims) {
  BP_CHECK(self.dim() <= kMaxDims, "reductions support tensors with up to ", kMaxDims,
           " dims, got ", self.dim());
  DimMask mask;
  if (dims.empty()) return mask.set();
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, self.dim());
    BP_CHECK(!mask[d], "dim ", d, " appears multiple times in the list of dims");
    mask.set(d);
  }
  return mask;
}

IntArrayRef dims_or_all(const std::optional<IntArrayRef>& dim) {
  return dim.value_or(IntArrayRef());
}

bool is_floating_or_complex(ScalarType t) { return is_floating_point(t) || is_complex(t); }

void set_reduction_output(MetaBase& meta, int64_t output, const Tensor& self, IntArrayRef dims,
                          bool keepdim, ScalarType dtype) {
  meta.set_output_raw_strided(output, reduction_shape(self, dims, keepdim), {},
                              TensorOptions{dtype, self.device(), std::nullopt});
}

// PyTorch's get_dtype_from_self: `dtype`, else int64 for integral and bool inputs, else the
// input's dtype.
ScalarType promoted_sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? ScalarType::kInt64 : self.dtype();
}

// PyTorch's infer_dtype_from_optional: `dtype` wins; then a given out's dtype.
ScalarType sum_result_dtype(MetaBase& meta, const Tensor& self, std::optional<ScalarType> dtype) {
  const Tensor& out = meta.maybe_get_output(0);
  if (out.defined()) return dtype.value_or(out.dtype());
  return promoted_sum_dtype(self, dtype);
}

// PyTorch's zero_numel_check_dims for one dim (already wrapped for max / argmax; as given for
// amax, whose message shows the dim as the caller wrote it).
void check_nonzero_reduced_size(const Tensor& self, int64_t dim, const char* op) {
  if (self.dim() == 0) {
    BP_CHECK_INDEX(dim == 0 || dim == -1, op,
                   ": Expected reduction dim -1 or 0 for scalar but got ", dim);
    return;
  }
  BP_CHECK_INDEX(self.size(dim) != 0, op, ": Expected reduction dim ", dim,
                 " to have non-zero size.");
}

void allany_op(MetaBase& meta, const char* name, const Tensor& self, int64_t dim, bool keepdim) {
  const Tensor& out = meta.maybe_get_output(0);
  ScalarType dtype = self.dtype() == ScalarType::kUInt8 ? ScalarType::kUInt8 : ScalarType::kBool;
  if (out.defined()) {
    // [all, any: uint8 compatibility] in PyTorch: uint8 results stay allowed.
    BP_CHECK(out.dtype() == ScalarType::kBool || out.dtype() == ScalarType::kUInt8, name,
             " only supports bool tensor for result, got: ", out.dtype());
    dtype = out.dtype();
  }
  set_reduction_output(meta, 0, self, IntArrayRef(&dim, 1), keepdim, dtype);
}

// linalg.vector_norm's checks, which norm runs through in PyTorch.
void check_vector_norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim) {
  const Scalar ord = p.value_or(Scalar(2.0));
  const double order = ord.to<double>();
  if (self.numel() == 0 && (order < 0 || order == INFINITY)) {
    BP_CHECK(!dim.empty(), "linalg.vector_norm cannot compute the ", ord,
             " norm on an empty tensor because the operation does not have an identity");
    for (int64_t d : dim) {
      // PyTorch's text has no space before "because".
      BP_CHECK(self.size(d) != 0, "linalg.vector_norm cannot compute the ", ord,
               " norm on the dimension ", d,
               "because this dimension is empty and the operation does not have an identity");
    }
  }
}

}  // namespace

DimVector reduction_shape(const Tensor& self, IntArrayRef dims, bool keepdim) {
  const DimMask mask = reduced_dims_mask(self, dims);
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) {
      shape.push_back(self.size(d));
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

void sum_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  set_reduction_output(meta, 0, self, dims_or_all(dim), keepdim,
                       sum_result_dtype(meta, self, dtype));
}

void prod_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim,
             std::optional<ScalarType> dtype) {
  set_reduction_output(meta, 0, self, IntArrayRef(&dim, 1), keepdim,
                       sum_result_dtype(meta, self, dtype));
}

void mean_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
             std::optional<ScalarType> dtype) {
  BP_CHECK(is_floating_or_complex(promoted_sum_dtype(self, dtype)),
           "mean(): could not infer output dtype. ", dtype ? "Optional" : "Input",
           " dtype must be either a floating point or complex dtype. Got: ",
           dtype.value_or(self.dtype()));
  const ScalarType result = sum_result_dtype(meta, self, dtype);
  // PyTorch divides the sum in place: the quotient (default float dtype) cannot be written into
  // an integral out.
  BP_CHECK(is_floating_or_complex(result), "result type ", default_dtype(),
           " can't be cast to the desired output type ", result);
  set_reduction_output(meta, 0, self, dims_or_all(dim), keepdim, result);
}

namespace {

// amax / amin.
void extreme_op(MetaBase& meta, const char* name, const Tensor& self, IntArrayRef dim,
                bool keepdim) {
  const Tensor& out = meta.maybe_get_output(0);
  BP_CHECK(!out.defined() || out.dtype() == self.dtype(),
           "Expected the dtype for input and out to match, but got ", self.dtype(),
           " for input's dtype and ", out.defined() ? out.dtype() : self.dtype(),
           " for out's dtype.");
  if (self.numel() == 0) {
    BP_CHECK(!dim.empty(), name,
             ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
             "reduction dim with the 'dim' argument.");
    for (int64_t d : dim) check_nonzero_reduced_size(self, d, name);
  }
  set_reduction_output(meta, 0, self, dim, keepdim, self.dtype());
}

// max.dim / min.dim.
void extreme_dim_op(MetaBase& meta, const char* name, const Tensor& self, int64_t dim,
                    bool keepdim) {
  const int64_t wrapped = wrap_dim(dim, self.dim());
  check_nonzero_reduced_size(self, wrapped, name);
  BP_CHECK(!is_complex(self.dtype()), name, ": does not support complex input");
  set_reduction_output(meta, 0, self, IntArrayRef(&wrapped, 1), keepdim, self.dtype());
  set_reduction_output(meta, 1, self, IntArrayRef(&wrapped, 1), keepdim, ScalarType::kInt64);
}

// argmax / argmin.
void arg_extreme_op(MetaBase& meta, const char* name, const Tensor& self,
                    std::optional<int64_t> dim, bool keepdim) {
  if (dim) {
    const int64_t wrapped = wrap_dim(*dim, self.dim());
    check_nonzero_reduced_size(self, wrapped, name);
    set_reduction_output(meta, 0, self, IntArrayRef(&wrapped, 1), keepdim, ScalarType::kInt64);
    return;
  }
  BP_CHECK_INDEX(self.numel() != 0, name,
                 ": Expected reduction dim to be specified for input.numel() == 0.");
  set_reduction_output(meta, 0, self, {}, keepdim, ScalarType::kInt64);
}

}  // namespace

void amax_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim) {
  extreme_op(meta, "amax()", self, dim, keepdim);
}

void amin_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim) {
  extreme_op(meta, "amin()", self, dim, keepdim);
}

void max_dim_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim) {
  extreme_dim_op(meta, "max()", self, dim, keepdim);
}

void min_dim_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim) {
  extreme_dim_op(meta, "min()", self, dim, keepdim);
}

void argmax_op(MetaBase& meta, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  arg_extreme_op(meta, "argmax()", self, dim, keepdim);
}

void argmin_op(MetaBase& meta, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  arg_extreme_op(meta, "argmin()", self, dim, keepdim);
}

void nansum_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  const DimVector shape = reduction_shape(self, dims_or_all(dim), keepdim);  // dims first
  BP_CHECK(!is_complex(self.dtype()), "nansum does not support complex inputs");
  const ScalarType result = sum_result_dtype(meta, self, dtype);
  // Integral inputs have no NaN (PyTorch runs sum); floating ones are summed in the result's
  // dtype, which must be able to hold a NaN-free sum of floats.
  BP_CHECK_NOT_IMPLEMENTED(
      is_integral(self.dtype(), /*include_bool=*/true) || is_floating_point(result),
      "\"nansum\" not implemented for '", result, "'");
  meta.set_output_raw_strided(0, shape, {}, TensorOptions{result, self.device(), std::nullopt});
}

void nanmean_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  BP_CHECK(is_floating_point(self.dtype()),
           "nanmean(): expected input to have floating point dtype but got ", self.dtype());
  const ScalarType result = sum_result_dtype(meta, self, dtype);
  BP_CHECK_NOT_IMPLEMENTED(is_floating_point(result), "\"nanmean\" not implemented for '", result,
                           "'");
  set_reduction_output(meta, 0, self, dims_or_all(dim), keepdim, result);
}

void count_nonzero_op(MetaBase& meta, const Tensor& self, IntArrayRef dim) {
  const Tensor& out = meta.maybe_get_output(0);
  set_reduction_output(meta, 0, self, dim, /*keepdim=*/false,
                       out.defined() ? out.dtype() : ScalarType::kInt64);
}

void var_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim,
            const std::optional<Scalar>& correction, bool keepdim) {
  (void)correction;  // any real number; the kernel reads it
  BP_CHECK(is_floating_or_complex(self.dtype()),
           "std and var only support floating point and complex dtypes");
  const Tensor& out = meta.maybe_get_output(0);
  const ScalarType real = to_real_type(self.dtype());
  BP_CHECK(!out.defined() || can_cast(real, out.dtype()), "result type ", real,
           " can't be cast to the desired output type ", out.dtype());
  set_reduction_output(meta, 0, self, dims_or_all(dim), keepdim,
                       out.defined() ? out.dtype() : real);
}

void norm_op(MetaBase& meta, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
             bool keepdim) {
  BP_CHECK(is_floating_or_complex(self.dtype()),
           "norm(): input dtype should be either floating point or complex. Got ", self.dtype(),
           " instead.");
  check_vector_norm(self, p, dim);
  set_reduction_output(meta, 0, self, dim, keepdim, to_real_type(self.dtype()));
}

namespace {

// linalg.vector_norm's dtype checks: the input floating or complex, `dtype` of the same kind and
// no narrower.
void check_vector_norm_dtype(const Tensor& self, ScalarType dtype) {
  BP_CHECK(is_floating_or_complex(self.dtype()),
           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
           self.dtype());
  const bool complex_input = is_complex(self.dtype());
  BP_CHECK(complex_input == is_complex(dtype), "linalg.vector_norm: dtype should be ",
           complex_input ? "complex" : "real", " for ", complex_input ? "complex" : "real",
           " inputs, but got ", dtype);
  BP_CHECK(promote_types(self.dtype(), dtype) == dtype,
           "linalg.vector_norm: the dtype of the input ", "(", self.dtype(),
           ") should be convertible without narrowing to the specified dtype (", dtype, ")");
}

}  // namespace

void norm_dtype_op(MetaBase& meta, const Tensor& self, const std::optional<Scalar>& p,
                   IntArrayRef dim, bool keepdim, ScalarType dtype) {
  BP_CHECK(is_floating_or_complex(dtype),
           "norm(): the desired output dtype should be either floating point or complex. Got ",
           dtype, " instead.");
  BP_CHECK(is_floating_or_complex(self.dtype()),
           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
           self.dtype());
  check_vector_norm(self, p, dim);
  check_vector_norm_dtype(self, dtype);
  set_reduction_output(meta, 0, self, dim, keepdim, to_real_type(dtype));
}

void linalg_vector_norm_op(MetaBase& meta, const Tensor& self, const Scalar& ord,
                           std::optional<IntArrayRef> dim, bool keepdim,
                           std::optional<ScalarType> dtype) {
  check_vector_norm_dtype(self, dtype.value_or(self.dtype()));
  check_vector_norm(self, ord, dims_or_all(dim));
  set_reduction_output(meta, 0, self, dims_or_all(dim), keepdim,
                       to_real_type(dtype.value_or(self.dtype())));
}

void all_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim) {
  allany_op(meta, "all", self, dim, keepdim);
}

void any_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim) {
  allany_op(meta, "any", self, dim, keepdim);
}

void logsumexp_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Tensor& out = meta.maybe_get_output(0);
  ScalarType dtype =
      is_integral(self.dtype(), /*include_bool=*/true) ? default_dtype() : self.dtype();
  if (out.defined()) {
    BP_CHECK(is_floating_or_complex(out.dtype()),
             "logsumexp(): Expected floating point type for result tensor, but got: ", out.dtype());
    dtype = out.dtype();
  }
  set_reduction_output(meta, 0, self, dim, keepdim, dtype);
}

}  // namespace bp::meta
