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
#include <cstdlib>

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

}  // namespace
}  // namespace bp

BENCHMARK_MAIN();
