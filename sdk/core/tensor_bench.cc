// Costs of the tensor basics: creating and destroying small tensors, and copying handles.
//
//   bazel run -c opt //sdk/core:tensor_bench
#include "benchmark/benchmark.h"
#include "sdk/core/empty.h"
#include "sdk/core/tensor.h"
#include "sdk/core/views.h"

namespace bp {
namespace {

void BM_EmptyCpuOneElementFloat32(benchmark::State& state) {
  const Device cpu(DeviceType::kCPU);
  for (auto _ : state) {
    Tensor t = native::empty({1}, ScalarType::kFloat32, cpu);
    benchmark::DoNotOptimize(t.data_ptr());
  }
}
BENCHMARK(BM_EmptyCpuOneElementFloat32);

void BM_EmptyMetaOneElementFloat32(benchmark::State& state) {
  const Device meta(DeviceType::kMeta);
  for (auto _ : state) {
    Tensor t = native::empty({1}, ScalarType::kFloat32, meta);
    benchmark::DoNotOptimize(t.impl());
  }
}
BENCHMARK(BM_EmptyMetaOneElementFloat32);

void BM_EmptyCpu4dChannelsLast(benchmark::State& state) {
  const Device cpu(DeviceType::kCPU);
  for (auto _ : state) {
    Tensor t =
        native::empty({8, 3, 32, 32}, ScalarType::kFloat32, cpu, MemoryFormat::kChannelsLast);
    benchmark::DoNotOptimize(t.data_ptr());
  }
}
BENCHMARK(BM_EmptyCpu4dChannelsLast);

void BM_CopyTensorHandle(benchmark::State& state) {
  Tensor t = native::empty({1}, ScalarType::kFloat32, Device(DeviceType::kCPU));
  for (auto _ : state) {
    Tensor copy = t;
    benchmark::DoNotOptimize(copy.impl());
  }
}
BENCHMARK(BM_CopyTensorHandle);

void BM_TransposeView(benchmark::State& state) {
  Tensor t = native::empty({4, 5}, ScalarType::kFloat32, Device(DeviceType::kCPU));
  for (auto _ : state) {
    Tensor v = native::transpose(t, 0, 1);
    benchmark::DoNotOptimize(v.impl());
  }
}
BENCHMARK(BM_TransposeView);

}  // namespace
}  // namespace bp
