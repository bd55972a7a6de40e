#include "sdk/core/scalar.h"

namespace bp {

ScalarType Scalar::type() const {
  static constexpr ScalarType kTypes[] = {ScalarType::kBool, ScalarType::kInt64,
                                          ScalarType::kFloat64, ScalarType::kComplex128};
  return kTypes[value_.index()];
}

bool Scalar::overflows(ScalarType t) const {
  return visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return std::visit([](auto v) { return element_overflows<T>(v); }, value_);
  });
}

void Scalar::report_overflow(ScalarType t) {
  detail::throw_error(ErrorCode::kInvalidArgument,
                      detail::str_cat("value cannot be converted to type ",
                                      pytorch_cpp_type_name(t), " without overflow"));
}

Scalar Scalar::operator-() const {
  BP_CHECK(!is_boolean(), "torch boolean negative, the `-` operator, is not supported.");
  return std::visit(
      [](auto v) -> Scalar {
        if constexpr (std::is_same_v<decltype(v), int64_t>) {
          // Two's complement wrap without signed overflow.
          return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(v));
        } else if constexpr (std::is_same_v<decltype(v), bool>) {
          return v;  // Unreachable: rejected above.
        } else {
          return -v;
        }
      },
      value_);
}

std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  std::visit(
      [&](auto v) {
        if constexpr (std::is_same_v<decltype(v), bool>) {
          out << (v ? "true" : "false");
        } else {
          out << v;
        }
      },
      s.value_);
  return out;
}

}  // namespace bp
