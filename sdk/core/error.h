// Errors raised inside Backplane's C++ layers.
//
//   BP_CHECK(a.dim() == b.dim(), "expected tensors of the same rank, got ", a.dim(), " and ",
//            b.dim());
//   BP_CHECK_INDEX(dim < ndim, "Dimension out of range (expected to be in range of [",
//                  -ndim, ", ", ndim - 1, "], but got ", dim, ")");
//   BP_INTERNAL_ASSERT(storage != nullptr);
//
// Two kinds of failure (see docs/design/errors.md):
// - caller mistakes: `BP_CHECK*` throw `bp::Error` with a PyTorch-style message built from the
//   arguments (anything with an `operator<<`), built only when the check fails;
// - broken invariants of Backplane itself: `BP_INTERNAL_ASSERT` throws an `Error` of code
//   `kInternal` whose message starts with "internal error at file:line".
// Nothing aborts. At the C ABI boundary every `Error` becomes an error object carrying its code.
//
// Thread safety: everything here is safe to use from any thread.
#ifndef BACKPLANE_SDK_CORE_ERROR_H_
#define BACKPLANE_SDK_CORE_ERROR_H_

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace bp {

// What kind of mistake an error reports. Mirrors Python's exception classes as PyTorch raises
// them, so bindings can map one-to-one. Numbers are stable (the C ABI uses them).
enum class ErrorCode : int32_t {
  kInvalidArgument = 1,  // RuntimeError / ValueError: bad value, bad shape, bad combination.
  kIndexError = 2,       // IndexError: a dimension or index out of range.
  kTypeError = 3,        // TypeError: wrong dtype or argument type.
  kNotImplemented = 4,   // NotImplementedError: no kernel for this op / dtype / device.
  kOutOfMemory = 5,      // An allocator could not provide memory.
  kUnavailable = 6,      // A device or library is absent (e.g. no CUDA driver).
  kInternal = 7,         // A bug in Backplane: an invariant did not hold.
};

// Name of an error code, e.g. "IndexError".
std::string_view error_code_name(ErrorCode code);

// The exception every Backplane check throws.
class Error : public std::exception {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  ErrorCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }
  const char* what() const noexcept override { return message_.c_str(); }

  // Returns a copy whose message is prefixed with "[context] ", e.g. the op name.
  Error with_context(std::string_view context) const;

 private:
  ErrorCode code_;
  std::string message_;
};

namespace detail {

// Concatenates the streamed form of every argument.
template <typename... Args>
std::string str_cat(const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    std::ostringstream out;
    (out << ... << args);
    return std::move(out).str();
  }
}

[[noreturn]] void throw_error(ErrorCode code, std::string message);
[[noreturn]] void throw_internal_error(const char* file, int line, const char* condition,
                                       std::string message);

// The failure paths of BP_CHECK and BP_INTERNAL_ASSERT, out of line: the message is built here,
// so a checking function keeps no std::string in its frame (no stack protector and fewer saved
// registers on its fast path, which matters for the small functions every op call runs).
template <typename... Args>
[[noreturn, gnu::cold, gnu::noinline]] void throw_check_failure(ErrorCode code,
                                                                const Args&... args) {
  throw_error(code, str_cat(args...));
}
template <typename... Args>
[[noreturn, gnu::cold, gnu::noinline]] void throw_assert_failure(const char* file, int line,
                                                                 const char* condition,
                                                                 const Args&... args) {
  throw_internal_error(file, line, condition, str_cat(args...));
}

}  // namespace detail
}  // namespace bp

#define BP_LIKELY(x) (__builtin_expect(static_cast<bool>(x), 1))
#define BP_UNLIKELY(x) (__builtin_expect(static_cast<bool>(x), 0))

#define BP_CHECK_WITH_CODE(code, cond, ...)                                \
  do {                                                                     \
    if (BP_UNLIKELY(!(cond))) {                                            \
      ::bp::detail::throw_check_failure((code)__VA_OPT__(, ) __VA_ARGS__); \
    }                                                                      \
  } while (false)

// A caller mistake: throws bp::Error(kInvalidArgument) with the concatenated message.
#define BP_CHECK(cond, ...) BP_CHECK_WITH_CODE(::bp::ErrorCode::kInvalidArgument, cond, __VA_ARGS__)
// An out-of-range dimension or index.
#define BP_CHECK_INDEX(cond, ...) \
  BP_CHECK_WITH_CODE(::bp::ErrorCode::kIndexError, cond, __VA_ARGS__)
// A wrong dtype or argument type.
#define BP_CHECK_TYPE(cond, ...) BP_CHECK_WITH_CODE(::bp::ErrorCode::kTypeError, cond, __VA_ARGS__)
// A combination Backplane does not implement (yet).
#define BP_CHECK_NOT_IMPLEMENTED(cond, ...) \
  BP_CHECK_WITH_CODE(::bp::ErrorCode::kNotImplemented, cond, __VA_ARGS__)

// An invariant of Backplane itself. Always on (also in optimised builds): the cost is a branch.
#define BP_INTERNAL_ASSERT(cond, ...)                                                           \
  do {                                                                                          \
    if (BP_UNLIKELY(!(cond))) {                                                                 \
      ::bp::detail::throw_assert_failure(__FILE__, __LINE__, #cond __VA_OPT__(, ) __VA_ARGS__); \
    }                                                                                           \
  } while (false)

#endif  // BACKPLANE_SDK_CORE_ERROR_H_
