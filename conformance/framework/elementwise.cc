#include "conformance/framework/elementwise.h"

#include "conformance/framework/expected.h"

namespace bp::conformance {

Sizes broadcast_all(const std::vector<const RefTensor*>& operands) {
  Sizes shape;
  for (const RefTensor* t : operands) {
    Sizes next;
    if (!broadcast_sizes(shape, t->sizes, &next)) {
      // PyTorch names the running shape "a" and the operand "b", and reports the last
      // mismatching dim (it scans from the innermost), counted in the broadcast result.
      const size_t n = std::max(shape.size(), t->sizes.size());
      for (size_t i = n; i-- > 0;) {
        const int64_t a = i < n - shape.size() ? 1 : shape[i - (n - shape.size())];
        const int64_t b = i < n - t->sizes.size() ? 1 : t->sizes[i - (n - t->sizes.size())];
        if (a != b && a != 1 && b != 1) {
          throw RefError{"The size of tensor a (" + std::to_string(a) +
                         ") must match the size of tensor b (" + std::to_string(b) +
                         ") at non-singleton dimension " + std::to_string(i)};
        }
      }
    }
    shape = std::move(next);
  }
  return shape;
}

RefTensor elementwise(const std::vector<const RefTensor*>& operands, ScalarType compute,
                      ScalarType result, const ElementFn& fn, const Ctx& ctx) {
  RefTensor out{result, broadcast_all(operands), {}};
  out.values.reserve(static_cast<size_t>(out.numel()));
  std::vector<Wide> x(operands.size());
  for_each_index(out.sizes, [&](const Index& index) {
    for (size_t k = 0; k < operands.size(); ++k) {
      x[k] = cast(operands[k]->at_broadcast(index), operands[k]->dtype, compute);
    }
    out.values.push_back(cast(fn(x, ctx), compute, result));
  });
  return out;
}

}  // namespace bp::conformance
