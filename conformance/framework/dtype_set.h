// Sets of dtypes, for saying which dtypes an op supports (PyTorch's all_types_and(...) and
// friends).
//
//   DtypeSet s = kIntegral | kFloating | DtypeSet(ScalarType::kBool);
//   s.has(ScalarType::kInt8);                   // true
//   for (ScalarType t : s.list()) ...           // in dtype code order
//
// Thread safety: a value type.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_DTYPE_SET_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_DTYPE_SET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/core/scalar_type.h"

namespace bp::conformance {

class DtypeSet {
 public:
  constexpr DtypeSet() = default;
  constexpr explicit DtypeSet(ScalarType t) : mask_(scalar_type_mask(t)) {}
  static constexpr DtypeSet from_mask(uint32_t mask) {
    DtypeSet s;
    s.mask_ = mask & kAllScalarTypes;
    return s;
  }

  constexpr uint32_t mask() const { return mask_; }
  constexpr bool has(ScalarType t) const { return (mask_ & scalar_type_mask(t)) != 0; }
  constexpr bool empty() const { return mask_ == 0; }
  constexpr DtypeSet operator|(DtypeSet o) const { return from_mask(mask_ | o.mask_); }
  constexpr DtypeSet operator-(DtypeSet o) const { return from_mask(mask_ & ~o.mask_); }
  constexpr DtypeSet operator&(DtypeSet o) const { return from_mask(mask_ & o.mask_); }
  constexpr bool operator==(const DtypeSet&) const = default;

  std::vector<ScalarType> list() const {
    std::vector<ScalarType> out;
    for (int i = 0; i < kNumScalarTypes; ++i) {
      if ((mask_ >> i) & 1u) out.push_back(static_cast<ScalarType>(i));
    }
    return out;
  }

 private:
  uint32_t mask_ = 0;
};

inline constexpr DtypeSet kBoolOnly = DtypeSet(ScalarType::kBool);
inline constexpr DtypeSet kIntegral = DtypeSet::from_mask(0b111110);      // uint8 .. int64
inline constexpr DtypeSet kFloating = DtypeSet::from_mask(0b1111000000);  // float16 .. float64
inline constexpr DtypeSet kComplex = DtypeSet::from_mask(0b110000000000);
inline constexpr DtypeSet kAllDtypes = DtypeSet::from_mask(kAllScalarTypes);
// PyTorch's all_types(): integral and floating.
inline constexpr DtypeSet kAllTypes = kIntegral | kFloating;
inline constexpr DtypeSet kAllButBool = kAllDtypes - kBoolOnly;
inline constexpr DtypeSet kAllButComplex = kAllDtypes - kComplex;
inline constexpr DtypeSet kFloatingAndComplex = kFloating | kComplex;

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_DTYPE_SET_H_
