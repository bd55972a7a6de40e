#include "sdk/dispatch/cpu_fallback.h"

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sdk/core/allocator.h"
#include "sdk/core/storage_copies.h"
#include "sdk/core/tensor_impl.h"

namespace bp {
namespace {

struct Written {
  Tensor original;
  Tensor on_cpu;
};

class FallbackCall {
 public:
  // Replaces a device tensor by its CPU copy; remembers written ones.
  Tensor to_cpu(const Tensor& t, bool written, const std::optional<AliasInfo>& alias) {
    if (!t.defined() || t.device().is_cpu()) return t;
    if (!to_device_) to_device_.emplace(t.device());
    // Each storage is copied once: arguments that are views of one buffer (`x.add_(x.t())`, an
    // out= overlapping an input) stay so on the CPU, which then sees (and checks) the overlap.
    Tensor cpu = to_cpu_.copy(t);
    if (written) {
      written_.push_back({t, cpu});
      if (alias) by_alias_.emplace(alias->set, t);
    }
    return cpu;
  }

  // A CPU result moved to the first device argument's device (or the written argument it aliases).
  Tensor from_cpu(const Tensor& t, const std::optional<AliasInfo>& alias) {
    if (alias) {
      auto it = by_alias_.find(alias->set);
      if (it != by_alias_.end()) return it->second;
    }
    if (!t.defined() || !to_device_ || !t.device().is_cpu()) return t;
    return to_device_->copy(t);
  }

  void copy_back() {
    for (const Written& w : written_) {
      // An out= kernel may have resized its output (a storage only grows): the original takes
      // the new geometry before the bytes come back.
      Storage dst = w.original.storage();
      const Storage& src = w.on_cpu.storage();
      if (dst.nbytes() < src.nbytes()) dst.resize(src.nbytes());
      w.original.impl()->set_sizes_and_strides(w.on_cpu.sizes(), w.on_cpu.strides());
      w.original.impl()->set_storage_offset(w.on_cpu.storage_offset());
      copy_bytes(dst.data(), dst.device(), src.data(), src.device(), src.nbytes());
    }
  }

 private:
  std::vector<Written> written_;
  std::map<std::string, Tensor> by_alias_;
  StorageCopies to_cpu_{Device(DeviceType::kCPU)};  // the arguments
  std::optional<StorageCopies> to_device_;          // the results, to the first argument's device
};

template <typename F>
void map_tensors(Value& v, F&& f) {
  switch (v.tag()) {
    case Value::Tag::kTensor:
      v.ref<Tensor>() = f(v.ref<Tensor>());
      break;
    case Value::Tag::kTensorList:
      for (Tensor& t : v.ref<std::vector<Tensor>>()) t = f(t);
      break;
    case Value::Tag::kOptionalTensorList:
      for (auto& t : v.ref<std::vector<std::optional<Tensor>>>()) {
        if (t) *t = f(*t);
      }
      break;
    default:
      break;
  }
}

std::atomic<int64_t> fallback_calls{0};

}  // namespace

int64_t cpu_fallback_calls() { return fallback_calls.load(std::memory_order_relaxed); }

void cpu_fallback(void*, const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  fallback_calls.fetch_add(1, std::memory_order_relaxed);
  const FunctionSchema& schema = op.schema();
  size_t n = schema.arguments.size();
  BP_CHECK(stack->size() >= n, "cpu_fallback: expected ", n, " arguments on the stack");
  size_t base = stack->size() - n;
  FallbackCall call;
  for (size_t i = 0; i < n; ++i) {
    const Argument& arg = schema.arguments[i];
    bool written = arg.alias && arg.alias->is_write;
    map_tensors((*stack)[base + i],
                [&](const Tensor& t) { return call.to_cpu(t, written, arg.alias); });
  }
  op.redispatch_boxed(DispatchKeySet(DispatchKey::kCPU), stack);
  call.copy_back();
  for (size_t j = base; j < stack->size(); ++j) {
    size_t r = j - base;
    std::optional<AliasInfo> alias =
        r < schema.returns.size() ? schema.returns[r].alias : std::nullopt;
    map_tensors((*stack)[j], [&](const Tensor& t) { return call.from_cpu(t, alias); });
  }
}

}  // namespace bp
