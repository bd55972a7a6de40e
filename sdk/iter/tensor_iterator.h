// TensorIterator: broadcasting, type promotion, memory overlap checks, output allocation and
// dimension coalescing for element-wise ops and reductions, so a kernel only writes the math.
//
//   Tensor out;  // undefined: allocated by the iterator
//   TensorIterator iter;
//   iter.build_borrowing_binary_op(out, a, b);   // or TensorIteratorConfig()...build()
//   iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
//     // data[0] is the output, data[1], data[2] the inputs; strides are in bytes:
//     // strides[k] along the inner dimension, strides[ntensors + k] along the outer one.
//   });
//   const Tensor& result = iter.output();
//
// `build()` follows ATen's pipeline: populate operands; mark outputs (an output that is also an
// input is read-write); memory overlap checks; broadcast shape; mark outputs to resize; common
// device and dtype (promotion, CPU temporaries for casting); then either a fast setup for operands
// that are all contiguous / channels-last / non-overlapping-and-dense with equal strides, or byte
// strides, a stride-ascending dimension order (outputs keep their layout), output allocation
// through MetaBase::set_output_raw_strided, and coalescing of adjacent dimensions.
//
// After `build()`, dimension 0 is the fastest-moving one (the inverse of C order).
//
// Thread safety: an iterator is built and used on one thread; `for_each` runs its loop on several
// threads at once (the loop must be safe for that; it always gets disjoint ranges).
#ifndef BACKPLANE_SDK_ITER_TENSOR_ITERATOR_H_
#define BACKPLANE_SDK_ITER_TENSOR_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "sdk/core/device.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/tensor_iterator_config.h"
#include "sdk/structured/meta_base.h"

namespace bp {

using StrideVector = absl::InlinedVector<int64_t, 6>;
using PtrVector = absl::InlinedVector<char*, 4>;

// Elements [begin, end) of the iteration space, in iteration order.
struct Range {
  int64_t begin;
  int64_t end;
  int64_t size() const { return end - begin; }
};

// A 2-D tile: `data[k]` points at operand k's first element, `strides` holds ntensors inner
// strides then ntensors outer strides (bytes), the tile is size0 (inner) x size1 (outer).
using Loop2d =
    absl::FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

// The default grain size: ranges smaller than this run on the calling thread.
inline constexpr int64_t kGrainSize = 32768;

// One operand of a TensorIterator.
struct OperandInfo {
  explicit OperandInfo(MaybeOwnedTensor t) : tensor_storage(std::move(t)) {
    const Tensor& tensor = tensor_storage.get();
    if (tensor.defined()) {
      device = tensor.device();
      // Both from the tensor: copying one optional into the other reloads its bytes right
      // after storing them one by one, a store-forwarding stall on every operand.
      target_dtype = tensor.dtype();
      current_dtype = tensor.dtype();
    }
  }

  const Tensor& tensor() const { return tensor_storage.get(); }
  const Tensor& original_tensor() const { return original_tensor_storage.get(); }
  bool is_type_defined() const { return target_dtype.has_value(); }

  // Replaces the tensor by `t` (a temporary of another dtype), keeping the original to restore.
  void exchange_tensor(Tensor t) {
    original_tensor_storage = std::move(tensor_storage);
    tensor_storage = MaybeOwnedTensor::owned(std::move(t));
  }

  MaybeOwnedTensor tensor_storage;
  // Set when `tensor` is a temporary of the common dtype standing in for this original.
  MaybeOwnedTensor original_tensor_storage = MaybeOwnedTensor::owned(Tensor());
  // Byte strides, one per iteration dimension (0 along broadcast dimensions).
  StrideVector stride_bytes;
  // The dtype the kernel sees (the computation dtype) and the dtype the tensor has.
  std::optional<ScalarType> target_dtype;
  std::optional<ScalarType> current_dtype;
  std::optional<Device> device;
  char* data = nullptr;
  bool is_output = false;
  bool will_resize = false;
  bool is_read_write = false;
  // Keeps its dtype: no part in promotion, never converted (add_input_in_own_dtype).
  bool keeps_dtype = false;
};

class TensorIterator;

class TensorIteratorBase : public MetaBase {
 public:
  TensorIteratorBase() = default;

  // Builds from `config` (see the file comment). Errors: PyTorch's messages for broadcasting,
  // overlap, dtype and device mismatches, unsafe casts and outputs of the wrong shape.
  void build(TensorIteratorConfig& config);
  // How many times build() ran on the calling thread (any iterator): for tests that count
  // iterators, e.g. that a plugin kernel called through the Common key reuses the one its op's
  // meta function built instead of building another.
  static int64_t builds_on_this_thread();

  // The common configurations, as in ATen. "Borrowing" variants keep references to the tensors.
  void build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_unary_op(const Tensor& out, const Tensor& a);
  void build_borrowing_unary_op(const Tensor& out, const Tensor& a);
  void build_unary_float_op(const Tensor& out, const Tensor& a);
  void build_borrowing_unary_float_op(const Tensor& out, const Tensor& a);
  void build_borrowing_unary_force_boolean_op(const Tensor& out, const Tensor& a);
  void build_ternary_op(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c);

  // ---- Geometry --------------------------------------------------------------------------
  int ndim() const { return static_cast<int>(shape_.size()); }
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const { return multiply_integers(shape_); }
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - noutputs(); }
  // The permutation applied to the operands' dimensions: iteration dim i is tensor dim perm[i]
  // (before coalescing; empty after a fast setup).
  IntArrayRef perm() const { return perm_; }
  bool has_coalesced_dimensions() const { return has_coalesced_dimensions_; }

  // ---- Operands ---------------------------------------------------------------------------
  const Tensor& tensor(int arg) const { return operands_[arg].tensor(); }
  const Tensor& output(int arg = 0) const { return tensor(arg); }
  const Tensor& input(int arg = 0) const { return tensor(num_outputs_ + arg); }
  // Byte strides of operand `arg`, one per iteration dimension.
  IntArrayRef strides(int arg) const { return operands_[arg].stride_bytes; }
  // Operand `arg`'s first element (for Meta operands: null plus the byte offset of a sub-iterator).
  void* data_ptr(int arg) const { return operands_[arg].data; }
  ScalarType dtype(int arg = 0) const { return *operands_[arg].current_dtype; }
  ScalarType input_dtype(int arg = 0) const { return dtype(num_outputs_ + arg); }
  std::optional<ScalarType> common_dtype() const { return common_dtype_; }
  Device device(int arg = 0) const { return *operands_[arg].device; }
  Device common_device() const { return common_device_; }
  const OperandInfo& operand(int arg) const { return operands_[arg]; }
  bool is_meta() const { return is_meta_; }

  // ---- Properties device kernels need -------------------------------------------------------
  // Operand `arg` has stride 0 (or extent 1) along every dimension.
  bool is_scalar(int arg) const;
  bool is_cpu_scalar(int arg) const;
  // One dimension, every operand with stride == element size.
  bool is_contiguous() const;
  // Every operand's first stride equals its element size (or 0 for scalars).
  bool has_contiguous_first_dim() const;
  bool is_trivial_1d() const { return ndim() == 1; }
  // Every operand's largest offset, and numel, fit in int32.
  bool can_use_32bit_indexing() const;
  // Sub-iterators that each can_use_32bit_indexing (see SplitUntil32Bit).
  class SplitUntil32Bit with_32bit_indexing() const;
  // Splits dimension `dim` in two halves: returns the first, keeps the second.
  std::unique_ptr<TensorIterator> split(int dim);
  // The dimension with the largest byte extent (the one to split first).
  int get_dim_to_split() const;
  // Restricts dimension `dim` to [start, start + size).
  void narrow(int dim, int64_t start, int64_t size);

  // ---- Reductions -------------------------------------------------------------------------
  bool is_reduction() const { return is_reduction_; }
  bool is_dim_reduced(int dim) const;
  int64_t num_output_elements() const;
  int num_reduce_dims() const;
  // For split reductions: whether this part must accumulate into the output (not overwrite it),
  // and whether it is the part that writes the final value (e.g. applies the projection).
  bool should_accumulate() const { return accumulate_; }
  bool is_final_output() const { return final_output_; }

  // ---- Iteration --------------------------------------------------------------------------
  // Runs `loop` over every element in 2-D tiles, on several threads when numel >= grain_size.
  void for_each(Loop2d loop, int64_t grain_size = kGrainSize) const;
  // Runs `loop` over elements [range.begin, range.end) on the calling thread.
  void serial_for_each(Loop2d loop, Range range) const;
  PtrVector get_base_ptrs() const;
  // Byte strides laid out as the loop sees them: [dim][operand], at least 2 dims.
  StrideVector get_strides() const;

  // Copies outputs that were computed into temporaries of the common dtype into the real
  // outputs (a no-op when there were none). Kernels call it after computing.
  void cast_outputs();

  // ---- MetaBase ---------------------------------------------------------------------------
  // Records the output's geometry; subclasses allocate or resize first.
  void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                              const TensorOptions& options) override;

 protected:
  // Inline for up to 4 operands (every op but the ternary ones with two outputs): building an
  // iterator for a small op then allocates nothing of its own.
  absl::InlinedVector<OperandInfo, 4> operands_;

 private:
  void populate_operands(TensorIteratorConfig& config);
  void mark_outputs();
  void compute_mem_overlaps(const TensorIteratorConfig& config);
  void compute_shape(const TensorIteratorConfig& config);
  void mark_resize_outputs(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  ScalarType compute_common_dtype() const;
  // One pass for the most common case: every defined operand has the input's sizes, dtype and
  // device and is C-contiguous (no wrapped numbers, no static shape, dtype or device). Then the
  // outcome of compute_shape, mark_resize_outputs, compute_types and fast_set_up is known up
  // front; small element-wise calls spend most of their time there. Returns false, having
  // changed nothing, in every other case.
  bool uniform_set_up(const TensorIteratorConfig& config);
  bool fast_set_up(const TensorIteratorConfig& config);
  // Every operand is one dense run of `numel` elements (of tensors with `ndim` dims): a single
  // iteration dimension (none for zero-dim tensors) of element-size strides.
  void set_dense_geometry(int64_t ndim, int64_t numel);
  void compute_strides(const TensorIteratorConfig& config);
  void reorder_dimensions();
  void permute_dimensions(IntArrayRef perm);
  void allocate_or_resize_outputs();
  void coalesce_dimensions();
  StrideVector compatible_stride(int64_t element_size) const;
  DimVector invert_perm(IntArrayRef input) const;
  TensorOptions original_options(const OperandInfo& op) const;

  DimVector shape_;
  DimVector perm_;
  int num_outputs_ = 0;
  std::optional<ScalarType> common_dtype_;
  Device common_device_ = Device(DeviceType::kCPU);
  bool has_coalesced_dimensions_ = false;
  bool all_ops_same_shape_ = false;
  bool all_ops_are_scalars_ = false;
  bool is_reduction_ = false;
  bool enforce_linear_iteration_ = false;
  bool is_meta_ = false;
  bool accumulate_ = false;
  bool final_output_ = true;
};

// The TensorIterator that allocates and resizes its own outputs (the non-structured use).
class TensorIterator final : public TensorIteratorBase {
 public:
  TensorIterator() = default;
  TensorIterator(const TensorIteratorBase& other) : TensorIteratorBase(other) {}  // NOLINT

  void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                              const TensorOptions& options) override;
  const Tensor& maybe_get_output(int64_t output_idx) override { return output(output_idx); }
};

// Iterates over sub-iterators that can use 32-bit indexing, splitting the largest dimension in
// halves recursively:
//   for (TensorIterator& sub : iter.with_32bit_indexing()) launch(sub);
class SplitUntil32Bit {
 public:
  class iterator {
   public:
    iterator() = default;
    explicit iterator(const TensorIteratorBase& iter);
    TensorIterator& operator*() const { return *stack_.back(); }
    iterator& operator++();
    bool operator==(const iterator& other) const { return stack_.empty() && other.stack_.empty(); }

   private:
    // Iterators still to visit; the back is the current one (after ++, always 32-bit safe).
    std::vector<std::unique_ptr<TensorIterator>> stack_;
  };

  explicit SplitUntil32Bit(const TensorIteratorBase& iter) : iter_(iter) {}
  iterator begin() const { return iterator(iter_); }
  iterator end() const { return iterator(); }

 private:
  const TensorIteratorBase& iter_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_TENSOR_ITERATOR_H_
