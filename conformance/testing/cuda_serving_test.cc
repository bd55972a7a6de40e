// The reference CUDA plugin serves every tier-1 op with its own kernels, and the tier-2 ops it has
// kernels for (the range factories, the indexing ops): none runs through the host's CPU fallback.
// The conformance report says, per op, what serves it (`served_by`, `via_fallback`:
// conformance/runner/serving.h); this test reads the same dispatcher table for the kernels
// bp_plugin_init registers (reference_backend/cuda/kernels.h's plugin_registrations, then the CPU
// fallback), under a backend registered through the C ABI as the plugin registers its own. It needs
// no CUDA driver: registering a kernel runs nothing.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "conformance/ops/database.h"
#include "conformance/runner/serving.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/kernels.h"
#include "sdk/dispatch/dispatch_key.h"

namespace bp::conformance {
namespace {

// Host memory stands in for the device: nothing runs, but the host wants a complete backend.
bp_error* allocate(void*, bp_device, size_t nbytes, void** out) {
  *out = std::malloc(nbytes == 0 ? 1 : nbytes);
  return nullptr;
}
void deallocate(void*, bp_device, void* ptr) { std::free(ptr); }
bp_error* to_host(void*, void* dst, const void* src, bp_device, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}
bp_error* from_host(void*, void* dst, bp_device, const void* src, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}
bp_error* within_device(void*, void* dst, bp_device, const void* src, bp_device, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}

void collect(void* user_data, const bp_backend_info* b) {
  if (std::string(b->name) == "cuda_kernels")
    *static_cast<std::string*>(user_data) = b->dispatch_key;
}

class CudaPluginServing : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = bp_get_api();
    cuda::set_api(api_);
    allocator_.struct_size = sizeof allocator_;
    allocator_.alignment = 256;
    allocator_.allocate = &allocate;
    allocator_.deallocate = &deallocate;
    copies_.struct_size = sizeof copies_;
    copies_.to_host = &to_host;
    copies_.from_host = &from_host;
    copies_.within_device = &within_device;
    bp_backend_desc desc{};
    desc.struct_size = sizeof desc;
    desc.name = "cuda_kernels";
    desc.device_count = 1;
    desc.allocator = &allocator_;
    desc.copies = &copies_;
    ASSERT_EQ(api_->backend_register(&desc, &backend_), nullptr);
    // As bp_plugin_init: the plugin's kernels (ops this host does not declare are skipped), then
    // the CPU fallback for every other op.
    for (const cuda::KernelRegistration& k : cuda::plugin_registrations()) {
      bp_registration* r = nullptr;
      bp_error* error = api_->kernel_register(backend_, k.op.c_str(), k.kernel, k.user_data, &r);
      if (error != nullptr) {
        api_->error_destroy(error);
        continue;
      }
      registrations_.push_back(r);
    }
    bp_registration* fallback = nullptr;
    ASSERT_EQ(api_->fallback_register(backend_, api_->cpu_fallback, nullptr, &fallback), nullptr);
    registrations_.push_back(fallback);
    std::string key_name;
    ASSERT_EQ(api_->backend_list(&collect, &key_name), nullptr);
    const std::optional<DispatchKey> key = dispatch_key_from_name(key_name);
    ASSERT_TRUE(key.has_value()) << key_name;
    key_ = *key;
  }

  void TearDown() override {
    for (bp_registration* r : registrations_) api_->registration_destroy(r);
    if (backend_ != nullptr) api_->error_destroy(api_->backend_unregister(backend_));
  }

  const bp_api* api_ = nullptr;
  bp_allocator allocator_{};
  bp_copy_fns copies_{};
  bp_backend* backend_ = nullptr;
  std::vector<bp_registration*> registrations_;
  DispatchKey key_{};
};

TEST_F(CudaPluginServing, NoTierOneOpRunsThroughTheCpuFallback) {
  int checked = 0;
  std::vector<std::string> via_fallback;
  for (const OpEntry& entry : op_database().entries()) {
    if (entry.tier != 1) continue;
    for (const OpVariant& v : entry.variants) {
      const Serving s = serving_of(v.op, key_);
      EXPECT_FALSE(s.missing) << v.op << ": " << s.path;
      if (s.via_fallback) via_fallback.push_back(v.op + " (" + s.path + ")");
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_THAT(via_fallback, ::testing::IsEmpty());
}

// Tier-2 ops the plugin has kernels for are served by them too: the range factories (factories
// with no tensor input, whose out= ops the plugin registers directly).
TEST_F(CudaPluginServing, RangeFactoriesAreServedByThePluginsKernels) {
  for (const char* op : {"arange.start_out", "linspace.out", "logspace.out"}) {
    const Serving s = serving_of(op, key_);
    EXPECT_FALSE(s.missing) << op << ": " << s.path;
    EXPECT_FALSE(s.via_fallback) << op << ": " << s.path;
    EXPECT_THAT(s.path, ::testing::StartsWith("kernel")) << op;
  }
}

// The tier-2 indexing ops (family "indexing": index_select, gather, scatter, scatter_add and the
// composites over them, embedding and masked_select) are served by the plugin's kernels too,
// every variant (functional and in-place ones through the Common key).
TEST_F(CudaPluginServing, IndexingOpsAreServedByThePluginsKernels) {
  int checked = 0;
  std::vector<std::string> via_fallback;
  for (const OpEntry& entry : op_database().entries()) {
    if (entry.family != "indexing") continue;
    for (const OpVariant& v : entry.variants) {
      const Serving s = serving_of(v.op, key_);
      EXPECT_FALSE(s.missing) << v.op << ": " << s.path;
      if (s.via_fallback) via_fallback.push_back(v.op + " (" + s.path + ")");
      ++checked;
    }
  }
  EXPECT_GE(checked, 22);
  EXPECT_THAT(via_fallback, ::testing::IsEmpty());
}

// The check can fail: without the plugin's kernels, the same table reports the fallback.
TEST_F(CudaPluginServing, WithoutThePluginsKernelsTheFallbackIsReported) {
  for (bp_registration* r : registrations_) api_->registration_destroy(r);
  registrations_.clear();
  bp_registration* fallback = nullptr;
  ASSERT_EQ(api_->fallback_register(backend_, api_->cpu_fallback, nullptr, &fallback), nullptr);
  registrations_.push_back(fallback);
  for (const char* op : {"where.self", "linspace.out"}) {
    const Serving s = serving_of(op, key_);
    EXPECT_TRUE(s.via_fallback) << op << ": " << s.path;
    EXPECT_THAT(s.path, ::testing::HasSubstr("backend fallback")) << op;
  }
}

}  // namespace
}  // namespace bp::conformance
