#include "sdk/c_api/error.h"

#include <exception>
#include <new>

#include "sdk/c_api/install.h"

namespace bp::c_api {
namespace {

// Returned when not even an error object can be allocated.
bp_error out_of_memory_error{BP_ERROR_OUT_OF_MEMORY,
                             "out of memory (while reporting another error)"};

bool is_known_code(int32_t code) {
  return code >= BP_ERROR_INVALID_ARGUMENT && code <= BP_ERROR_INTERNAL;
}

}  // namespace

bp_error* make_error(int32_t code, std::string_view message) noexcept {
  try {
    if (is_known_code(code)) return new bp_error{code, std::string(message)};
    return new bp_error{BP_ERROR_INTERNAL,
                        detail::str_cat(message, " (unknown error code ", code, ")")};
  } catch (...) {
    return &out_of_memory_error;
  }
}

void destroy_error(bp_error* error) noexcept {
  if (error != &out_of_memory_error) delete error;
}

bp_error* error_from_current_exception() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    return make_error(static_cast<int32_t>(e.code()), e.message());
  } catch (const std::bad_alloc&) {
    return make_error(BP_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return make_error(BP_ERROR_INTERNAL, detail::str_cat("internal error: ", e.what()));
  } catch (...) {
    return make_error(BP_ERROR_INTERNAL, "internal error: an unknown C++ exception");
  }
}

void throw_error_object(bp_error* error, std::string_view prefix) {
  const ErrorCode code = static_cast<ErrorCode>(error->code);
  std::string message = detail::str_cat(prefix, error->message);
  destroy_error(error);
  detail::throw_error(code, std::move(message));
}

std::string_view without_backend_name(std::string_view message, std::string_view label) {
  if (label.empty()) return message;
  const std::string bracketed = detail::str_cat("[", label, "] ");
  const std::string named = detail::str_cat(label, ": ");
  for (const std::string& prefix : {bracketed, named}) {
    if (message.starts_with(prefix)) return message.substr(prefix.size());
  }
  return message;
}

void throw_backend_error(bp_error* error, std::string_view label, std::string_view context) {
  const ErrorCode code = static_cast<ErrorCode>(error->code);
  std::string message =
      detail::str_cat("[", label, "] ", context, ": ", without_backend_name(error->message, label));
  destroy_error(error);
  detail::throw_error(code, std::move(message));
}

// ---- The ABI's error functions ---------------------------------------------------------------

namespace {

bp_error* error_create(int32_t code, const char* message) {
  return make_error(code, message != nullptr ? message : "");
}

int32_t error_code(const bp_error* error) { return error != nullptr ? error->code : 0; }

const char* error_message(const bp_error* error) {
  return error != nullptr ? error->message.c_str() : "";
}

void error_destroy(bp_error* error) { destroy_error(error); }

}  // namespace

void install_error_functions(bp_api& api) {
  api.error_create = &error_create;
  api.error_code = &error_code;
  api.error_message = &error_message;
  api.error_destroy = &error_destroy;
}

}  // namespace bp::c_api
