// Iteration plans (iter.h): the host's TensorIterator behind the C ABI.
#include "sdk/c_api/iter.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "sdk/c_api/convert.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/structs.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::c_api {
namespace {

constexpr uint32_t kKnownFlags = (1u << 10) - 1;

void apply_flags(uint32_t flags, TensorIteratorConfig& config) {
  BP_CHECK((flags & ~kKnownFlags) == 0, "bp_iter_config.flags has unknown bits 0x", std::hex,
           flags & ~kKnownFlags);
  auto on = [&](uint32_t flag) { return (flags & flag) != 0; };
  BP_CHECK(
      !on(BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT) || on(BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE),
      "BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT needs BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE");
  // Order matters: promotion and casting switch the same-dtype check off (as in ATen).
  config.set_check_mem_overlap(on(BP_ITER_CHECK_MEM_OVERLAP))
      .check_all_same_dtype(on(BP_ITER_CHECK_ALL_SAME_DTYPE))
      .check_all_same_device(on(BP_ITER_CHECK_ALL_SAME_DEVICE))
      .allow_cpu_scalars(on(BP_ITER_ALLOW_CPU_SCALARS))
      .promote_inputs_to_common_dtype(on(BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE))
      .promote_integer_inputs_to_float(on(BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT))
      .cast_common_dtype_to_outputs(on(BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS))
      .enforce_safe_casting_to_output(on(BP_ITER_ENFORCE_SAFE_CASTING_TO_OUTPUT))
      .resize_outputs(on(BP_ITER_RESIZE_OUTPUTS))
      .is_reduction(on(BP_ITER_IS_REDUCTION));
}

// With BP_ITER_CHECK_ALL_SAME_DTYPE in effect (promotion and casting switch it off), operands of
// different dtypes fail here, naming the config, the operands and the flags that would accept
// them: TensorIterator's own message ("Found dtype float32 but expected int32") is PyTorch's and
// reads, through a plugin, as if the plugin had raised it.
void check_same_dtype(const bp_iter_config& c) {
  auto on = [&](uint32_t flag) { return (c.flags & flag) != 0; };
  if (!on(BP_ITER_CHECK_ALL_SAME_DTYPE) || on(BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE) ||
      on(BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS)) {
    return;
  }
  std::optional<std::pair<std::string, ScalarType>> first;
  for (size_t i = 0; i < c.noutputs + c.ninputs; ++i) {
    const bool output = i < c.noutputs;
    const bp_tensor* handle = output ? c.outputs[i] : c.inputs[i - c.noutputs];
    if (handle == nullptr) continue;  // an output the plan allocates
    const Tensor t = tensor_from(handle);
    const std::string name =
        detail::str_cat(output ? "output " : "input ", output ? i : i - c.noutputs);
    if (!first) {
      first.emplace(name, t.dtype());
      continue;
    }
    BP_CHECK(t.dtype() == first->second,
             "bp_api.iter_build: the iterator config requires one dtype for every operand "
             "(BP_ITER_CHECK_ALL_SAME_DTYPE",
             c.flags == BP_ITER_UNARY_OP ? ", part of BP_ITER_UNARY_OP" : "", "), but ",
             first->first, " is ", first->second, " and ", name, " is ", t.dtype(),
             ". For an op with a floating result on integer input use BP_ITER_UNARY_FLOAT_OP "
             "(integer inputs promote to float); for inputs of different dtypes add "
             "BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE | BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS");
  }
}

const TensorIteratorBase& plan_of(const bp_iter* iter, const char* function) {
  require(iter, function, "iter");
  return *iter->plan;
}

bp_error* iter_build(const bp_iter_config* in, bp_iter** out) {
  return guarded([&] {
    require(in, "iter_build", "config");
    require(out, "iter_build", "out");
    const bp_iter_config c = read_struct(in, "bp_iter_config");
    BP_CHECK(c.outputs != nullptr || c.noutputs == 0, "bp_iter_config.outputs is NULL");
    BP_CHECK(c.inputs != nullptr || c.ninputs == 0, "bp_iter_config.inputs is NULL");
    TensorIteratorConfig config;
    for (size_t i = 0; i < c.noutputs; ++i) {
      config.add_owned_output(c.outputs[i] != nullptr ? tensor_from(c.outputs[i]) : Tensor());
    }
    for (size_t i = 0; i < c.ninputs; ++i) {
      BP_CHECK(c.inputs[i] != nullptr, "bp_iter_config.inputs[", i, "] is NULL");
      config.add_owned_input(tensor_from(c.inputs[i]));
    }
    apply_flags(c.flags, config);
    check_same_dtype(c);
    auto plan = std::make_unique<TensorIterator>(config.build());
    TensorIteratorBase* base = plan.get();
    *out = new bp_iter{std::move(plan), base};
  });
}

bp_error* iter_info(const bp_iter* iter, bp_iter_info* out) {
  return guarded([&] {
    const TensorIteratorBase& plan = plan_of(iter, "iter_info");
    require(out, "iter_info", "out");
    bp_iter_info info{};
    info.ndim = static_cast<size_t>(plan.ndim());
    info.shape = plan.shape().data();
    info.ntensors = static_cast<size_t>(plan.ntensors());
    info.noutputs = static_cast<size_t>(plan.noutputs());
    info.numel = plan.numel();
    info.common_dtype = plan.common_dtype() ? to_bp_dtype(*plan.common_dtype()) : 0;
    info.is_contiguous = plan.is_contiguous();
    info.has_contiguous_first_dim = plan.has_contiguous_first_dim();
    info.can_use_32bit_indexing = plan.can_use_32bit_indexing();
    info.is_reduction = plan.is_reduction();
    const bool reduces = plan.is_reduction() && plan.ntensors() > 0;
    info.num_output_elements = reduces ? plan.num_output_elements() : plan.numel();
    info.num_reduce_dims = reduces ? plan.num_reduce_dims() : 0;
    info.should_accumulate = plan.should_accumulate();
    info.is_final_output = plan.is_final_output();
    write_struct(info, out, "bp_iter_info");
  });
}

bp_error* iter_operand(const bp_iter* iter, size_t index, bp_iter_operand* out) {
  return guarded([&] {
    const TensorIteratorBase& plan = plan_of(iter, "iter_operand");
    require(out, "iter_operand", "out");
    BP_CHECK_INDEX(index < static_cast<size_t>(plan.ntensors()), "operand index ", index,
                   " is out of range for a plan of ", plan.ntensors(), " operands");
    const int i = static_cast<int>(index);
    bp_iter_operand operand{};
    operand.strides = plan.strides(i).data();
    operand.data = plan.data_ptr(i);
    operand.dtype = to_bp_dtype(plan.dtype(i));
    operand.device = to_bp_device(plan.device(i));
    operand.is_output = plan.operand(i).is_output;
    operand.is_read_write = plan.operand(i).is_read_write;
    operand.is_scalar = plan.is_scalar(i);
    operand.is_cpu_scalar = plan.is_cpu_scalar(i);
    write_struct(operand, out, "bp_iter_operand");
  });
}

bp_error* iter_tensor(const bp_iter* iter, size_t index, bp_tensor** out) {
  return guarded([&] {
    const TensorIteratorBase& plan = plan_of(iter, "iter_tensor");
    require(out, "iter_tensor", "out");
    BP_CHECK_INDEX(index < static_cast<size_t>(plan.ntensors()), "operand index ", index,
                   " is out of range for a plan of ", plan.ntensors(), " operands");
    *out = new_reference(plan.tensor(static_cast<int>(index)));
  });
}

bp_error* iter_split_32bit(const bp_iter* iter, bp_error* (*visit)(void*, const bp_iter*),
                           void* user_data) {
  bp_error* visit_error = nullptr;
  bp_error* error = guarded([&] {
    const TensorIteratorBase& plan = plan_of(iter, "iter_split_32bit");
    require(reinterpret_cast<const void*>(visit), "iter_split_32bit", "visit");
    for (TensorIterator& sub : plan.with_32bit_indexing()) {
      const bp_iter view{nullptr, &sub};
      visit_error = visit(user_data, &view);
      if (visit_error != nullptr) return;
    }
  });
  return visit_error != nullptr ? visit_error : error;
}

bp_error* iter_cast_outputs(bp_iter* iter) {
  return guarded([&] {
    require(iter, "iter_cast_outputs", "iter");
    iter->plan->cast_outputs();
  });
}

void iter_destroy(bp_iter* iter) {
  if (iter != nullptr && iter->owned != nullptr) delete iter;
}

}  // namespace

void install_iter_functions(bp_api& api) {
  api.iter_build = &iter_build;
  api.iter_info = &iter_info;
  api.iter_operand = &iter_operand;
  api.iter_tensor = &iter_tensor;
  api.iter_split_32bit = &iter_split_32bit;
  api.iter_cast_outputs = &iter_cast_outputs;
  api.iter_destroy = &iter_destroy;
}

}  // namespace bp::c_api
