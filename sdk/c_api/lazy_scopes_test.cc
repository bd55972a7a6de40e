// Lazy mode through the C ABI: scopes (api->lazy_scope_*, the C++ wrapper's LazyScope) on the
// CPU, and a backend's bp_fusion_fns taking fused groups, or declining them.
#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

Tensor call1(const char* op, std::initializer_list<bp_value> args) {
  return Op(api(), op).call(args).tensor(0);
}

Tensor gelu_chain(const Tensor& x, const Tensor& w, const Tensor& b) {
  const Tensor m = call1("mul.Tensor", {arg(x), arg(w)});
  const Tensor a = call1("add.Tensor", {arg(m), arg(b), arg(1)});
  return call1("gelu", {arg(a), arg("none")});
}

TEST(LazyScopes, ACpuChainMatchesEagerBytes) {
  const Tensor x = filled(BP_DTYPE_FLOAT32, {32, 48}, 1);
  const Tensor w = filled(BP_DTYPE_FLOAT32, {48}, 2);
  const Tensor b = filled(BP_DTYPE_FLOAT32, {48}, 3);
  const Tensor eager = gelu_chain(x, w, b);
  Tensor fused;
  {
    LazyScope lazy(api());
    fused = gelu_chain(x, w, b);
    EXPECT_EQ(fused.sizes(), (std::vector<int64_t>{32, 48}));
    lazy.end();
  }
  EXPECT_EQ(bytes_of(fused), bytes_of(eager));
}

TEST(LazyScopes, ABadCallFailsWhereItIsMade) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2, 3}), b = filled(BP_DTYPE_FLOAT32, {4});
  LazyScope lazy(api());
  EXPECT_THAT(error_of([&] {
                call1("add.Tensor", {arg(a), arg(b), arg(1)});
              }),
              HasSubstr("The size of tensor a (3) must match the size of tensor b (4)"));
  lazy.end();
}

TEST(LazyScopes, ScopesEndInnermostFirstOnTheirThread) {
  bp_lazy_scope* outer = nullptr;
  bp_lazy_scope* inner = nullptr;
  check(api(), api()->lazy_scope_begin(&outer));
  check(api(), api()->lazy_scope_begin(&inner));
  const ErrorHandle wrong(api(), api()->lazy_scope_end(outer));
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_THAT(wrong.message(), HasSubstr("not the innermost lazy scope of this thread"));
  check(api(), api()->lazy_scope_end(inner));
  check(api(), api()->lazy_scope_end(outer));
  const ErrorHandle null_scope(api(), api()->lazy_scope_end(nullptr));
  EXPECT_EQ(null_scope.message(), "bp_api.lazy_scope_end: `scope` is NULL");
  check(api(), api()->lazy_materialize());  // outside lazy mode: nothing to run
}

// A backend whose memory is host RAM and which runs fused groups x * 2 + 1 itself (float32,
// contiguous), recording the group text it was offered; or declines them.
struct Fuser {
  bool accept = true;
  std::vector<std::string> groups;
  size_t buffers = 0;
};

bp_error* run_group(void* user_data, const char* group_json, bp_tensor* const* buffers,
                    size_t nbuffers, bool* accepted) {
  auto* fuser = static_cast<Fuser*>(user_data);
  fuser->groups.emplace_back(group_json);
  fuser->buffers = nbuffers;
  *accepted = fuser->accept;
  if (!fuser->accept) return nullptr;
  bp_tensor_info in{}, out{};
  in.struct_size = out.struct_size = sizeof(bp_tensor_info);
  api()->tensor_info(buffers[0], &in);
  api()->tensor_info(buffers[nbuffers - 1], &out);
  const auto* x = static_cast<const float*>(in.data);
  auto* y = static_cast<float*>(out.data);
  for (int64_t i = 0; i < in.numel; ++i) y[i] = x[i] * 2 + 1;
  return nullptr;
}

class FusingBackend {
 public:
  FusingBackend(const char* name, Fuser* fuser) {
    fusion_.struct_size = sizeof fusion_;
    fusion_.user_data = fuser;
    fusion_.run_group = &run_group;
    bp_backend_desc desc{};
    desc.struct_size = sizeof desc;
    desc.name = name;
    use_host_memory_hooks(desc);
    desc.fusion = &fusion_;
    check(api(), api()->backend_register(&desc, &backend_));
    check(api(), api()->backend_device_type(backend_, &type_));
  }
  ~FusingBackend() { check(api(), api()->backend_unregister(backend_)); }
  FusingBackend(const FusingBackend&) = delete;
  FusingBackend& operator=(const FusingBackend&) = delete;
  bp_device device() const { return bp_device{type_, 0}; }

 private:
  bp_fusion_fns fusion_{};
  bp_backend* backend_ = nullptr;
  int32_t type_ = 0;
};

Tensor twice_plus_one(const Tensor& x) {
  return call1("add.Scalar", {arg(call1("mul.Scalar", {arg(x), arg(2)})), arg(1), arg(1)});
}

TEST(LazyScopes, ABackendTakesAFusedGroupWhole) {
  Fuser fuser;
  const FusingBackend dev("fuser", &fuser);
  const Tensor host = filled(BP_DTYPE_FLOAT32, {3, 5}, 4);
  const Tensor x = copy_to(host, dev.device());
  Tensor y;
  {
    LazyScope lazy(api());
    y = twice_plus_one(x);
    EXPECT_TRUE(fuser.groups.empty());  // recorded, not run
    lazy.end();
  }
  ASSERT_EQ(fuser.groups.size(), 1u);
  EXPECT_THAT(fuser.groups[0], HasSubstr("\"format\":\"backplane.fused_group/1\""));
  // x * 2 is mul.Scalar, which calls mul.Tensor with a wrapped number: the group holds
  // mul.Tensor, with the number as a value (no host memory for the device to read).
  EXPECT_THAT(fuser.groups[0], HasSubstr("\"op\":\"mul.Tensor\""));
  EXPECT_THAT(fuser.groups[0], HasSubstr("\"math\":\"Mul\""));
  EXPECT_THAT(fuser.groups[0], HasSubstr("\"op\":\"add.Tensor\""));
  EXPECT_THAT(fuser.groups[0],
              HasSubstr("{\"scalar\":{\"dtype\":\"int64\",\"value\":2,\"wrapped_number\":true}}"));
  EXPECT_EQ(fuser.buffers, 2u);  // x, then the result
  EXPECT_EQ(y.to_host<float>(), twice_plus_one(host).to_host<float>());
}

TEST(LazyScopes, AGroupTheBackendDeclinesRunsOpByOpThroughItsKernels) {
  Fuser fuser;
  fuser.accept = false;
  const FusingBackend dev("declines", &fuser);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {4}, 1), dev.device());
  LazyScope lazy(api());
  const Tensor y = twice_plus_one(x);
  // The backend registered no kernels: running the group's ops fails, and says which.
  EXPECT_THAT(error_of([&] { lazy.end(); }),
              HasSubstr("Could not run 'bp::mul.out' with arguments from the 'Plugin"));
  EXPECT_EQ(fuser.groups.size(), 1u);
}

}  // namespace
}  // namespace backplane::testing
