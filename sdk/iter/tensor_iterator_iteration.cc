// TensorIterator after build (see tensor_iterator.h): geometry queries, splitting (32-bit
// indexing) and iteration over 2-D tiles.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>

#include "sdk/core/error.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/dim_counter.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/tensor_iterator.h"  // IWYU pragma: associated

namespace bp {

// ---- Queries -------------------------------------------------------------------------------

bool TensorIteratorBase::is_scalar(int arg) const {
  IntArrayRef stride = operands_[arg].stride_bytes;
  for (int i = 0; i < ndim(); ++i) {
    if (stride[i] != 0 && shape_[i] != 1) return false;
  }
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int arg) const {
  return is_scalar(arg) && device(arg).is_cpu();
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel() == 1) return true;
  if (ndim() != 1) return false;
  return has_contiguous_first_dim();
}

bool TensorIteratorBase::has_contiguous_first_dim() const {
  if (ndim() == 0) return true;
  for (const OperandInfo& op : operands_) {
    if (op.stride_bytes[0] != static_cast<int64_t>(element_size(*op.current_dtype))) return false;
  }
  return true;
}

bool TensorIteratorBase::can_use_32bit_indexing() const {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (numel() > kMax) return false;
  for (const OperandInfo& op : operands_) {
    int64_t max_offset = 1;
    for (int dim = 0; dim < ndim(); ++dim) max_offset += (shape_[dim] - 1) * op.stride_bytes[dim];
    if (max_offset > kMax) return false;
  }
  return true;
}

bool TensorIteratorBase::is_dim_reduced(int dim) const {
  for (const OperandInfo& op : operands_) {
    if (op.is_output && op.stride_bytes[dim] == 0 && shape_[dim] > 1) return true;
  }
  return false;
}

int64_t TensorIteratorBase::num_output_elements() const {
  int64_t n = 1;
  for (int dim = 0; dim < ndim(); ++dim) {
    if (operands_[0].stride_bytes[dim] != 0 || shape_[dim] == 0) n *= shape_[dim];
  }
  return n;
}

int TensorIteratorBase::num_reduce_dims() const {
  int count = 0;
  for (int dim = 0; dim < ndim(); ++dim) {
    if (operands_[0].stride_bytes[dim] == 0) ++count;
  }
  return count;
}

// ---- Splitting ------------------------------------------------------------------------------

void TensorIteratorBase::narrow(int dim, int64_t start, int64_t size) {
  BP_INTERNAL_ASSERT(dim < ndim() && size >= 1);
  shape_[dim] = size;
  for (OperandInfo& op : operands_) {
    // Meta operands have no storage: their pointers start at null and carry byte offsets, so
    // the arithmetic goes through integers (adding to a null pointer is undefined).
    op.data = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(op.data) +
                                      static_cast<uintptr_t>(op.stride_bytes[dim] * start));
  }
  if (size == 1 && !is_reduction_) coalesce_dimensions();
}

int TensorIteratorBase::get_dim_to_split() const {
  BP_INTERNAL_ASSERT(ndim() >= 1);
  int64_t max_extent = -1;
  int dim_to_split = -1;
  for (int dim = ndim() - 1; dim >= 0; --dim) {
    const int64_t size = shape_[dim];
    if (size == 0) continue;
    for (const OperandInfo& op : operands_) {
      const int64_t extent = (size - 1) * std::abs(op.stride_bytes[dim]);
      if (extent > max_extent) {
        max_extent = extent;
        dim_to_split = dim;
      }
    }
  }
  BP_INTERNAL_ASSERT(max_extent >= 0);
  return dim_to_split;
}

std::unique_ptr<TensorIterator> TensorIteratorBase::split(int dim) {
  BP_INTERNAL_ASSERT(dim >= 0 && dim < ndim() && shape_[dim] >= 2);
  auto copy = std::make_unique<TensorIterator>(*this);
  // Splitting a reduced dimension makes two partial results for the same output elements.
  const bool overlaps = is_dim_reduced(dim);
  const int64_t copy_size = shape_[dim] / 2;
  const int64_t this_size = shape_[dim] - copy_size;
  copy->narrow(dim, 0, copy_size);
  copy->final_output_ &= !overlaps;
  narrow(dim, copy_size, this_size);
  accumulate_ |= overlaps;
  return copy;
}

SplitUntil32Bit TensorIteratorBase::with_32bit_indexing() const { return SplitUntil32Bit(*this); }

SplitUntil32Bit::iterator::iterator(const TensorIteratorBase& iter) {
  stack_.push_back(std::make_unique<TensorIterator>(iter));
  stack_.push_back(nullptr);  // ++ pops the back first.
  ++(*this);
}

SplitUntil32Bit::iterator& SplitUntil32Bit::iterator::operator++() {
  stack_.pop_back();
  while (!stack_.empty() && !stack_.back()->can_use_32bit_indexing()) {
    TensorIterator& iter = *stack_.back();
    const int64_t split_dim = iter.get_dim_to_split();
    stack_.push_back(iter.split(split_dim));
  }
  return *this;
}

// ---- Iteration ------------------------------------------------------------------------------

PtrVector TensorIteratorBase::get_base_ptrs() const {
  PtrVector ptrs(ntensors());
  for (int i = 0; i < ntensors(); ++i) ptrs[i] = operands_[i].data;
  return ptrs;
}

StrideVector TensorIteratorBase::get_strides() const {
  const int dims = std::max(ndim(), 2);
  StrideVector strides(dims * ntensors(), 0);
  for (int dim = 0; dim < ndim(); ++dim) {
    for (int arg = 0; arg < ntensors(); ++arg) {
      strides[dim * ntensors() + arg] = operands_[arg].stride_bytes[dim];
    }
  }
  return strides;
}

void TensorIteratorBase::serial_for_each(Loop2d loop, Range range) const {
  if (range.size() <= 0) return;
  const int n = ntensors();
  constexpr int kInlineOperands = 8;
  if (ndim() <= 1 && n <= kInlineOperands) {
    // One row (every small or dense call): no vectors to build.
    std::array<char*, kInlineOperands> ptrs;
    // Laid out as get_strides does ([dim][operand]): the outer strides follow the inner ones.
    std::array<int64_t, 2 * kInlineOperands> strides;
    const OperandInfo* ops = operands_.data();
    const bool scalar = ndim() == 0;
    for (int k = 0; k < n; ++k) {
      strides[k] = scalar ? 0 : ops[k].stride_bytes.front();
      strides[n + k] = 0;
      ptrs[k] = ops[k].data + range.begin * strides[k];
    }
    loop(ptrs.data(), strides.data(), range.size(), 1);
    return;
  }
  PtrVector base = get_base_ptrs();
  StrideVector strides = get_strides();
  PtrVector ptrs(n);
  DimCounter counter(shape_, range.begin, range.end);
  while (!counter.is_done()) {
    for (int k = 0; k < n; ++k) {
      char* p = base[k];
      for (int dim = 0; dim < ndim(); ++dim) p += counter.values()[dim] * strides[dim * n + k];
      ptrs[k] = p;
    }
    const std::array<int64_t, 2> step = counter.max_2d_step();
    loop(ptrs.data(), strides.data(), step[0], step[1]);
    counter.increment(step);
  }
}

void TensorIteratorBase::for_each(Loop2d loop, int64_t grain_size) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain_size || get_num_threads() == 1 || in_parallel_region()) {
    serial_for_each(loop, {0, n});
    return;
  }
  // With enough rows of dimension 0, threads get whole rows, so every tile they see is a full
  // 2-D tile (blocked kernels such as transposed copies need its second dimension); otherwise
  // element ranges.
  const int64_t row = ndim() >= 2 ? shape_[0] : 1;
  if (row > 1 && n / row >= get_num_threads()) {
    const int64_t row_grain = (grain_size + row - 1) / row;
    parallel_for(0, n / row, row_grain, [&](int64_t begin, int64_t end) {
      serial_for_each(loop, {begin * row, end * row});
    });
    return;
  }
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
    serial_for_each(loop, {begin, end});
  });
}

void TensorIteratorBase::cast_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {  // outputs come first
    OperandInfo& op = operands_[i];
    if (!op.original_tensor().defined()) continue;
    const Tensor& original = op.original_tensor();
    if (original.dtype() == *op.current_dtype) continue;
    cast_copy(original, op.tensor());
    original.bump_version();
    op.tensor_storage = std::move(op.original_tensor_storage);
    op.original_tensor_storage = MaybeOwnedTensor::owned(Tensor());
    op.current_dtype = op.tensor().dtype();
    op.target_dtype = op.current_dtype;
    op.data = static_cast<char*>(op.tensor().data_ptr());
  }
}

}  // namespace bp
