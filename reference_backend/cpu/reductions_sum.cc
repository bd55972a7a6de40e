// CPU kernels of the sums: sum, mean, prod and logsumexp.
#include <type_traits>

#include "reference_backend/cpu/cascade_sum.h"
#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/reductions.h"
#include "reference_backend/math/reduction.h"
#include "sdk/core/promotion.h"

namespace bp::cpu {
namespace {

// The dtype sum and prod read their input as. PyTorch converts the input to the result dtype
// before reducing; where the accumulator is wider than the result (float16 and bfloat16 results
// accumulate in float) that rounding shows, so the input is converted first. Elsewhere converting
// each element as it is read gives the same values without a copy.
ScalarType fold_input_dtype(const Tensor& self, ScalarType out_dtype) {
  return is_reduced_floating_point(out_dtype) ? out_dtype : self.dtype();
}

// sum and prod in the result dtype's compute type. Floating and complex sums use cascade
// summation, as PyTorch's do; integer and bool sums (exact, or wrapping) and products fold in
// order.
template <typename Fold>
void sum_or_prod(std::string_view name, const Tensor& self, IntArrayRef dims, bool keepdim,
                 const Tensor& out, int identity) {
  TensorIterator iter =
      reduction_iterator(name, out, self, dims, keepdim, fold_input_dtype(self, out.dtype()));
  visit_dtype(out.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    if constexpr (std::is_same_v<Fold, math::Sum> && !std::is_integral_v<A>) {
      cascade_sum<A>(iter, reductions_detail::Unchanged());
    } else {
      fold<A, Fold>(iter, static_cast<A>(identity));
    }
  });
}

}  // namespace

void sum_out(structured_sum_IntList_out&, const Tensor& self, std::optional<IntArrayRef> dim,
             bool keepdim, std::optional<ScalarType>, const Tensor& out) {
  sum_or_prod<math::Sum>("sum", self, dim.value_or(IntArrayRef()), keepdim, out, 0);
}

void prod_out(structured_prod_int_out&, const Tensor& self, int64_t dim, bool keepdim,
              std::optional<ScalarType>, const Tensor& out) {
  sum_or_prod<math::Prod>("prod", self, IntArrayRef(&dim, 1), keepdim, out, 1);
}

// As PyTorch on CPU: the (cascade) sum in the compute type (float for float16 / bfloat16), divided
// there by the number of elements reduced, then rounded to the result dtype.
void mean_out(structured_mean_out&, const Tensor& self, std::optional<IntArrayRef> dim,
              bool keepdim, std::optional<ScalarType>, const Tensor& out) {
  const int64_t count = out.numel() == 0 ? 0 : self.numel() / out.numel();
  TensorIterator iter =
      reduction_iterator("mean", out, self, dim.value_or(IntArrayRef()), keepdim, self.dtype());
  visit_dtype<kFloatingOrComplexDtypes>(out.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    cascade_sum<A>(iter, math::DivideBy<A>{static_cast<math::real_t<A>>(count)});
  });
}

void logsumexp_out(structured_logsumexp_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
                   const Tensor& out) {
  // Integral and bool inputs are converted to the default float dtype first, as in PyTorch.
  const ScalarType in_dtype =
      is_integral(self.dtype(), /*include_bool=*/true) ? default_dtype() : self.dtype();
  TensorIterator iter = reduction_iterator("logsumexp", out, self, dim, keepdim, in_dtype);
  // In double: PyTorch adds its exponentials with cascade summation, and a float running sum
  // would lose about n * 6e-8 of the result's precision over n elements.
  auto run = [&](auto zero) {
    const math::LogSumExpOps<decltype(zero)> ops{};
    binary_kernel_reduce(iter, ops, ops.identity());
  };
  if (is_complex(out.dtype())) {
    run(complex<double>(0));
  } else {
    run(0.0);
  }
}

}  // namespace bp::cpu
