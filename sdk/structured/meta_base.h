// MetaBase: how a structured op's meta function hands its outputs' geometry to whoever runs it.
//
// A meta function (shape and dtype inference plus checks, shared by every backend) never
// allocates. It calls `set_output_raw_strided` / `set_output_strided` once per output; the class
// that runs it decides what that means:
//   - the Meta kernel creates Meta tensors (no data);
//   - a functional wrapper allocates on the op's device;
//   - an out= wrapper checks the given output and resizes it;
//   - an in-place wrapper checks that `self` already has the computed shape.
// TensorIterator is a MetaBase too, so a meta function can simply build a TensorIterator (its
// output allocation goes through the same calls). See RFC-0005 (structured kernels).
//
// Thread safety: one MetaBase serves one op call on one thread.
#ifndef BACKPLANE_SDK_STRUCTURED_META_BASE_H_
#define BACKPLANE_SDK_STRUCTURED_META_BASE_H_

#include <cstdint>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor.h"
#include "sdk/core/tensor_options.h"

namespace bp {

class MetaBase {
 public:
  virtual ~MetaBase() = default;

  // Declares output `output_idx` with `sizes` and `strides` (empty: contiguous, or
  // `options.memory_format`). A given output whose strides differ may be used as is. The base
  // records nothing; classes that run a meta function override it (and call down to the
  // structured class they wrap, e.g. TensorIteratorBase, which records the output).
  virtual void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                                      const TensorOptions& options) {
    (void)output_idx, (void)sizes, (void)strides, (void)options;
  }

  // Like set_output_raw_strided, for kernels that need these exact strides: an implementation may
  // compute into a temporary ("proxy") output and copy it into a given output afterwards.
  virtual void set_output_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                                  const TensorOptions& options) {
    set_output_raw_strided(output_idx, sizes, strides, options);
  }

  // A contiguous (or `options.memory_format`) output.
  void set_output_contiguous(int64_t output_idx, IntArrayRef sizes, const TensorOptions& options) {
    set_output_raw_strided(output_idx, sizes, {}, options);
  }

  // The output `output_idx` if it exists yet (given by the caller or already set), else an
  // undefined tensor. Borrowed: valid while this MetaBase lives.
  virtual const Tensor& maybe_get_output(int64_t output_idx) = 0;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_STRUCTURED_META_BASE_H_
