// A disk cache of compiled kernels (CUBINs, PTX, any blob) shared by processes: the service
// behind api->kernel_cache_get / kernel_cache_put.
//
//   KernelCache cache("/home/me/.cache/backplane/kernels", /*max_bytes=*/1 << 30);
//   cache.put("add|float32|sm_90|nvrtc-13.0|<source hash>", cubin);
//   std::optional<std::string> blob = cache.get("add|float32|sm_90|nvrtc-13.0|<source hash>");
//
// Layout: one file per entry, named after a 64-bit hash of the key ("<16 hex>.bpk"), holding a
// header (magic, format version, key and blob lengths, an FNV-1a checksum of key and blob), the
// key, then the blob. The full key is stored and compared, so two keys with the same hash are
// two misses, never a wrong blob.
//
// Concurrency: a writer writes a temporary file in the same folder and renames it over the entry,
// so readers in any process see either the old entry or the new one, never a partial file. A
// corrupted entry (truncated, bit flips, foreign file) fails its checksum or header checks: it is
// deleted (unless another writer replaced it meanwhile) and reported as a miss. After each put the
// folder is trimmed to `max_bytes` by deleting the least recently used entries (a hit refreshes an
// entry's modification time); temporary files older than an hour (from crashed writers) go too.
// Two processes trimming at once may delete a little more than needed; nothing breaks.
//
// Thread safety: an object may be used from many threads; many objects and processes may share
// one folder.
#ifndef BACKPLANE_SDK_C_API_KERNEL_CACHE_H_
#define BACKPLANE_SDK_C_API_KERNEL_CACHE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace bp::c_api {

class KernelCache {
 public:
  // `on_dropped` (may be empty) hears about each corrupted entry deleted ("<path>: <why>").
  KernelCache(std::string folder, uint64_t max_bytes,
              std::function<void(const std::string&)> on_dropped = {});

  // The blob stored under `key`, or nullopt on a miss. Errors (kUnavailable): the entry exists
  // but cannot be read for another reason than corruption (permissions).
  std::optional<std::string> get(std::string_view key) const;

  // Stores `blob` under `key`, replacing what was there. Returns false (storing nothing) when the
  // entry alone would exceed max_bytes. Errors (kUnavailable): the folder cannot be created or
  // written ("cannot write kernel cache entry /x/y.bpk: No space left on device").
  bool put(std::string_view key, std::string_view blob) const;

  // The file an entry of `key` lives in.
  std::string path_of(std::string_view key) const;

  const std::string& folder() const { return folder_; }

 private:
  void trim() const;

  std::string folder_;
  uint64_t max_bytes_;
  std::function<void(const std::string&)> on_dropped_;
};

// FNV-1a, 64 bits, continuing from `hash` (the checksum and the file names use it).
uint64_t fnv1a64(std::string_view data, uint64_t hash = 0xcbf29ce484222325ull);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_KERNEL_CACHE_H_
