// TensorIteratorConfig: what a TensorIterator should do with its operands.
//
//   TensorIterator iter = TensorIteratorConfig()
//                             .add_output(out)     // outputs first, undefined ones are allocated
//                             .add_input(a)
//                             .add_input(b)
//                             .promote_inputs_to_common_dtype(true)
//                             .build();
//
// The options are ATen's, with the same defaults; `build_*_op` on TensorIteratorBase set the
// common combinations. Operands are borrowed by default (the caller keeps them alive until the
// iterator is built and used); `add_owned_*` copies the handle.
//
// Thread safety: a plain builder; not shared between threads.
#ifndef BACKPLANE_SDK_ITER_TENSOR_ITERATOR_CONFIG_H_
#define BACKPLANE_SDK_ITER_TENSOR_ITERATOR_CONFIG_H_

#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "sdk/core/device.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp {

class TensorIterator;
class TensorIteratorBase;

// A tensor operand held by pointer (borrowed) or by value (owned).
class MaybeOwnedTensor {
 public:
  static MaybeOwnedTensor borrowed(const Tensor& t) { return MaybeOwnedTensor(&t, Tensor()); }
  static MaybeOwnedTensor owned(Tensor t) { return MaybeOwnedTensor(nullptr, std::move(t)); }

  const Tensor& get() const { return borrowed_ != nullptr ? *borrowed_ : owned_; }

 private:
  MaybeOwnedTensor(const Tensor* borrowed, Tensor owned)
      : borrowed_(borrowed), owned_(std::move(owned)) {}
  const Tensor* borrowed_;
  Tensor owned_;
};

class TensorIteratorConfig {
 public:
  TensorIteratorConfig() = default;
  TensorIteratorConfig(const TensorIteratorConfig&) = delete;
  TensorIteratorConfig& operator=(const TensorIteratorConfig&) = delete;

  // Outputs must all be added before the first input. An undefined output is allocated by the
  // iterator (through MetaBase::set_output_raw_strided).
  TensorIteratorConfig& add_output(const Tensor& output);
  TensorIteratorConfig& add_owned_output(Tensor output);
  TensorIteratorConfig& add_input(const Tensor& input);
  TensorIteratorConfig& add_owned_input(Tensor input);
  // An input that keeps its own dtype: it takes no part in type promotion, is never converted
  // to the common dtype, and kernels read it as it is (masked_fill's bool mask beside values of
  // any dtype).
  TensorIteratorConfig& add_input_in_own_dtype(const Tensor& input);

  // Checks that outputs have no internal overlap and do not partially overlap inputs. Default on.
  TensorIteratorConfig& set_check_mem_overlap(bool v) {
    check_mem_overlap_ = v;
    return *this;
  }
  // Requires every operand to have the same dtype. Default on.
  TensorIteratorConfig& check_all_same_dtype(bool v) {
    check_all_same_dtype_ = v;
    return *this;
  }
  // Requires every operand on the same device (CPU scalars excepted with allow_cpu_scalars).
  TensorIteratorConfig& check_all_same_device(bool v) {
    check_all_same_device_ = v;
    return *this;
  }
  // Lets a zero-dim CPU input join a computation on another device (passed by value).
  TensorIteratorConfig& allow_cpu_scalars(bool v) {
    allow_cpu_scalars_ = v;
    return *this;
  }
  // Computes the common dtype of the inputs by type promotion; on CPU, inputs of another dtype
  // are converted to it (other devices cast while loading).
  // Implies check_all_same_dtype(false) when on.
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) {
    promote_inputs_to_common_dtype_ = v;
    if (v) check_all_same_dtype_ = false;
    return *this;
  }
  // An integral (or bool) common dtype becomes the default float dtype.
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    promote_integer_inputs_to_float_ = v;
    BP_INTERNAL_ASSERT(!v || promote_inputs_to_common_dtype_,
                       "promote_integer_inputs_to_float needs promote_inputs_to_common_dtype");
    return *this;
  }
  // On CPU, outputs of another dtype than the common one are computed into a temporary of the
  // common dtype and cast back by cast_outputs().
  // Implies check_all_same_dtype(false) when on.
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v) {
    cast_common_dtype_to_outputs_ = v;
    if (v) check_all_same_dtype_ = false;
    return *this;
  }
  // Rejects outputs the common dtype cannot be cast to ("result type Float can't be cast to the
  // desired output type Long").
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) {
    enforce_safe_casting_to_output_ = v;
    return *this;
  }
  // Outputs of the wrong shape (and not also inputs) are resized. Default on.
  TensorIteratorConfig& resize_outputs(bool v) {
    resize_outputs_ = v;
    return *this;
  }
  // Outputs have reduced dimensions (stride 0 where the input has extent > 1).
  TensorIteratorConfig& is_reduction(bool v) {
    is_reduction_ = v;
    return *this;
  }
  // Iterates in the operands' logical (C) order instead of the fastest memory order.
  TensorIteratorConfig& enforce_linear_iteration(bool v = true) {
    enforce_linear_iteration_ = v;
    return *this;
  }

  // Skips shape computation and checks: the iteration shape is `shape`; dims listed in
  // `squash_dims` are iterated with extent 1. Call resize_outputs(false) first.
  TensorIteratorConfig& declare_static_shape(IntArrayRef shape, IntArrayRef squash_dims = {});
  // The dtype of undefined outputs, instead of the common dtype. Needs check_all_same_dtype(false).
  TensorIteratorConfig& declare_static_dtype(ScalarType dtype);
  // The common dtype, instead of the inputs' promoted one: for meta functions whose promotion
  // involves Scalar arguments (pow(int_tensor, 2.5) computes in float32). Undefined outputs get
  // it; on CPU, inputs of another dtype are converted to it, other devices cast while loading
  // (their kernels read the common dtype and each operand's own). Implies
  // promote_inputs_to_common_dtype(true).
  TensorIteratorConfig& declare_common_dtype(ScalarType dtype) {
    common_dtype_ = dtype;
    return promote_inputs_to_common_dtype(true);
  }
  // The device of undefined outputs.
  TensorIteratorConfig& declare_static_device(Device device);

  // Builds the iterator (see TensorIteratorBase::build).
  TensorIterator build();

 private:
  friend class TensorIteratorBase;

  absl::InlinedVector<MaybeOwnedTensor, 4> tensors_;  // no allocation for small ops
  int num_outputs_ = 0;
  int num_inputs_ = 0;
  uint64_t own_dtype_operands_ = 0;  // bit k: operand k was added by add_input_in_own_dtype

  std::optional<DimVector> static_shape_;
  std::optional<ScalarType> static_dtype_;
  std::optional<ScalarType> common_dtype_;
  std::optional<Device> static_device_;
  bool check_mem_overlap_ = true;
  bool check_all_same_dtype_ = true;
  bool check_all_same_device_ = true;
  bool allow_cpu_scalars_ = false;
  bool promote_inputs_to_common_dtype_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool cast_common_dtype_to_outputs_ = false;
  bool enforce_safe_casting_to_output_ = false;
  bool resize_outputs_ = true;
  bool is_reduction_ = false;
  bool enforce_linear_iteration_ = false;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_TENSOR_ITERATOR_CONFIG_H_
