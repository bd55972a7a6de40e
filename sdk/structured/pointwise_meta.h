// Meta functions of pointwise ops: each builds the op's TensorIterator (broadcast shape, type
// promotion, output allocation through MetaBase) and checks what PyTorch checks.
//
//   # sdk/ops/binary.yaml: the meta function of mul.out (and so of mul.Tensor and mul_.Tensor)
//   - func: mul.Tensor(Tensor self, Tensor other) -> Tensor
//     structured_group: mul.out
//     meta: binary_op(self, other)
//
// The output is iter.maybe_get_output(0): undefined for a functional call (allocated with the
// computed layout), the given tensor for out= and in-place calls.
//
// Thread safety: as the iterator they build (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_POINTWISE_META_H_
#define BACKPLANE_SDK_STRUCTURED_POINTWISE_META_H_

#include <optional>
#include <string_view>

#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::meta {

// Inputs promote to their common dtype, which is the output's (PyTorch's
// build_borrowing_binary_op).
void binary_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// As binary_op; integer and bool inputs promote to the default float dtype (true division).
void binary_float_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// Inputs promote to their common dtype; the output is bool (or the given out's dtype).
void comparison_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// The output has the input's dtype.
void unary_op(TensorIteratorBase& iter, const Tensor& self);
// Integer and bool inputs compute in the default float dtype.
void unary_float_op(TensorIteratorBase& iter, const Tensor& self);
// unary_float_op for polygamma(n, self), checking n: "polygamma(n, x) does not support negative
// n."
void polygamma_op(TensorIteratorBase& iter, const Tensor& self, int64_t n);
// unary_float_op for mvlgamma(self, p), checking p: "p has to be greater than or equal to 1" (and
// no domain check on self: PyTorch 1.13 has none); bool inputs are refused as PyTorch: "The
// input tensor may not be a boolean tensor."
void mvlgamma_op(TensorIteratorBase& iter, const Tensor& self, int64_t p);
// unary_op, rejecting bool: "Negation, the `-` operator, on a bool tensor is not supported. If
// you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
void neg_op(TensorIteratorBase& iter, const Tensor& self);
// The output is bool (isnan, logical_not); a given output keeps its dtype.
void unary_force_boolean_op(TensorIteratorBase& iter, const Tensor& self);
// unary_op computing in `dtype` (PyTorch's build_unary_op(out, self.to(dtype))): the output must
// have that dtype ("Found dtype int64 but expected float32"). The iterator's common dtype is
// `dtype`: on the CPU, self is converted; other devices get self as it is and cast while loading.
// A helper for meta functions that promote with Scalars (pow, clamp), not named in declarations.
void unary_op_in_dtype(TensorIteratorBase& iter, const Tensor& self, ScalarType dtype);

// abs: unary_op, except that complex inputs give their real dtype (a given out may be complex, or
// a real dtype the real dtype can be cast to: "result type float32 can't be cast to the desired
// output type int64"). "In-place abs is not supported for complex tensors."
void abs_op(TensorIteratorBase& iter, const Tensor& self);
// ceil: unary_op; "ceil is not supported for complex inputs".
void ceil_op(TensorIteratorBase& iter, const Tensor& self);
// floor / trunc: unary_op; "floor is not supported for complex inputs" (trunc's likewise).
void floor_op(TensorIteratorBase& iter, const Tensor& self);
void trunc_op(TensorIteratorBase& iter, const Tensor& self);
// sign: unary_op; "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
// torch.sgn instead."
void sign_op(TensorIteratorBase& iter, const Tensor& self);
// deg2rad / rad2deg: unary_float_op; "deg2rad is not supported for complex tensors."
void deg2rad_op(TensorIteratorBase& iter, const Tensor& self);
void rad2deg_op(TensorIteratorBase& iter, const Tensor& self);
// angle: complex inputs give their real dtype (as abs_op) unless the out is complex; otherwise
// unary_float_op (integers compute in float; an out of any dtype the result casts to).
void angle_op(TensorIteratorBase& iter, const Tensor& self);
// isposinf / isneginf / signbit: unary_force_boolean_op over real inputs whose output is bool:
// "isposinf does not support complex inputs.", "signbit is not implemented for complex
// tensors.", "isposinf does not support non-boolean outputs."
void isposinf_op(TensorIteratorBase& iter, const Tensor& self);
void isneginf_op(TensorIteratorBase& iter, const Tensor& self);
void signbit_op(TensorIteratorBase& iter, const Tensor& self);
// nan_to_num: unary_op; an out of another dtype is "nan_to_num: dtype of out: float32 should be
// same as input: float64".
void nan_to_num_op(TensorIteratorBase& iter, const Tensor& self);

// relu (clamp_min(self, 0)): self's dtype, which a given out of any dtype is cast to;
// "Boolean inputs not supported for relu"; "clamp is not supported for complex types".
void relu_op(TensorIteratorBase& iter, const Tensor& self);
// hardtanh (clamp(self, min_val, max_val)): unary_op. "Bool inputs not supported for hardtanh";
// "clamp is not supported for complex types"; a uint8 self with a bound below 0 (as an integer):
// "cannot do hardtanh on an unsigned type with negative limits".
void hardtanh_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& min_val,
                 const Scalar& max_val);

// threshold: self's dtype, which a given out of another dtype takes when it can be cast to
// ("result type float32 can't be cast to the desired output type int64"). No overlap check, as
// PyTorch's: threshold_ of an expanded tensor is allowed.
void threshold_op(TensorIteratorBase& iter, const Tensor& self);

// gelu: unary_op, then "approximate argument must be either none or tanh." for other values.
void gelu_op(TensorIteratorBase& iter, const Tensor& self, std::string_view approximate);

// binary_op, then PyTorch's checks of alpha against the common dtype: "Boolean alpha only
// supported for Boolean results.", "For integral input tensors, argument alpha must not be a
// floating point number.", "For non-complex input tensors, argument alpha must not be a complex
// number."
void add_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other, const Scalar& alpha);
// add_op, rejecting bool operands: "Subtraction, the `-` operator, with two bool tensors is not
// supported. Use the `^` or `logical_xor()` operator instead." / "Subtraction, the `-` operator,
// with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or
// `logical_not()` operator instead."
void sub_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other, const Scalar& alpha);
// div with a rounding mode: binary_float_op for none (true division), binary_op for "trunc" and
// "floor"; anything else is "div expected rounding_mode to be one of None, 'trunc', or 'floor'
// but found 'round'".
void div_mode_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other,
                 std::optional<std::string_view> rounding_mode);
// maximum: binary_op; "maximum not implemented for complex tensors."
void maximum_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// minimum: binary_op; "minimum not implemented for complex tensors."
void minimum_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// fmax / fmin: binary_op; "fmax not implemented for complex tensors." (fmin's likewise).
void fmax_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
void fmin_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other);
// heaviside: binary_op over operands (and a given out) of one dtype, not complex: "heaviside is
// not yet implemented for complex tensors.", "heaviside is not yet implemented for tensors with
// different dtypes." (PyTorch's checks, in its order).
void heaviside_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& values);
// complex(real, imag) and polar(abs, angle): two operands of one floating dtype (float16 passes,
// as in PyTorch, and has no kernel) into its complex dtype, which a given out must have;
// PyTorch's complex_check_dtype messages: "Expected both inputs to be Half, Float or Double tensors
// but got int64 and int64", "Expected object of scalar type float32 but got scalar type float64 for
// second argument", "Expected object of scalar type complex64 but got scalar type float32 for
// argument 'out'".
void complex_parts_op(TensorIteratorBase& iter, const Tensor& first, const Tensor& second);
// pow(Tensor, Scalar): unary_op_in_dtype over self in promoted_dtype(self, exponent); an integral
// (or bool) self with a negative integral exponent is "Integers to negative integer powers are
// not allowed."
void pow_tensor_scalar_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& exponent);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_POINTWISE_META_H_
