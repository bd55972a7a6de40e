// The cost of the C ABI's boxed call over the C++ API's unboxed call, on 1-element tensors (so
// the op's own work is as small as it gets): add.Tensor through api->op_call vs bp::add.
//
//   bazel run -c opt //sdk/c_api:c_api_bench -- --benchmark_repetitions=10
//     --benchmark_report_aggregates_only=true
//
// Both calls run the same kernels on the same tensors; the ABI call adds the argument
// conversion (bp_value -> bp::Value, the default alpha filled in), the boxed dispatch, and the
// result's conversion to a bp_tensor* that is released again. The argument array is built once
// and reused, as a client calling the same op in a loop would.
//
// BM_PluginAdd*: bp::add on 64-element float32 tensors of the C test plugin (Common's meta
// function, output allocation, the plugin's add.out through the C ABI), whose kernel runs over
// the plan the Common key hands it (HandedPlan) or, built against the 0.0 headers, builds its
// own with iter_build (OwnPlan). Run them from the runfiles folder, where the plugins are:
//   cd bazel-bin/sdk/c_api/c_api_bench.runfiles/backplane && ../../c_api_bench
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "backplane/backplane.h"
#include "benchmark/benchmark.h"
#include "sdk/c_api/convert.h"
#include "sdk/core/empty.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

Tensor one_element() {
  Tensor t = native::empty({1}, ScalarType::kFloat32, Device(DeviceType::kCPU));
  *t.data_ptr<float>() = 1.5f;
  return t;
}

void BM_CppAdd(benchmark::State& state) {
  const Tensor a = one_element(), b = one_element();
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c.impl());
  }
}
BENCHMARK(BM_CppAdd);

// nargs = 2: alpha comes from the schema's default, as in bp::add's default argument.
void run_abi_add(benchmark::State& state, size_t nargs) {
  const bp_api* api = bp_get_api();
  const Tensor a = one_element(), b = one_element();
  const bp_op* op = nullptr;
  if (api->op_find("add.Tensor", &op) != nullptr) std::abort();
  bp_value args[3] = {};
  args[0].tag = BP_VALUE_TENSOR;
  args[0].u.tensor = c_api::handle_of(a);
  args[1].tag = BP_VALUE_TENSOR;
  args[1].u.tensor = c_api::handle_of(b);
  args[2].tag = BP_VALUE_INT;
  args[2].u.i = 1;
  for (auto _ : state) {
    bp_value result;
    size_t n = 0;
    if (bp_error* e = api->op_call(op, args, nargs, &result, 1, &n)) {
      state.SkipWithError(api->error_message(e));
      api->error_destroy(e);
      break;
    }
    benchmark::DoNotOptimize(result.u.tensor);
    api->tensor_release(result.u.tensor);
  }
}

void BM_AbiAdd(benchmark::State& state) { run_abi_add(state, 2); }
BENCHMARK(BM_AbiAdd);

void BM_AbiAddExplicitAlpha(benchmark::State& state) { run_abi_add(state, 3); }
BENCHMARK(BM_AbiAddExplicitAlpha);

// The device of the C test plugin built as `file`, whose backend is `backend`: loaded on first use
// (benchmark functions run several times), for the rest of the process.
std::optional<Device> plugin_device(const char* file, const char* backend) {
  static std::map<std::string, std::optional<Device>> devices;
  auto [it, inserted] = devices.try_emplace(file);
  if (!inserted) return it->second;
  const bp_api* api = bp_get_api();
  bp_plugin* plugin = nullptr;
  if (bp_error* e = api->plugin_load((std::string("sdk/c_api/testing/") + file).c_str(), &plugin)) {
    api->error_destroy(e);
    return std::nullopt;
  }
  struct Search {
    const char* name;
    int32_t type;
  } search{backend, 0};
  api->backend_list(
      [](void* s, const bp_backend_info* b) {
        Search& search = *static_cast<Search*>(s);
        if (std::string(b->name) == search.name) search.type = b->device_type;
      },
      &search);
  it->second = Device(static_cast<DeviceType>(search.type), 0);
  return it->second;
}

void run_plugin_add(benchmark::State& state, const char* file, const char* backend) {
  const std::optional<Device> device = plugin_device(file, backend);
  if (!device) {
    state.SkipWithError("cannot load the plugin (run from the runfiles folder)");
    return;
  }
  const Tensor a = full({64}, 1.5, ScalarType::kFloat32, *device);
  const Tensor b = full({64}, 2.5, ScalarType::kFloat32, *device);
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c.impl());
  }
}

void BM_PluginAddHandedPlan(benchmark::State& state) {
  run_plugin_add(state, "libc_test_plugin.so", "cplug");
}
BENCHMARK(BM_PluginAddHandedPlan);

void BM_PluginAddOwnPlan(benchmark::State& state) {
  run_plugin_add(state, "libc_test_plugin_old_minor.so", "cplug_old");
}
BENCHMARK(BM_PluginAddOwnPlan);

}  // namespace
}  // namespace bp

BENCHMARK_MAIN();
