#include "sdk/core/error.h"

namespace bp {

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "RuntimeError";
    case ErrorCode::kIndexError:
      return "IndexError";
    case ErrorCode::kTypeError:
      return "TypeError";
    case ErrorCode::kNotImplemented:
      return "NotImplementedError";
    case ErrorCode::kOutOfMemory:
      return "OutOfMemoryError";
    case ErrorCode::kUnavailable:
      return "UnavailableError";
    case ErrorCode::kInternal:
      return "InternalError";
  }
  return "UnknownError";
}

Error Error::with_context(std::string_view context) const {
  std::string message;
  message.reserve(context.size() + 3 + message_.size());
  message.append("[").append(context).append("] ").append(message_);
  return Error(code_, std::move(message));
}

namespace detail {

void throw_error(ErrorCode code, std::string message) { throw Error(code, std::move(message)); }

void throw_internal_error(const char* file, int line, const char* condition, std::string message) {
  std::string text = str_cat("internal error at ", file, ":", line, ": ", condition, " failed");
  if (!message.empty()) text.append(": ").append(message);
  text.append(" (this is a bug in Backplane; please report it)");
  throw Error(ErrorCode::kInternal, std::move(text));
}

}  // namespace detail
}  // namespace bp
