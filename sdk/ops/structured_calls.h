// The three ways a structured op is called, as classes wrapping its structured class (RFC-0005):
// each decides what MetaBase::set_output_* means for the outputs the meta function declares.
//
//   FunctionalCall<structured_add_out> call;      // add(a, b): allocates the output
//   call.meta(a, b, alpha);                       // shape, dtype, checks; builds the iterator
//   kernel(call, a, b, alpha, call.output(0));    // the backend's step
//   return std::move(call.output(0));
//
//   OutCall<structured_add_out> call(out);        // add_out(out, a, b): checks and resizes `out`
//   InplaceCall<structured_add_out> call(self);   // a.add_(b): checks that `self` fits
//   ...                                           // meta, kernel as above, then:
//   call.finish();                                // copy proxies back, bump versions
//
// The generated kernels (codegen) are the only users; they run the same sequence for the CPU
// key (meta + CPU kernel), the Meta key (meta only) and the Common key (meta + the backend's
// out= kernel).
//
// Output rules, as PyTorch's:
// - functional: a new tensor with the sizes and strides (or memory format) the meta function
//   gives, on the device its options name.
// - out=: "Expected out tensor to have dtype float32, but got int64 instead" (and the same for
//   the device); an out of other sizes is resized (with a warning when it had elements: that
//   use is deprecated in PyTorch) and then takes the meta function's strides; an out whose
//   strides differ where the meta function requires exact strides (set_output_strided) gets a
//   proxy output that finish() copies back.
// - in-place: "Bad in-place call: input tensor size [2] and output tensor size [3, 2] should
//   match" (and the same for dtype and device); proxies as for out=.
//
// Thread safety: one call object per op call, on one thread.
#ifndef BACKPLANE_SDK_OPS_STRUCTURED_CALLS_H_
#define BACKPLANE_SDK_OPS_STRUCTURED_CALLS_H_

#include <array>
#include <cstdint>
#include <functional>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor.h"
#include "sdk/core/tensor_options.h"

namespace bp {
namespace structured_detail {

// A new tensor with these sizes and strides (empty: contiguous or options.memory_format).
Tensor allocate_output(IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options);
// Checks dtype and device of a given out, resizes it when its sizes differ (restriding it to
// `strides` / options.memory_format then). Returns whether it was resized.
bool check_and_resize_out(const Tensor& out, IntArrayRef sizes, IntArrayRef strides,
                          const TensorOptions& options);
// Checks that `self` can take the output of an in-place call.
void check_inplace(const Tensor& self, IntArrayRef sizes, const TensorOptions& options);
// A proxy for `out` when exact `strides` are required and `out` has others; else undefined.
Tensor maybe_proxy(const Tensor& out, IntArrayRef sizes, IntArrayRef strides,
                   const TensorOptions& options);
// Copies each defined proxy into its output and bumps every output's version counter.
void finish_outputs(Tensor* const* outputs, Tensor* proxies, size_t n);

}  // namespace structured_detail

template <typename Op>
class FunctionalCall final : public Op {
 public:
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              const TensorOptions& options) override {
    outputs_[i] = structured_detail::allocate_output(sizes, strides, options);
    Op::set_output_raw_strided(i, sizes, strides, options);
  }
  void set_output_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                          const TensorOptions& options) override {
    set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override { return outputs_[i]; }
  Tensor& output(int64_t i) { return outputs_[i]; }

 private:
  std::array<Tensor, Op::kNumOutputs> outputs_;
};

template <typename Op>
class OutCall final : public Op {
 public:
  template <typename... Outs>
  explicit OutCall(Outs&... outs) : outputs_{&outs...} {
    static_assert(sizeof...(Outs) == Op::kNumOutputs);
  }

  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              const TensorOptions& options) override {
    structured_detail::check_and_resize_out(*outputs_[i], sizes, strides, options);
    Op::set_output_raw_strided(i, sizes, strides, options);
  }
  void set_output_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                          const TensorOptions& options) override {
    structured_detail::check_and_resize_out(*outputs_[i], sizes, strides, options);
    proxies_[i] = structured_detail::maybe_proxy(*outputs_[i], sizes, strides, options);
    Op::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override { return output(i); }
  // The tensor the kernel writes: the proxy if there is one, else the caller's out.
  Tensor& output(int64_t i) { return proxies_[i].defined() ? proxies_[i] : *outputs_[i]; }
  void finish() {
    structured_detail::finish_outputs(outputs_.data(), proxies_.data(), Op::kNumOutputs);
  }

 private:
  std::array<Tensor*, Op::kNumOutputs> outputs_;
  std::array<Tensor, Op::kNumOutputs> proxies_;
};

template <typename Op>
class InplaceCall final : public Op {
 public:
  static_assert(Op::kNumOutputs == 1, "in-place ops write one tensor");
  explicit InplaceCall(Tensor& self) : self_(&self) {}

  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              const TensorOptions& options) override {
    structured_detail::check_inplace(*self_, sizes, options);
    Op::set_output_raw_strided(i, sizes, strides, options);
  }
  void set_output_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                          const TensorOptions& options) override {
    structured_detail::check_inplace(*self_, sizes, options);
    proxy_ = structured_detail::maybe_proxy(*self_, sizes, strides, options);
    Op::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override { return output(i); }
  Tensor& output(int64_t) { return proxy_.defined() ? proxy_ : *self_; }
  void finish() { structured_detail::finish_outputs(&self_, &proxy_, 1); }

 private:
  Tensor* self_;
  Tensor proxy_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_OPS_STRUCTURED_CALLS_H_
