#include "sdk/dispatch/tracing.h"

#include <chrono>
#include <mutex>
#include <sstream>

#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/kernel.h"

namespace bp {
namespace {

struct TraceBuffer {
  std::mutex mutex;
  std::vector<TraceEvent> events;
};

TraceBuffer& buffer() {
  static TraceBuffer* b = new TraceBuffer();  // never destroyed: calls may run during exit
  return *b;
}

void record_tensor(std::vector<TracedTensor>& out, const Tensor& t) {
  if (!t.defined()) return;
  out.push_back({std::vector<int64_t>(t.sizes().begin(), t.sizes().end()), t.dtype(), t.device()});
}

void tracing_fallback(void*, const OperatorHandle& op, DispatchKeySet keys, Stack* stack) {
  TraceEvent event{op.name(), {}, 0};
  size_t n = op.schema().arguments.size();
  for (size_t i = stack->size() - n; i < stack->size(); ++i) {
    const Value& v = (*stack)[i];
    if (v.tag() == Value::Tag::kTensor) {
      record_tensor(event.tensors, v.ref<Tensor>());
    } else if (v.tag() == Value::Tag::kTensorList) {
      for (const Tensor& t : v.ref<std::vector<Tensor>>()) record_tensor(event.tensors, t);
    } else if (v.tag() == Value::Tag::kOptionalTensorList) {
      for (const auto& t : v.ref<std::vector<std::optional<Tensor>>>()) {
        if (t) record_tensor(event.tensors, *t);
      }
    }
  }
  auto start = std::chrono::steady_clock::now();
  op.redispatch_boxed(keys & DispatchKeySet::below(DispatchKey::kTracing), stack);
  event.elapsed_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  TraceBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.events.push_back(std::move(event));
}

void install_fallback_once() {
  // Installed on first use and kept until exit: tracing can be switched on and off at any time.
  static RegistrationHandle handle = Dispatcher::singleton().register_fallback(
      DispatchKey::kTracing, KernelFunction::make_from_boxed(&tracing_fallback), "tracing");
}

}  // namespace

void set_tracing_enabled(bool enabled) {
  if (enabled) {
    install_fallback_once();
    add_global_included_key(DispatchKey::kTracing);
  } else {
    remove_global_included_key(DispatchKey::kTracing);
  }
}

bool tracing_enabled() { return global_included_keys().has(DispatchKey::kTracing); }

std::vector<TraceEvent> take_trace() {
  TraceBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  return std::exchange(b.events, {});
}

std::string to_string(const TraceEvent& event) {
  std::ostringstream out;
  out << event.op << "(";
  for (size_t i = 0; i < event.tensors.size(); ++i) {
    const TracedTensor& t = event.tensors[i];
    if (i) out << ", ";
    out << scalar_type_name(t.dtype) << "[";
    for (size_t d = 0; d < t.sizes.size(); ++d) out << (d ? ", " : "") << t.sizes[d];
    out << "] " << t.device;
  }
  out << ") " << event.elapsed_ns << " ns";
  return out.str();
}

}  // namespace bp
