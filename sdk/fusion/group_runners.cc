#include "sdk/fusion/group_runners.h"

#include <mutex>
#include <vector>

#include "sdk/core/error.h"

namespace bp::fusion {
namespace {

struct Entry {
  DeviceType type;
  uint64_t id;
  std::shared_ptr<const GroupRunner> runner;
};

struct Registry {
  std::mutex mutex;
  std::vector<Entry> entries;  // newest last
  uint64_t next_id = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: plugins unregister during exit
  return *r;
}

}  // namespace

RegistrationHandle register_group_runner(DeviceType type, GroupRunner runner) {
  BP_CHECK(static_cast<bool>(runner), "register_group_runner: the runner is empty");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const uint64_t id = r.next_id++;
  r.entries.push_back({type, id, std::make_shared<const GroupRunner>(std::move(runner))});
  return RegistrationHandle([id] {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::erase_if(r.entries, [id](const Entry& e) { return e.id == id; });
  });
}

std::shared_ptr<const GroupRunner> find_group_runner(DeviceType type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = r.entries.rbegin(); it != r.entries.rend(); ++it) {
    if (it->type == type) return it->runner;
  }
  return nullptr;
}

}  // namespace bp::fusion
