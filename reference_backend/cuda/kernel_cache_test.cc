#include "reference_backend/cuda/kernel_cache.h"

#include <deque>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class MapDiskCache : public DiskCache {
 public:
  std::optional<std::vector<char>> get(const std::string& key) override {
    ++gets;
    auto it = entries.find(key);
    if (it == entries.end()) return std::nullopt;
    return it->second;
  }
  void put(const std::string& key, const std::vector<char>& data) override { entries[key] = data; }
  std::map<std::string, std::vector<char>> entries;
  int gets = 0;
};

// Records what would be loaded: modules are the binaries, functions their entry names.
class RecordingLoader : public ModuleLoader {
 public:
  void* load(const std::vector<char>& binary) override {
    binaries.push_back(binary);
    return &binaries.back();
  }
  void* function(void* module, const std::string& entry) override {
    entries.push_back(entry);
    return module;
  }
  std::deque<std::vector<char>> binaries;
  std::vector<std::string> entries;
};

ElementwiseKernel fill_float() {
  return {fill_computation(), Dtype::kFloat32, Dtype::kFloat32, Variant::kVectorized, 4, 0};
}

ProgramSource program_of(const ElementwiseKernel& k) {
  ProgramSource p;
  p.add(k);
  return p;
}

TEST(KernelCache, CompilesOnFirstUseThenServesFromMemoryWithoutCompiling) {
  MapDiskCache disk;
  RecordingLoader loader;
  KernelCache cache(90, &disk, &loader);
  const ElementwiseKernel k = fill_float();
  int programs = 0;
  auto make = [&] {
    ++programs;
    return program_of(k);
  };
  void* first = cache.get(k.entry_name(), make);
  void* second = cache.get(k.entry_name(), make);
  EXPECT_EQ(first, second);
  EXPECT_EQ(programs, 1);
  EXPECT_EQ(cache.stats().compiles, 1);
  EXPECT_EQ(cache.stats().memory_hits, 1);
  EXPECT_GT(cache.stats().compile_seconds, 0);
  ASSERT_EQ(loader.binaries.size(), 1u);
  EXPECT_EQ(std::string(loader.binaries[0].data(), 4),
            "\x7f"
            "ELF");  // sm_90 machine code
  EXPECT_EQ(loader.entries, std::vector<std::string>{k.entry_name()});
}

TEST(KernelCache, ThreadsAskingForOneKernelAtOnceGetItCompiledOnce) {
  // The plugin's kernels are looked up from every thread that calls an op; ThreadSanitizer runs
  // this test in CI.
  MapDiskCache disk;
  RecordingLoader loader;
  KernelCache cache(90, &disk, &loader);
  const ElementwiseKernel k = fill_float();
  constexpr int kThreads = 4;
  std::vector<void*> got(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back(
        [&, t] { got[t] = cache.get(k.entry_name(), [&] { return program_of(k); }); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_THAT(got, ::testing::Each(got[0]));
  EXPECT_NE(got[0], nullptr);
  EXPECT_EQ(cache.stats().compiles, 1);
  EXPECT_EQ(cache.stats().memory_hits, kThreads - 1);
  EXPECT_EQ(loader.binaries.size(), 1u);
}

TEST(KernelCache, AnotherProcessFindsTheKernelOnDiskAndDoesNotCompile) {
  MapDiskCache disk;
  RecordingLoader loader;
  const ElementwiseKernel k = fill_float();
  KernelCache(90, &disk, &loader).get(k.entry_name(), [&] { return program_of(k); });
  ASSERT_EQ(disk.entries.size(), 1u);
  EXPECT_THAT(disk.entries.begin()->first,
              StartsWith("cuda/fill__float32__float32__vec4__s0/sm_90/nvrtc13."));
  KernelCache later(90, &disk, &loader);
  later.get(k.entry_name(), [&] { return program_of(k); });
  EXPECT_EQ(later.stats().compiles, 0);
  EXPECT_EQ(later.stats().disk_hits, 1);
  EXPECT_EQ(loader.binaries[1], loader.binaries[0]);
}

TEST(KernelCache, DiskKeysChangeWithTheArchitectureAndTheSource) {
  RecordingLoader loader;
  KernelCache sm80(80, nullptr, &loader), sm90(90, nullptr, &loader);
  EXPECT_NE(sm80.disk_key("k", "text"), sm90.disk_key("k", "text"));
  EXPECT_NE(sm90.disk_key("k", "text"), sm90.disk_key("k", "text2"));
  EXPECT_EQ(sm90.disk_key("k", "text"), sm90.disk_key("k", "text"));
}

TEST(KernelCache, AnArchitectureNvrtcDoesNotKnowGetsPtxOfTheNewestOneBelowIt) {
  RecordingLoader loader;
  KernelCache cache(1000, nullptr, &loader);
  const ElementwiseKernel k = fill_float();
  cache.get(k.entry_name(), [&] { return program_of(k); });
  ASSERT_EQ(loader.binaries.size(), 1u);
  const std::string ptx(loader.binaries[0].begin(), loader.binaries[0].end());
  EXPECT_THAT(ptx, HasSubstr(".entry fill__float32__float32__vec4__s0"));
}

TEST(KernelCache, ACompileErrorReportsTheKernelAndNvrtcsLog) {
  RecordingLoader loader;
  KernelCache cache(90, nullptr, &loader);
  Computation broken = fill_computation();
  broken.name = "broken";
  broken.expression = "undefined_thing";
  const ElementwiseKernel k{broken, Dtype::kFloat32, Dtype::kFloat32, Variant::kVectorized, 4, 0};
  try {
    cache.get(k.entry_name(), [&] { return program_of(k); });
    FAIL() << "expected a compile error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), BP_ERROR_INTERNAL);
    EXPECT_THAT(e.what(), HasSubstr("NVRTC failed to compile CUDA kernel broken__float32"));
    EXPECT_THAT(e.what(), HasSubstr("undefined_thing"));
  }
  EXPECT_TRUE(loader.binaries.empty());
}

}  // namespace
}  // namespace bp::cuda
