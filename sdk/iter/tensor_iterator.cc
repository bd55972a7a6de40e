// TensorIterator's build pipeline (see tensor_iterator.h): operands, overlap, shape, dtypes,
// strides and permutation, outputs, coalescing. Queries, splitting and iteration are in
// tensor_iterator_iteration.cc; the build_*_op shortcuts in tensor_iterator_builders.cc.
#include "sdk/iter/tensor_iterator.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "sdk/core/broadcast.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/overlap.h"
#include "sdk/core/promotion.h"
#include "sdk/core/resize.h"
#include "sdk/core/result_type.h"
#include "sdk/iter/cast_copy.h"

namespace bp {
namespace {

// A tensor of `dtype` with the sizes of `t` and, with keep_layout, its strides when `t` is dense,
// else dense strides in t's order of dimensions (as PyTorch's `.to(dtype)` keeps the layout:
// empty_like, preserve format). The output's layout then follows `t` as it does on the Meta key,
// which converts nothing.
Tensor empty_like_with_dtype(const Tensor& t, ScalarType dtype, bool keep_layout) {
  if (!keep_layout) return native::empty(t.sizes(), dtype, t.device());
  if (t.is_non_overlapping_and_dense()) {
    return native::empty_strided(t.sizes(), t.strides(), dtype, t.device());
  }
  return native::empty_strided(t.sizes(), infer_dense_strides(t.sizes(), t.strides()), dtype,
                               t.device());
}

// Element by element, inline: Span's operator== calls memcmp, dearer than comparing a few dims.
bool equal_sizes(IntArrayRef a, IntArrayRef b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// build() calls on this thread (builds_on_this_thread). Thread-local: no shared cache line on
// the hot path.
constinit thread_local int64_t tls_builds = 0;

}  // namespace

// ---- Building -----------------------------------------------------------------------------

int64_t TensorIteratorBase::builds_on_this_thread() { return tls_builds; }

void TensorIteratorBase::build(TensorIteratorConfig& config) {
  ++tls_builds;
  is_reduction_ = config.is_reduction_;
  enforce_linear_iteration_ = config.enforce_linear_iteration_;

  populate_operands(config);
  mark_outputs();
  compute_mem_overlaps(config);
  if (!uniform_set_up(config)) {
    compute_shape(config);
    mark_resize_outputs(config);
    compute_types(config);
    if (!fast_set_up(config)) {
      compute_strides(config);
      reorder_dimensions();
      allocate_or_resize_outputs();
      if (!is_meta_) coalesce_dimensions();
    }
  }
  if (is_meta_) return;

  for (OperandInfo& op : operands_) {
    BP_INTERNAL_ASSERT(op.tensor().defined(), "operand left undefined after build");
    op.data = static_cast<char*>(op.tensor().data_ptr());
  }
}

void TensorIteratorBase::populate_operands(TensorIteratorConfig& config) {
  // Only past the inline capacity: reserve() is an out-of-line call even when it has nothing to do.
  if (config.tensors_.size() > operands_.capacity()) operands_.reserve(config.tensors_.size());
  for (size_t k = 0; k < config.tensors_.size(); ++k) {
    MaybeOwnedTensor& t = config.tensors_[k];
    if (t.get().defined() && t.get().device().type == DeviceType::kMeta) is_meta_ = true;
    operands_.emplace_back(std::move(t));
    operands_.back().keeps_dtype = (config.own_dtype_operands_ >> k) & 1;
  }
  num_outputs_ = config.num_outputs_;
}

void TensorIteratorBase::mark_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = operands_[i];
    op.is_output = true;
    const Tensor& out = op.tensor();
    if (!out.defined()) continue;
    for (int arg = num_outputs_; arg < ntensors(); ++arg) {
      if (out.is_same(tensor(arg))) op.is_read_write = true;
    }
  }
}

void TensorIteratorBase::compute_mem_overlaps(const TensorIteratorConfig& config) {
  if (!config.check_mem_overlap_) return;
  for (int i = 0; i < num_outputs_; ++i) {
    const Tensor& out = tensor(i);
    if (!out.defined()) continue;
    assert_no_internal_overlap(out);
    for (int j = num_outputs_; j < ntensors(); ++j) {
      const Tensor& in = tensor(j);
      if (!in.is_same(out)) assert_no_partial_overlap(out, in);
    }
  }
}

void TensorIteratorBase::compute_shape(const TensorIteratorConfig& config) {
  if (config.static_shape_.has_value()) {
    shape_ = *config.static_shape_;
    return;
  }
  all_ops_same_shape_ = true;
  bool has_scalars = false;
  bool has_tensors = false;
  bool first = true;
  for (const OperandInfo& op : operands_) {
    const Tensor& t = op.tensor();
    if (!t.defined()) continue;
    // Outputs that will be resized do not take part: `add(a, b, out=c)` resizes c.
    if (config.resize_outputs_ && op.is_output) continue;
    IntArrayRef shape = t.sizes();
    if (shape.empty()) {
      has_scalars = true;
    } else {
      has_tensors = true;
    }
    if (has_scalars && has_tensors) all_ops_same_shape_ = false;
    if (first) {
      shape_.assign(shape.begin(), shape.end());
      first = false;
    } else if (shape != IntArrayRef(shape_)) {
      all_ops_same_shape_ = false;
      shape_ = infer_size(shape_, shape);
    }
  }
  all_ops_are_scalars_ = !has_tensors;
}

void TensorIteratorBase::mark_resize_outputs(const TensorIteratorConfig& config) {
  if (config.static_shape_.has_value()) return;
  for (int i = 0; i < num_outputs_; ++i) {
    const Tensor& out = tensor(i);
    if (!out.defined() || out.sizes() == IntArrayRef(shape_)) continue;
    if (config.resize_outputs_ && !operands_[i].is_read_write) {
      operands_[i].will_resize = true;
      continue;
    }
    // A reduction's output has the reduced shape, not the input's.
    BP_CHECK(is_reduction_, "output with shape ", int_list_string(out.sizes()),
             " doesn't match the broadcast shape ", int_list_string(shape_));
  }
}

ScalarType TensorIteratorBase::compute_common_dtype() const {
  ResultTypeState state;
  for (const OperandInfo& op : operands_) {
    if (op.is_output || op.keeps_dtype) continue;
    update_result_type_state(state, op.tensor());  // wrapped numbers promote as Scalars
  }
  return result_type(state);
}

void TensorIteratorBase::compute_types(const TensorIteratorConfig& config) {
  // Review 1/2: common device, whether dtypes differ, undefined outputs.
  Device common_device(DeviceType::kCPU);
  common_dtype_.reset();
  std::optional<ScalarType> output_dtype;
  bool has_different_input_dtypes = false;
  bool has_different_output_dtypes = false;
  bool has_undefined_outputs = false;

  for (OperandInfo& op : operands_) {
    if (!op.is_type_defined()) {
      BP_INTERNAL_ASSERT(op.is_output, "found an input without a dtype");
      if (config.static_dtype_.has_value()) {
        op.target_dtype = config.static_dtype_;
      } else {
        has_undefined_outputs = true;
      }
      if (config.static_device_.has_value()) {
        op.device = config.static_device_;
      } else {
        BP_INTERNAL_ASSERT(config.check_all_same_device_,
                           "an undefined output needs check_all_same_device or a static device");
      }
      if (has_undefined_outputs || !op.device.has_value()) continue;
    }
    const Tensor& t = op.tensor();
    if (!t.defined()) {
      BP_INTERNAL_ASSERT(op.is_output, "found an undefined input");
      continue;
    }
    if (common_device.is_cpu() && !t.device().is_cpu()) common_device = t.device();
    if (op.keeps_dtype) continue;
    if (!op.is_output) {
      if (op.target_dtype != common_dtype_) {
        if (!common_dtype_.has_value()) {
          common_dtype_ = op.target_dtype;
        } else {
          has_different_input_dtypes = true;
        }
      }
    } else if (op.target_dtype != output_dtype) {
      if (!output_dtype.has_value()) {
        output_dtype = op.target_dtype;
      } else {
        has_different_output_dtypes = true;
      }
    }
  }

  BP_INTERNAL_ASSERT(!(has_different_input_dtypes && !config.promote_inputs_to_common_dtype_ &&
                       (has_undefined_outputs || config.enforce_safe_casting_to_output_ ||
                        config.cast_common_dtype_to_outputs_)),
                     "inputs of different dtypes need promote_inputs_to_common_dtype");

  if (config.check_all_same_dtype_ &&
      (has_different_input_dtypes || has_different_output_dtypes ||
       (output_dtype.has_value() && common_dtype_ != output_dtype))) {
    for (const OperandInfo& op : operands_) {
      if (!op.tensor().defined()) continue;
      BP_CHECK(op.target_dtype == common_dtype_, "Found dtype ", *op.target_dtype, " but expected ",
               *common_dtype_);
    }
  }

  if (!has_undefined_outputs && !config.check_all_same_device_ &&
      !config.promote_inputs_to_common_dtype_ && !config.cast_common_dtype_to_outputs_ &&
      !config.enforce_safe_casting_to_output_) {
    // No common dtype can be named when inputs differ and nothing asked for one.
    if (has_different_input_dtypes) common_dtype_.reset();
    return;
  }

  if (config.common_dtype_.has_value()) {
    common_dtype_ = config.common_dtype_;
  } else if ((has_different_input_dtypes || all_ops_are_scalars_) &&
             config.promote_inputs_to_common_dtype_) {
    common_dtype_ = compute_common_dtype();
  }
  if (config.promote_integer_inputs_to_float_ && common_dtype_.has_value() &&
      is_integral(*common_dtype_, /*include_bool=*/true)) {
    common_dtype_ = default_dtype();
  }

  // Review 2/2: fill in undefined outputs, device and cast checks, CPU temporaries.
  common_device_ = common_device;
  int cpu_scalars_on_other_device = 0;
  for (OperandInfo& op : operands_) {
    const bool type_defined = op.is_type_defined();
    const bool device_defined = op.device.has_value();
    if (!type_defined) op.target_dtype = common_dtype_;
    if (!device_defined) op.device = common_device;
    if (!type_defined && !device_defined) continue;
    const Tensor& t = op.tensor();
    if (!t.defined()) continue;

    if (config.check_all_same_device_) {
      if (!common_device.is_cpu() && config.allow_cpu_scalars_ && !op.is_output && t.dim() == 0 &&
          t.device().is_cpu()) {
        BP_CHECK(cpu_scalars_on_other_device < 1,
                 "Trying to pass too many CPU scalars to non-CPU kernel!");
        ++cpu_scalars_on_other_device;
      } else {
        BP_CHECK(*op.device == common_device,
                 "Expected all tensors to be on the same device, but found at least two devices, ",
                 common_device, " and ", *op.device, "!");
      }
    }

    if (config.enforce_safe_casting_to_output_ && op.is_output &&
        op.current_dtype != common_dtype_) {
      BP_CHECK(can_cast(*common_dtype_, *op.current_dtype), "result type ", *common_dtype_,
               " can't be cast to the desired output type ", *op.current_dtype);
    }

    // On CPU, kernels see one dtype: temporaries stand in for operands of another one. Other
    // devices cast while loading and storing (their kernels read the per-operand dtypes).
    if (common_device.is_cpu() && common_dtype_.has_value()) {
      if (config.cast_common_dtype_to_outputs_ && op.is_output &&
          op.current_dtype != common_dtype_ && !is_meta_) {
        op.exchange_tensor(empty_like_with_dtype(t, *common_dtype_, /*keep_layout=*/false));
        op.current_dtype = common_dtype_;
        op.target_dtype = common_dtype_;
      }
      if (config.promote_inputs_to_common_dtype_ && !op.is_output && !op.keeps_dtype &&
          op.current_dtype != common_dtype_) {
        Tensor converted = empty_like_with_dtype(t, *common_dtype_, /*keep_layout=*/true);
        if (!is_meta_) cast_copy(converted, t);
        op.exchange_tensor(std::move(converted));
        op.current_dtype = common_dtype_;
        op.target_dtype = common_dtype_;
      }
    }
  }
}

bool TensorIteratorBase::uniform_set_up(const TensorIteratorConfig& config) {
  if (is_reduction_ || config.static_shape_.has_value() || config.static_dtype_.has_value() ||
      config.static_device_.has_value() || ninputs() == 0) {
    return false;
  }
  const Tensor& first = input(0);
  if (!first.defined()) return false;
  const ScalarType dtype = first.dtype();
  const Device device = first.device();
  const IntArrayRef sizes = first.sizes();
  if ((config.promote_integer_inputs_to_float_ && is_integral(dtype, /*include_bool=*/true)) ||
      (config.common_dtype_.has_value() && *config.common_dtype_ != dtype)) {
    return false;
  }
  for (const OperandInfo& op : operands_) {
    const Tensor& t = op.tensor();
    if (!t.defined()) {
      // compute_types names the device of an undefined output only when devices are checked.
      if (!config.check_all_same_device_) return false;
      continue;
    }
    // Wrapped numbers promote as Scalars, so their dtype is not the common one.
    if (t.dtype() != dtype || t.device() != device || !equal_sizes(t.sizes(), sizes) ||
        !t.is_contiguous() || t.is_wrapped_number()) {
      return false;
    }
  }

  // What compute_shape, mark_resize_outputs, compute_types and fast_set_up would find.
  all_ops_same_shape_ = true;
  all_ops_are_scalars_ = sizes.empty();
  common_dtype_ = dtype;
  common_device_ = device;
  for (OperandInfo& op : operands_) {
    op.target_dtype = dtype;
    op.current_dtype = dtype;
    op.device = device;
  }
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t numel = first.numel();
  for (int i = 0; i < num_outputs_; ++i) {
    // `sizes` stays valid: an output of these very sizes is not resized.
    set_output_raw_strided(i, sizes, {}, TensorOptions{dtype, device, MemoryFormat::kContiguous});
  }
  set_dense_geometry(ndim, numel);
  return true;
}

void TensorIteratorBase::set_dense_geometry(int64_t ndim, int64_t numel) {
  if (ndim > 1) has_coalesced_dimensions_ = true;
  // clear + push_back: absl's inline fast paths (resize and assign are out-of-line calls, and
  // this runs on every small element-wise call).
  shape_.clear();
  if (ndim >= 1) shape_.push_back(numel);
  for (OperandInfo& op : operands_) {
    op.stride_bytes.clear();
    if (ndim >= 1) {
      op.stride_bytes.push_back(static_cast<int64_t>(element_size(*op.current_dtype)));
    }
  }
}

bool TensorIteratorBase::fast_set_up(const TensorIteratorConfig& config) {
  if (is_reduction_ || !all_ops_same_shape_) return false;
  bool contiguous = true;
  bool channels_last = !enforce_linear_iteration_;
  bool dense = !enforce_linear_iteration_;
  for (const OperandInfo& op : operands_) {
    const Tensor& t = op.tensor();
    if (!t.defined() || op.will_resize) continue;
    contiguous &= t.is_contiguous(MemoryFormat::kContiguous);
    channels_last &= t.is_contiguous(MemoryFormat::kChannelsLast);
    dense &= t.is_non_overlapping_and_dense();
  }
  (void)config;

  // Outputs are laid out like the inputs: contiguous, channels-last, or with the strides every
  // defined operand shares.
  std::optional<MemoryFormat> format;
  IntArrayRef shared_strides;
  if (contiguous) {
    format = MemoryFormat::kContiguous;
  } else if (channels_last) {
    format = MemoryFormat::kChannelsLast;
  } else if (dense) {
    // Allowed only when every defined operand has the same strides (inputs checked first).
    int prev = -1;
    for (int i = ntensors() - 1; i >= 0; --i) {
      const OperandInfo& op = operands_[i];
      if (!op.tensor().defined() || op.will_resize) continue;
      if (prev < 0) {
        prev = i;
      } else if (tensor(prev).strides() != op.tensor().strides()) {
        return false;
      }
    }
    BP_CHECK(prev >= 0, "Can not find a defined tensor when fast allocating memory to outputs");
    shared_strides = tensor(prev).strides();
  } else {
    return false;
  }

  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = operands_[i];
    BP_INTERNAL_ASSERT(op.tensor().defined() || op.is_type_defined(), "no type for output ", i);
    TensorOptions options = original_options(op);
    if (format.has_value()) {
      options.memory_format = format;
      set_output_raw_strided(i, shape_, {}, options);
    } else {
      // Copy: set_output may reallocate the operand shared_strides points into.
      DimVector strides(shared_strides.begin(), shared_strides.end());
      set_output_raw_strided(i, shape_, strides, options);
    }
  }
  set_dense_geometry(ndim(), numel());
  return true;
}

void TensorIteratorBase::compute_strides(const TensorIteratorConfig& config) {
  for (OperandInfo& op : operands_) {
    const Tensor& t = op.tensor();
    if (!t.defined() || op.will_resize) continue;
    IntArrayRef original_shape = config.static_shape_.has_value() ? IntArrayRef(shape_) : t.sizes();
    IntArrayRef original_stride = t.strides();
    const int64_t itemsize = static_cast<int64_t>(t.itemsize());
    const size_t offset = shape_.size() - original_shape.size();
    op.stride_bytes.assign(shape_.size(), 0);
    for (size_t i = 0; i < original_shape.size(); ++i) {
      // Broadcast dimensions (extent 1 against a larger shape) get stride 0.
      if (original_shape[i] == 1 && shape_[offset + i] != 1) continue;
      op.stride_bytes[offset + i] = original_stride[i] * itemsize;
    }
  }
}

void TensorIteratorBase::reorder_dimensions() {
  // Sorts dimensions by stride, ascending, so dimension 0 moves fastest. For C-contiguous
  // tensors this reverses the order. Outputs of reductions put reduced dims first.
  const int n = ndim();
  perm_.resize(n);
  if (n == 1) {
    perm_[0] = 0;
    return;
  }
  std::iota(perm_.rbegin(), perm_.rend(), 0);
  if (enforce_linear_iteration_) {
    permute_dimensions(perm_);
    return;
  }

  // 1 if dim0 should come after dim1, -1 if before, 0 if ambiguous. The first operand that
  // decides wins; broadcast (stride 0) dimensions do not decide.
  auto should_swap = [&](int64_t dim0, int64_t dim1) {
    for (const OperandInfo& op : operands_) {
      if (op.stride_bytes.empty() || op.will_resize) continue;
      const int64_t stride0 = op.stride_bytes[dim0];
      const int64_t stride1 = op.stride_bytes[dim1];
      if (is_reduction_ && op.is_output && (stride0 == 0) != (stride1 == 0)) {
        return stride1 == 0 ? 1 : -1;
      }
      if (stride0 == 0 || stride1 == 0) continue;
      if (stride0 < stride1) return -1;
      if (stride0 > stride1) return 1;
      // Equal strides: the larger dimension goes outside.
      if (shape_[dim0] > shape_[dim1]) return 1;
    }
    return 0;
  };

  // Insertion sort that tolerates ambiguous comparisons.
  for (int i = 1; i < n; ++i) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; --dim0) {
      const int comparison = should_swap(perm_[dim0], perm_[dim1]);
      if (comparison > 0) {
        std::swap(perm_[dim0], perm_[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  permute_dimensions(perm_);
}

void TensorIteratorBase::permute_dimensions(IntArrayRef perm) {
  BP_INTERNAL_ASSERT(perm.size() == shape_.size());
  auto reorder = [perm](IntArrayRef data) {
    DimVector result(data.size());
    for (size_t i = 0; i < perm.size(); ++i) result[i] = data[perm[i]];
    return result;
  };
  shape_ = reorder(shape_);
  for (OperandInfo& op : operands_) {
    if (op.stride_bytes.empty()) continue;
    DimVector reordered = reorder(op.stride_bytes);
    op.stride_bytes.assign(reordered.begin(), reordered.end());
  }
}

StrideVector TensorIteratorBase::compatible_stride(int64_t element_size) const {
  StrideVector stride;
  int64_t next = element_size;
  for (int64_t size : shape_) {
    stride.push_back(next);
    next *= size;
  }
  return stride;
}

DimVector TensorIteratorBase::invert_perm(IntArrayRef input) const {
  BP_INTERNAL_ASSERT(!has_coalesced_dimensions_ && input.size() == perm_.size());
  DimVector result(input.size());
  for (size_t dim = 0; dim < input.size(); ++dim) result[perm_[dim]] = input[dim];
  return result;
}

TensorOptions TensorIteratorBase::original_options(const OperandInfo& op) const {
  const Tensor& t = op.original_tensor().defined() ? op.original_tensor() : op.tensor();
  if (t.defined()) return TensorOptions{t.dtype(), t.device(), std::nullopt};
  return TensorOptions{*op.target_dtype, *op.device, std::nullopt};
}

void TensorIteratorBase::allocate_or_resize_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = operands_[i];
    if (!op.tensor().defined() || op.will_resize) {
      BP_INTERNAL_ASSERT(op.is_type_defined(), "no type for output ", i);
      const int64_t itemsize = static_cast<int64_t>(element_size(*op.target_dtype));
      op.stride_bytes = compatible_stride(itemsize);
      // When the permutation is a plain reversal, the output is C-contiguous.
      bool inverted = true;
      for (int j = 0; j < ndim(); ++j) {
        if (perm_[j] != ndim() - j - 1) {
          inverted = false;
          break;
        }
      }
      DimVector tensor_shape = invert_perm(shape_);
      if (inverted) {
        set_output_raw_strided(i, tensor_shape, {}, original_options(op));
      } else {
        DimVector tensor_stride = invert_perm(op.stride_bytes);
        for (int64_t& s : tensor_stride) s /= itemsize;
        set_output_raw_strided(i, tensor_shape, tensor_stride, original_options(op));
      }
      op.current_dtype = op.target_dtype;
    } else {
      // Already the right shape: still tell set_output (structured wrappers check it).
      DimVector sizes(op.tensor().sizes().begin(), op.tensor().sizes().end());
      set_output_raw_strided(i, sizes, {}, original_options(op));
    }
  }
}

void TensorIteratorBase::coalesce_dimensions() {
  if (ndim() <= 1) return;
  // Adjacent dims merge when either has extent 1 or, for every operand,
  // shape[d0] * stride[d0] == stride[d1].
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t shape0 = shape_[dim0];
    const int64_t shape1 = shape_[dim1];
    if (shape0 == 1 || shape1 == 1) return true;
    for (const OperandInfo& op : operands_) {
      if (shape0 * op.stride_bytes[dim0] != op.stride_bytes[dim1]) return false;
    }
    return true;
  };
  auto replace_stride = [&](int dim0, int dim1) {
    for (OperandInfo& op : operands_) op.stride_bytes[dim0] = op.stride_bytes[dim1];
  };
  int prev_dim = 0;
  for (int dim = 1; dim < ndim(); ++dim) {
    if (can_coalesce(prev_dim, dim)) {
      if (shape_[prev_dim] == 1) replace_stride(prev_dim, dim);
      shape_[prev_dim] *= shape_[dim];
    } else {
      ++prev_dim;
      if (prev_dim != dim) {
        replace_stride(prev_dim, dim);
        shape_[prev_dim] = shape_[dim];
      }
    }
  }
  shape_.resize(prev_dim + 1);
  for (OperandInfo& op : operands_) op.stride_bytes.resize(ndim());
  has_coalesced_dimensions_ = true;
}

// ---- MetaBase ------------------------------------------------------------------------------

void TensorIteratorBase::set_output_raw_strided(int64_t output_idx, IntArrayRef sizes,
                                                IntArrayRef strides, const TensorOptions& options) {
  OperandInfo& op = operands_[output_idx];
  const Tensor& t = maybe_get_output(output_idx);
  BP_INTERNAL_ASSERT(t.defined(), "set_output left output ", output_idx, " undefined");
  if (!op.tensor().defined()) {
    op.tensor_storage = MaybeOwnedTensor::borrowed(t);
  } else if (op.will_resize && op.original_tensor().defined()) {
    // The given output was swapped for a temporary of the common dtype (compute_types) before
    // its final shape was known: give the temporary that shape too.
    BP_INTERNAL_ASSERT(op.original_tensor().is_same(t));
    resize_tensor(*op.tensor().impl(), sizes,
                  strides.empty() ? std::nullopt : std::optional<IntArrayRef>(strides),
                  options.memory_format.value_or(MemoryFormat::kContiguous));
  }
  op.current_dtype = op.tensor().dtype();
}

void TensorIterator::set_output_raw_strided(int64_t output_idx, IntArrayRef sizes,
                                            IntArrayRef strides, const TensorOptions& options) {
  // The plain iterator owns what it allocates; no call to the base class (which assumes a
  // structured owner).
  OperandInfo& op = operands_[output_idx];
  const MemoryFormat format = options.memory_format.value_or(MemoryFormat::kContiguous);
  if (!op.tensor().defined()) {
    op.tensor_storage = MaybeOwnedTensor::owned(
        strides.empty() ? native::empty(sizes, options.dtype, options.device, format)
                        : native::empty_strided(sizes, strides, options.dtype, options.device));
    op.current_dtype = op.target_dtype;
  } else if (op.will_resize) {
    resize_tensor(*op.tensor().impl(), sizes,
                  strides.empty() ? std::nullopt : std::optional<IntArrayRef>(strides), format);
    if (op.original_tensor().defined()) {
      resize_tensor(*op.original_tensor().impl(), sizes,
                    strides.empty() ? std::nullopt : std::optional<IntArrayRef>(strides), format);
    }
  }
}

}  // namespace bp
