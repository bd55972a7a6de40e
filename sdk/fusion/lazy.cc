#include "sdk/fusion/lazy.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "sdk/core/broadcast.h"
#include "sdk/core/empty.h"
#include "sdk/core/pending_data.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/kernel.h"
#include "sdk/fusion/cpu_tiled.h"
#include "sdk/fusion/graph.h"
#include "sdk/fusion/group_json.h"
#include "sdk/fusion/group_runners.h"
#include "sdk/fusion/scheduler.h"

namespace bp::fusion {
namespace {

// Bytes of a group's values per tile (its sliced inputs, intermediates and result): about the
// per-core L2 (1 MiB here). Measured on gelu(x * w + b) and the softmax chain, [4096, 4096]:
// 256 KiB tiles took 5-20% longer (per-tile dispatch), 1.5 MiB about the same, 2 MiB and up
// fell out of L2 (docs/fusion.md). BP_FUSION_TILE_BYTES overrides it, for tuning.
constexpr int64_t kDefaultTileBytes = 1 << 20;
int64_t tile_bytes() {
  static const int64_t bytes = [] {
    const char* env = std::getenv("BP_FUSION_TILE_BYTES");
    return env != nullptr && std::atoll(env) > 0 ? std::atoll(env) : kDefaultTileBytes;
  }();
  return bytes;
}
// A recording this long runs before it grows further (a loop that never reads its results
// would otherwise hold all its intermediates).
constexpr size_t kMaxNodes = 4096;

struct Counters {
  std::atomic<int64_t> recorded{0}, materialized{0}, groups{0}, fused_nodes{0}, dead{0}, offered{0};
};
Counters& counters() {
  static Counters* c = new Counters();
  return *c;
}

// What one thread recorded (shared with the registry, so that another thread reading a pending
// tensor can run it).
struct Recording {
  std::mutex mutex;
  Graph graph;
  absl::flat_hash_set<const StorageImpl*> results;  // pending results' storages
  std::vector<const StorageImpl*> registered;       // storages registered (results, inputs)
};

// Storage -> the recordings that have it pending or read it.
struct Registry {
  std::mutex mutex;
  absl::flat_hash_map<const StorageImpl*, std::vector<std::shared_ptr<Recording>>> map;
};
Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: tensors may be read during exit
  return *r;
}

void register_storage(const std::shared_ptr<Recording>& rec, const StorageImpl* storage) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& recs = r.map[storage];
  for (const auto& existing : recs) {
    if (existing == rec) return;
  }
  recs.push_back(rec);
  rec->registered.push_back(storage);
  pending_data::add_pending();
}

void unregister_all(Recording& rec) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const StorageImpl* storage : rec.registered) {
    auto it = r.map.find(storage);
    std::erase_if(it->second, [&](const std::shared_ptr<Recording>& p) { return p.get() == &rec; });
    if (it->second.empty()) r.map.erase(it);
    pending_data::remove_pending();
  }
  rec.registered.clear();
  rec.results.clear();
}

DispatchKey lazy_key();

void run_group(const Graph& graph, const Schedule& schedule, const Group& group) {
  const Device device = graph.nodes()[group.root].result.device();
  if (device.type != DeviceType::kCPU) {
    if (std::shared_ptr<const GroupRunner> runner = find_group_runner(device.type)) {
      std::vector<Tensor> buffers;
      const std::string text = group_to_json(graph, schedule, group, &buffers);
      if ((*runner)(text, buffers)) {
        counters().offered.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
    Group whole = group;  // split into ops: each runs whole on the device
    whole.root_axis = -1;
    run_group_tiled(graph, schedule, whole);
    return;
  }
  run_group_tiled(graph, schedule, group);
}

void materialize_recording(Recording& rec) {
  std::lock_guard<std::mutex> lock(rec.mutex);
  if (rec.graph.empty()) return;
  Graph graph = std::exchange(rec.graph, Graph());
  unregister_all(rec);
  ExcludeDispatchKeyGuard exclude(lazy_key());
  const Schedule s = schedule(graph, tile_bytes());
  Counters& c = counters();
  c.materialized.fetch_add(1, std::memory_order_relaxed);
  c.dead.fetch_add(s.dead, std::memory_order_relaxed);
  for (const Group& group : s.groups) {
    run_group(graph, s, group);
    c.groups.fetch_add(1, std::memory_order_relaxed);
    if (group.nodes.size() > 1) {
      c.fused_nodes.fetch_add(static_cast<int64_t>(group.nodes.size()), std::memory_order_relaxed);
    }
  }
}

void on_read(const StorageImpl* storage) {
  std::vector<std::shared_ptr<Recording>> recs;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.map.find(storage);
    if (it == r.map.end()) return;
    recs = it->second;
  }
  for (const auto& rec : recs) materialize_recording(*rec);
}

struct ThreadState {
  std::shared_ptr<Recording> rec;
  int depth = 0;
};
ThreadState& thread_state() {
  thread_local ThreadState state;
  return state;
}

// ---- Which calls are recorded --------------------------------------------------------------

struct OpClass {
  bool fusible = false;
  NodeKind kind = NodeKind::kPointwise;
  const OpInfo* info = nullptr;
  std::optional<OperatorHandle> out_op;
  int dim_arg = -1, keepdim_arg = -1;  // reductions
  bool is_view = false;                // runs at once even on pending tensors
  bool is_mutable = false;
  // Written in terms of other ops (CompositeImplicit, e.g. mul.Scalar): runs with lazy mode on,
  // so that the ops it calls are recorded.
  bool decompose = false;
};

bool is_composite_implicit(const OperatorHandle& op) {
  for (const DispatchTableRow& row : Dispatcher::singleton().dispatch_table(op.name())) {
    if (row.key == DispatchKey::kCPU) return row.reason == ServingReason::kCompositeImplicit;
  }
  return false;
}

int argument_index(const FunctionSchema& schema, std::string_view name) {
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (schema.arguments[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// The out= variant when its arguments are the functional ones followed by `out`.
std::optional<OperatorHandle> out_variant(const OperatorHandle& op, const OpInfo& info) {
  if (info.structured_group.empty()) return std::nullopt;
  std::optional<OperatorHandle> out = Dispatcher::singleton().find_op(info.structured_group);
  if (!out) return std::nullopt;
  const auto& fa = op.schema().arguments;
  const auto& oa = out->schema().arguments;
  if (oa.size() != fa.size() + 1 || oa.back().name != "out" || !oa.back().alias ||
      !oa.back().alias->is_write) {
    return std::nullopt;
  }
  for (size_t i = 0; i < fa.size(); ++i) {
    if (oa[i].name != fa[i].name) return std::nullopt;
  }
  return out;
}

OpClass classify_uncached(const OperatorHandle& op) {
  OpClass c;
  const FunctionSchema& schema = op.schema();
  c.is_mutable = schema.is_mutable();
  std::string_view name = op.name();
  if (name.substr(0, 4) == "bp::") name.remove_prefix(4);
  c.info = find_op_info(name);
  if (c.info == nullptr) return c;
  const std::string_view tags = c.info->tags;
  c.is_view = !c.is_mutable && tags.find("view") != std::string_view::npos &&
              tags.find("inplace_view") == std::string_view::npos;
  c.decompose = !c.is_mutable && is_composite_implicit(op);
  if (c.decompose) return c;
  if (c.info->kind != OpKind::kFunctional || c.is_mutable || schema.returns.size() != 1 ||
      schema.returns[0].type.kind != TypeKind::kTensor || schema.returns[0].type.is_list ||
      schema.is_vararg || !op.has_own_kernel(DispatchKey::kMeta)) {
    return c;
  }
  if (tags.find("pointwise") != std::string_view::npos) {
    c.kind = NodeKind::kPointwise;
  } else if (tags.find("reduction") != std::string_view::npos) {
    c.kind = NodeKind::kReduction;
    c.dim_arg = argument_index(schema, "dim");
    c.keepdim_arg = argument_index(schema, "keepdim");
    if (c.dim_arg < 0 || c.keepdim_arg < 0) return c;
  } else {
    return c;
  }
  c.out_op = out_variant(op, *c.info);
  c.fusible = true;
  return c;
}

const OpClass& classify(const OperatorHandle& op) {
  thread_local absl::flat_hash_map<std::string, OpClass> cache;
  auto it = cache.find(op.name());
  if (it == cache.end()) it = cache.emplace(op.name(), classify_uncached(op)).first;
  return it->second;
}

// The device a fusible call runs on, or nullopt when its tensors cannot be fused (lists,
// undefined or Meta tensors, several devices). 0-dim CPU tensors go with any device.
std::optional<Device> call_device(const Stack& stack, size_t first, size_t n) {
  std::optional<Device> device;
  bool cpu_scalar = false;
  for (size_t i = first; i < first + n; ++i) {
    const Value& v = stack[i];
    if (v.tag() == Value::Tag::kTensorList || v.tag() == Value::Tag::kOptionalTensorList) {
      return std::nullopt;
    }
    if (!v.is_tensor()) continue;
    const Tensor& t = v.ref<Tensor>();
    if (!t.defined() || t.device().type == DeviceType::kMeta) return std::nullopt;
    if (t.dim() == 0 && t.device().type == DeviceType::kCPU) {
      cpu_scalar = true;
      continue;
    }
    if (device && *device != t.device()) return std::nullopt;
    device = t.device();
  }
  if (!device && cpu_scalar) device = Device(DeviceType::kCPU);
  return device;
}

std::vector<int64_t> reduced_dims(const Value& dim, int64_t rank) {
  std::vector<int64_t> dims;
  if (dim.tag() == Value::Tag::kInt) {
    dims.push_back(dim.ref<int64_t>());
  } else if (dim.tag() == Value::Tag::kIntList) {
    dims = dim.ref<std::vector<int64_t>>();
  }
  if (dims.empty()) {  // None or []: every dimension
    for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
  }
  for (int64_t& d : dims) d = rank == 0 ? 0 : wrap_dim(d, rank);
  if (rank == 0) dims.clear();
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

// Records the call when it can be fused; false when it must run eagerly. Throws what eager
// would throw for a bad call (the meta function runs here).
bool record(const std::shared_ptr<Recording>& rec, const OperatorHandle& op, const OpClass& c,
            Stack* stack) {
  const size_t n = op.schema().arguments.size();
  const size_t first = stack->size() - n;
  const std::optional<Device> device = call_device(*stack, first, n);
  if (!device) return false;
  Stack meta;
  meta.reserve(n);
  std::vector<IntArrayRef> arg_sizes;
  for (size_t i = first; i < first + n; ++i) {
    const Value& v = (*stack)[i];
    if (!v.is_tensor()) {
      meta.push_back(v);
      continue;
    }
    const Tensor& t = v.ref<Tensor>();
    Tensor m = native::empty_strided(t.sizes(), t.strides(), t.dtype(), Device(DeviceType::kMeta));
    m.impl()->set_wrapped_number(t.is_wrapped_number());
    meta.emplace_back(std::move(m));
    arg_sizes.push_back(t.sizes());
  }
  {
    ExcludeDispatchKeyGuard exclude(lazy_key());
    op.call_boxed(&meta);
  }
  const Tensor& m = meta.back().ref<Tensor>();
  Node node{c.kind, op, c.out_op, c.info, Stack(stack->begin() + first, stack->end()),
            {},     {}, {},       false};
  if (c.kind == NodeKind::kPointwise) {
    // Pointwise means "the result is the broadcast of the tensor arguments"; an op declared
    // pointwise that reshapes runs eagerly.
    const DimVector shape = infer_size(absl::MakeConstSpan(arg_sizes));
    if (!std::equal(shape.begin(), shape.end(), m.sizes().begin(), m.sizes().end())) return false;
  } else {
    const Tensor& self = node.args[0].ref<Tensor>();
    node.reduced_dims = reduced_dims(node.args[c.dim_arg], self.dim());
    node.keepdim = node.args[c.keepdim_arg].to<bool>();
  }
  node.result = native::empty_strided(m.sizes(), m.strides(), m.dtype(), *device);
  std::lock_guard<std::mutex> lock(rec->mutex);
  for (const Value& v : node.args) {
    node.producers.push_back(v.is_tensor() ? rec->graph.producer_of(v.ref<Tensor>()) : -1);
  }
  Tensor result = node.result;
  rec->graph.add(std::move(node));
  rec->results.insert(result.storage().impl());
  register_storage(rec, result.storage().impl());
  for (size_t i = first; i < first + n; ++i) {
    const Value& v = (*stack)[i];
    if (v.is_tensor()) register_storage(rec, v.ref<Tensor>().storage().impl());
  }
  stack->erase(stack->begin() + static_cast<std::ptrdiff_t>(first), stack->end());
  stack->emplace_back(std::move(result));
  counters().recorded.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// Whether an eager call must first run the recording: it writes a tensor (in-place, out=), or
// reads a pending result (views aside: they read no data).
bool must_materialize(Recording& rec, const OpClass& c, const Stack& stack, size_t n) {
  std::lock_guard<std::mutex> lock(rec.mutex);
  if (rec.graph.empty()) return false;
  if (c.is_mutable) return true;
  if (c.is_view) return false;
  auto pending = [&](const Tensor& t) {
    return t.defined() && rec.results.contains(t.storage().impl());
  };
  for (size_t i = stack.size() - n; i < stack.size(); ++i) {
    const Value& v = stack[i];
    if (v.is_tensor() && pending(v.ref<Tensor>())) return true;
    if (v.tag() == Value::Tag::kTensorList) {
      for (const Tensor& t : v.ref<std::vector<Tensor>>()) {
        if (pending(t)) return true;
      }
    } else if (v.tag() == Value::Tag::kOptionalTensorList) {
      for (const auto& t : v.ref<std::vector<std::optional<Tensor>>>()) {
        if (t && pending(*t)) return true;
      }
    }
  }
  return false;
}

void lazy_fallback(void*, const OperatorHandle& op, DispatchKeySet keys, Stack* stack) {
  ThreadState& ts = thread_state();
  const OpClass& c = classify(op);
  if (ts.rec) {
    size_t size;
    {
      std::lock_guard<std::mutex> lock(ts.rec->mutex);
      size = ts.rec->graph.nodes().size();
    }
    if (size >= kMaxNodes) materialize_recording(*ts.rec);
    if (c.fusible && record(ts.rec, op, c, stack)) return;
    if (c.decompose) {
      op.redispatch_boxed(keys & DispatchKeySet::below(lazy_key()), stack);
      return;
    }
    if (must_materialize(*ts.rec, c, *stack, op.schema().arguments.size())) {
      materialize_recording(*ts.rec);
    }
  }
  ExcludeDispatchKeyGuard exclude(lazy_key());
  op.redispatch_boxed(keys & DispatchKeySet::below(lazy_key()), stack);
}

DispatchKey install() {
  const DispatchKey key = register_wrapper_key("lazy");
  static RegistrationHandle fallback = Dispatcher::singleton().register_fallback(
      key, KernelFunction::make_from_boxed(&lazy_fallback), "lazy mode (sdk/fusion/lazy.cc)");
  pending_data::set_reader(&on_read);
  return key;
}

DispatchKey lazy_key() {
  static const DispatchKey key = install();
  return key;
}

}  // namespace

LazyScope::LazyScope() {
  ThreadState& ts = thread_state();
  if (ts.depth++ == 0 && !ts.rec) ts.rec = std::make_shared<Recording>();
  include_.emplace(lazy_key());
}

LazyScope::~LazyScope() {
  include_.reset();
  ThreadState& ts = thread_state();
  if (--ts.depth > 0) return;
  std::shared_ptr<Recording> rec = std::move(ts.rec);
  try {
    materialize_recording(*rec);
  } catch (const std::exception& e) {
    warn(std::string("LazyScope: running the recorded calls at the end of the scope failed: ") +
         e.what());
  }
}

void LazyScope::materialize() { fusion::materialize(); }

bool in_lazy_scope() { return thread_state().depth > 0; }

void materialize() {
  ThreadState& ts = thread_state();
  if (ts.rec) materialize_recording(*ts.rec);
}

std::string describe_recording() {
  ThreadState& ts = thread_state();
  if (!ts.rec) return "";
  std::lock_guard<std::mutex> lock(ts.rec->mutex);
  return to_string(ts.rec->graph) + to_string(schedule(ts.rec->graph, tile_bytes()));
}

FusionStats fusion_stats() {
  const Counters& c = counters();
  return {c.recorded.load(),    c.materialized.load(), c.groups.load(),
          c.fused_nodes.load(), c.dead.load(),         c.offered.load()};
}

void reset_fusion_stats() {
  Counters& c = counters();
  for (auto* a : {&c.recorded, &c.materialized, &c.groups, &c.fused_nodes, &c.dead, &c.offered}) {
    a->store(0);
  }
}

}  // namespace bp::fusion
