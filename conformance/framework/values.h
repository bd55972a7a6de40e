// Sample values: seeded random elements of any dtype from a domain, with the special values an op
// is defined on (NaN, +-inf, -0.0, integer extremes) mixed in.
//
//   ValueSource src(seed);
//   Domain positive{.low = 0.01, .high = 100, .specials = false};
//   RefTensor t = src.draw(ScalarType::kFloat16, {4, 5}, positive);
//
// Floating values are exactly representable in the dtype (drawn, then rounded to it), so a
// reference reads the same numbers the backend does. Specials replace the first elements of
// tensors with at least 8 elements; integer extremes too.
//
// Thread safety: a ValueSource is used by one thread.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_VALUES_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_VALUES_H_

#include <cstdint>
#include <random>
#include <vector>

#include "conformance/framework/ref_tensor.h"

namespace bp::conformance {

struct Domain {
  // Floating values (and both parts of complex values) are drawn from [low, high].
  double low = -10;
  double high = 10;
  // Integral values from [int_low, int_high], clipped to the dtype's range.
  int64_t int_low = -100;
  int64_t int_high = 100;
  // NaN, +inf, -inf and -0.0 among floating values.
  bool specials = true;
  // NaN and infinite parts among complex values: off by default, since C99's complex special
  // values are left to implementations where PyTorch does not pin them down.
  bool complex_specials = false;
  // The dtype's minimum and maximum among integral values (values that overflow).
  bool int_extremes = true;
  // Values never drawn (e.g. 0 and -1 for integral divisors); checked after rounding.
  std::vector<double> exclude;
  // Round floating values to integers (ops defined on whole numbers, e.g. exact comparisons).
  bool whole = false;
};

class ValueSource {
 public:
  explicit ValueSource(uint64_t seed) : rng_(seed) {}

  RefTensor draw(ScalarType dtype, const Sizes& sizes, const Domain& domain = {});
  // One element of `dtype` from `domain` (no specials).
  Wide draw_one(ScalarType dtype, const Domain& domain);
  int64_t uniform_int(int64_t low, int64_t high);
  double uniform_real(double low, double high);

 private:
  std::mt19937_64 rng_;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_VALUES_H_
