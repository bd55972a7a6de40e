// C++ conveniences over the C ABI for the plugin's own code: the host's function table, errors
// turned into exceptions and back, and owning handles. Header-only (the plugin links nothing of
// Backplane).
//
//   Api::set(api);                                  // once, in bp_plugin_init
//   check(api()->iter_build(&config, &raw));        // throws Error carrying the host's message
//   Iter iter(raw);                                 // iter_destroy on scope exit
//   return guarded([&] { ... });                    // a kernel body: exceptions -> bp_error*
//
// Thread safety: Api::set before any other use; the rest follows the C ABI's rules.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ABI_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ABI_H_

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "backplane/api.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {

// The host's table, set once when the plugin loads.
const bp_api* api();
void set_api(const bp_api* api);

// Throws Error with the code and message of `error` (destroying it) unless it is NULL.
inline void check(bp_error* error) {
  if (error == nullptr) return;
  const int32_t code = api()->error_code(error);
  std::string message = api()->error_message(error);
  api()->error_destroy(error);
  throw Error(code, message);
}

// Runs `body`; returns NULL, or a new error carrying the exception's code and message.
template <typename Body>
bp_error* guarded(Body&& body) {
  try {
    body();
    return nullptr;
  } catch (const Error& e) {
    return api()->error_create(e.code(), e.what());
  } catch (const std::exception& e) {
    return api()->error_create(BP_ERROR_INTERNAL, e.what());
  }
}

// An owned tensor reference (tensor_release on destruction).
class TensorRef {
 public:
  TensorRef() = default;
  explicit TensorRef(bp_tensor* t) : t_(t) {}
  TensorRef(TensorRef&& o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  TensorRef& operator=(TensorRef&& o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  ~TensorRef() {
    if (t_ != nullptr) api()->tensor_release(t_);
  }
  bp_tensor* get() const { return t_; }

 private:
  bp_tensor* t_ = nullptr;
};

// An owned iteration plan.
class Iter {
 public:
  explicit Iter(bp_iter* it) : it_(it) {}
  Iter(const Iter&) = delete;
  Iter& operator=(const Iter&) = delete;
  ~Iter() { api()->iter_destroy(it_); }
  bp_iter* get() const { return it_; }

 private:
  bp_iter* it_;
};

// A tensor's metadata (sizes and strides copied out of the borrowed arrays).
struct TensorMeta {
  std::vector<int64_t> sizes, strides;
  int64_t numel = 0;
  int32_t dtype = 0;
  bp_device device{};
  void* data = nullptr;
};
TensorMeta meta_of(const bp_tensor* t);
bool is_contiguous(const bp_tensor* t);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ABI_H_
