// The C ABI's table as a client sees it: ops by name and schema, meta calls, error objects,
// tensor geometries out of range, the logging hook, the kernel cache service, and calls from many
// threads.
#include <dirent.h>
#include <stdlib.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

void collect_name(void* user_data, const char* name) {
  static_cast<std::vector<std::string>*>(user_data)->push_back(name);
}

TEST(Ops, AreListedAndDescribeThemselves) {
  std::vector<std::string> names;
  check(api(), api()->op_list(&collect_name, &names));
  EXPECT_THAT(names, Contains("bp::add.Tensor"));
  EXPECT_THAT(names, Contains("bp::neg.out"));
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  const Op add(api(), "bp::add.Tensor");
  const char* text = nullptr;
  check(api(), api()->op_name(add.get(), &text));
  EXPECT_STREQ(text, "bp::add.Tensor");
  check(api(), api()->op_schema(add.get(), &text));
  EXPECT_STREQ(text, "bp::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(Op(api(), "add.Tensor").get(), add.get());  // one bp_op per op
}

TEST(Ops, MetaCallsOfFactoriesAllocateNothing) {
  const std::vector<int64_t> sizes = {2, 3};
  const Results r =
      Op(api(), "zeros").call_meta({arg(sizes), dtype_arg(BP_DTYPE_INT64), arg(kCpu)});
  const Tensor t = r.tensor(0);
  EXPECT_EQ(t.device().device_type, BP_DEVICE_META);
  EXPECT_EQ(t.sizes(), sizes);
  EXPECT_EQ(t.dtype(), BP_DTYPE_INT64);
  EXPECT_EQ(t.data(), nullptr);
}

TEST(Ops, ArgumentsConvertAsTheSchemaSays) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2});
  // A Scalar argument takes a bool, an int, a double or a complex (then the op's own checks).
  const Op add(api(), "add.Tensor");
  EXPECT_EQ(add.call({arg(a), arg(a), arg(0.5)}).tensor(0).to_host<float>(),
            (std::vector<float>{-4.5f, 6}));
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(a), arg(true)});
            }),
            "[add.Tensor] Boolean alpha only supported for Boolean results.");
  bp_value complex_alpha{};
  complex_alpha.tag = BP_VALUE_COMPLEX;
  complex_alpha.u.c.re = 1;
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(a), complex_alpha});
            }),
            "[add.Tensor] For non-complex input tensors, argument alpha must not be a complex "
            "number.");
  // None for an optional argument, and a wrong type for it.
  EXPECT_EQ(Op(api(), "clone").call({arg(a), none()}).tensor(0).to_host<float>(),
            (std::vector<float>{-3, 4}));
  EXPECT_EQ(error_of([&] {
              Op(api(), "clone").call({arg(a), arg(2.5)});
            }),
            "[clone] argument 'memory_format' (position 2) must be MemoryFormat?, not float");
  bp_value dtype{};
  dtype.tag = BP_VALUE_DTYPE;
  dtype.u.dtype = 7;
  EXPECT_EQ(error_of([&] {
              Op(api(), "zeros").call({arg(std::vector<int64_t>{1}), dtype});
            }),
            "[zeros] argument 'dtype' (position 2) unknown dtype code 0x7 (dtypes are DLPack's "
            "encodings, e.g. BP_DTYPE_FLOAT32)");
}

TEST(Errors, ObjectsKeepCodeAndMessage) {
  bp_error* e = api()->error_create(BP_ERROR_INDEX, "index 3 is out of range");
  EXPECT_EQ(api()->error_code(e), BP_ERROR_INDEX);
  EXPECT_STREQ(api()->error_message(e), "index 3 is out of range");
  api()->error_destroy(e);
  e = api()->error_create(99, nullptr);
  EXPECT_EQ(api()->error_code(e), BP_ERROR_INTERNAL);
  EXPECT_STREQ(api()->error_message(e), " (unknown error code 99)");
  api()->error_destroy(e);
}

// The message of the error `call(&out)` returns (destroyed here), or "(no error)" (the tensor
// released).
template <typename F>
std::string message_of(F&& call) {
  bp_tensor* t = nullptr;
  bp_error* e = call(&t);
  api()->tensor_release(t);
  if (e == nullptr) return "(no error)";
  std::string message = api()->error_message(e);
  EXPECT_EQ(api()->error_code(e), BP_ERROR_INVALID_ARGUMENT) << message;
  api()->error_destroy(e);
  return message;
}

TEST(Tensors, SizesAndStridesOutOfRangeAreErrorsNamingTheValue) {
  const int64_t negative[] = {2, -3};
  EXPECT_EQ(message_of([&](bp_tensor** out) {
              return api()->tensor_empty(negative, 2, BP_DTYPE_FLOAT32, kCpu, out);
            }),
            "bp_api.tensor_empty: sizes[1] is -3: sizes must be non-negative");
  const int64_t sizes[] = {2, 2};
  const int64_t backwards[] = {2, -4};
  EXPECT_EQ(message_of([&](bp_tensor** out) {
              return api()->tensor_empty_strided(sizes, backwards, 2, BP_DTYPE_FLOAT32, kCpu, out);
            }),
            "bp_api.tensor_empty_strided: strides[1] is -4: strides must be non-negative");
  // (3 - 1) * 2^62 wraps to INT64_MIN in unchecked arithmetic.
  const int64_t three[] = {3};
  const int64_t huge[] = {int64_t{1} << 62};
  float data[4] = {};
  EXPECT_EQ(message_of([&](bp_tensor** out) {
              return api()->tensor_wrap(data, three, huge, 1, BP_DTYPE_FLOAT32, kCpu, nullptr,
                                        nullptr, out);
            }),
            "bp_api.tensor_wrap: sizes and strides overflow int64 at dimension 0: (size - 1) * "
            "stride is (3 - 1) * 4611686018427387904");
  EXPECT_EQ(message_of([&](bp_tensor** out) {
              return api()->tensor_wrap(data, sizes, backwards, 2, BP_DTYPE_FLOAT32, kCpu, nullptr,
                                        nullptr, out);
            }),
            "bp_api.tensor_wrap: strides[1] is -4: strides must be non-negative");
  const int64_t wide[] = {int64_t{1} << 32, int64_t{1} << 32};
  EXPECT_THAT(message_of([&](bp_tensor** out) {
                return api()->tensor_from_host(data, 16, wide, 2, BP_DTYPE_FLOAT32, kCpu, out);
              }),
              HasSubstr("bp_api.tensor_from_host: sizes overflow int64"));
  // In range: fine.
  const int64_t strides[] = {1, 2};
  EXPECT_EQ(message_of([&](bp_tensor** out) {
              return api()->tensor_wrap(data, sizes, strides, 2, BP_DTYPE_FLOAT32, kCpu, nullptr,
                                        nullptr, out);
            }),
            "(no error)");
}

struct Log {
  std::vector<std::pair<int32_t, std::string>> messages;
};

void record(void* user_data, int32_t level, const char* message) {
  static_cast<Log*>(user_data)->messages.emplace_back(level, message);
}

TEST(Tensors, AsStridedViewsShareMemoryAndGiveReductionsTheInputsRank) {
  ASSERT_TRUE(BP_API_HAS(api(), tensor_as_strided));
  // sum.IntList_out(self[2, 3], dim=[1], keepdim=False, out[2]): out viewed as [2, 3] with
  // stride 0 along the reduced dimension, the output a reduction plan wants.
  const Tensor self = filled(BP_DTYPE_FLOAT32, {2, 3});
  const Tensor out = Tensor::from_host<float>(api(), {5, 7}, {2});
  const Tensor view = out.as_strided({2, 3}, {1, 0}, out.info().storage_offset);
  EXPECT_EQ(view.data(), out.data());
  EXPECT_EQ(view.strides(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(view.to_host<float>(), (std::vector<float>{5, 5, 5, 7, 7, 7}));
  const Plan plan(api(), {view.get()}, {self.get()},
                  BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE);
  EXPECT_TRUE(plan.info().is_reduction);
  EXPECT_EQ(plan.info().num_output_elements, 2);
  EXPECT_EQ(plan.operand(0).data, out.data());
  // An offset into the storage; the view keeps the memory alive after its base is gone.
  const Tensor tail = [] {
    const Tensor base = Tensor::from_host<float>(api(), {1, 2, 3, 4}, {4});
    return base.as_strided({2}, {1}, 2);
  }();
  EXPECT_EQ(tail.to_host<float>(), (std::vector<float>{3, 4}));
}

TEST(Tensors, AsStridedErrorsNameTheFunctionAndTheGeometry) {
  const Tensor t = filled(BP_DTYPE_FLOAT32, {6});
  const int64_t sizes[2] = {4, 4}, strides[2] = {1, 4}, negative[1] = {-1};
  auto as_strided = [&](const int64_t* sz, const int64_t* st, size_t ndim, int64_t offset) {
    bp_tensor* out = nullptr;
    const ErrorHandle error(api(), api()->tensor_as_strided(t.get(), sz, st, ndim, offset, &out));
    EXPECT_EQ(out, nullptr);
    return std::to_string(error.code()) + " " + error.message();
  };
  const std::string invalid = std::to_string(BP_ERROR_INVALID_ARGUMENT) + " ";
  EXPECT_EQ(as_strided(sizes, strides, 2, 0),
            invalid +
                "bp_api.tensor_as_strided: setStorage: sizes [4, 4], strides [1, 4], "
                "storage offset 0, and itemsize 4 requiring a storage size of 64 are out "
                "of bounds for storage of size 24");
  EXPECT_EQ(as_strided(sizes, negative, 1, 0),
            invalid +
                "bp_api.tensor_as_strided: as_strided: Negative strides are not supported "
                "at the moment, got strides: [-1]");
  EXPECT_EQ(as_strided(sizes, strides, 1, -1),
            invalid + "bp_api.tensor_as_strided: storage_offset must be non-negative, got -1");
  EXPECT_EQ(as_strided(nullptr, strides, 1, 0),
            invalid + "bp_api.tensor_as_strided: `sizes` is NULL");
  EXPECT_EQ(as_strided(sizes, nullptr, 1, 0),
            invalid + "bp_api.tensor_as_strided: `strides` is NULL");
  bp_tensor* out = nullptr;
  EXPECT_EQ(
      ErrorHandle(api(), api()->tensor_as_strided(nullptr, sizes, strides, 0, 0, &out)).message(),
      "bp_api.tensor_as_strided: `self` is NULL");
}

TEST(Logging, WarningsAndNotesReachTheHandler) {
  Log log;
  api()->set_log_handler(&record, &log);
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2});
  Tensor out = Tensor::empty(api(), {5}, BP_DTYPE_FLOAT32);
  Op(api(), "add.out").call({arg(a), arg(a), arg(1), arg(out)});
  { LoadedPlugin plugin("libc_test_plugin.so"); }
  api()->set_log_handler(nullptr, nullptr);
  ASSERT_EQ(log.messages.size(), 2u);
  EXPECT_EQ(log.messages[0].first, BP_LOG_WARNING);
  EXPECT_THAT(log.messages[0].second,
              HasSubstr("An output with one or more elements was resized since it had shape [5]"));
  EXPECT_EQ(log.messages[1].first, BP_LOG_INFO);
  EXPECT_EQ(log.messages[1].second,
            "loaded plugin 'cplug' from sdk/c_api/testing/libc_test_plugin.so (built against C "
            "ABI 0.5)");
}

TEST(Threads, CallsFromManyThreadsAtOnceAgree) {
  const Tensor a = filled(BP_DTYPE_INT64, {16}), b = filled(BP_DTYPE_INT64, {16}, 3);
  const Op mul(api(), "mul.Tensor");
  const std::vector<int64_t> want = mul.call({arg(a), arg(b)}).tensor(0).to_host<int64_t>();
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        if (mul.call({arg(a), arg(b)}).tensor(0).to_host<int64_t>() != want) ++mismatches[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches, (std::vector<int>(4, 0)));
}

// ---- The kernel cache service --------------------------------------------------------------

class KernelCacheApi : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::string(getenv("TEST_TMPDIR")) + "/" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    setenv("BP_KERNEL_CACHE_DIR", folder_.c_str(), 1);
    unsetenv("BP_KERNEL_CACHE_MAX_BYTES");
  }
  void TearDown() override { unsetenv("BP_KERNEL_CACHE_DIR"); }

  std::string get(const char* key) {
    void* data = nullptr;
    size_t size = 0;
    check(api(), api()->kernel_cache_get(key, &data, &size));
    std::string out = data != nullptr ? std::string(static_cast<char*>(data), size) : "(miss)";
    api()->kernel_cache_free(data);
    return out;
  }

  // The one entry file in the folder.
  std::string only_entry() {
    std::vector<std::string> entries;
    DIR* dir = opendir(folder_.c_str());
    while (dirent* e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".bpk") entries.push_back(name);
    }
    closedir(dir);
    EXPECT_EQ(entries.size(), 1u);
    return folder_ + "/" + entries.at(0);
  }

  std::string folder_;
};

TEST_F(KernelCacheApi, StoresAndFetchesBlobsByKey) {
  EXPECT_EQ(get("add|float32|sm_90|nvrtc-13.0"), "(miss)");
  const std::string blob(
      "\x7f"
      "ELF\0cubin",
      10);
  check(api(), api()->kernel_cache_put("add|float32|sm_90|nvrtc-13.0", blob.data(), blob.size()));
  EXPECT_EQ(get("add|float32|sm_90|nvrtc-13.0"), blob);
  EXPECT_EQ(get("add|float32|sm_80|nvrtc-13.0"), "(miss)");
  check(api(), api()->kernel_cache_put("add|float32|sm_90|nvrtc-13.0", "v2", 2));
  EXPECT_EQ(get("add|float32|sm_90|nvrtc-13.0"), "v2");
}

TEST_F(KernelCacheApi, ACorruptedEntryIsDroppedAndReportedAsAMiss) {
  check(api(), api()->kernel_cache_put("neg|float64", "0123456789", 10));
  const std::string path = only_entry();
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('X');  // one flipped byte in the blob
  }
  Log log;
  api()->set_log_handler(&record, &log);
  EXPECT_EQ(get("neg|float64"), "(miss)");
  api()->set_log_handler(nullptr, nullptr);
  EXPECT_FALSE(std::ifstream(path).good());  // deleted
  ASSERT_EQ(log.messages.size(), 1u);
  EXPECT_EQ(log.messages[0].second,
            "kernel cache: dropped a corrupted entry: " + path + ": checksum mismatch");
}

TEST_F(KernelCacheApi, BadKeysAndSettingsAreErrors) {
  void* data = nullptr;
  size_t size = 0;
  EXPECT_EQ(error_of([&] { check(api(), api()->kernel_cache_get("", &data, &size)); }),
            "bp_api.kernel_cache_get: `key` is empty");
  setenv("BP_KERNEL_CACHE_MAX_BYTES", "lots", 1);
  EXPECT_EQ(error_of([&] { check(api(), api()->kernel_cache_put("k", "v", 1)); }),
            "BP_KERNEL_CACHE_MAX_BYTES is 'lots', not a number of bytes");
  setenv("BP_KERNEL_CACHE_DIR", "/proc/no/such/place", 1);
  unsetenv("BP_KERNEL_CACHE_MAX_BYTES");
  const ErrorHandle error(api(), api()->kernel_cache_put("k", "v", 1));
  EXPECT_EQ(error.code(), BP_ERROR_UNAVAILABLE);
  EXPECT_THAT(error.message(), HasSubstr("cannot create kernel cache folder /proc/no/such/place"));
}

}  // namespace
}  // namespace backplane::testing
