// CPU kernels of the spread and size measures: var (Welford, in double) and the vector p-norms.
#include <cmath>
#include <string>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/reductions.h"
#include "reference_backend/math/reduction.h"
#include "sdk/core/warning.h"

namespace bp::cpu {
namespace {

// Runs the p-norm's ops for data type T (real or complex) accumulated in the real type A.
template <typename T, typename A>
void p_norm(const TensorIteratorBase& iter, double p) {
  const math::NormOps<T, A> ops{static_cast<A>(p)};
  binary_kernel_reduce(iter, ops, ops.identity());
}

bool reduces_only_size_one_dims(const Tensor& self, IntArrayRef dims) {
  if (dims.empty() || self.dim() == 0) return self.numel() == 1;
  for (int64_t d : dims) {
    if (self.size(d) != 1) return false;
  }
  return true;
}

// norm and norm.dtype: `out` has the real dtype the norm is computed in (its compute type A:
// float for float16 / bfloat16); the input is read as A, or as complex<A> when complex.
void vector_norm(const Tensor& self, const std::optional<Scalar>& p_opt, IntArrayRef dim,
                 bool keepdim, const Tensor& out) {
  double p = p_opt.value_or(Scalar(2.0)).to<double>();
  // Over dims of size 1 PyTorch returns |x| (x != 0 for p = 0) instead of rounding through
  // (|x|^p)^(1/p); the inf-norm of one element is exactly |x|.
  if (p != 0 && reduces_only_size_one_dims(self, dim)) p = INFINITY;
  TensorIterator iter = reduction_iterator("norm", out, self, dim, keepdim, self.dtype());
  visit_dtype<kFloatingDtypes>(out.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    if (is_complex(self.dtype())) {
      p_norm<complex<A>, A>(iter, p);
    } else {
      p_norm<A, A>(iter, p);
    }
  });
}

}  // namespace

void var_out(structured_var_correction_out&, const Tensor& self, std::optional<IntArrayRef> dim,
             const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  const double c = correction.value_or(Scalar(int64_t{1})).to<double>();
  const int64_t count = out.numel() == 0 ? 0 : self.numel() / out.numel();
  if (count - c <= 0) {
    warn(
        "var(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
        "factor (input numel divided by output numel).");
  }
  TensorIterator iter =
      reduction_iterator("var", out, self, dim.value_or(IntArrayRef()), keepdim, self.dtype());
  if (is_complex(self.dtype())) {
    binary_kernel_reduce(iter, math::VarianceOps<complex<double>>{c},
                         math::WelfordData<complex<double>>{0.0, 0.0, 0.0});
  } else {
    binary_kernel_reduce(iter, math::VarianceOps<double>{c}, math::WelfordData<double>{0, 0, 0});
  }
}

void norm_out(structured_norm_out&, const Tensor& self, const std::optional<Scalar>& p,
              IntArrayRef dim, bool keepdim, const Tensor& out) {
  vector_norm(self, p, dim, keepdim, out);
}

void norm_dtype_out(structured_norm_dtype_out&, const Tensor& self, const std::optional<Scalar>& p,
                    IntArrayRef dim, bool keepdim, ScalarType, const Tensor& out) {
  vector_norm(self, p, dim, keepdim, out);
}

}  // namespace bp::cpu
