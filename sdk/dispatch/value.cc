#include "sdk/dispatch/value.h"

#include <array>

namespace bp {
namespace {

constexpr std::array<std::string_view, 16> kTagNames = {
    "None",         "bool",  "int",     "float",  "complex", "str",      "ScalarType", "Device",
    "MemoryFormat", "int[]", "float[]", "bool[]", "Tensor",  "Tensor[]", "Tensor?[]",  "Scalar",
};
static_assert(kTagNames.size() == std::variant_size_v<ValuePayload>);
static_assert(static_cast<size_t>(Value::Tag::kScalar) + 1 == std::variant_size_v<ValuePayload>);

template <typename T>
void print_list(std::ostream& out, const std::vector<T>& items) {
  out << '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out << ", ";
    if constexpr (std::is_same_v<T, std::optional<Tensor>>) {
      if (items[i]) {
        out << *items[i];
      } else {
        out << "None";
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      out << (items[i] ? "True" : "False");
    } else {
      out << items[i];
    }
  }
  out << ']';
}

}  // namespace

std::string_view Value::tag_name(Tag tag) { return kTagNames[static_cast<size_t>(tag)]; }

Scalar Value::to_scalar() const {
  switch (tag()) {
    case Tag::kScalar:
      return std::get<Scalar>(payload_);
    case Tag::kBool:
      return Scalar(std::get<bool>(payload_));
    case Tag::kInt:
      return Scalar(std::get<int64_t>(payload_));
    case Tag::kDouble:
      return Scalar(std::get<double>(payload_));
    case Tag::kComplex:
      return Scalar(std::get<complex<double>>(payload_));
    default:
      report_mismatch(Tag::kScalar);
  }
}

void Value::report_mismatch(Tag expected) const {
  detail::throw_error(ErrorCode::kTypeError,
                      detail::str_cat("expected a value of type ", tag_name(expected), " but got ",
                                      tag_name(tag())));
}

std::ostream& operator<<(std::ostream& out, const Value& v) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          out << "None";
        } else if constexpr (std::is_same_v<T, bool>) {
          out << (x ? "True" : "False");
        } else if constexpr (std::is_same_v<T, std::string>) {
          out << '"' << x << '"';
        } else if constexpr (std::is_same_v<T, complex<double>>) {
          out << '(' << x.real() << ',' << x.imag() << ')';
        } else if constexpr (std::is_same_v<T, MemoryFormat>) {
          out << "MemoryFormat(" << static_cast<int>(x) << ')';
        } else if constexpr (requires { x.begin(); }) {
          print_list(out, x);
        } else {
          out << x;
        }
      },
      v.payload_);
  return out;
}

}  // namespace bp
