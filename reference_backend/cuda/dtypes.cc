#include "reference_backend/cuda/dtypes.h"

#include <array>

#include "backplane/types.h"

namespace bp::cuda {
namespace {

constexpr std::array<DtypeInfo, kNumDtypes> kInfos = {{
    {Dtype::kBool, BP_DTYPE_BOOL, "bool", "bool", "bool", 1, false, false, false},
    {Dtype::kUInt8, BP_DTYPE_UINT8, "uint8", "uint8_t", "uint8_t", 1, false, false, true},
    {Dtype::kInt8, BP_DTYPE_INT8, "int8", "int8_t", "int8_t", 1, false, false, true},
    {Dtype::kInt16, BP_DTYPE_INT16, "int16", "int16_t", "int16_t", 2, false, false, true},
    {Dtype::kInt32, BP_DTYPE_INT32, "int32", "int32_t", "int", 4, false, false, true},
    {Dtype::kInt64, BP_DTYPE_INT64, "int64", "int64_t", "int64_t", 8, false, false, true},
    {Dtype::kFloat16, BP_DTYPE_FLOAT16, "float16", "bp::Half", "at::Half", 2, false, true, false},
    {Dtype::kBFloat16, BP_DTYPE_BFLOAT16, "bfloat16", "bp::BFloat16", "at::BFloat16", 2, false,
     true, false},
    {Dtype::kFloat32, BP_DTYPE_FLOAT32, "float32", "float", "float", 4, false, true, false},
    {Dtype::kFloat64, BP_DTYPE_FLOAT64, "float64", "double", "double", 8, false, true, false},
    {Dtype::kComplex64, BP_DTYPE_COMPLEX64, "complex64", "bp::complex<float>",
     "c10::complex<float>", 8, true, false, false},
    {Dtype::kComplex128, BP_DTYPE_COMPLEX128, "complex128", "bp::complex<double>",
     "c10::complex<double>", 16, true, false, false},
}};

}  // namespace

const DtypeInfo& info(Dtype dtype) { return kInfos[static_cast<size_t>(dtype)]; }

std::optional<Dtype> dtype_from_abi(int32_t abi) {
  for (const DtypeInfo& i : kInfos) {
    if (i.abi == abi) return i.dtype;
  }
  return std::nullopt;
}

Dtype compute_dtype(Dtype dtype) {
  return dtype == Dtype::kFloat16 || dtype == Dtype::kBFloat16 ? Dtype::kFloat32 : dtype;
}

Dtype real_dtype(Dtype dtype) {
  if (dtype == Dtype::kComplex64) return Dtype::kFloat32;
  if (dtype == Dtype::kComplex128) return Dtype::kFloat64;
  return dtype;
}

}  // namespace bp::cuda
