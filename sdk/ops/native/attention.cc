// scaled_dot_product_attention: PyTorch 2.1's reference composite (its documented math), over
// matmul, softmax and masked_fill. See sdk/ops/linalg.yaml.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "sdk/core/error.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const std::optional<Tensor>& attn_mask, double dropout_p,
                                    bool is_causal, std::optional<double> scale) {
  BP_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2,
           "scaled_dot_product_attention: query, key and value must have at least 2 dims, got ",
           query.dim(), ", ", key.dim(), " and ", value.dim());
  BP_CHECK(!(is_causal && attn_mask.has_value()),
           "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
           "is_causal=True");
  const double factor = scale.value_or(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  Tensor scores = bp::mul(bp::matmul(query, bp::transpose(key, -2, -1)), factor);
  const double minus_inf = -std::numeric_limits<double>::infinity();
  if (is_causal) {
    const int64_t rows = query.size(-2), cols = key.size(-2);
    const Tensor keep = bp::tril(bp::ones({rows, cols}, ScalarType::kBool, query.device()));
    scores = bp::masked_fill(scores, bp::logical_not(keep), minus_inf);
  }
  if (attn_mask.has_value()) {
    scores = attn_mask->dtype() == ScalarType::kBool
                 ? bp::masked_fill(scores, bp::logical_not(*attn_mask), minus_inf)
                 : bp::add(scores, *attn_mask);
  }
  Tensor weights = bp::softmax(scores, -1);
  weights = bp::dropout(weights, dropout_p, /*train=*/true);
  return bp::matmul(weights, value);
}

}  // namespace bp::native
