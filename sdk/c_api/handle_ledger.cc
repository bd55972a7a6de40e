#include "sdk/c_api/handle_ledger.h"

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "sdk/c_api/convert.h"
#include "sdk/c_api/ops.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor_impl.h"

namespace bp::c_api {

struct LedgerFrame {
  const bp_op* op;
  const std::string* label;
  // References the kernel owns, by handle.
  std::unordered_map<const bp_tensor*, int64_t> owned;
  // Its arguments' handles (borrowed) and their names ("self", "tensors[1]").
  std::vector<std::pair<const bp_tensor*, std::string>> borrowed;
  LedgerFrame* outer = nullptr;
};

namespace detail_ledger {
constinit thread_local LedgerFrame* tls_frame = nullptr;
}  // namespace detail_ledger

namespace {

std::atomic<int> enabled_scopes{0};

struct Totals {
  std::atomic<int64_t> created{0}, released{0}, returned{0}, leaked{0}, over_released{0};
};
Totals& totals() {
  static Totals* t = new Totals();  // never destroyed: kernels may run during exit
  return *t;
}

struct Problems {
  std::mutex mutex;
  std::vector<std::string> lines;
};
Problems& problems() {
  static Problems* p = new Problems();
  return *p;
}

void report(const LedgerFrame& f, const std::string& what) noexcept {
  try {
    std::string line = "[" + *f.label + "] " + f.op->label + ": " + what;
    Problems& p = problems();
    std::lock_guard<std::mutex> lock(p.mutex);
    p.lines.push_back(std::move(line));
  } catch (...) {
    // Out of memory while reporting: the counts still say it.
  }
}

// The name of argument handle `h` in `f`, or null when `h` is none of its arguments.
const std::string* argument_name(const LedgerFrame& f, const bp_tensor* h) {
  for (const auto& [handle, name] : f.borrowed) {
    if (handle == h) return &name;
  }
  return nullptr;
}

// "a float32 [2, 3] tensor" (the handle is alive: the kernel holds a reference to it).
std::string describe(const bp_tensor* h) {
  const auto* impl = reinterpret_cast<const TensorImpl*>(h);
  return "a " + std::string(scalar_type_name(impl->dtype())) + " " +
         int_list_string(impl->sizes()) + " tensor";
}

// Spends one reference of `f` to `h` for a result; false when it owns none.
bool spend(LedgerFrame& f, const bp_tensor* h) {
  auto it = f.owned.find(h);
  if (it == f.owned.end() || it->second <= 0) return false;
  --it->second;
  return true;
}

}  // namespace

namespace detail_ledger {

void note_owned(bp_tensor* handle) noexcept {
  try {
    ++tls_frame->owned[handle];
    ++totals().created;
  } catch (...) {
    // Out of memory: this reference goes uncounted (its release then passes as unknown).
  }
}

bool allows_release(bp_tensor* handle) noexcept {
  LedgerFrame& f = *tls_frame;
  if (spend(f, handle)) {
    ++totals().released;
    return true;
  }
  const std::string* name = argument_name(f, handle);
  if (name == nullptr) return true;  // not this call's: unchecked
  ++totals().over_released;
  try {
    report(f, "released a reference to argument '" + *name +
                  "' that it does not own (arguments are borrowed: tensor_retain one before "
                  "releasing it); the host ignored the release");
  } catch (...) {
    // Out of memory while describing it: the count says it.
  }
  return false;
}

}  // namespace detail_ledger

bool handle_ledger_enabled() { return enabled_scopes.load(std::memory_order_relaxed) > 0; }

HandleLedgerScope::HandleLedgerScope() { enabled_scopes.fetch_add(1, std::memory_order_relaxed); }
HandleLedgerScope::~HandleLedgerScope() { enabled_scopes.fetch_sub(1, std::memory_order_relaxed); }

HandleLedgerTotals handle_ledger_totals() {
  const Totals& t = totals();
  return HandleLedgerTotals{t.created.load(), t.released.load(), t.returned.load(), t.leaked.load(),
                            t.over_released.load()};
}

std::vector<std::string> take_handle_problems() {
  Problems& p = problems();
  std::lock_guard<std::mutex> lock(p.mutex);
  return std::exchange(p.lines, {});
}

LedgerCall::LedgerCall(const bp_op& op, const std::string& label, const bp_value* args,
                       size_t nargs) {
  if (!handle_ledger_enabled()) return;
  frame_ = new LedgerFrame{&op, &label, {}, {}, detail_ledger::tls_frame};
  for (size_t i = 0; i < nargs; ++i) {
    const std::string name = i < op.args.size() ? op.args[i].name : "#" + std::to_string(i);
    if (args[i].tag == BP_VALUE_TENSOR && args[i].u.tensor != nullptr) {
      frame_->borrowed.emplace_back(args[i].u.tensor, name);
    } else if (args[i].tag == BP_VALUE_TENSOR_LIST) {
      for (size_t j = 0; j < args[i].u.tensors.size; ++j) {
        if (args[i].u.tensors.data[j] == nullptr) continue;
        frame_->borrowed.emplace_back(args[i].u.tensors.data[j],
                                      name + "[" + std::to_string(j) + "]");
      }
    }
  }
  detail_ledger::tls_frame = frame_;
}

LedgerCall::~LedgerCall() {
  if (frame_ == nullptr) return;
  if (detail_ledger::tls_frame == frame_) detail_ledger::tls_frame = frame_->outer;
  delete frame_;
}

void LedgerCall::finish(const bp_value* results, size_t nresults) noexcept {
  if (frame_ == nullptr) return;
  detail_ledger::tls_frame = frame_->outer;  // the host's handling of the results is not the call's
  try {
    settle(*frame_, results, nresults);
  } catch (...) {
    // Out of memory while describing a problem: the counts say what was found so far.
  }
}

void LedgerCall::settle(LedgerFrame& f, const bp_value* results, size_t nresults) {
  Totals& t = totals();
  auto spend_result = [&](bp_tensor* h, const std::string& which) {
    if (h == nullptr) return;
    if (spend(f, h)) {
      ++t.returned;
      return;
    }
    const std::string* name = argument_name(f, h);
    if (name == nullptr) return;  // not this call's: unchecked
    ++t.over_released;
    (void)IntrusivePtr<TensorImpl>::borrow(reinterpret_cast<TensorImpl*>(h)).release();
    report(f, which + " is argument '" + *name +
                  "' returned without tensor_retain (results are new references, which the "
                  "host releases); the host added the missing reference");
  };
  for (size_t i = 0; i < nresults; ++i) {
    const std::string which = "result " + std::to_string(i);
    if (results[i].tag == BP_VALUE_TENSOR) {
      spend_result(results[i].u.tensor, which);
    } else if (results[i].tag == BP_VALUE_TENSOR_LIST && results[i].u.tensors.data != nullptr) {
      for (size_t j = 0; j < results[i].u.tensors.size; ++j) {
        spend_result(results[i].u.tensors.data[j], which + "[" + std::to_string(j) + "]");
      }
    }
  }
  int64_t leaked = 0;
  std::string which;
  int described = 0;
  for (const auto& [h, count] : f.owned) {
    if (count <= 0) continue;
    leaked += count;
    if (described++ < 3) {
      const std::string* name = argument_name(f, h);
      which += (which.empty() ? "" : ", ") +
               (name != nullptr ? "argument '" + *name + "'" : describe(h)) +
               (count > 1 ? " (" + std::to_string(count) + " references)" : "");
    }
  }
  if (leaked > 0) {
    t.leaked += leaked;
    report(f, "leaked " + std::to_string(leaked) + " tensor reference" + (leaked > 1 ? "s" : "") +
                  " that it created or retained and neither released " + "nor returned: " + which +
                  (described > 3 ? ", ..." : ""));
  }
}

}  // namespace bp::c_api
