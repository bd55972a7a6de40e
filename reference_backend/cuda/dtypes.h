// Element types as the CUDA plugin sees them: the C ABI's bp_dtype codes, the dense codes (0..11)
// that op declarations' dtype masks and kernel arguments use, and their names in kernel source.
//
//   std::optional<Dtype> d = dtype_from_abi(BP_DTYPE_FLOAT16);   // Dtype::kFloat16
//   info(*d).name;                                               // "float16"
//   info(*d).device_type;                                        // "bp::Half"
//   compute_dtype(*d);                                           // Dtype::kFloat32
//
// The dense order is sdk/core/scalar_type.h's ScalarType order (the codegen writes dtype masks in
// it); dtypes_test checks the two agree.
//
// Thread safety: immutable tables.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_DTYPES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_DTYPES_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace bp::cuda {

enum class Dtype : int8_t {
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
inline constexpr int kNumDtypes = 12;

struct DtypeInfo {
  Dtype dtype;
  int32_t abi;                    // the bp_dtype code
  std::string_view name;          // "float32"
  std::string_view device_type;   // the element type in kernel source: "float", "bp::Half"
  std::string_view pytorch_type;  // in PyTorch's messages: "uint8_t", "int", "at::Half"
  uint8_t itemsize;
  bool is_complex;
  bool is_floating;  // float16, bfloat16, float32, float64
  bool is_integral;  // bool excluded
};

const DtypeInfo& info(Dtype dtype);
inline int code(Dtype dtype) { return static_cast<int>(dtype); }
inline Dtype dtype_of_code(int code) { return static_cast<Dtype>(code); }
// The dtype of a bp_dtype code, or nullopt for an unknown code.
std::optional<Dtype> dtype_from_abi(int32_t abi);
// The dtype a kernel computes in for element dtype `dtype`: float32 for float16 and bfloat16
// (PyTorch's opmath type), the dtype itself otherwise.
Dtype compute_dtype(Dtype dtype);
// The real counterpart of a complex dtype (complex64 -> float32); other dtypes are their own.
Dtype real_dtype(Dtype dtype);
// Whether bit code(dtype) is set in a dtype mask.
inline bool in_mask(uint32_t mask, Dtype dtype) { return (mask >> code(dtype)) & 1u; }

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_DTYPES_H_
