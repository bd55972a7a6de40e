// api->kernel_cache_*: the KernelCache in the folder the environment names.
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/kernel_cache.h"
#include "sdk/c_api/logging.h"

namespace bp::c_api {
namespace {

constexpr uint64_t kDefaultMaxBytes = uint64_t{1} << 30;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// $BP_KERNEL_CACHE_DIR, else $XDG_CACHE_HOME/backplane/kernels, else
// $HOME/.cache/backplane/kernels. Read at every call, so a process can switch folders.
KernelCache cache_from_environment() {
  std::filesystem::path folder = env("BP_KERNEL_CACHE_DIR");
  if (folder.empty() && !env("XDG_CACHE_HOME").empty()) {
    folder = std::filesystem::path(env("XDG_CACHE_HOME")) / "backplane" / "kernels";
  }
  if (folder.empty() && !env("HOME").empty()) {
    folder = std::filesystem::path(env("HOME")) / ".cache" / "backplane" / "kernels";
  }
  BP_CHECK_WITH_CODE(ErrorCode::kUnavailable, !folder.empty(),
                     "no kernel cache folder: set BP_KERNEL_CACHE_DIR (or HOME)");
  uint64_t max_bytes = kDefaultMaxBytes;
  const std::string max = env("BP_KERNEL_CACHE_MAX_BYTES");
  if (!max.empty()) {
    const auto [end, error] = std::from_chars(max.data(), max.data() + max.size(), max_bytes);
    BP_CHECK(error == std::errc() && end == max.data() + max.size(),
             "BP_KERNEL_CACHE_MAX_BYTES is '", max, "', not a number of bytes");
  }
  return KernelCache(folder.string(), max_bytes, [](const std::string& what) {
    log_info("kernel cache: dropped a corrupted entry: " + what);
  });
}

void check_key(const char* key, const char* function) {
  require(key, function, "key");
  BP_CHECK(key[0] != '\0', "bp_api.", function, ": `key` is empty");
}

bp_error* kernel_cache_get(const char* key, void** data, size_t* size) {
  return guarded([&] {
    check_key(key, "kernel_cache_get");
    require(data, "kernel_cache_get", "data");
    require(size, "kernel_cache_get", "size");
    *data = nullptr;
    *size = 0;
    std::optional<std::string> blob = cache_from_environment().get(key);
    if (!blob) return;
    void* copy = std::malloc(blob->empty() ? 1 : blob->size());
    if (copy == nullptr) throw std::bad_alloc();
    std::memcpy(copy, blob->data(), blob->size());
    *data = copy;
    *size = blob->size();
  });
}

bp_error* kernel_cache_put(const char* key, const void* data, size_t size) {
  return guarded([&] {
    check_key(key, "kernel_cache_put");
    if (size > 0) require(data, "kernel_cache_put", "data");
    const KernelCache cache = cache_from_environment();
    if (!cache.put(key, std::string_view(static_cast<const char*>(data), size))) {
      log_info(detail::str_cat("kernel cache: an entry of ", size,
                               " bytes exceeds BP_KERNEL_CACHE_MAX_BYTES; not stored"));
    }
  });
}

void kernel_cache_free(void* data) { std::free(data); }

}  // namespace

void install_cache_functions(bp_api& api) {
  api.kernel_cache_get = &kernel_cache_get;
  api.kernel_cache_put = &kernel_cache_put;
  api.kernel_cache_free = &kernel_cache_free;
}

}  // namespace bp::c_api
