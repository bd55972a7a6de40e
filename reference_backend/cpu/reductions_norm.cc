// CPU kernels of the spread and size measures: var and std (Welford, in double) and the vector
// p-norms.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

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

namespace {

// var and std (Ops: VarianceOps or StdOps), in double (complex<double> for complex inputs).
template <template <typename> class Ops>
void spread(std::string_view name, const Tensor& self, std::optional<IntArrayRef> dim,
            const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  const double c = correction.value_or(Scalar(int64_t{1})).to<double>();
  const int64_t count = out.numel() == 0 ? 0 : self.numel() / out.numel();
  if (count - c <= 0) {
    warn(std::string(name) +
         "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
         "factor (input numel divided by output numel).");
  }
  TensorIterator iter =
      reduction_iterator(name, out, self, dim.value_or(IntArrayRef()), keepdim, self.dtype());
  if (is_complex(self.dtype())) {
    const Ops<complex<double>> ops{c};
    binary_kernel_reduce(iter, ops, ops.identity());
  } else {
    const Ops<double> ops{c};
    binary_kernel_reduce(iter, ops, ops.identity());
  }
}

}  // namespace

void var_out(structured_var_correction_out&, const Tensor& self, std::optional<IntArrayRef> dim,
             const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  spread<math::VarianceOps>("var", self, dim, correction, keepdim, out);
}

void std_out(structured_std_correction_out&, const Tensor& self, std::optional<IntArrayRef> dim,
             const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  spread<math::StdOps>("std", self, dim, correction, keepdim, out);
}

void norm_out(structured_norm_out&, const Tensor& self, const std::optional<Scalar>& p,
              IntArrayRef dim, bool keepdim, const Tensor& out) {
  vector_norm(self, p, dim, keepdim, out);
}

void norm_dtype_out(structured_norm_dtype_out&, const Tensor& self, const std::optional<Scalar>& p,
                    IntArrayRef dim, bool keepdim, ScalarType, const Tensor& out) {
  vector_norm(self, p, dim, keepdim, out);
}

void linalg_vector_norm_out(structured_linalg_vector_norm_out&, const Tensor& self,
                            const Scalar& ord, std::optional<IntArrayRef> dim, bool keepdim,
                            std::optional<ScalarType>, const Tensor& out) {
  vector_norm(self, ord, dim.value_or(IntArrayRef()), keepdim, out);
}

}  // namespace bp::cpu
