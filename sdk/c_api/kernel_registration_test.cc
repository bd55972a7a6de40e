// Backends and kernels registered through the C ABI from C++ (with backplane.hpp's typed
// kernels): errors of plugin kernels name the backend and the op, debug mode checks kernels
// against the meta functions, and registrations and descs follow the ABI's rules.
#include <cstring>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

// neg.out(Tensor self, *, Tensor(a!) out) for float32, on host memory.
Tensor neg_out(const bp_api*, Tensor self, Tensor out) {
  const std::vector<float> x = self.to_host<float>();
  auto* o = static_cast<float*>(out.data());
  for (size_t i = 0; i < x.size(); ++i) o[i] = -x[i];
  return out;
}

Tensor refusing_neg_out(const bp_api*, Tensor, Tensor) {
  throw Error(BP_ERROR_NOT_IMPLEMENTED, "no neg for you");
}

TEST(TypedKernels, ServeTheOpThroughCommon) {
  HostBackend dev("typed_dev");
  const Registration r = register_kernel<&neg_out>(api(), dev.get(), "neg.out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2, 2}), dev.device());
  const Tensor y = Op(api(), "neg").call({arg(x)}).tensor(0);
  EXPECT_EQ(y.device().device_type, dev.device().device_type);
  EXPECT_EQ(y.to_host<float>(), (std::vector<float>{3, -4, 0, -7}));
}

TEST(TypedKernels, AnExceptionBecomesAnErrorNamingTheBackendAndTheOp) {
  HostBackend dev("refusing_dev");
  const Registration r = register_kernel<&refusing_neg_out>(api(), dev.get(), "neg.out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  Results results(api(), 1);
  const ErrorHandle error = Op(api(), "neg").try_call({arg(x)}, results);
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(error.message(), "[neg] [refusing_dev] neg.out: no neg for you");
}

TEST(Registrations, DestroyingOneRestoresThePreviousState) {
  HostBackend dev("restore_dev");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  const Op neg(api(), "neg");
  EXPECT_THAT(error_of([&] { neg.call({arg(x)}); }),
              HasSubstr("Could not run 'bp::neg.out' with arguments from the"));
  {
    const Registration r = register_kernel<&neg_out>(api(), dev.get(), "neg.out");
    EXPECT_EQ(neg.call({arg(x)}).tensor(0).to_host<float>(), (std::vector<float>{3, -4}));
  }
  EXPECT_THAT(error_of([&] { neg.call({arg(x)}); }), HasSubstr("Could not run"));
}

TEST(Registrations, StaleAndNullHandlesGiveErrorsNotCrashes) {
  bp_registration* r = nullptr;
  {
    HostBackend dev("stale_dev");
    check(api(), api()->fallback_register(dev.get(), api()->cpu_fallback, nullptr, &r));
  }
  api()->registration_destroy(r);  // its backend already dropped it: nothing to do
  api()->registration_destroy(nullptr);
  bp_backend* gone = nullptr;
  {
    HostBackend dev("stale_dev");
    gone = dev.get();
  }
  const ErrorHandle unregister(api(), api()->backend_unregister(gone));
  EXPECT_EQ(unregister.message(),
            "bp_api.backend_unregister: unknown backend handle (it was unregistered, or never "
            "registered)");
  const ErrorHandle no_backend(
      api(), api()->kernel_register(nullptr, "neg.out", api()->cpu_fallback, nullptr, &r));
  EXPECT_EQ(no_backend.message(), "bp_api.kernel_register: `backend` is NULL");
  HostBackend dev("stale_dev");
  const ErrorHandle no_op(
      api(), api()->kernel_register(dev.get(), "nope.out", api()->cpu_fallback, nullptr, &r));
  EXPECT_EQ(no_op.message(), "operator 'bp::nope.out' is not defined");
}

// ---- Debug checks ------------------------------------------------------------------------

// add.out that returns a fresh tensor instead of its `out` argument.
Tensor add_out_returning_a_copy(const bp_api* api, Tensor self, Tensor, Scalar, Tensor out) {
  return Tensor::empty(api, out.sizes(), out.dtype(), self.device());
}

// add.Tensor (registered directly: Common passes the call on) giving a column-major result.
Tensor add_with_wrong_strides(const bp_api* api, Tensor self, Tensor, Scalar) {
  const std::vector<int64_t> sizes = self.sizes();
  const int64_t strides[] = {1, sizes[0]};
  bp_tensor* t = nullptr;
  check(api, api->tensor_empty_strided(sizes.data(), strides, 2, self.dtype(), self.device(), &t));
  return Tensor(api, t);
}

// add.Tensor giving float64 for float32 inputs.
Tensor add_with_wrong_dtype(const bp_api* api, Tensor self, Tensor, Scalar) {
  return Tensor::empty(api, self.sizes(), BP_DTYPE_FLOAT64, self.device());
}

class DebugChecks : public ::testing::Test {
 protected:
  void TearDown() override { api()->set_debug_checks(false); }
  HostBackend dev{"debug_dev"};
  Tensor a = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}), dev.device());
  Op add{api(), "add.Tensor"};
};

TEST_F(DebugChecks, ReportAnOutKernelThatDoesNotReturnItsOut) {
  const Registration r = register_kernel<&add_out_returning_a_copy>(api(), dev.get(), "add.out");
  add.call({arg(a), arg(a)});  // not checked by default
  api()->set_debug_checks(true);
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(a)});
            }),
            "[add.Tensor] [debug_dev] add.out: debug check: result 0 must be the argument it "
            "writes (alias set 'a': out= and in-place ops return that tensor itself), but the "
            "kernel returned another tensor");
}

TEST_F(DebugChecks, ReportStridesThatDifferFromTheMetaFunctions) {
  const Registration r = register_kernel<&add_with_wrong_strides>(api(), dev.get(), "add.Tensor");
  add.call({arg(a), arg(a)});
  api()->set_debug_checks(true);
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(a)});
            }),
            "[add.Tensor] [debug_dev] add.Tensor: debug check: result 0 has strides [1, 2] but "
            "the op's meta function gives [3, 1]");
}

TEST_F(DebugChecks, ReportADtypeThatDiffersFromTheMetaFunctions) {
  const Registration r = register_kernel<&add_with_wrong_dtype>(api(), dev.get(), "add.Tensor");
  api()->set_debug_checks(true);
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(a)});
            }),
            "[add.Tensor] [debug_dev] add.Tensor: debug check: result 0 has dtype float64 but the "
            "op's meta function gives float32");
}

TEST_F(DebugChecks, PassCorrectKernelsAndTheCpuFallback) {
  const Registration r = register_kernel<&neg_out>(api(), dev.get(), "neg.out");
  bp_registration* fallback = nullptr;
  check(api(), api()->fallback_register(dev.get(), api()->cpu_fallback, nullptr, &fallback));
  const Registration f(api(), fallback);
  api()->set_debug_checks(true);
  EXPECT_EQ(Op(api(), "neg").call({arg(a)}).tensor(0).sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Op(api(), "exp").call({arg(a)}).tensor(0).sizes(), (std::vector<int64_t>{2, 3}));
  Op(api(), "add_.Tensor").call({arg(a), arg(a)});
}

// ---- Common fallthrough ------------------------------------------------------------------

TEST(CommonFallthrough, CallsGoStraightToTheBackendsKernelsUntilItIsDestroyed) {
  HostBackend dev("fallthrough_dev");
  const Registration kernel = register_kernel<&neg_out>(api(), dev.get(), "neg.out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  const Op neg(api(), "neg");
  const Op neg_out_op(api(), "neg.out");
  EXPECT_EQ(neg.call({arg(x)}).tensor(0).to_host<float>(), (std::vector<float>{3, -4}));

  bp_registration* first = nullptr;
  bp_registration* second = nullptr;
  check(api(), api()->common_fallthrough_register(dev.get(), &first));
  check(api(), api()->common_fallthrough_register(dev.get(), &second));
  // No Common: the functional variant reaches the backend, which has no kernel for it...
  EXPECT_THAT(error_of([&] { neg.call({arg(x)}); }),
              HasSubstr("Could not run 'bp::neg' with arguments from the"));
  // ...and out= is not resized: the backend's kernel gets the out it was given.
  const Tensor out = copy_to(filled(BP_DTYPE_FLOAT32, {3}, 1), dev.device());
  const std::vector<float> before = out.to_host<float>();
  neg_out_op.call({arg(x), arg(out)});
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(out.to_host<float>(), (std::vector<float>{3, -4, before[2]}));

  api()->registration_destroy(first);  // registrations nest: the second still holds
  EXPECT_THAT(error_of([&] { neg.call({arg(x)}); }), HasSubstr("Could not run 'bp::neg'"));
  api()->registration_destroy(second);
  EXPECT_EQ(neg.call({arg(x)}).tensor(0).to_host<float>(), (std::vector<float>{3, -4}));
  neg_out_op.call({arg(x), arg(out)});
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2}));  // Common resizes again
}

TEST(CommonFallthrough, BadHandlesGiveErrors) {
  bp_registration* r = nullptr;
  const ErrorHandle no_backend(api(), api()->common_fallthrough_register(nullptr, &r));
  EXPECT_EQ(no_backend.message(), "bp_api.common_fallthrough_register: `backend` is NULL");
  HostBackend dev("fallthrough_null_dev");
  const ErrorHandle no_out(api(), api()->common_fallthrough_register(dev.get(), nullptr));
  EXPECT_EQ(no_out.message(), "bp_api.common_fallthrough_register: `out` is NULL");
}

TEST(CommonFallthrough, UnregisteringTheBackendDropsIt) {
  bp_registration* r = nullptr;
  {
    HostBackend dev("fallthrough_gone_dev");
    check(api(), api()->common_fallthrough_register(dev.get(), &r));
  }
  api()->registration_destroy(r);  // already dropped with its backend: nothing to do
  // A new backend (possibly on the same device type code) starts with Common.
  HostBackend again("fallthrough_gone_dev");
  const Registration kernel = register_kernel<&neg_out>(api(), again.get(), "neg.out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), again.device());
  EXPECT_EQ(Op(api(), "neg").call({arg(x)}).tensor(0).to_host<float>(),
            (std::vector<float>{3, -4}));
}

// ---- Struct sizes ------------------------------------------------------------------------

// A desc as a caller built against newer headers would pass it: `extra` more bytes.
struct NewerDesc {
  bp_backend_desc desc;
  uint64_t newer_field = 0;
};

TEST(StructSizes, ALargerDescWithZeroNewFieldsIsAccepted) {
  NewerDesc newer{};
  bp_backend_desc& desc = newer.desc;
  desc.struct_size = sizeof newer;
  desc.name = "newer_dev";
  use_inert_memory_hooks(desc);  // only the registration matters here
  bp_backend* backend = nullptr;
  check(api(), api()->backend_register(&desc, &backend));
  check(api(), api()->backend_unregister(backend));

  newer.newer_field = 1;  // a field this host does not know, set
  const ErrorHandle error(api(), api()->backend_register(&desc, &backend));
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error.message(),
            "bp_backend_desc has struct_size " + std::to_string(sizeof newer) +
                " but this host (C ABI 0." + std::to_string(BP_API_MINOR) + ") knows " +
                std::to_string(sizeof(bp_backend_desc)) + " bytes of it, and byte " +
                std::to_string(offsetof(NewerDesc, newer_field)) +
                " is not zero: the caller sets a field this host does not have (built against "
                "newer headers?)");
}

TEST(StructSizes, InfoStructsAreWrittenOnlyUpToTheCallersSize) {
  const Tensor t = filled(BP_DTYPE_FLOAT32, {2, 3});
  // An older caller's struct that ends after `ndim`: nothing past it is written.
  bp_tensor_info small;
  std::memset(&small, 0xEE, sizeof small);
  small.struct_size = offsetof(bp_tensor_info, ndim) + sizeof small.ndim;
  check(api(), api()->tensor_info(t.get(), &small));
  EXPECT_EQ(small.ndim, 2u);
  unsigned char sizes_bytes[sizeof small.sizes];
  std::memcpy(sizes_bytes, &small.sizes, sizeof sizes_bytes);
  for (unsigned char b : sizes_bytes) EXPECT_EQ(b, 0xEE);
  // A newer caller's larger struct: the fields this host knows are written, the rest kept.
  struct {
    bp_tensor_info info;
    uint64_t newer_field;
  } large;
  std::memset(&large, 0, sizeof large);
  large.info.struct_size = sizeof large;
  large.newer_field = 42;
  check(api(), api()->tensor_info(t.get(), &large.info));
  EXPECT_EQ(large.info.numel, 6);
  EXPECT_EQ(large.newer_field, 42u);
  // A struct_size that cannot be right.
  bp_tensor_info zero{};
  EXPECT_EQ(error_of([&] { check(api(), api()->tensor_info(t.get(), &zero)); }),
            "bp_tensor_info.struct_size is 0: set it to sizeof(bp_tensor_info)");
}

TEST(Backends, CudaTakesTheBuiltInDeviceTypeAndKey) {
  HostBackend cuda("cuda");
  EXPECT_EQ(cuda.device().device_type, BP_DEVICE_CUDA);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {3}), cuda.device());
  EXPECT_EQ(x.device().device_type, BP_DEVICE_CUDA);
  bp_registration* fallback = nullptr;
  check(api(), api()->fallback_register(cuda.get(), api()->cpu_fallback, nullptr, &fallback));
  EXPECT_EQ(Op(api(), "neg").call({arg(x)}).tensor(0).to_host<float>(),
            (std::vector<float>{3, -4, 0}));
  EXPECT_THAT(error_of([&] { HostBackend again("cuda"); }),
              HasSubstr("backend 'cuda' is already registered"));
}

}  // namespace
}  // namespace backplane::testing
