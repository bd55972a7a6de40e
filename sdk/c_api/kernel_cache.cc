#include "sdk/c_api/kernel_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "sdk/core/error.h"

namespace bp::c_api {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'B', 'P', 'K', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kFormatVersion = 1;
constexpr const char* kEntrySuffix = ".bpk";
constexpr const char* kTempPrefix = ".tmp-";
constexpr auto kStaleTempAge = std::chrono::hours(1);

struct Header {
  char magic[8];
  uint32_t format;
  uint32_t reserved;
  uint64_t key_size;
  uint64_t blob_size;
  uint64_t checksum;  // fnv1a64 of key then blob
};
static_assert(sizeof(Header) == 40);

std::string system_error_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

[[noreturn]] void unavailable(const std::string& what, const std::string& path, int error) {
  detail::throw_error(ErrorCode::kUnavailable,
                      detail::str_cat(what, " ", path, ": ", system_error_text(error)));
}

// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  // Closes now; returns 0 or the errno of close().
  int close() {
    const int rc = ::close(std::exchange(fd_, -1));
    return rc == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

bool read_fully(int fd, char* data, size_t n) {
  while (n > 0) {
    const ssize_t got = ::read(fd, data, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    data += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

int write_fully(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t put = ::write(fd, data, n);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return errno;
    data += put;
    n -= static_cast<size_t>(put);
  }
  return 0;
}

bool has_suffix(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Why `content` is not a valid entry, or "" when it is.
std::string corruption_of(const std::string& content) {
  if (content.size() < sizeof(Header)) return "shorter than an entry header";
  Header h;
  std::memcpy(&h, content.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return "not a kernel cache entry";
  if (h.format != kFormatVersion) return detail::str_cat("entry format ", h.format);
  if (h.key_size > content.size() || h.blob_size > content.size() ||
      sizeof(Header) + h.key_size + h.blob_size != content.size()) {
    return detail::str_cat("truncated or extended: ", content.size(), " bytes for a ", h.key_size,
                           "-byte key and a ", h.blob_size, "-byte blob");
  }
  const std::string_view payload(content.data() + sizeof(Header), h.key_size + h.blob_size);
  if (fnv1a64(payload) != h.checksum) return "checksum mismatch";
  return "";
}

std::atomic<uint64_t> temp_counter{0};

}  // namespace

uint64_t fnv1a64(std::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

KernelCache::KernelCache(std::string folder, uint64_t max_bytes,
                         std::function<void(const std::string&)> on_dropped)
    : folder_(std::move(folder)), max_bytes_(max_bytes), on_dropped_(std::move(on_dropped)) {}

std::string KernelCache::path_of(std::string_view key) const {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fnv1a64(key)));
  return (fs::path(folder_) / (std::string(name) + kEntrySuffix)).string();
}

std::optional<std::string> KernelCache::get(std::string_view key) const {
  const std::string path = path_of(key);
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    unavailable("cannot read kernel cache entry", path, errno);
  }
  struct stat read_stat;
  if (::fstat(fd.get(), &read_stat) != 0)
    unavailable("cannot read kernel cache entry", path, errno);
  std::string content(static_cast<size_t>(read_stat.st_size), '\0');
  std::string why = read_fully(fd.get(), content.data(), content.size())
                        ? corruption_of(content)
                        : std::string("shorter than its size");
  if (!why.empty()) {
    // Delete it unless a writer has renamed a new entry over it since we opened it.
    struct stat now;
    if (::stat(path.c_str(), &now) == 0 && now.st_ino == read_stat.st_ino &&
        now.st_dev == read_stat.st_dev && ::unlink(path.c_str()) == 0 && on_dropped_) {
      on_dropped_(path + ": " + why);
    }
    return std::nullopt;
  }
  Header h;
  std::memcpy(&h, content.data(), sizeof h);
  if (std::string_view(content.data() + sizeof(Header), h.key_size) != key) {
    return std::nullopt;  // another key with the same hash
  }
  ::futimens(fd.get(), nullptr);  // a hit: most recently used now (best effort)
  return content.substr(sizeof(Header) + h.key_size);
}

bool KernelCache::put(std::string_view key, std::string_view blob) const {
  const uint64_t total = sizeof(Header) + key.size() + blob.size();
  if (total > max_bytes_) return false;
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) unavailable("cannot create kernel cache folder", folder_, ec.value());

  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format = kFormatVersion;
  h.key_size = key.size();
  h.blob_size = blob.size();
  h.checksum = fnv1a64(blob, fnv1a64(key));

  const std::string path = path_of(key);
  const std::string temp =
      (fs::path(folder_) / detail::str_cat(kTempPrefix, ::getpid(), "-", temp_counter++, "-",
                                           fs::path(path).filename().string()))
          .string();
  FileDescriptor fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) unavailable("cannot write kernel cache entry", temp, errno);
  int error = write_fully(fd.get(), reinterpret_cast<const char*>(&h), sizeof h);
  if (error == 0) error = write_fully(fd.get(), key.data(), key.size());
  if (error == 0) error = write_fully(fd.get(), blob.data(), blob.size());
  const int close_error = fd.close();
  if (error == 0) error = close_error;
  if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temp.c_str());
    unavailable("cannot write kernel cache entry", path, error);
  }
  trim();
  return true;
}

void KernelCache::trim() const {
  struct Entry {
    fs::path path;
    uint64_t size;
    fs::file_time_type time;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    const std::string name = it->path().filename().string();
    const auto time = it->last_write_time(entry_ec);
    if (entry_ec) continue;  // gone meanwhile
    if (name.rfind(kTempPrefix, 0) == 0) {
      if (now - time > kStaleTempAge) fs::remove(it->path(), entry_ec);
      continue;
    }
    if (!has_suffix(name, kEntrySuffix)) continue;
    const uint64_t size = it->file_size(entry_ec);
    if (entry_ec) continue;
    entries.push_back({it->path(), size, time});
    total += size;
  }
  if (total <= max_bytes_) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.time < b.time; });
  for (const Entry& e : entries) {
    if (total <= max_bytes_) break;
    std::error_code remove_ec;
    fs::remove(e.path, remove_ec);
    total -= e.size;
  }
}

}  // namespace bp::c_api
