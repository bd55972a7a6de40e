// The source text every jitted kernel is built from, embedded at build time (embed_sources):
//
//   kScalarTypes    the portable scalar layer: sdk/core/portable/*.h (int types, Half, BFloat16,
//                   complex, element_cast) and reference_backend/math/traits.h, the same text the
//                   SDK compiles
//   kPreludeMath    jit/prelude_math.cuh: the primitives of reference_backend/math/primitives.h
//   kKernelArgs     jit/kernel_args.h: the parameter blocks the host fills
//   kMathFunctors   reference_backend/math/*.h (not primitives.h): bp::math::Add, ...
//   kElementwise    jit/elementwise.cuh: vectorised, strided and dynamic-cast loops
//   kReduce         jit/reduce.cuh: the reduction kernel template
//   kAlongDim       jit/along_dim.cuh: the scan and normalisation kernel templates
//   kGemm           jit/gemm.cuh: the batched matrix product template
//   kIndexing       jit/indexing.cuh: gather, scatter and their range check
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_SOURCES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_SOURCES_H_

#include <cstdint>
#include <string>

namespace bp::cuda {

extern const char kScalarTypes[];
extern const char kPreludeMath[];
extern const char kKernelArgs[];
extern const char kMathFunctors[];
extern const char kElementwise[];
extern const char kReduce[];
extern const char kAlongDim[];
extern const char kGemm[];
extern const char kIndexing[];

// The common head of every program: prelude, kernel arguments, math functors and templates.
const std::string& program_head();
// A hash of program_head(): the "math version" part of every kernel cache key.
uint64_t math_version();
// FNV-1a, 64 bits.
uint64_t fnv1a(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_SOURCES_H_
