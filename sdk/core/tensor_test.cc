#include "sdk/core/tensor.h"

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/views.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);

using V = DimVector;
V vec(IntArrayRef r) { return V(r.begin(), r.end()); }

template <typename F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorCode::kInternal, "no error");
}

std::string str(const Tensor& t) {
  std::ostringstream out;
  out << t;
  return out.str();
}

TEST(Tensor, DefaultConstructedIsUndefined) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_EQ(t.use_count(), 0u);
  EXPECT_EQ(str(t), "Tensor(undefined)");
}

TEST(Tensor, ReportsGeometryOfANewTensor) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.dim(), 2);
  EXPECT_EQ(vec(t.sizes()), (V{2, 3}));
  EXPECT_EQ(vec(t.strides()), (V{3, 1}));
  EXPECT_EQ(t.size(-1), 3);
  EXPECT_EQ(t.stride(0), 3);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.itemsize(), 4u);
  EXPECT_EQ(t.nbytes(), 24u);
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_EQ(t.dtype(), ScalarType::kFloat32);
  EXPECT_EQ(t.device(), kCpu);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_EQ(str(t), "Tensor(float32[2, 3], cpu)");
}

TEST(Tensor, SizeOfAnOutOfRangeDimIsAnIndexError) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  Error e = error_of([&] { t.size(2); });
  EXPECT_EQ(e.code(), ErrorCode::kIndexError);
  EXPECT_EQ(e.message(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(error_of([&] { t.stride(-3); }).message(),
            "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  Tensor scalar = native::empty({}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] { scalar.size(0); }).message(),
            "Dimension specified as 0 but tensor has no dimensions");
}

TEST(Tensor, WrapDimAcceptsMinusOneAndZeroForScalars) {
  EXPECT_EQ(wrap_dim(-1, 3), 2);
  EXPECT_EQ(wrap_dim(2, 3), 2);
  EXPECT_EQ(wrap_dim(0, 0), 0);
  EXPECT_EQ(wrap_dim(-1, 0), 0);
  EXPECT_EQ(error_of([] { wrap_dim(1, 0); }).message(),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  EXPECT_EQ(error_of([] { wrap_dim(-4, 3); }).code(), ErrorCode::kIndexError);
}

TEST(Tensor, TypedDataPtrChecksTheDtype) {
  Tensor t = native::empty({4}, ScalarType::kInt64, kCpu);
  int64_t* p = t.data_ptr<int64_t>();
  EXPECT_EQ(static_cast<void*>(p), t.data_ptr());
  for (int i = 0; i < 4; ++i) p[i] = i * 10;
  Tensor second = native::select(t, 0, 2);
  EXPECT_EQ(*second.data_ptr<int64_t>(), 20);
  Error e = error_of([&] { t.data_ptr<float>(); });
  EXPECT_EQ(e.code(), ErrorCode::kTypeError);
  EXPECT_EQ(e.message(), "expected scalar type float32 but found int64");
}

TEST(Tensor, MetaTensorsHaveGeometryButNoData) {
  Tensor t = native::empty({2, 3, 4, 5}, ScalarType::kFloat16, kMeta, MemoryFormat::kChannelsLast);
  EXPECT_EQ(vec(t.strides()), (V{60, 1, 15, 3}));
  EXPECT_EQ(t.data_ptr(), nullptr);
  EXPECT_EQ(t.device(), kMeta);
  EXPECT_EQ(t.storage().nbytes(), 240u);
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::kChannelsLast));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(str(t), "Tensor(float16[2, 3, 4, 5], meta)");
  Tensor v = native::transpose(t, 0, 1);
  EXPECT_EQ(v.data_ptr(), nullptr);
  EXPECT_EQ(vec(v.strides()), (V{1, 60, 15, 3}));
}

TEST(Tensor, VersionCounterIsSharedByViewsButNotCopies) {
  Tensor base = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  Tensor v1 = native::transpose(base, 0, 1);
  Tensor v2 = native::select(v1, 0, 1);
  EXPECT_EQ(base.version(), 0u);
  v2.bump_version();
  EXPECT_EQ(base.version(), 1u);
  EXPECT_EQ(v1.version(), 1u);
  base.bump_version();
  EXPECT_EQ(v2.version(), 2u);
  Tensor other = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(other.version(), 0u);
}

// The counter is created on first use; views made at once from several threads must still end
// up sharing one (run under --config=tsan too).
TEST(Tensor, ViewsMadeConcurrentlyShareOneVersionCounter) {
  Tensor base = native::empty({4, 4}, ScalarType::kFloat32, kCpu);
  std::vector<Tensor> views(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < views.size(); ++i) {
    threads.emplace_back(
        [&, i] { views[i] = native::select(base, 0, static_cast<int64_t>(i % 4)); });
  }
  for (std::thread& t : threads) t.join();
  base.bump_version();
  for (const Tensor& v : views) EXPECT_EQ(v.version(), 1u);
  views[3].bump_version();
  EXPECT_EQ(base.version(), 2u);
}

TEST(Tensor, AliasingAndIdentity) {
  Tensor base = native::empty({4}, ScalarType::kFloat32, kCpu);
  Tensor handle = base;
  Tensor view = native::alias(base);
  Tensor other = native::empty({4}, ScalarType::kFloat32, kCpu);
  EXPECT_TRUE(handle.is_same(base));
  EXPECT_FALSE(view.is_same(base));
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_FALSE(other.is_alias_of(base));
  EXPECT_EQ(base.use_count(), 2u);
  EXPECT_EQ(base.storage().use_count(), 2u);
}

TEST(Tensor, SetSizesAndStridesRecomputesTheFlags) {
  Tensor t = native::empty({6}, ScalarType::kFloat32, kCpu);
  t.impl()->set_sizes_and_strides({3, 2}, {1, 3});
  EXPECT_EQ(t.numel(), 6);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  t.impl()->set_sizes_and_strides({3, 2}, {0, 1});
  EXPECT_FALSE(t.is_non_overlapping_and_dense());
  t.impl()->set_storage_offset(2);
  EXPECT_EQ(t.storage_offset(), 2);
  EXPECT_EQ(static_cast<char*>(t.data_ptr()) - static_cast<char*>(t.storage().data()), 8);
  EXPECT_EQ(error_of([&] {
              t.impl()->set_sizes_and_strides({3, 2}, {1});
            }).message(),
            "dimensionality of sizes (2) must match dimensionality of strides (1)");
  EXPECT_EQ(error_of([&] { t.impl()->set_storage_offset(-1); }).message(),
            "Tensor: invalid storage offset -1");
}

TEST(Tensor, HandlesCanBeCopiedAndDestroyedConcurrently) {
  Tensor base = native::empty({8}, ScalarType::kFloat32, kCpu);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([base] {
      for (int i = 0; i < 2000; ++i) {
        Tensor copy = base;
        Tensor view = native::slice(copy, 0, 1, 5);
        Tensor moved = std::move(view);
        moved.bump_version();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(base.use_count(), 1u);
  EXPECT_EQ(base.storage().use_count(), 1u);
  EXPECT_EQ(base.version(), 16000u);
}

}  // namespace
}  // namespace bp
