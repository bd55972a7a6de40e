// api->op_define (C ABI 0.4): ops defined from C. The sample plugin defines
// npu::fused_add_relu with a meta callback, a CPU reference and its device's out= kernel; the
// test itself defines ops with the binary pointwise meta and checks every refusal.
#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kSamplePlugin = "samples/c_op_plugin/libnpu_op_plugin.so";
constexpr bp_device kCpuDevice = {BP_DEVICE_CPU, 0};
constexpr bp_device kMetaDevice = {BP_DEVICE_META, 0};

// The message op_define returns for `def` ("" on success, then the op is undefined again).
std::string define_error(const bp_op_def& def) {
  bp_registration* reg = nullptr;
  const ErrorHandle error(api(), api()->op_define(&def, &reg));
  api()->registration_destroy(reg);
  return error ? error.message() : "";
}

std::vector<float> values_of(const Tensor& t) { return t.to_host<float>(); }

class SamplePlugin : public ::testing::Test {
 protected:
  LoadedPlugin plugin_{LoadedPlugin::Path{kSamplePlugin}};
  Op op_{api(), "npu::fused_add_relu"};
  Op out_op_{api(), "npu::fused_add_relu.out"};
  bp_device npu_ = backend_device("npu");
  Tensor a_ = Tensor::from_host<float>(api(), {1, -2, 3, -4, 0.5f, NAN}, {2, 3});
  Tensor b_ = Tensor::from_host<float>(api(), {1, 1, -5, 2, 0.25f, 1}, {2, 3});
};

TEST_F(SamplePlugin, RunsOnItsDeviceThroughCommon) {
  const Tensor result = op_.call({arg(copy_to(a_, npu_)), arg(copy_to(b_, npu_))}).tensor(0);
  EXPECT_EQ(result.device().device_type, npu_.device_type);
  EXPECT_THAT(result.sizes(), ElementsAre(2, 3));
  const std::vector<float> got = values_of(result);
  EXPECT_THAT(std::vector<float>(got.begin(), got.end() - 1), ElementsAre(2, 0, 0, 0, 0.75f));
  EXPECT_TRUE(std::isnan(got.back()));
  EXPECT_EQ(plugin_.counter("npu_op_plugin_device_calls"), 1);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_cpu_calls"), 0);
}

TEST_F(SamplePlugin, OutResizesAnEmptyOutOnItsDevice) {
  const Tensor out = Tensor::empty(api(), {0}, BP_DTYPE_FLOAT32, npu_);
  const Tensor result =
      out_op_.call({arg(copy_to(a_, npu_)), arg(copy_to(b_, npu_)), arg(out)}).tensor(0);
  EXPECT_EQ(result.get(), out.get());
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(values_of(out)[0], 2);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_device_calls"), 1);
}

TEST_F(SamplePlugin, MetaGivesTheShapeFromTheCallbackAndComputesNothing) {
  const Results results = op_.call_meta({arg(copy_to(a_, npu_)), arg(b_)});
  const Tensor result = results.tensor(0);
  EXPECT_EQ(result.device().device_type, BP_DEVICE_META);
  EXPECT_THAT(result.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(result.dtype(), BP_DTYPE_FLOAT32);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_device_calls"), 0);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_cpu_calls"), 0);
  // Meta tensors as arguments: the Meta key's kernel.
  const Tensor m = Tensor::empty(api(), {4, 1}, BP_DTYPE_FLOAT32, kMetaDevice);
  EXPECT_THAT(op_.call({arg(m), arg(m)}).tensor(0).sizes(), ElementsAre(4, 1));
}

TEST_F(SamplePlugin, RunsTheCpuReferenceOnCpuTensors) {
  const Tensor result = op_.call({arg(a_), arg(b_)}).tensor(0);
  EXPECT_EQ(result.device().device_type, BP_DEVICE_CPU);
  EXPECT_EQ(values_of(result)[0], 2);
  EXPECT_EQ(values_of(result)[2], 0);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_cpu_calls"), 1);
  EXPECT_EQ(plugin_.counter("npu_op_plugin_device_calls"), 0);
}

TEST_F(SamplePlugin, TheMetaCallbacksErrorsNameThePluginAndTheOp) {
  const Tensor c = Tensor::from_host<float>(api(), {1, 2, 3}, {3});
  EXPECT_EQ(error_of([&] {
              op_.call({arg(copy_to(a_, npu_)), arg(copy_to(c, npu_))});
            }),
            "[fused_add_relu] [npu] fused_add_relu: expected tensors of one shape: self has "
            "sizes [2, 3], other [3]");
  const Tensor i = Tensor::from_host<int32_t>(api(), {1, 2, 3}, {3});
  EXPECT_THAT(error_of([&] {
                op_.call({arg(i), arg(i)});
              }),
              HasSubstr("[npu] fused_add_relu: expected float32 tensors"));
  EXPECT_EQ(plugin_.counter("npu_op_plugin_device_calls"), 0);
}

TEST_F(SamplePlugin, TheOpIsListedAndTheDefinitionsAreRefusedTwice) {
  std::vector<std::string> names;
  api()->op_list(
      [](void* names, const char* name) {
        if (std::string(name).starts_with("npu::"))
          static_cast<std::vector<std::string>*>(names)->push_back(name);
      },
      &names);
  EXPECT_THAT(names, ElementsAre("npu::fused_add_relu", "npu::fused_add_relu.out"));
  bp_op_def def{};
  def.struct_size = sizeof def;
  def.schema = "npu::fused_add_relu(Tensor self, Tensor other) -> Tensor";
  def.out_schema =
      "npu::fused_add_relu.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)";
  def.meta_kind = BP_OP_META_BINARY_POINTWISE;
  EXPECT_EQ(define_error(def),
            "bp_api.op_define: operator 'npu::fused_add_relu' is already defined");
  // The plugin's definition is untouched.
  EXPECT_EQ(values_of(op_.call({arg(a_), arg(b_)}).tensor(0))[0], 2);
}

TEST(OpDefine, UnloadingThePluginUndefinesItsOp) {
  const bp_op* stale = nullptr;
  {
    LoadedPlugin plugin{LoadedPlugin::Path{kSamplePlugin}};
    ASSERT_EQ(api()->op_find("npu::fused_add_relu", &stale), nullptr);
    plugin.unload();
  }
  const bp_op* found = nullptr;
  const ErrorHandle missing(api(), api()->op_find("npu::fused_add_relu", &found));
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing.message(), "operator 'npu::fused_add_relu' is not defined");
  const Tensor a = Tensor::from_host<float>(api(), {1}, {1});
  bp_value args[2] = {arg(a), arg(a)};
  bp_value result;
  size_t n = 0;
  const ErrorHandle gone(api(), api()->op_call(stale, args, 2, &result, 1, &n));
  ASSERT_TRUE(gone);
  EXPECT_THAT(gone.message(), HasSubstr("operator 'npu::fused_add_relu' is no longer defined"));
  // Loaded again, the op is defined again (a new bp_op).
  LoadedPlugin again{LoadedPlugin::Path{kSamplePlugin}};
  EXPECT_EQ(Op(api(), "npu::fused_add_relu").call({arg(a), arg(a)}).tensor(0).to_host<float>()[0],
            2);
}

// ---- The binary pointwise meta, defined by the test (a client: no plugin owns it) ------------

int cpu_calls = 0;
int64_t cpu_plan_operands = 0;
int32_t cpu_plan_dtype = 0;

// test_ns::scaled_sub.out on the CPU: out = self - other, over the plan the host built.
bp_error* scaled_sub_cpu(void*, const bp_op*, const bp_value* args, size_t nargs, bp_value* results,
                         size_t) {
  ++cpu_calls;
  const bp_iter* plan;
  if (bp_error* err = api()->kernel_call_iter(args, &plan)) return err;
  bp_iter_info info{};
  info.struct_size = sizeof info;
  if (bp_error* err = api()->iter_info(plan, &info)) return err;
  cpu_plan_operands = static_cast<int64_t>(info.ntensors);
  cpu_plan_dtype = info.common_dtype;
  // The inputs promote to float32 here: compute through the host's sub.
  bp_value out_args[4] = {args[0], args[1], arg(int64_t{1}), args[nargs - 1]};
  const bp_op* sub;
  if (bp_error* err = api()->op_find("sub.out", &sub)) return err;
  size_t n;
  return api()->op_call(sub, out_args, 4, results, 1, &n);
}

bp_op_def scaled_sub_def() {
  bp_op_def def{};
  def.struct_size = sizeof def;
  def.schema = "test_ns::scaled_sub(Tensor self, Tensor other) -> Tensor";
  def.out_schema =
      "test_ns::scaled_sub.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)";
  def.meta_kind = BP_OP_META_BINARY_POINTWISE;
  def.cpu_kernel = &scaled_sub_cpu;
  return def;
}

TEST(OpDefine, BinaryPointwiseMetaBroadcastsPromotesAndHandsThePlan) {
  const bp_op_def def = scaled_sub_def();
  bp_registration* reg = nullptr;
  check(api(), api()->op_define(&def, &reg));
  cpu_calls = 0;
  const Op op(api(), "test_ns::scaled_sub");
  const Tensor a = Tensor::from_host<int32_t>(api(), {10, 20}, {2, 1});
  const Tensor b = Tensor::from_host<float>(api(), {1, 2, 3}, {3});
  const Tensor result = op.call({arg(a), arg(b)}).tensor(0);
  EXPECT_THAT(result.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(result.dtype(), BP_DTYPE_FLOAT32);
  EXPECT_THAT(result.to_host<float>(), ElementsAre(9, 8, 7, 19, 18, 17));
  EXPECT_EQ(cpu_calls, 1);
  EXPECT_EQ(cpu_plan_operands, 3);
  EXPECT_EQ(cpu_plan_dtype, BP_DTYPE_FLOAT32);
  // Meta: the family's shape and dtype, no kernel.
  const Tensor meta = op.call_meta({arg(a), arg(b)}).tensor(0);
  EXPECT_THAT(meta.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(meta.dtype(), BP_DTYPE_FLOAT32);
  EXPECT_EQ(cpu_calls, 1);
  // The family's errors, as mul's.
  const Tensor c = Tensor::from_host<float>(api(), {1, 2}, {2});
  EXPECT_THAT(error_of([&] {
                op.call({arg(b), arg(c)});
              }),
              HasSubstr("The size of tensor a (3) must match the size of tensor b (2)"));
  // A device without a kernel for it: the dispatcher says so, naming the op.
  HostBackend dev("opdef_dev");
  EXPECT_THAT(error_of([&] {
                op.call({arg(copy_to(b, dev.device())), arg(copy_to(b, dev.device()))});
              }),
              HasSubstr("test_ns::scaled_sub.out"));
  api()->registration_destroy(reg);
  const bp_op* gone;
  const ErrorHandle missing(api(), api()->op_find("test_ns::scaled_sub", &gone));
  EXPECT_TRUE(missing);
  // Defined again after the registration was destroyed.
  check(api(), api()->op_define(&def, &reg));
  api()->registration_destroy(reg);
}

TEST(OpDefine, RefusesBadDefinitionsNamingWhatIsWrong) {
  bp_op_def def = scaled_sub_def();
  def.schema = "test_ns::bad(Tensor self, Tensor other -> Tensor";
  EXPECT_THAT(define_error(def),
              HasSubstr("bp_api.op_define: bp_op_def.schema: schema 'test_ns::bad(Tensor self, "
                        "Tensor other -> Tensor' at column"));
  def = scaled_sub_def();
  def.schema = "scaled_sub(Tensor self, Tensor other) -> Tensor";
  EXPECT_THAT(define_error(def), HasSubstr("has no namespace"));
  def.schema = "bp::scaled_sub(Tensor self, Tensor other) -> Tensor";
  EXPECT_THAT(define_error(def), HasSubstr("is in namespace 'bp', Backplane's own"));
  def = scaled_sub_def();
  def.schema = "test_ns::scaled_sub(Tensor(a!) self, Tensor other) -> Tensor(a!)";
  EXPECT_THAT(define_error(def), HasSubstr("must be a functional op returning one Tensor"));
  def = scaled_sub_def();
  def.out_schema = "test_ns::scaled_sub.out(Tensor self, Tensor other, *, Tensor out) -> Tensor";
  EXPECT_THAT(define_error(def),
              HasSubstr("bp_op_def.out_schema 'test_ns::scaled_sub.out(Tensor self, Tensor "
                        "other, *, Tensor out) -> Tensor' is not the out= overload of"));
  def.out_schema = "test_ns::other.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)";
  EXPECT_THAT(define_error(def), HasSubstr("is not the out= overload"));
  def = scaled_sub_def();
  def.out_schema = nullptr;
  EXPECT_EQ(define_error(def), "bp_api.op_define: bp_op_def.out_schema is NULL");
  def = scaled_sub_def();
  def.meta_kind = 7;
  EXPECT_EQ(define_error(def),
            "bp_api.op_define: bp_op_def.meta_kind is 7: expected BP_OP_META_CALLBACK (1) or "
            "BP_OP_META_BINARY_POINTWISE (2)");
  def.meta_kind = BP_OP_META_CALLBACK;
  EXPECT_EQ(define_error(def),
            "bp_api.op_define: bp_op_def.meta is NULL but meta_kind is BP_OP_META_CALLBACK");
  def = scaled_sub_def();
  def.schema = "test_ns::scaled_sub(Tensor self, int other) -> Tensor";
  def.out_schema =
      "test_ns::scaled_sub.out(Tensor self, int other, *, Tensor(a!) out) -> Tensor(a!)";
  EXPECT_THAT(define_error(def),
              HasSubstr("BP_OP_META_BINARY_POINTWISE needs the first two arguments"));
  // A definition of a newer caller: bytes past what this host knows must be zero.
  struct {
    bp_op_def def;
    int64_t future_field;
  } newer = {scaled_sub_def(), 1};
  newer.def.struct_size = sizeof newer;
  EXPECT_THAT(define_error(newer.def), HasSubstr("bp_op_def has struct_size"));
  bp_registration* reg;
  const ErrorHandle null_def(api(), api()->op_define(nullptr, &reg));
  EXPECT_EQ(null_def.message(), "bp_api.op_define: `def` is NULL");
  // Nothing was left defined by the refusals.
  const bp_op* op;
  const ErrorHandle missing(api(), api()->op_find("test_ns::scaled_sub", &op));
  EXPECT_TRUE(missing);
}

}  // namespace
}  // namespace backplane::testing
