// convert_elements: the one conversion between dtypes used by the CPU loops (dynamic casting in
// cpu_kernel, input loads in reductions) and by cast_copy.
//
//   // 100 int32 values, every other one, into a contiguous float buffer:
//   convert_elements(ScalarType::kFloat32, buf, sizeof(float),
//                    ScalarType::kInt32, src, 2 * sizeof(int32_t), 100);
//
// Element conversions follow PyTorch (bp::element_cast: wrapping integers, complex -> real takes
// the real part, floating -> integer through int64, ...). Same-dtype copies move bytes (memcpy
// when both sides are contiguous). Contiguous casts among float32, float16 and bfloat16
// (sdk/iter/vec/half_convert.h), float <-> double and int32 -> float / double run as vector code
// for the CPU's ISA, with the same results bit for bit; the others, and strided ones, convert
// element by element.
//
// Thread safety: pure; callers make sure `dst` is not written concurrently.
#ifndef BACKPLANE_SDK_ITER_STRIDED_CONVERT_H_
#define BACKPLANE_SDK_ITER_STRIDED_CONVERT_H_

#include <cstdint>

#include "sdk/core/scalar_type.h"

namespace bp {

// dst[i * dst_stride] = convert(src[i * src_stride]) for i in [0, n); strides are in bytes and may
// be 0 for src (a broadcast value). `dst` and `src` must not partially overlap.
void convert_elements(ScalarType dst_type, char* dst, int64_t dst_stride, ScalarType src_type,
                      const char* src, int64_t src_stride, int64_t n);

// Loads n elements of dtype `src_type` into the contiguous buffer `out` of T.
template <typename T>
void load_converted(T* out, ScalarType src_type, const char* src, int64_t src_stride, int64_t n) {
  convert_elements(scalar_type_of<T>, reinterpret_cast<char*>(out), sizeof(T), src_type, src,
                   src_stride, n);
}

// Stores n elements of the contiguous buffer `in` as dtype `dst_type`.
template <typename T>
void store_converted(ScalarType dst_type, char* dst, int64_t dst_stride, const T* in, int64_t n) {
  convert_elements(dst_type, dst, dst_stride, scalar_type_of<T>, reinterpret_cast<const char*>(in),
                   sizeof(T), n);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_STRIDED_CONVERT_H_
