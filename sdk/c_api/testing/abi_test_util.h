// Helpers for the C ABI's tests, written against the public headers and the C++ wrapper only
// (the tests link libbackplane.so, which exports nothing else).
//
//   const bp_api* api = bp_get_api();
//   HostBackend dev("testdev");                       // a backend whose memory is host RAM
//   Tensor a = filled(BP_DTYPE_INT32, {2, 3});        // deterministic small values on the CPU
//   Tensor d = copy_to(a, dev.device());               // the same values on the device
//   EXPECT_EQ(bytes_of(d), bytes_of(a));
//   EXPECT_EQ(error_of([&] { add.call({arg(a), arg(3)}); }), "[add.Tensor] ...");
#ifndef BACKPLANE_SDK_C_API_TESTING_ABI_TEST_UTIL_H_
#define BACKPLANE_SDK_C_API_TESTING_ABI_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "backplane/backplane.h"
#include "backplane/backplane.hpp"

namespace backplane::testing {

const bp_api* api();

// The path of a test plugin built in sdk/c_api/testing, relative to the test's working directory.
std::string plugin_path(std::string_view file);

// Bytes per element of a bp_dtype.
size_t itemsize(int32_t dtype);

// "float32", "int64", ... for test names and messages.
std::string dtype_name(int32_t dtype);

// A contiguous CPU tensor of `sizes` whose element i holds (i * 7 + seed) % 11 - 3, converted to
// `dtype` (bool: non-zero), so every dtype holds exact, varied values.
Tensor filled(int32_t dtype, const std::vector<int64_t>& sizes, int seed = 0);

// The elements of any tensor in row-major order, as bytes (copied to the host).
std::vector<uint8_t> bytes_of(const Tensor& t);

// A contiguous tensor on `device` with the elements of `t` (copied through the host).
Tensor copy_to(const Tensor& t, bp_device device);

// The message of the backplane::Error `f` throws, or "(no error)".
std::string error_of(const std::function<void()>& f);

// A backend registered through the C ABI whose memory is host RAM (malloc) and whose copies are
// memcpy: for tests that register kernels from C++. Unregistered on destruction.
class HostBackend {
 public:
  explicit HostBackend(const char* name, int32_t device_count = 1);
  ~HostBackend();
  HostBackend(const HostBackend&) = delete;
  HostBackend& operator=(const HostBackend&) = delete;

  bp_backend* get() const { return backend_; }
  bp_device device(int32_t index = 0) const { return bp_device{device_type_, index}; }
  int64_t live_allocations() const;

 private:
  bp_backend* backend_ = nullptr;
  int32_t device_type_ = 0;
};

// Points desc.allocator and desc.copies at HostBackend's hooks (host RAM, memcpy; static,
// shared): for tests that register a backend with more than memory (e.g. bp_fusion_fns).
void use_host_memory_hooks(bp_backend_desc& desc);

// Points desc.allocator and desc.copies at the hooks of a backend that never holds memory
// (every allocation is NULL, copies do nothing; static, shared): for tests where only the
// registration matters.
void use_inert_memory_hooks(bp_backend_desc& desc);

// The device of the registered backend named `name` (index 0). Errors: no such backend.
bp_device backend_device(const std::string& name);
// Whether a backend named `name` is registered.
bool backend_exists(const std::string& name);

// A plugin loaded with api->plugin_load from sdk/c_api/testing, unloaded on destruction. It also
// holds its own dlopen handle to the library, so the test can read the plugin's exported test
// counters even after the host unloads it.
class LoadedPlugin {
 public:
  explicit LoadedPlugin(std::string_view file);
  // A plugin elsewhere in the runfiles ("samples/c_op_plugin/libnpu_op_plugin.so").
  struct Path {
    std::string_view path;
  };
  explicit LoadedPlugin(Path path);
  ~LoadedPlugin();
  LoadedPlugin(const LoadedPlugin&) = delete;
  LoadedPlugin& operator=(const LoadedPlugin&) = delete;

  // Unloads now (the destructor then does nothing). Errors as api->plugin_unload.
  void unload();
  // A function the plugin exports for tests, e.g. "bp_test_plugin_live_allocations".
  int64_t counter(const char* symbol) const;

 private:
  bp_plugin* plugin_ = nullptr;
  void* library_ = nullptr;
};

}  // namespace backplane::testing

#endif  // BACKPLANE_SDK_C_API_TESTING_ABI_TEST_UTIL_H_
