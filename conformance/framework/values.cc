#include "conformance/framework/values.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bp::conformance {
namespace {

// The dtype's integral range.
void int_range(ScalarType dtype, int64_t* low, int64_t* high) {
  switch (dtype) {
    case ScalarType::kBool:
      *low = 0, *high = 1;
      return;
    case ScalarType::kUInt8:
      *low = 0, *high = 255;
      return;
    case ScalarType::kInt8:
      *low = -128, *high = 127;
      return;
    case ScalarType::kInt16:
      *low = -32768, *high = 32767;
      return;
    case ScalarType::kInt32:
      *low = std::numeric_limits<int32_t>::min(), *high = std::numeric_limits<int32_t>::max();
      return;
    default:
      *low = std::numeric_limits<int64_t>::min(), *high = std::numeric_limits<int64_t>::max();
  }
}

bool excluded(const Domain& d, double v) {
  return std::find(d.exclude.begin(), d.exclude.end(), v) != d.exclude.end();
}

}  // namespace

int64_t ValueSource::uniform_int(int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(rng_);
}

double ValueSource::uniform_real(double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(rng_);
}

Wide ValueSource::draw_one(ScalarType dtype, const Domain& d) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Wide w;
    switch (kind_of(dtype)) {
      case Kind::kInt: {
        int64_t low, high;
        int_range(dtype, &low, &high);
        w = from_int(Int(uniform_int(std::max(low, d.int_low), std::min(high, d.int_high))));
        if (excluded(d, static_cast<double>(w.i))) continue;
        return w;
      }
      case Kind::kReal: {
        double v = uniform_real(d.low, d.high);
        if (d.whole) v = std::round(v);
        w = cast(from_real(v), ScalarType::kFloat64, dtype);
        if (excluded(d, w.z.real())) continue;
        return w;
      }
      case Kind::kComplex: {
        double re = uniform_real(d.low, d.high), im = uniform_real(d.low, d.high);
        if (d.whole) re = std::round(re), im = std::round(im);
        w = cast(from_complex(cd(re, im)), ScalarType::kComplex128, dtype);
        if (excluded(d, w.z.real()) || excluded(d, w.z.imag())) continue;
        return w;
      }
    }
  }
  return from_int(Int(1));  // unreachable with a sensible domain
}

RefTensor ValueSource::draw(ScalarType dtype, const Sizes& sizes, const Domain& d) {
  RefTensor t{dtype, sizes, {}};
  const size_t n = static_cast<size_t>(t.numel());
  t.values.reserve(n);
  for (size_t i = 0; i < n; ++i) t.values.push_back(draw_one(dtype, d));
  if (n < 8) return t;
  // Specials first, at positions that vary with the seed.
  std::vector<Wide> specials;
  const double inf = std::numeric_limits<double>::infinity();
  if (kind_of(dtype) == Kind::kInt && dtype != ScalarType::kBool && d.int_extremes) {
    int64_t low, high;
    int_range(dtype, &low, &high);
    for (int64_t v : {low, high}) {
      if (!excluded(d, static_cast<double>(v))) specials.push_back(from_int(Int(v)));
    }
  } else if (kind_of(dtype) == Kind::kReal && d.specials) {
    for (double v : {std::nan(""), inf, -inf, -0.0}) specials.push_back(from_real(v));
  } else if (kind_of(dtype) == Kind::kComplex && d.complex_specials) {
    for (cd v : {cd(std::nan(""), 1), cd(1, inf), cd(-inf, 0), cd(-0.0, -0.0)}) {
      specials.push_back(from_complex(v));
    }
  }
  const size_t start = static_cast<size_t>(uniform_int(0, static_cast<int64_t>(n - 1)));
  for (size_t k = 0; k < specials.size() && k < n / 2; ++k) {
    t.values[(start + k * 3) % n] = specials[k];
  }
  return t;
}

}  // namespace bp::conformance
