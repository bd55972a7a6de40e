// bp::Value: one boxed argument or result (c10::IValue's counterpart), and Stack.
//
//   Stack stack;
//   stack.emplace_back(tensor);                 // Tensor
//   stack.emplace_back(std::vector<int64_t>{0, 1});
//   stack.emplace_back(std::nullopt);           // None
//   const Tensor& t = stack[0].ref<Tensor>();   // no refcount traffic
//   std::optional<int64_t> d = stack[2].to<std::optional<int64_t>>();  // nullopt
//   stack[1].to<double>();  // throws TypeError "expected a value of type float but got int[]"
//
// Boxed kernels (C plugins, generic fallbacks such as cpu_fallback and tracing) see an op's
// arguments as the last N values of a Stack and replace them with the op's results.
//
// Thread safety: a value type; concurrent const access is safe.
#ifndef BACKPLANE_SDK_DISPATCH_VALUE_H_
#define BACKPLANE_SDK_DISPATCH_VALUE_H_

#include <complex>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "sdk/core/complex.h"
#include "sdk/core/device.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp {

// The alternatives a Value can hold; the order is the tag numbering (see Value::Tag).
using ValuePayload =
    std::variant<std::monostate, bool, int64_t, double, complex<double>, std::string, ScalarType,
                 Device, MemoryFormat, std::vector<int64_t>, std::vector<double>, std::vector<bool>,
                 Tensor, std::vector<Tensor>, std::vector<std::optional<Tensor>>, Scalar>;

class Value {
 public:
  enum class Tag : uint8_t {
    kNone,
    kBool,
    kInt,
    kDouble,
    kComplex,
    kString,
    kScalarType,
    kDevice,
    kMemoryFormat,
    kIntList,
    kDoubleList,
    kBoolList,
    kTensor,
    kTensorList,
    kOptionalTensorList,
    kScalar,
  };

  // The payload index of T, or -1 when a Value does not store T directly.
  template <typename T>
  static constexpr int kIndexOf = []<size_t... I>(std::index_sequence<I...>) {
    int found = -1;
    ((found = std::is_same_v<T, std::variant_alternative_t<I, ValuePayload>> ? int(I) : found),
     ...);
    return found;
  }
  (std::make_index_sequence<std::variant_size_v<ValuePayload>>{});
  // True for the C++ types a Value stores directly (ref<T>() works for them).
  template <typename T>
  static constexpr bool kHolds = kIndexOf<T> >= 0;

  Value() = default;        // None
  Value(std::nullopt_t) {}  // NOLINT: None
  template <typename T>
  requires(kHolds<std::remove_cvref_t<T>>) Value(T&& v)
      : payload_(std::forward<T>(v)) {}  // NOLINT: implicit boxing
  template <typename T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, int64_t>)
      Value(T v)
      : payload_(static_cast<int64_t>(v)) {}               // NOLINT
  Value(float v) : payload_(static_cast<double>(v)) {}     // NOLINT
  Value(const char* s) : payload_(std::string(s)) {}       // NOLINT
  Value(std::string_view s) : payload_(std::string(s)) {}  // NOLINT
  Value(absl::Span<const int64_t> v)
      : payload_(std::vector<int64_t>(v.begin(), v.end())) {}  // NOLINT
  Value(absl::Span<const Tensor> v)
      : payload_(std::vector<Tensor>(v.begin(), v.end())) {}  // NOLINT
  template <typename T>
  Value(const std::optional<T>& v) {  // NOLINT: None or the value
    if (v) *this = Value(*v);
  }

  Tag tag() const { return static_cast<Tag>(payload_.index()); }
  bool is_none() const { return tag() == Tag::kNone; }
  bool is_tensor() const { return tag() == Tag::kTensor; }
  const ValuePayload& payload() const { return payload_; }

  // The stored T, without copying. Throws Error(kTypeError) naming both types on a mismatch.
  template <typename T>
  requires(kHolds<T>) const T& ref() const {
    const T* p = std::get_if<T>(&payload_);
    if (BP_UNLIKELY(p == nullptr)) report_mismatch(tag_of<T>());
    return *p;
  }
  template <typename T>
  requires(kHolds<T>) T& ref() {
    T* p = std::get_if<T>(&payload_);
    if (BP_UNLIKELY(p == nullptr)) report_mismatch(tag_of<T>());
    return *p;
  }

  // The value as T: any stored type, std::optional<T> (None -> nullopt), Scalar (also from a
  // bool, int, float or complex), absl::Span<const int64_t> / absl::Span<const Tensor> /
  // std::string_view (views of the stored list or string, valid while this Value lives). Throws
  // Error(kTypeError) on a mismatch.
  template <typename T>
  T to() const {
    if constexpr (kHolds<T> && !std::is_same_v<T, Scalar>) {
      return ref<T>();
    } else if constexpr (std::is_same_v<T, Scalar>) {
      return to_scalar();
    } else if constexpr (std::is_same_v<T, absl::Span<const int64_t>>) {
      return ref<std::vector<int64_t>>();
    } else if constexpr (std::is_same_v<T, absl::Span<const Tensor>>) {
      return ref<std::vector<Tensor>>();
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      return ref<std::string>();
    } else if constexpr (is_optional<T>::value) {
      if (is_none()) return std::nullopt;
      return to<typename T::value_type>();
    } else {
      static_assert(sizeof(T) == 0, "bp::Value cannot hold this C++ type");
    }
  }

  // "None", "Tensor", "int[]", ... (schema spelling of the stored type).
  static std::string_view tag_name(Tag tag);

  friend std::ostream& operator<<(std::ostream& out, const Value& v);

 private:
  template <typename T>
  struct is_optional : std::false_type {};
  template <typename T>
  struct is_optional<std::optional<T>> : std::true_type {};

  template <typename T>
  static constexpr Tag tag_of() {
    return static_cast<Tag>(kIndexOf<T>);
  }

  Scalar to_scalar() const;
  [[noreturn]] void report_mismatch(Tag expected) const;

  ValuePayload payload_;
};

// An op's boxed arguments (on entry) and results (on exit) sit at the end of a Stack.
using Stack = std::vector<Value>;

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_VALUE_H_
