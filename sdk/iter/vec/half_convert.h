// convert_reduced_floats: vectorised conversions of contiguous elements among float32, float16 and
// bfloat16, for convert_elements (sdk/iter/strided_convert.h).
//
//   // 1000 floats into float16, if this CPU has a vector path:
//   if (!convert_reduced_floats(ScalarType::kFloat16, dst, ScalarType::kFloat32, src, 1000)) {
//     ...  // convert element by element
//   }
//
// Results are bit-identical to bp::Half's and bp::BFloat16's scalar conversions (sdk/core/half.h,
// sdk/core/bfloat16.h): rounding to nearest even, subnormals, overflow to infinity, and their NaNs
// (float -> float16 gives sign | 0x7E00, float -> bfloat16 sign | 0x7FC0, float16 -> float keeps
// the payload); float16 <-> bfloat16 goes through float, exactly as element_cast does.
// half_convert_test checks every 16-bit pattern and a dense sweep of float32 patterns on every ISA.
//
// Paths, chosen at run time (cpu_capability.h): AVX-512 converts 16 lanes at a time, AVX2 8; both
// need F16C. float16 uses the conversion instructions (vcvtps2ph / vcvtph2ps) with their NaN lanes
// patched (they keep or quieten payloads, the scalar code does not). bfloat16 rounds with integer
// arithmetic, or on CPUs with AVX512_BF16 with vcvtneps2bf16, except for vectors holding a
// subnormal or NaN lane (it flushes the first to zero and keeps the payload of the second).
// bfloat16 -> float is a shift. The baseline ISA has no vector path.
//
// Thread safety: pure; callers make sure `dst` is not written concurrently.
#ifndef BACKPLANE_SDK_ITER_VEC_HALF_CONVERT_H_
#define BACKPLANE_SDK_ITER_VEC_HALF_CONVERT_H_

#include <cstdint>

#include "sdk/core/scalar_type.h"

namespace bp {

// Converts the n contiguous elements of `src` (dtype `src_type`) into `dst` (dtype `dst_type`) and
// returns true, when both dtypes are among kFloat32, kFloat16 and kBFloat16, differ, and this CPU
// has a vector path (see the file comment). Otherwise returns false and writes nothing. Pointers
// need no alignment; `dst` and `src` must not overlap.
bool convert_reduced_floats(ScalarType dst_type, void* dst, ScalarType src_type, const void* src,
                            int64_t n);

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_VEC_HALF_CONVERT_H_
