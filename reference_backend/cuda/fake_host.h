// A stand-in for the host's function table, for tests that load libbackplane_cuda.so without
// libbackplane: errors work, registrations are counted and refused.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_FAKE_HOST_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_FAKE_HOST_H_

#include <dlfcn.h>

#include <string>
#include <utility>

#include "backplane/plugin.h"
#include "gtest/gtest.h"

// The host's error object, as this stand-in host defines it.
struct bp_error {
  int32_t code;
  std::string message;
};

namespace bp::cuda::testing {

inline int g_backends_registered = 0;
inline int g_kernels_registered = 0;

inline bp_error* create_error(int32_t code, const char* message) {
  return new bp_error{code, message};
}
inline int32_t error_code(const bp_error* e) { return e->code; }
inline const char* error_message(const bp_error* e) { return e->message.c_str(); }
inline void destroy_error(bp_error* e) { delete e; }
inline bp_error* register_backend(const bp_backend_desc*, bp_backend**) {
  ++g_backends_registered;
  return create_error(BP_ERROR_INTERNAL, "this test host registers no backend");
}
inline bp_error* register_kernel(bp_backend*, const char*, bp_kernel_fn, void*, bp_registration**) {
  ++g_kernels_registered;
  return create_error(BP_ERROR_INTERNAL, "this test host registers no kernel");
}

inline bp_api fake_api() {
  bp_api api{};
  api.struct_size = sizeof api;
  api.major_version = BP_API_MAJOR;
  api.minor_version = BP_API_MINOR;
  api.error_create = &create_error;
  api.error_code = &error_code;
  api.error_message = &error_message;
  api.error_destroy = &destroy_error;
  api.backend_register = &register_backend;
  api.kernel_register = &register_kernel;
  return api;
}

class PluginLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    g_backends_registered = g_kernels_registered = 0;
    handle_ = dlopen("reference_backend/cuda/libbackplane_cuda.so", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    init_ = reinterpret_cast<bp_plugin_init_fn>(dlsym(handle_, BP_PLUGIN_INIT_SYMBOL));
    ASSERT_NE(init_, nullptr);
  }
  void TearDown() override { unsetenv("BP_CUDA_DRIVER"); }

  // Runs bp_plugin_init; returns the error's code and message ({0, ""} for success).
  std::pair<int32_t, std::string> init(const bp_api& api) {
    desc_ = bp_plugin_desc{};
    desc_.struct_size = sizeof desc_;
    bp_error* error = init_(&api, &desc_);
    if (error == nullptr) return {0, ""};
    std::pair<int32_t, std::string> result = {error->code, error->message};
    delete error;
    return result;
  }

  void* handle_ = nullptr;
  bp_plugin_init_fn init_ = nullptr;
  bp_plugin_desc desc_{};
};

}  // namespace bp::cuda::testing

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_FAKE_HOST_H_
