#include "sdk/core/scalar_type.h"

namespace bp {

std::optional<ScalarType> scalar_type_from_name(std::string_view name) {
  for (const ScalarTypeInfo& info : kScalarTypeInfos) {
    if (info.name == name) return info.type;
  }
  // PyTorch's dtype aliases (torch.float is torch.float32, ...).
  struct Alias {
    std::string_view name;
    ScalarType type;
  };
  static constexpr Alias kAliases[] = {
      {"half", ScalarType::kFloat16},     {"float", ScalarType::kFloat32},
      {"double", ScalarType::kFloat64},   {"short", ScalarType::kInt16},
      {"int", ScalarType::kInt32},        {"long", ScalarType::kInt64},
      {"cfloat", ScalarType::kComplex64}, {"cdouble", ScalarType::kComplex128},
  };
  for (const Alias& alias : kAliases) {
    if (alias.name == name) return alias.type;
  }
  return std::nullopt;
}

std::optional<ScalarType> scalar_type_from_dlpack(DLPackTypeCode code, int bits) {
  for (const ScalarTypeInfo& info : kScalarTypeInfos) {
    if (info.dlpack_code == code && info.dlpack_bits == bits) return info.type;
  }
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, ScalarType t) {
  if (index_of(t) < 0 || index_of(t) >= kNumScalarTypes) {
    return out << "ScalarType(" << index_of(t) << ")";
  }
  return out << scalar_type_name(t);
}

}  // namespace bp
