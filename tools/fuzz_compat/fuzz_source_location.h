// Forced into every compile of the fuzz build by tools/fuzz (clang 14 with libstdc++ 12).
//
// libstdc++ 12's <source_location> declares std::source_location only when the compiler has
// __builtin_source_location, which clang gained in version 15; without it sdk/dispatch/library.h
// does not compile. This stand-in declares the members Backplane uses from clang's
// __builtin_FILE / __builtin_LINE, so the product's headers stay standard C++ and the gcc build
// (every other build) never sees it.
#ifndef BACKPLANE_TOOLS_FUZZ_COMPAT_FUZZ_SOURCE_LOCATION_H_
#define BACKPLANE_TOOLS_FUZZ_COMPAT_FUZZ_SOURCE_LOCATION_H_

#ifdef __cplusplus
#include <source_location>

#if !defined(__cpp_lib_source_location)
namespace std {
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(),
                                           const char* function = __builtin_FUNCTION(),
                                           unsigned line = __builtin_LINE()) noexcept {
    source_location here;
    here.file_ = file;
    here.function_ = function;
    here.line_ = line;
    return here;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return 0; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  unsigned line_ = 0;
};
}  // namespace std
#endif  // !__cpp_lib_source_location
#endif  // __cplusplus

#endif  // BACKPLANE_TOOLS_FUZZ_COMPAT_FUZZ_SOURCE_LOCATION_H_
