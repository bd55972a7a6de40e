#include "sdk/structured/ternary_meta.h"

#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/core/result_type.h"
#include "sdk/core/warning.h"
#include "sdk/iter/tensor_iterator_config.h"
#include "sdk/structured/pointwise_meta.h"

namespace bp::meta {
namespace {

bool given(const std::optional<Tensor>& t) { return t.has_value() && t->defined(); }

}  // namespace

void ternary_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& a, const Tensor& b) {
  iter.build_ternary_op(iter.maybe_get_output(0), self, a, b);
}

void where_op(TensorIteratorBase& iter, const Tensor& condition, const Tensor& self,
              const Tensor& other) {
  const ScalarType dtype = promoted_dtype(self, other);
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!out.defined() || out.dtype() == dtype, "Expected out type to be ", dtype, " but got ",
           out.defined() ? out.dtype() : dtype);
  if (condition.dtype() == ScalarType::kUInt8) {
    warn(
        "where received a uint8 condition tensor. This behavior is deprecated and will be "
        "removed in a future version of PyTorch. Use a boolean condition instead.");
  } else {
    BP_CHECK(condition.dtype() == ScalarType::kBool,
             "where expected condition to be a boolean tensor.");
  }
  // The condition keeps its dtype (kernels read it as bool; a uint8 one: non-zero); self and
  // other take the result dtype (converted first on the CPU, cast while loading on devices).
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .add_output(out)
      .add_input_in_own_dtype(condition)
      .add_input(self)
      .add_input(other)
      .declare_common_dtype(dtype);
  iter.build(config);
}

void clamp_op(TensorIteratorBase& iter, const Tensor& self, const std::optional<Scalar>& min,
              const std::optional<Scalar>& max) {
  BP_CHECK(min.has_value() || max.has_value(),
           "torch.clamp: At least one of 'min' or 'max' must not be None");
  BP_CHECK(!is_complex(self.dtype()), "clamp is not supported for complex types");
  ScalarType dtype = self.dtype();
  if (!is_floating_point(dtype)) {
    // The bounds take part in type promotion as numbers: clamp(int_tensor, 0.5) is float32.
    ResultTypeState state;
    update_result_type_state(state, self);
    if (min) update_result_type_state(state, min->type(), OperandKind::kWrappedScalar);
    if (max) update_result_type_state(state, max->type(), OperandKind::kWrappedScalar);
    dtype = result_type(state);
    BP_CHECK(dtype == self.dtype() || !iter.maybe_get_output(0).is_same(self), "result type ",
             dtype, " can't be cast to the desired output type ", self.dtype());
  }
  BP_CHECK(!is_complex(dtype), "clamp is not supported for complex types");
  unary_op_in_dtype(iter, self, dtype);
}

void clamp_tensor_op(TensorIteratorBase& iter, const Tensor& self, const std::optional<Tensor>& min,
                     const std::optional<Tensor>& max) {
  BP_CHECK(given(min) || given(max),
           "torch.clamp: At least one of 'min' or 'max' must not be None");
  BP_CHECK(!is_complex(self.dtype()), "clamp is not supported for complex types");
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .add_output(iter.maybe_get_output(0))
      .add_input(self);
  if (given(min)) config.add_input(*min);
  if (given(max)) config.add_input(*max);
  iter.build(config);
}

void lerp_scalar_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& end) {
  BP_CHECK(self.dtype() == end.dtype(), "expected dtype ", self.dtype(),
           " for `end` but got dtype ", end.dtype());
  // PyTorch's build_binary_op: an out= of another dtype takes the result when it can be cast to
  // ("result type float32 can't be cast to the desired output type int64" otherwise).
  binary_op(iter, self, end);
}

void clamp_min_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& min) {
  // Unlike clamp's, a complex bound is refused before promotion (clamp(x, 1j) with a float x
  // is "value cannot be converted ...").
  BP_CHECK(!min.is_complex(), "clamp is not supported for complex types");
  clamp_op(iter, self, min, std::nullopt);
}

void clamp_max_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& max) {
  BP_CHECK(!max.is_complex(), "clamp is not supported for complex types");
  clamp_op(iter, self, std::nullopt, max);
}

void lerp_tensor_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& end,
                    const Tensor& weight) {
  BP_CHECK(self.dtype() == end.dtype(), "expected dtype ", self.dtype(),
           " for `end` but got dtype ", end.dtype());
  BP_CHECK(self.dtype() == weight.dtype(), "expected dtype ", self.dtype(),
           " for `weight` but got dtype ", weight.dtype());
  TensorIteratorConfig config;
  config.add_output(iter.maybe_get_output(0)).add_input(self).add_input(end).add_input(weight);
  iter.build(config);
}

void addcdiv_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& tensor1,
                const Tensor& tensor2) {
  BP_CHECK(!(is_integral(tensor1.dtype(), /*include_bool=*/true) &&
             is_integral(tensor2.dtype(), /*include_bool=*/true)),
           "Integer division with addcdiv is no longer supported, and in a future  release "
           "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
           "behavior can be implemented as (input + value * torch.trunc(tensor1 / "
           "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
           "tensor2) for float inputs. The future addcdiv behavior is just the latter "
           "implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  ternary_op(iter, self, tensor1, tensor2);
}

void masked_fill_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& mask,
                    const Scalar& value) {
  BP_CHECK(mask.dtype() == ScalarType::kBool,
           "masked_fill_ only supports boolean masks, but got mask with dtype ", mask.dtype());
  // PyTorch converts the value to self's dtype with its overflow check (float16 and bfloat16
  // too, whose kernels compute in float32).
  visit_dtype(self.dtype(), [&](auto tag) { (void)value.to<typename decltype(tag)::type>(); });
  // The functional and out= ops broadcast the mask with self first: "The size of tensor a" is the
  // mask's. In place (the output is self), the mask broadcasts to self: self is tensor a.
  const Tensor& out = iter.maybe_get_output(0);
  if (!out.defined() || out.impl() != self.impl()) (void)infer_size(mask.sizes(), self.sizes());
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .add_output(iter.maybe_get_output(0))
      .add_input(self)
      .add_input_in_own_dtype(mask);
  iter.build(config);
}

}  // namespace bp::meta
