// CPU kernels of the maxima: amax, max.dim (values and indices) and argmax.
#include <utility>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/reductions.h"
#include "reference_backend/math/reduction.h"
#include "sdk/core/views.h"

namespace bp::cpu {
namespace {

// max.dim's results: the maximum and its index.
template <typename V>
struct MaxWithIndexOps : math::ArgMaxOps<V> {
  std::pair<V, int64_t> project(math::ValueIndex<V> acc) const { return {acc.value, acc.index}; }
};

// argmax's result: the index alone.
template <typename V>
struct ArgMaxIndexOps : math::ArgMaxOps<V> {
  int64_t project(math::ValueIndex<V> acc) const { return acc.index; }
};

// Runs Ops<V> over `iter` for self's dtype, comparing in its compute type V (float for
// float16 / bfloat16, which holds their values exactly).
template <uint32_t kDtypes, template <typename> class Ops>
void arg_max(const TensorIteratorBase& iter, ScalarType dtype) {
  visit_dtype<kDtypes>(dtype, [&](auto tag) {
    using V = opmath_t<typename decltype(tag)::type>;
    binary_kernel_reduce(iter, Ops<V>{}, math::ValueIndex<V>{lowest<V>(), 0});
  });
}

}  // namespace

void amax_out(structured_amax_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
              const Tensor& out) {
  check_declared_dtype<structured_amax_out>("amax", self.dtype());
  TensorIterator iter = reduction_iterator("amax", out, self, dim, keepdim, self.dtype());
  visit_dtype<structured_amax_out::kDtypes>(self.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    fold<A, math::Max, VectorMax>(iter, lowest<A>());
  });
}

void max_dim_out(structured_max_dim_max&, const Tensor& self, int64_t dim, bool keepdim,
                 const Tensor& max, const Tensor& max_values) {
  check_declared_dtype<structured_max_dim_max>("max", self.dtype());
  Tensor values = max, indices = max_values;  // handles: already sized by the meta function
  TensorIterator iter = make_reduction("max", values, indices, self, IntArrayRef(&dim, 1), keepdim,
                                       self.dtype(), ScalarType::kInt64);
  arg_max<structured_max_dim_max::kDtypes, MaxWithIndexOps>(iter, self.dtype());
}

void argmax_out(structured_argmax_out&, const Tensor& self, std::optional<int64_t> dim,
                bool keepdim, const Tensor& out) {
  check_declared_dtype<structured_argmax_out>("argmax", self.dtype());
  if (dim) {
    TensorIterator iter =
        reduction_iterator("argmax", out, self, IntArrayRef(&*dim, 1), keepdim, self.dtype());
    arg_max<structured_argmax_out::kDtypes, ArgMaxIndexOps>(iter, self.dtype());
    return;
  }
  // Over every dim the index is into the flattened input (C order), as in PyTorch: reduce a
  // 1-d copy or view into the result seen as 0-dim.
  const int64_t all[] = {-1};
  TensorIterator iter =
      reduction_iterator("argmax", native::view(out, {}), native::reshape(self, all), {},
                         /*keepdim=*/false, self.dtype());
  arg_max<structured_argmax_out::kDtypes, ArgMaxIndexOps>(iter, self.dtype());
}

}  // namespace bp::cpu
