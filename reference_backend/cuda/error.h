// The plugin's internal errors: C++ exceptions carrying a C ABI error code, turned into bp_error
// objects at the boundary (plugin.cc) and never thrown across it.
//
//   throw Error(BP_ERROR_NOT_IMPLEMENTED, "\"add\" not implemented for 'bool'");
//   BP_CUDA_CHECK(ndim <= jit::kMaxDims, BP_ERROR_NOT_IMPLEMENTED, "too many dimensions");
//
// Thread safety: a value type.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ERROR_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ERROR_H_

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "backplane/types.h"

namespace bp::cuda {

class Error : public std::runtime_error {
 public:
  Error(int32_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  // A bp_error_code.
  int32_t code() const { return code_; }

 private:
  int32_t code_;
};

// A plan beyond what the plugin's kernels handle (too many dimensions or operands, 64-bit
// indexing a kernel cannot split): the plugin's kernels then run the op on the CPU through the
// host's fallback instead of failing.
class BeyondKernelLimits : public Error {
 public:
  explicit BeyondKernelLimits(const std::string& message)
      : Error(BP_ERROR_NOT_IMPLEMENTED, message) {}
};

namespace detail {
template <typename... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}
}  // namespace detail

}  // namespace bp::cuda

// Throws bp::cuda::Error(code, message parts...) unless `condition` holds.
#define BP_CUDA_CHECK(condition, code, ...)                                   \
  do {                                                                        \
    if (!(condition)) {                                                       \
      throw ::bp::cuda::Error(code, ::bp::cuda::detail::concat(__VA_ARGS__)); \
    }                                                                         \
  } while (false)

// Throws an internal error naming the file and line unless `condition` holds.
#define BP_CUDA_INTERNAL_CHECK(condition, message)                                                 \
  BP_CUDA_CHECK(condition, BP_ERROR_INTERNAL, "internal error at ", __FILE__, ":", __LINE__, ": ", \
                message)

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ERROR_H_
