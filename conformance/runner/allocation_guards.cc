#include "conformance/runner/allocation_guards.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

#include "conformance/runner/guards.h"
#include "conformance/runner/transfer_counters.h"
#include "sdk/core/allocator.h"
#include "sdk/core/error.h"

namespace bp::conformance {
namespace {

const Device kCpu(DeviceType::kCPU);

struct Block {
  DataPtr raw;  // the plugin allocator's block: guard, the caller's bytes, guard
  size_t nbytes;
  size_t front;  // guard bytes before the caller's bytes
};

// The active scope's state (one scope at a time).
struct Scope {
  std::mutex mutex;
  bool on = false;
  DeviceType type = DeviceType::kCPU;
  std::string op;
  std::set<Block*> live;
  std::vector<std::string> problems;  // found when blocks were freed
};
Scope& scope() {
  static Scope* s = new Scope();  // never destroyed: blocks may be freed during exit
  return *s;
}

std::string bytes(size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

std::string device_string(Device d) {
  std::ostringstream out;
  out << d;
  return out.str();
}

// The changed bytes of a guard zone of `n` bytes read back to `zone`: how many, and the first.
struct Changed {
  size_t count = 0;
  size_t first = 0;
  size_t last = 0;
};
Changed changed_bytes(const std::vector<uint8_t>& zone) {
  Changed c;
  for (size_t i = 0; i < zone.size(); ++i) {
    if (zone[i] == kGuardByte) continue;
    if (c.count++ == 0) c.first = i;
    c.last = i;
  }
  return c;
}

// Reads both guard zones of `b` and describes what changed ("" when nothing did). Called with the
// scope's mutex held.
std::string check_block(const Scope& s, const Block& b) {
  const DeviceCopyFns fns = uncounted_copy_fns(s.type);
  if (fns.copy_to_host == nullptr) return "";
  const Device device = b.raw.device();
  const auto* base = static_cast<const uint8_t*>(b.raw.get());
  std::vector<uint8_t> front(b.front), back(kGuardZoneBytes);
  try {
    fns.copy_to_host(front.data(), kCpu, base, device, front.size());
    fns.copy_to_host(back.data(), kCpu, base + b.front + b.nbytes, device, back.size());
  } catch (const std::exception& e) {
    return s.op + ": cannot read the guard bytes of a " + std::to_string(b.nbytes) +
           "-byte block on " + device_string(device) + ": " + e.what();
  }
  std::string out;
  const std::string block = "a " + std::to_string(b.nbytes) + "-byte block the host allocated on " +
                            device_string(device);
  if (const Changed c = changed_bytes(back); c.count > 0) {
    out = s.op + " wrote " + bytes(c.last + 1) + " past the end of " + block +
          " (the first changed byte at offset " + std::to_string(b.nbytes + c.first) + ", " +
          bytes(c.first) + " past its end" +
          (c.last + 1 == back.size() ? "; the whole guard zone changed, it may go further" : "") +
          ")";
  }
  if (const Changed c = changed_bytes(front); c.count > 0) {
    if (!out.empty()) out += "; and ";
    const size_t before = front.size() - c.first;
    out += s.op + " wrote before the start of " + block + " (from offset -" +
           std::to_string(before) + ")";
  }
  return out;
}

void free_block(void* context) {
  auto* b = static_cast<Block*>(context);
  {
    Scope& s = scope();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.live.erase(b) > 0) {
      try {
        std::string why = check_block(s, *b);
        if (!why.empty()) s.problems.push_back(std::move(why));
      } catch (...) {
        // Out of memory while describing it: nothing more can be said from a deleter.
      }
    }
  }
  delete b;  // frees the plugin's block
}

// The allocator registered for a plugin device type while a scope guards it. Never destroyed:
// storages keep their allocator, and may resize after the scope (then it is a plain
// pass-through to the plugin's allocator).
class GuardingAllocator final : public Allocator {
 public:
  explicit GuardingAllocator(DeviceType type) : type_(type) {}

  DataPtr allocate(size_t nbytes) override {
    Allocator* inner = inner_.load(std::memory_order_acquire);
    Scope& s = scope();
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.on || s.type != type_) return inner->allocate(nbytes);
    }
    const DeviceCopyFns fns = uncounted_copy_fns(type_);
    if (fns.copy_from_host == nullptr) return inner->allocate(nbytes);
    const size_t align = std::max<size_t>(inner->alignment(), 1);
    const size_t front = (kGuardZoneBytes + align - 1) / align * align;
    const size_t total = front + nbytes + kGuardZoneBytes;
    DataPtr raw;
    try {
      raw = inner->allocate(total);
    } catch (const Error& e) {
      detail::throw_error(e.code(), e.message() + " (the conformance suite asked for " +
                                        std::to_string(nbytes) + " bytes and " +
                                        std::to_string(total - nbytes) + " guard bytes)");
    }
    BP_CHECK_WITH_CODE(ErrorCode::kInternal, raw.get() != nullptr, "the allocator of ",
                       device_string(raw.device()), " returned NULL for ", total,
                       " bytes without an error (the conformance suite asked for ", nbytes,
                       " bytes and ", total - nbytes, " guard bytes)");
    const std::vector<uint8_t> pattern(std::max(front, kGuardZoneBytes), kGuardByte);
    auto* base = static_cast<uint8_t*>(raw.get());
    fns.copy_from_host(base, raw.device(), pattern.data(), kCpu, front);
    fns.copy_from_host(base + front + nbytes, raw.device(), pattern.data(), kCpu, kGuardZoneBytes);
    const Device device = raw.device();
    auto* b = new Block{std::move(raw), nbytes, front};
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (s.on && s.type == type_) s.live.insert(b);
    }
    return DataPtr(base + front, b, &free_block, device);
  }

  size_t alignment() const override { return inner_.load(std::memory_order_acquire)->alignment(); }

  std::atomic<Allocator*> inner_{nullptr};

 private:
  const DeviceType type_;
};

GuardingAllocator& wrapper_for(DeviceType type) {
  static std::array<std::atomic<GuardingAllocator*>, kDeviceTypeCodeLimit> wrappers{};
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = wrappers[static_cast<size_t>(type)];
  if (slot.load() == nullptr) slot.store(new GuardingAllocator(type));
  return *slot.load();
}

}  // namespace

AllocationGuards::AllocationGuards(Device device, std::string op) : device_(device) {
  if (device.is_cpu() || device.is_meta()) return;
  Scope& s = scope();
  Allocator* current = nullptr;
  try {
    current = get_allocator(device.type);
  } catch (const Error&) {
    return;  // no allocator: nothing to guard (the op's own error says so)
  }
  GuardingAllocator& wrapper = wrapper_for(device.type);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.on) return;
    s.on = true;
    s.type = device.type;
    s.op = std::move(op);
    s.live.clear();
    s.problems.clear();
  }
  if (current != &wrapper) {
    wrapper.inner_.store(current, std::memory_order_release);
    set_allocator(device.type, &wrapper);
  }
  active_ = true;
}

AllocationGuards::~AllocationGuards() {
  if (!active_) return;
  if (!finished_) (void)finish();
  GuardingAllocator& wrapper = wrapper_for(device_.type);
  try {
    if (get_allocator(device_.type) == &wrapper) {
      set_allocator(device_.type, wrapper.inner_.load(std::memory_order_acquire));
    }
  } catch (const Error&) {
    // The backend was unregistered meanwhile: nothing to restore.
  }
}

std::vector<std::string> AllocationGuards::check() {
  if (!active_ || finished_) return {};
  Scope& s = scope();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<std::string> out = std::exchange(s.problems, {});
  for (auto it = s.live.begin(); it != s.live.end();) {
    std::string why = check_block(s, **it);
    if (why.empty()) {
      ++it;
    } else {
      out.push_back(std::move(why));
      it = s.live.erase(it);  // reported once; freed unchecked
    }
  }
  return out;
}

std::vector<std::string> AllocationGuards::finish() {
  if (!active_ || finished_) return {};
  std::vector<std::string> out = check();
  Scope& s = scope();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.live.clear();
  s.on = false;
  finished_ = true;
  return out;
}

}  // namespace bp::conformance
