#include "reference_backend/cuda/jit_sources.h"

namespace bp::cuda {

const std::string& program_head() {
  static const std::string head = std::string(kScalarTypes) + kPreludeMath + kKernelArgs +
                                  "\n// ---- reference_backend/math ----\n" + kMathFunctors +
                                  kElementwise + kReduce + kAlongDim + kGemm + kIndexing;
  return head;
}

uint64_t math_version() {
  static const uint64_t version = fnv1a(program_head().data(), program_head().size());
  return version;
}

uint64_t fnv1a(const void* data, size_t size, uint64_t seed) {
  uint64_t hash = seed;
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace bp::cuda
