#include "conformance/families/memory_rules.h"

#include <cmath>
#include <limits>

#include "conformance/framework/layouts.h"
#include "sdk/core/element_cast.h"

namespace bp::conformance {

Sizes sizes_of(const Tensor& t) { return Sizes(t.sizes().begin(), t.sizes().end()); }
Sizes strides_of(const Tensor& t) { return Sizes(t.strides().begin(), t.strides().end()); }

Sizes format_strides(const Sizes& sizes, MemoryFormat format) {
  const DimVector s = contiguous_strides(sizes, format);
  return Sizes(s.begin(), s.end());
}

Sizes preserved_strides(const Tensor& self, std::optional<MemoryFormat> format) {
  const Sizes sizes = sizes_of(self);
  if (format && *format != MemoryFormat::kPreserve) return format_strides(sizes, *format);
  if (self.is_non_overlapping_and_dense()) return strides_of(self);
  return format_strides(sizes, suggest_memory_format(self.sizes(), self.strides()));
}

std::optional<Sizes> view_strides(const Sizes& sizes, const Sizes& strides, const Sizes& shape) {
  Sizes out(shape.size(), 1);
  if (sizes.empty()) return out;
  const int64_t numel = numel_of(sizes);
  if (numel == 0) {
    if (sizes == shape) return strides;
    return contiguous_strides_of(shape);
  }
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    // A chunk of memory ends where the next outer dim does not continue it.
    if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Sizes infer_size(const std::vector<int64_t>& shape, int64_t numel) {
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer) throw RefError{"only one dimension can be inferred"};
      infer = i;
    } else if (shape[i] < 0) {
      throw RefError{"invalid shape dimension " + std::to_string(shape[i])};
    } else {
      known *= shape[i];
    }
  }
  Sizes out(shape.begin(), shape.end());
  const std::string invalid =
      "shape '" + sizes_string(out) + "' is invalid for input of size " + std::to_string(numel);
  if (infer) {
    if (known == 0 && numel == 0) {
      throw RefError{"cannot reshape tensor of 0 elements into shape " + sizes_string(out) +
                     " because the unspecified dimension size -1 can be any value and is "
                     "ambiguous"};
    }
    if (known == 0 || numel % known != 0) throw RefError{invalid};
    out[*infer] = numel / known;
  } else if (known != numel) {
    throw RefError{invalid};
  }
  return out;
}

ExpectedOutput view_of(const Tensor& self, const Sizes& sizes, const Sizes& strides,
                       int64_t offset) {
  ExpectedOutput o;
  o.value = read_tensor(strided_view(self, sizes, strides, offset));
  o.strides = strides;
  o.storage_offset = offset;
  o.aliases = "self";
  return o;
}

namespace {

// The largest finite value of a floating dtype (complex: of its parts).
double largest(ScalarType t) {
  switch (t) {
    case ScalarType::kFloat16:
      return 65504.0;
    case ScalarType::kBFloat16:
      return 3.3895313892515355e38;
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

// [lowest, max] of an integral dtype.
std::pair<int64_t, int64_t> int_limits(ScalarType t) {
  switch (t) {
    case ScalarType::kUInt8:
      return {0, 255};
    case ScalarType::kInt8:
      return {-128, 127};
    case ScalarType::kInt16:
      return {-32768, 32767};
    case ScalarType::kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

// c10's overflow rule for one real part.
bool real_overflows(double v, ScalarType to) {
  if (is_integral(to, false)) {
    if (std::isnan(v) || std::isinf(v)) return true;
    const auto [lo, hi] = int_limits(to);
    // c10 compares with the limits converted to double (so 127.5 overflows int8).
    return v < static_cast<double>(lo) || v > static_cast<double>(hi);
  }
  if (std::isnan(v) || std::isinf(v)) return false;
  return std::fabs(v) > largest(to);
}

bool overflows(const ScalarArg& s, ScalarType to) {
  if (to == ScalarType::kBool || s.type == ScalarType::kBool) return false;
  if (s.type == ScalarType::kInt64) {
    const int64_t v = s.value.i;
    if (!is_integral(to, false)) return std::fabs(static_cast<double>(v)) > largest(to);
    const auto [lo, hi] = int_limits(to);
    // Unsigned targets accept negative values down to -max (they wrap).
    if (lo == 0 && v < 0) return v < -hi;
    return v < lo || v > hi;
  }
  if (s.type == ScalarType::kComplex128) {
    if (!is_complex(to) && s.value.z.imag() != 0) return true;
    return real_overflows(s.value.z.real(), to) || real_overflows(s.value.z.imag(), to);
  }
  return real_overflows(s.value.z.real(), to);
}

}  // namespace

void check_fits(const ScalarArg& value, ScalarType dtype) {
  if (overflows(value, dtype)) {
    throw RefError{"value cannot be converted to type " +
                   std::string(pytorch_cpp_type_name(dtype)) + " without overflow"};
  }
}

}  // namespace bp::conformance
