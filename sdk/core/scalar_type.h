// The 12 element types (dtypes) of Backplane tensors, and a visitor over them.
//
//   ScalarType t = ScalarType::kFloat32;
//   size_t n = element_size(t);                       // 4
//   std::string_view s = scalar_type_name(t);         // "float32"
//   visit_dtype(t, [&](auto tag) {
//     using T = typename decltype(tag)::type;         // float
//     ...
//   });
//
// This header is the single definition of the dtype list: the C ABI's enum, the codegen and the
// docs take their codes from `kScalarTypeInfos`. Codes are stable and dense (0..11) so tables can
// be indexed by them; each dtype also records its DLPack (type code, bits) pair, which is what
// crosses the C ABI.
//
// Thread safety: everything here is immutable.
#ifndef BACKPLANE_SDK_CORE_SCALAR_TYPE_H_
#define BACKPLANE_SDK_CORE_SCALAR_TYPE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sdk/core/bfloat16.h"
#include "sdk/core/complex.h"
#include "sdk/core/error.h"
#include "sdk/core/half.h"

namespace bp {

enum class ScalarType : int8_t {
  kBool = 0,
  kUInt8 = 1,
  kInt8 = 2,
  kInt16 = 3,
  kInt32 = 4,
  kInt64 = 5,
  kFloat16 = 6,
  kBFloat16 = 7,
  kFloat32 = 8,
  kFloat64 = 9,
  kComplex64 = 10,
  kComplex128 = 11,
};
inline constexpr int kNumScalarTypes = 12;

// The families type promotion reasons about, in promotion order.
enum class ScalarCategory : int8_t { kBool = 0, kIntegral = 1, kFloating = 2, kComplex = 3 };

// DLPack's DLDataTypeCode values.
enum class DLPackTypeCode : uint8_t {
  kInt = 0,
  kUInt = 1,
  kFloat = 2,
  kBfloat = 4,
  kComplex = 5,
  kBool = 6
};

struct ScalarTypeInfo {
  ScalarType type;
  std::string_view name;  // PyTorch's dtype name without "torch.", e.g. "float32".
  uint8_t itemsize;       // Bytes per element.
  ScalarCategory category;
  DLPackTypeCode dlpack_code;
  uint8_t dlpack_bits;
};

inline constexpr std::array<ScalarTypeInfo, kNumScalarTypes> kScalarTypeInfos = {{
    {ScalarType::kBool, "bool", 1, ScalarCategory::kBool, DLPackTypeCode::kBool, 8},
    {ScalarType::kUInt8, "uint8", 1, ScalarCategory::kIntegral, DLPackTypeCode::kUInt, 8},
    {ScalarType::kInt8, "int8", 1, ScalarCategory::kIntegral, DLPackTypeCode::kInt, 8},
    {ScalarType::kInt16, "int16", 2, ScalarCategory::kIntegral, DLPackTypeCode::kInt, 16},
    {ScalarType::kInt32, "int32", 4, ScalarCategory::kIntegral, DLPackTypeCode::kInt, 32},
    {ScalarType::kInt64, "int64", 8, ScalarCategory::kIntegral, DLPackTypeCode::kInt, 64},
    {ScalarType::kFloat16, "float16", 2, ScalarCategory::kFloating, DLPackTypeCode::kFloat, 16},
    {ScalarType::kBFloat16, "bfloat16", 2, ScalarCategory::kFloating, DLPackTypeCode::kBfloat, 16},
    {ScalarType::kFloat32, "float32", 4, ScalarCategory::kFloating, DLPackTypeCode::kFloat, 32},
    {ScalarType::kFloat64, "float64", 8, ScalarCategory::kFloating, DLPackTypeCode::kFloat, 64},
    {ScalarType::kComplex64, "complex64", 8, ScalarCategory::kComplex, DLPackTypeCode::kComplex,
     64},
    {ScalarType::kComplex128, "complex128", 16, ScalarCategory::kComplex, DLPackTypeCode::kComplex,
     128},
}};

constexpr int index_of(ScalarType t) { return static_cast<int>(t); }
constexpr const ScalarTypeInfo& scalar_type_info(ScalarType t) {
  return kScalarTypeInfos[index_of(t)];
}
constexpr size_t element_size(ScalarType t) { return scalar_type_info(t).itemsize; }
constexpr std::string_view scalar_type_name(ScalarType t) { return scalar_type_info(t).name; }
constexpr ScalarCategory category(ScalarType t) { return scalar_type_info(t).category; }

constexpr bool is_bool(ScalarType t) { return t == ScalarType::kBool; }
// Integral types; with include_bool, bool counts as integral (PyTorch's isIntegralType(t, true)).
constexpr bool is_integral(ScalarType t, bool include_bool) {
  return category(t) == ScalarCategory::kIntegral || (include_bool && is_bool(t));
}
constexpr bool is_floating_point(ScalarType t) { return category(t) == ScalarCategory::kFloating; }
constexpr bool is_complex(ScalarType t) { return category(t) == ScalarCategory::kComplex; }
constexpr bool is_reduced_floating_point(ScalarType t) {
  return t == ScalarType::kFloat16 || t == ScalarType::kBFloat16;
}
constexpr bool is_signed(ScalarType t) { return t != ScalarType::kBool && t != ScalarType::kUInt8; }

// The dtype with this name ("float32"; PyTorch's aliases "float", "double", "half", "long",
// "int", "short", "cfloat", "cdouble" too), or nullopt.
std::optional<ScalarType> scalar_type_from_name(std::string_view name);
// The dtype with this DLPack (code, bits) pair and one lane, or nullopt.
std::optional<ScalarType> scalar_type_from_dlpack(DLPackTypeCode code, int bits);

std::ostream& operator<<(std::ostream& out, ScalarType t);

// ---- C++ types of dtypes --------------------------------------------------------------------

template <typename T>
struct TypeTag {
  using type = T;
};

namespace detail {
template <ScalarType t>
struct CppTypeOf;
template <>
struct CppTypeOf<ScalarType::kBool> {
  using type = bool;
};
template <>
struct CppTypeOf<ScalarType::kUInt8> {
  using type = uint8_t;
};
template <>
struct CppTypeOf<ScalarType::kInt8> {
  using type = int8_t;
};
template <>
struct CppTypeOf<ScalarType::kInt16> {
  using type = int16_t;
};
template <>
struct CppTypeOf<ScalarType::kInt32> {
  using type = int32_t;
};
template <>
struct CppTypeOf<ScalarType::kInt64> {
  using type = int64_t;
};
template <>
struct CppTypeOf<ScalarType::kFloat16> {
  using type = Half;
};
template <>
struct CppTypeOf<ScalarType::kBFloat16> {
  using type = BFloat16;
};
template <>
struct CppTypeOf<ScalarType::kFloat32> {
  using type = float;
};
template <>
struct CppTypeOf<ScalarType::kFloat64> {
  using type = double;
};
template <>
struct CppTypeOf<ScalarType::kComplex64> {
  using type = complex<float>;
};
template <>
struct CppTypeOf<ScalarType::kComplex128> {
  using type = complex<double>;
};
}  // namespace detail

// The C++ element type of a dtype, e.g. cpp_type_t<ScalarType::kFloat16> is bp::Half.
template <ScalarType t>
using cpp_type_t = typename detail::CppTypeOf<t>::type;

// The dtype of a C++ element type, e.g. scalar_type_of<float> == ScalarType::kFloat32. Derived
// from cpp_type_t so the mapping is written once.
template <typename T>
inline constexpr ScalarType scalar_type_of = [] {
  constexpr int code = []<size_t... I>(std::index_sequence<I...>) {
    int found = -1;
    ((found =
          std::is_same_v<T, cpp_type_t<static_cast<ScalarType>(I)>> ? static_cast<int>(I) : found),
     ...);
    return found;
  }
  (std::make_index_sequence<kNumScalarTypes>{});
  static_assert(code >= 0, "not a Backplane element type");
  return static_cast<ScalarType>(code);
}();

// A set of dtypes as a mask: bit i stands for the dtype of code i.
inline constexpr uint32_t kAllScalarTypes = (1u << kNumScalarTypes) - 1;
constexpr uint32_t scalar_type_mask(ScalarType t) { return 1u << index_of(t); }
// The dtypes of one category: scalar_type_mask(ScalarCategory::kIntegral) holds uint8..int64.
constexpr uint32_t scalar_type_mask(ScalarCategory c) {
  uint32_t mask = 0;
  for (const ScalarTypeInfo& info : kScalarTypeInfos) {
    if (info.category == c) mask |= scalar_type_mask(info.type);
  }
  return mask;
}

// Calls `f(TypeTag<T>{})` with the C++ type T of `t` and returns its result. The one dtype switch
// of Backplane. `kMask` restricts the types `f` is instantiated for (a kernel that only compiles
// for some dtypes): the caller checks that `t` is in the mask first; a dtype outside it is an
// internal error.
template <uint32_t kMask = kAllScalarTypes, typename F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
#define BP_VISIT_CASE(code)                                           \
  case static_cast<ScalarType>(code):                                 \
    if constexpr ((kMask >> (code)) & 1u) {                           \
      return f(TypeTag<cpp_type_t<static_cast<ScalarType>(code)>>{}); \
    }                                                                 \
    break;
  switch (t) {
    BP_VISIT_CASE(0)
    BP_VISIT_CASE(1)
    BP_VISIT_CASE(2)
    BP_VISIT_CASE(3)
    BP_VISIT_CASE(4)
    BP_VISIT_CASE(5)
    BP_VISIT_CASE(6)
    BP_VISIT_CASE(7)
    BP_VISIT_CASE(8)
    BP_VISIT_CASE(9)
    BP_VISIT_CASE(10)
    BP_VISIT_CASE(11)
  }
#undef BP_VISIT_CASE
  static_assert(kNumScalarTypes == 12, "visit_dtype lists every dtype code");
  BP_INTERNAL_ASSERT(false, "dtype ", static_cast<int>(t), " is not handled here");
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_SCALAR_TYPE_H_
