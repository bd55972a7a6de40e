// Error objects of the C ABI (bp_error) and the conversions between them and C++ exceptions.
//
//   bp_error* tensor_info(const bp_tensor* t, bp_tensor_info* out) {
//     return guarded([&] {
//       require(t, "tensor_info", "tensor");     // "bp_api.tensor_info: `tensor` is NULL"
//       ...                                       // may throw bp::Error
//     });
//   }
//
//   bp_error* err = plugin_fn(...);
//   if (err) throw_backend_error(err, "npu", "add.out");  // "[npu] add.out: <its message>"
//
// No C++ exception crosses the C ABI: every entry point runs its body in guarded(), which turns a
// bp::Error into an error object with the same code and message, std::bad_alloc into
// BP_ERROR_OUT_OF_MEMORY and anything else into BP_ERROR_INTERNAL.
//
// Thread safety: everything here may be used from any thread; an error object is not shared.
#ifndef BACKPLANE_SDK_C_API_ERROR_H_
#define BACKPLANE_SDK_C_API_ERROR_H_

#include <string>
#include <string_view>
#include <utility>

#include "backplane/types.h"
#include "sdk/core/error.h"

// The definition behind the C ABI's opaque bp_error.
struct bp_error {
  int32_t code;  // a bp_error_code
  std::string message;
};

namespace bp::c_api {

// A new error object; never throws (an allocation failure gives a static out-of-memory error,
// which error_destroy leaves alone). Codes outside bp_error_code become BP_ERROR_INTERNAL.
bp_error* make_error(int32_t code, std::string_view message) noexcept;
// Frees an error made by make_error (NULL is fine).
void destroy_error(bp_error* error) noexcept;

// The error object for the exception being handled (call inside a catch block).
bp_error* error_from_current_exception() noexcept;

// Runs `body` and returns NULL, or the error object for what it threw.
template <typename F>
bp_error* guarded(F&& body) noexcept {
  try {
    std::forward<F>(body)();
    return nullptr;
  } catch (...) {
    return error_from_current_exception();
  }
}

// Throws Error(kInvalidArgument) "bp_api.<function>: `<what>` is NULL" when `p` is null.
inline void require(const void* p, const char* function, const char* what) {
  if (BP_UNLIKELY(p == nullptr)) {
    detail::throw_error(ErrorCode::kInvalidArgument,
                        detail::str_cat("bp_api.", function, ": `", what, "` is NULL"));
  }
}

// Takes ownership of `error` (destroys it) and throws a bp::Error with its code and
// `prefix` + its message.
[[noreturn]] void throw_error_object(bp_error* error, std::string_view prefix);

// `message` less a leading "[label] " (an error the host raised for this backend, passed on by
// the plugin: "[npu] allocate 16 bytes: ...") or "label: " (a plugin naming itself, as the
// samples once did), so that the backend is named once however many layers pass the error on.
std::string_view without_backend_name(std::string_view message, std::string_view label);

// An error a backend's function returned, with the host's context added once: takes ownership of
// `error` and throws a bp::Error with its code and "[label] context: message", the message
// without_backend_name. ("[npu] add.out: out of device memory", not "[npu] add.out: npu: ...".)
[[noreturn]] void throw_backend_error(bp_error* error, std::string_view label,
                                      std::string_view context);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_ERROR_H_
