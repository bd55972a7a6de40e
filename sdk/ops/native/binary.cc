// Binary ops PyTorch defines through others: rsub (sub with the operands swapped), true_divide
// (div), floor_divide (div with rounding_mode="floor", as PyTorch 1.13, and its Scalar
// overloads, whose in-place op's name the scalar_of rule does not give), ldexp (mul by a power of
// 2) and float_power (pow in float64 or complex128).
#include "sdk/core/error.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return bp::sub(other, self, alpha);
}

Tensor& rsub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return bp::sub_out(out, other, self, alpha);
}

Tensor true_divide(const Tensor& self, const Tensor& other) { return bp::div(self, other); }

Tensor& true_divide_(Tensor& self, const Tensor& other) { return self.div_(other); }

Tensor& true_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bp::div_out(out, self, other);
}

Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return bp::div(self, other, "floor");
}

Tensor& floor_divide_(Tensor& self, const Tensor& other) { return self.div_(other, "floor"); }

Tensor& floor_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bp::div_out(out, self, other, "floor");
}

Tensor floor_divide_scalar(const Tensor& self, const Scalar& other) {
  return bp::div(self, wrapped_scalar_tensor(other), "floor");
}

Tensor& floor_divide_scalar_(Tensor& self, const Scalar& other) {
  return self.div_(wrapped_scalar_tensor(other), "floor");
}

// ldexp: self * 2^other, PyTorch's mul(self, pow(2.0, other)): the dtype is mul's of self and
// pow(2.0, other)'s (float32 for integral and bool exponents).
Tensor ldexp(const Tensor& self, const Tensor& other) {
  return bp::mul(self, bp::pow(Scalar(2.0), other));
}

Tensor& ldexp_(Tensor& self, const Tensor& other) { return self.mul_(bp::pow(Scalar(2.0), other)); }

Tensor& ldexp_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bp::mul_out(out, self, bp::pow(Scalar(2.0), other));
}

// float_power: PyTorch's composite. The operands are converted to float64, or complex128 when
// either is complex (a Scalar to a double or a complex number), and pow runs on them; an out
// (or self, in place) must have that dtype.
namespace {

ScalarType float_power_dtype(bool complex) {
  return complex ? ScalarType::kComplex128 : ScalarType::kFloat64;
}

Scalar converted_scalar(const Scalar& s, ScalarType dtype) {
  return dtype == ScalarType::kComplex128 ? Scalar(s.to<complex<double>>())
                                          : Scalar(s.to<double>());
}

void check_float_power_out(const Tensor& out, ScalarType dtype) {
  BP_CHECK(out.dtype() == dtype, "the output given to float_power has dtype ", out.dtype(),
           " but the operation's result requires dtype ", dtype);
}

void check_float_power_base(const Tensor& self, ScalarType dtype) {
  BP_CHECK(self.dtype() == dtype, "the base given to float_power_ has dtype ", self.dtype(),
           " but the operation's result requires dtype ", dtype);
}

}  // namespace

Tensor float_power(const Tensor& self, const Tensor& exponent) {
  const ScalarType dtype =
      float_power_dtype(is_complex(self.dtype()) || is_complex(exponent.dtype()));
  return bp::pow(self.to(dtype), exponent.to(dtype));
}

Tensor& float_power_out(const Tensor& self, const Tensor& exponent, Tensor& out) {
  const ScalarType dtype =
      float_power_dtype(is_complex(self.dtype()) || is_complex(exponent.dtype()));
  check_float_power_out(out, dtype);
  return bp::pow_out(out, self.to(dtype), exponent.to(dtype));
}

Tensor& float_power_(Tensor& self, const Tensor& exponent) {
  const ScalarType dtype =
      float_power_dtype(is_complex(self.dtype()) || is_complex(exponent.dtype()));
  check_float_power_base(self, dtype);
  return self.pow_(exponent.to(dtype));
}

Tensor float_power_scalar(const Scalar& self, const Tensor& exponent) {
  const ScalarType dtype = float_power_dtype(self.is_complex() || is_complex(exponent.dtype()));
  return bp::pow(converted_scalar(self, dtype), exponent.to(dtype));
}

Tensor& float_power_scalar_out(const Scalar& self, const Tensor& exponent, Tensor& out) {
  const ScalarType dtype = float_power_dtype(self.is_complex() || is_complex(exponent.dtype()));
  check_float_power_out(out, dtype);
  return bp::pow_out(out, converted_scalar(self, dtype), exponent.to(dtype));
}

Tensor float_power_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  const ScalarType dtype = float_power_dtype(is_complex(self.dtype()) || exponent.is_complex());
  return bp::pow(self.to(dtype), converted_scalar(exponent, dtype));
}

Tensor& float_power_tensor_scalar_out(const Tensor& self, const Scalar& exponent, Tensor& out) {
  const ScalarType dtype = float_power_dtype(is_complex(self.dtype()) || exponent.is_complex());
  check_float_power_out(out, dtype);
  return bp::pow_out(out, self.to(dtype), converted_scalar(exponent, dtype));
}

Tensor& float_power_tensor_scalar_(Tensor& self, const Scalar& exponent) {
  const ScalarType dtype = float_power_dtype(is_complex(self.dtype()) || exponent.is_complex());
  check_float_power_base(self, dtype);
  return self.pow_(converted_scalar(exponent, dtype));
}

}  // namespace bp::native
