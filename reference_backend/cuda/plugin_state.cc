#include "reference_backend/cuda/plugin_state.h"

#include <exception>

namespace bp::cuda {
namespace {
std::unique_ptr<PluginState> g_state;
}  // namespace

PluginState* state() { return g_state.get(); }
void set_state(std::unique_ptr<PluginState> s) { g_state = std::move(s); }

std::optional<std::vector<char>> HostDiskCache::get(const std::string& key) {
  void* data = nullptr;
  size_t size = 0;
  bp_error* error = api()->kernel_cache_get(key.c_str(), &data, &size);
  if (error != nullptr) {  // a broken cache costs a compile, nothing more
    api()->error_destroy(error);
    return std::nullopt;
  }
  if (data == nullptr) return std::nullopt;
  std::vector<char> bytes(static_cast<char*>(data), static_cast<char*>(data) + size);
  api()->kernel_cache_free(data);
  return bytes;
}

void HostDiskCache::put(const std::string& key, const std::vector<char>& data) {
  api()->error_destroy(api()->kernel_cache_put(key.c_str(), data.data(), data.size()));
}

CudaDevice& device_at(bp_device device) {
  PluginState* s = state();
  BP_CUDA_INTERNAL_CHECK(s != nullptr, "the CUDA plugin is not initialised");
  BP_CUDA_CHECK(device.device_type == s->device_type, BP_ERROR_INVALID_ARGUMENT,
                "expected a CUDA tensor, got device type ", device.device_type);
  const int index = device.device_id < 0 ? 0 : device.device_id;
  BP_CUDA_CHECK(index < static_cast<int>(s->devices.size()), BP_ERROR_INVALID_ARGUMENT,
                "CUDA device ", index, " does not exist (", s->devices.size(), " devices)");
  return *s->devices[static_cast<size_t>(index)];
}

CudaDevice& device_of(const bp_tensor* t) { return device_at(meta_of(t).device); }

CublasHandle* cublas_handle(const CudaDevice& device) {
  PluginState* s = state();
  const size_t i = static_cast<size_t>(device.index());
  return s != nullptr && i < s->cublas_handles.size() ? s->cublas_handles[i].get() : nullptr;
}

const bp_iter* handed_plan(const bp_value* args) {
  const bp_iter* plan = nullptr;
  check(api()->kernel_call_iter(args, &plan));
  return plan;
}

IterPlan read_plan(const bp_iter* iter) {
  bp_iter_info info{};
  info.struct_size = sizeof info;
  check(api()->iter_info(iter, &info));
  IterPlan plan;
  plan.shape.assign(info.shape, info.shape + info.ndim);
  plan.noutputs = static_cast<int>(info.noutputs);
  for (size_t k = 0; k < info.ntensors; ++k) {
    bp_iter_operand op{};
    op.struct_size = sizeof op;
    check(api()->iter_operand(iter, k, &op));
    const std::optional<Dtype> dtype = dtype_from_abi(op.dtype);
    BP_CUDA_INTERNAL_CHECK(dtype.has_value(), "an operand of an unknown dtype");
    PlanOperand operand;
    operand.strides.assign(op.strides, op.strides + info.ndim);
    operand.data = static_cast<char*>(op.data);
    operand.dtype = *dtype;
    operand.is_cpu_scalar = op.is_cpu_scalar;
    plan.operands.push_back(std::move(operand));
  }
  return plan;
}

void for_each_32bit(const bp_iter* iter, const std::function<void(const bp_iter*)>& fn) {
  // The visitor's exception is kept as is (BeyondKernelLimits must stay recognisable); the
  // host only sees that the walk stopped.
  struct Context {
    const std::function<void(const bp_iter*)>* fn;
    std::exception_ptr failure;
  } context{&fn, nullptr};
  bp_error* error = api()->iter_split_32bit(
      iter,
      [](void* user_data, const bp_iter* sub) -> bp_error* {
        Context& c = *static_cast<Context*>(user_data);
        try {
          (*c.fn)(sub);
          return nullptr;
        } catch (...) {
          c.failure = std::current_exception();
          return api()->error_create(BP_ERROR_INTERNAL, "stopped by the CUDA plugin");
        }
      },
      &context);
  if (context.failure) {
    api()->error_destroy(error);
    std::rethrow_exception(context.failure);
  }
  check(error);
}

Iter build_iter(std::vector<bp_tensor*> outputs, std::vector<bp_tensor*> inputs, uint32_t flags) {
  bp_iter_config config{};
  config.struct_size = sizeof config;
  config.outputs = outputs.data();
  config.noutputs = outputs.size();
  config.inputs = inputs.data();
  config.ninputs = inputs.size();
  config.flags = flags;
  bp_iter* raw = nullptr;
  check(api()->iter_build(&config, &raw));
  return Iter(raw);
}

void return_tensor(bp_value* results, size_t nresults, bp_tensor* t) {
  if (nresults == 0) return;
  api()->tensor_retain(t);
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = t;
}

}  // namespace bp::cuda
