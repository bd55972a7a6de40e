#include "sdk/c_api/kernel_cache.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::c_api {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class KernelCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::path(std::getenv("TEST_TMPDIR")) /
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
  }

  KernelCache cache(uint64_t max_bytes = 1 << 20) {
    return KernelCache(folder_.string(), max_bytes,
                       [this](const std::string& what) { dropped_.push_back(what); });
  }

  // Entry files, sorted by name.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  static void age(const std::string& path, int seconds) {
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
  }

  fs::path folder_;
  std::vector<std::string> dropped_;
};

TEST_F(KernelCacheTest, StoresFetchesAndReplacesBlobs) {
  const KernelCache c = cache();
  EXPECT_EQ(c.get("k"), std::nullopt);
  const std::string blob("\0\1\2 binary", 10);
  EXPECT_TRUE(c.put("k", blob));
  EXPECT_EQ(c.get("k"), blob);
  EXPECT_TRUE(c.put("k", ""));
  EXPECT_EQ(c.get("k"), "");
  EXPECT_THAT(entries(), ElementsAre(fs::path(c.path_of("k")).filename()));
}

TEST_F(KernelCacheTest, AnotherKeyWithTheSameFileIsAMissNotAWrongBlob) {
  const KernelCache c = cache();
  c.put("first", "blob of first");
  fs::copy_file(c.path_of("first"), c.path_of("second"));  // as if the hashes collided
  EXPECT_EQ(c.get("second"), std::nullopt);
  EXPECT_TRUE(fs::exists(c.path_of("second")));  // a valid entry: kept
  EXPECT_THAT(dropped_, IsEmpty());
}

TEST_F(KernelCacheTest, CorruptedEntriesAreDroppedAndReported) {
  const KernelCache c = cache();
  c.put("truncated", std::string(100, 'x'));
  fs::resize_file(c.path_of("truncated"), 60);
  EXPECT_EQ(c.get("truncated"), std::nullopt);
  fs::create_directories(folder_);
  std::ofstream(c.path_of("foreign")) << "not a cache entry at all, but long enough to parse";
  EXPECT_EQ(c.get("foreign"), std::nullopt);
  EXPECT_THAT(entries(), IsEmpty());
  EXPECT_THAT(dropped_,
              ElementsAre(c.path_of("truncated") +
                              ": truncated or extended: 60 bytes for a 9-byte key and a 100-byte "
                              "blob",
                          c.path_of("foreign") + ": not a kernel cache entry"));
}

TEST_F(KernelCacheTest, TheLeastRecentlyUsedEntriesGoWhenTheFolderOutgrowsItsBound) {
  const uint64_t entry = 40 + 1 + 60;  // header, key, blob
  const KernelCache c = cache(3 * entry);
  for (const char* key : {"a", "b", "c"}) c.put(key, std::string(60, *key));
  age(c.path_of("a"), 30);
  age(c.path_of("b"), 20);
  age(c.path_of("c"), 10);
  EXPECT_TRUE(c.get("a").has_value());  // a hit makes "a" the most recent
  c.put("d", std::string(60, 'd'));     // one too many: "b" is the oldest now
  EXPECT_TRUE(c.get("a").has_value());
  EXPECT_FALSE(c.get("b").has_value());
  EXPECT_TRUE(c.get("c").has_value());
  EXPECT_TRUE(c.get("d").has_value());
}

TEST_F(KernelCacheTest, ABlobLargerThanTheBoundIsNotStored) {
  const KernelCache c = cache(100);
  EXPECT_FALSE(c.put("big", std::string(100, 'x')));
  EXPECT_EQ(c.get("big"), std::nullopt);
}

TEST_F(KernelCacheTest, StaleTemporaryFilesOfCrashedWritersAreCleanedUp) {
  const KernelCache c = cache();
  fs::create_directories(folder_);
  const std::string stale = (folder_ / ".tmp-1234-0-crashed.bpk").string();
  const std::string fresh = (folder_ / ".tmp-1234-1-writing.bpk").string();
  std::ofstream(stale) << "partial";
  std::ofstream(fresh) << "partial";
  age(stale, 2 * 3600);
  c.put("k", "v");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // may be another process's write in progress
}

TEST_F(KernelCacheTest, ConcurrentProcessesNeverSeeAPartialEntry) {
  // Several processes write and read the same keys at once; every hit must be one of the blobs
  // some process wrote in full.
  constexpr int kProcesses = 4, kRounds = 200;
  auto blob = [](int writer, int round) {
    return std::string(1000 + 37 * (round % 7), static_cast<char>('a' + writer)) +
           std::to_string(round);
  };
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const KernelCache c(folder_.string(), 1 << 20);
      int bad = 0;
      for (int r = 0; r < kRounds; ++r) {
        const std::string key = "key" + std::to_string(r % 5);
        c.put(key, blob(p, r));
        if (std::optional<std::string> got = c.get("key" + std::to_string((r + 2) % 5))) {
          const char w = (*got)[0];
          bool whole = w >= 'a' && w < 'a' + kProcesses;
          if (whole) {
            const int round = std::stoi(got->substr(got->find_first_of("0123456789")));
            whole = *got == blob(w - 'a', round);
          }
          bad += !whole;
        }
      }
      _exit(bad == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process read a partial entry";
  }
  // No temporary file is left behind.
  for (const std::string& name : entries()) EXPECT_EQ(name.rfind(".tmp-", 0), std::string::npos);
}

TEST_F(KernelCacheTest, ThreadsSharingOneCacheNeverSeeAPartialEntry) {
  // One object used from several threads at once (the CUDA plugin's compile threads do this);
  // ThreadSanitizer runs this test in CI.
  constexpr int kThreads = 4, kRounds = 100;
  auto blob = [](int writer, int round) {
    return std::string(500 + 37 * (round % 7), static_cast<char>('a' + writer)) +
           std::to_string(round);
  };
  const KernelCache c = cache();
  std::vector<int> bad(kThreads, 0), hits(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        c.put("key" + std::to_string(r % 3), blob(t, r));
        if (std::optional<std::string> got = c.get("key" + std::to_string((r + 1) % 3))) {
          ++hits[t];
          const char w = (*got)[0];
          bool whole = w >= 'a' && w < 'a' + kThreads;
          if (whole) {
            const int round = std::stoi(got->substr(got->find_first_of("0123456789")));
            whole = *got == blob(w - 'a', round);
          }
          bad[t] += !whole;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_THAT(bad, ::testing::Each(0));
  EXPECT_GT(std::accumulate(hits.begin(), hits.end(), 0), 0);
  EXPECT_THAT(dropped_, IsEmpty());
  for (const std::string& name : entries()) EXPECT_EQ(name.rfind(".tmp-", 0), std::string::npos);
}

}  // namespace
}  // namespace bp::c_api
