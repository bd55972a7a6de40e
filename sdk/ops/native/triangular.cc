// eye, tril and triu: composites over ops every device backend has (zero_ and fill_ of a
// diagonal view; arange, sub, a comparison and masked_fill), so a plugin gets them for nothing.
#include <cstdint>
#include <optional>

#include "sdk/core/error.h"
#include "sdk/core/promotion.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/structured_calls.h"

namespace bp::native {
namespace {

// Where tril (upper = false) or triu (upper = true) zeroes self's last two dims: a bool mask of
// their sizes, true where column - row is above (below) `diagonal`, on self's device. Errors: a
// self of fewer than 2 dims (PyTorch's message for dim -2 out of range).
Tensor zeroed_mask(const Tensor& self, int64_t diagonal, bool upper) {
  const int64_t rows = self.size(-2), cols = self.size(-1);
  const Tensor row = bp::arange(0, rows, 1, ScalarType::kInt64, self.device()).view({rows, 1});
  const Tensor col = bp::arange(0, cols, 1, ScalarType::kInt64, self.device());
  const Tensor offset = bp::sub(col, row);  // column - row: the diagonal each element is on
  return upper ? bp::lt(offset, diagonal) : bp::gt(offset, diagonal);
}

// tril.out / triu.out: out takes self's dtype and device exactly and is resized to self's sizes
// (PyTorch's structured out= rules, with its warning for a non-empty out of other sizes).
Tensor& triangle_out(const Tensor& self, int64_t diagonal, bool upper, Tensor& out) {
  const Tensor mask = zeroed_mask(self, diagonal, upper);
  structured_detail::check_and_resize_out(out, self.sizes(), {},
                                          TensorOptions{self.dtype(), self.device(), std::nullopt});
  return bp::masked_fill_out(out, self, mask, 0);
}

}  // namespace

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return bp::eye(n, n, dtype, device);
}

Tensor eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor result = bp::empty({0}, dtype.value_or(default_dtype()), device);
  return bp::eye_out(result, n, m);
}

Tensor& eye_out(int64_t n, Tensor& out) { return bp::eye_out(out, n, n); }

Tensor& eye_m_out(int64_t n, int64_t m, Tensor& out) {
  BP_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  BP_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  out.resize_({n, m});
  bp::zero_(out);
  // PyTorch 1.13's CPU kernel has every dtype but bfloat16 (checked after the zeroing, as there).
  BP_CHECK_NOT_IMPLEMENTED(out.dtype() != ScalarType::kBFloat16, "\"eye\" not implemented for '",
                           out.dtype(), "'");
  Tensor diagonal = bp::diagonal(out);
  bp::fill_(diagonal, 1);
  return out;
}

// The functional ops return a contiguous tensor, as PyTorch's structured tril / triu.
Tensor tril(const Tensor& self, int64_t diagonal) {
  Tensor result = bp::empty({0}, self.dtype(), self.device());
  return triangle_out(self, diagonal, /*upper=*/false, result);
}

Tensor& tril_(Tensor& self, int64_t diagonal) {
  return self.masked_fill_(zeroed_mask(self, diagonal, /*upper=*/false), 0);
}

Tensor& tril_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return triangle_out(self, diagonal, /*upper=*/false, out);
}

Tensor triu(const Tensor& self, int64_t diagonal) {
  Tensor result = bp::empty({0}, self.dtype(), self.device());
  return triangle_out(self, diagonal, /*upper=*/true, result);
}

Tensor& triu_(Tensor& self, int64_t diagonal) {
  return self.masked_fill_(zeroed_mask(self, diagonal, /*upper=*/true), 0);
}

Tensor& triu_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return triangle_out(self, diagonal, /*upper=*/true, out);
}

}  // namespace bp::native
