// Bandwidth of jitted kernels against the device's own copy bandwidth, measured in the same run,
// and the cost of getting a kernel: a first call (NVRTC compile + load) and a disk-cache hit
// (load only). Needs a GPU; without one it prints why and runs nothing.
//
//   bazel run -c opt //reference_backend/cuda:cuda_bench -- --benchmark_min_time=0.5
//
// Bandwidth counts the bytes each kernel must move (inputs read + output written); the copy
// baseline (cuMemcpyDtoDAsync) moves 2 bytes per byte copied. Times include a stream
// synchronisation per iteration.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/gpu_test_support.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda {
namespace {

constexpr int64_t kElements = int64_t{1} << 26;  // 64 Mi elements: 256 MiB of float32

PlanOperand contiguous(char* data, Dtype dtype) {
  return {{static_cast<int64_t>(info(dtype).itemsize)}, data, dtype, false};
}

// Runs `computation` over kElements contiguous elements (inputs of `in`, output of `out`).
void bench_elementwise(benchmark::State& state, const Computation& computation, Dtype in, Dtype out,
                       std::vector<jit::Value> values) {
  CudaDevice& device = *test_device();
  const size_t in_size = info(in).itemsize, out_size = info(out).itemsize;
  std::vector<void*> buffers;
  IterPlan plan;
  plan.shape = {kElements};
  buffers.push_back(device.allocator().allocate(kElements * out_size));
  plan.operands.push_back(contiguous(static_cast<char*>(buffers.back()), out));
  for (int i = 0; i < computation.num_inputs; ++i) {
    buffers.push_back(device.allocator().allocate(kElements * in_size));
    plan.operands.push_back(contiguous(static_cast<char*>(buffers.back()), in));
  }
  const ElementwiseLaunch launch = plan_elementwise(computation, in, out, plan, values);
  run_elementwise(device, launch);  // compile outside the timing
  device.synchronize();
  for (auto _ : state) {
    run_elementwise(device, launch);
    device.synchronize();
  }
  state.SetBytesProcessed(state.iterations() * kElements *
                          static_cast<int64_t>(computation.num_inputs * in_size + out_size));
  state.SetLabel(launch.kernel.entry_name());
  for (void* b : buffers) device.allocator().deallocate(b);
}

jit::Value float_value(double x) {
  bp_value v{};
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = x;
  return scalar_as(v, Dtype::kFloat32);
}

void BM_DeviceToDeviceCopy(benchmark::State& state) {
  CudaDevice& device = *test_device();
  const size_t bytes = kElements * sizeof(float);
  void* a = device.allocator().allocate(bytes);
  void* b = device.allocator().allocate(bytes);
  for (auto _ : state) {
    device.copy_within(b, a, bytes);
    device.synchronize();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(2 * bytes));
  device.allocator().deallocate(a);
  device.allocator().deallocate(b);
}

void BM_JitAddFloat32(benchmark::State& state) {
  bench_elementwise(state, computation_of(*find_pointwise_op("add.out")), Dtype::kFloat32,
                    Dtype::kFloat32, {float_value(1.0)});
}

void BM_JitMulFloat32(benchmark::State& state) {
  bench_elementwise(state, computation_of(*find_pointwise_op("mul.out")), Dtype::kFloat32,
                    Dtype::kFloat32, {});
}

void BM_JitExpFloat32(benchmark::State& state) {
  bench_elementwise(state, computation_of(*find_pointwise_op("exp.out")), Dtype::kFloat32,
                    Dtype::kFloat32, {});
}

void BM_JitCopyFloat32(benchmark::State& state) {
  bench_elementwise(state, copy_computation(), Dtype::kFloat32, Dtype::kFloat32, {});
}

void BM_JitCopyFloat32ToFloat16(benchmark::State& state) {
  bench_elementwise(state, copy_computation(), Dtype::kFloat32, Dtype::kFloat16, {});
}

class MapDiskCache : public DiskCache {
 public:
  std::optional<std::vector<char>> get(const std::string& key) override {
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }
  void put(const std::string& key, const std::vector<char>& data) override { entries_[key] = data; }

 private:
  std::map<std::string, std::vector<char>> entries_;
};

// A module loader for a fresh kernel cache on the test device.
class DeviceLoader : public ModuleLoader {
 public:
  explicit DeviceLoader(CudaDevice& device) : device_(device) {}
  ~DeviceLoader() override {
    for (CUmodule m : modules_) device_.driver().cuModuleUnload(m);
  }
  void* load(const std::vector<char>& binary) override {
    device_.activate();
    CUmodule m = nullptr;
    device_.driver().check(device_.driver().cuModuleLoadData(&m, binary.data()), "load");
    modules_.push_back(m);
    return m;
  }
  void* function(void* module, const std::string& entry) override {
    CUfunction f = nullptr;
    device_.driver().check(
        device_.driver().cuModuleGetFunction(&f, static_cast<CUmodule>(module), entry.c_str()),
        "function");
    return f;
  }

 private:
  CudaDevice& device_;
  std::vector<CUmodule> modules_;
};

ElementwiseKernel add_kernel() {
  return {computation_of(*find_pointwise_op("add.out")),
          Dtype::kFloat32,
          Dtype::kFloat32,
          Variant::kVectorized,
          4,
          0};
}

// A first call: a cache that has never seen the kernel compiles it and loads it.
void BM_FirstCallCompileAndLoad(benchmark::State& state) {
  CudaDevice& device = *test_device();
  DeviceLoader loader(device);
  const ElementwiseKernel k = add_kernel();
  for (auto _ : state) {
    KernelCache cache(device.arch(), nullptr, &loader);
    cache.get(k.entry_name(), [&] {
      ProgramSource p;
      p.add(k);
      return p;
    });
  }
}

// Another process: the kernel is on disk; loading costs no compile.
void BM_DiskCacheHitLoad(benchmark::State& state) {
  CudaDevice& device = *test_device();
  DeviceLoader loader(device);
  MapDiskCache disk;
  const ElementwiseKernel k = add_kernel();
  auto program = [&] {
    ProgramSource p;
    p.add(k);
    return p;
  };
  KernelCache(device.arch(), &disk, &loader).get(k.entry_name(), program);
  int64_t compiles = 0;
  for (auto _ : state) {
    KernelCache cache(device.arch(), &disk, &loader);
    cache.get(k.entry_name(), program);
    compiles += cache.stats().compiles;
  }
  state.counters["compiles"] = static_cast<double>(compiles);
}

// A cached kernel: the in-memory lookup a launch pays.
void BM_MemoryCacheHit(benchmark::State& state) {
  CudaDevice& device = *test_device();
  const ElementwiseKernel k = add_kernel();
  auto program = [&] {
    ProgramSource p;
    p.add(k);
    return p;
  };
  device.kernels().get(k.entry_name(), program);
  for (auto _ : state) benchmark::DoNotOptimize(device.kernels().get(k.entry_name(), program));
}

}  // namespace
}  // namespace bp::cuda

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (bp::cuda::test_device() == nullptr) {
    std::printf("cuda_bench skipped: %s\n", bp::cuda::test_device_unavailable_reason().c_str());
    return 0;
  }
  using namespace bp::cuda;
  benchmark::RegisterBenchmark("DeviceToDeviceCopy", BM_DeviceToDeviceCopy)->UseRealTime();
  benchmark::RegisterBenchmark("JitAddFloat32", BM_JitAddFloat32)->UseRealTime();
  benchmark::RegisterBenchmark("JitMulFloat32", BM_JitMulFloat32)->UseRealTime();
  benchmark::RegisterBenchmark("JitExpFloat32", BM_JitExpFloat32)->UseRealTime();
  benchmark::RegisterBenchmark("JitCopyFloat32", BM_JitCopyFloat32)->UseRealTime();
  benchmark::RegisterBenchmark("JitCopyFloat32ToFloat16", BM_JitCopyFloat32ToFloat16)
      ->UseRealTime();
  benchmark::RegisterBenchmark("FirstCallCompileAndLoad", BM_FirstCallCompileAndLoad)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("DiskCacheHitLoad", BM_DiskCacheHitLoad)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("MemoryCacheHit", BM_MemoryCacheHit);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
