// Binary pointwise ops (Tensor-Tensor and Tensor-Scalar overloads): PyTorch's semantics in wide
// precision, one entry each.
#include <cmath>

#include "conformance/families/pointwise.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

const std::vector<Scalar> kNumbers = {Scalar(int64_t{3}), Scalar(-2.5), Scalar(true),
                                      Scalar(complex<double>(1, -2))};

// add / sub: a + alpha * b (bool: `or`, since 1 + 1 is true).
const ElementFn kAddMath = math<kAnyKind>([](auto a, auto b, const Ctx& c) {
  return a + c.scalar<decltype(a)>("alpha", ScalarArg::integer(1)) * b;
});
const ElementFn kSubMath = math<kAnyKind>([](auto a, auto b, const Ctx& c) {
  return a - c.scalar<decltype(a)>("alpha", ScalarArg::integer(1)) * b;
});

// PyTorch's alpha_check.
void check_alpha(const RefArgs& a, ScalarType common) {
  const std::optional<ScalarArg> alpha = a.optional_scalar("alpha");
  if (!alpha) return;
  if (alpha->type == ScalarType::kBool && common != ScalarType::kBool) {
    throw RefError{"Boolean alpha only supported for Boolean results."};
  }
  if (!is_floating_point(common) && !is_complex(common) && alpha->type != ScalarType::kBool &&
      alpha->type != ScalarType::kInt64) {
    throw RefError{
        "For integral input tensors, argument alpha must not be a floating point number."};
  }
  if (!is_complex(common) && alpha->type == ScalarType::kComplex128) {
    throw RefError{"For non-complex input tensors, argument alpha must not be a complex number."};
  }
}

// PyTorch's sub_check (before building the output; alpha_check comes after).
void check_sub(const RefArgs& a, ScalarType) {
  const bool self_bool = a.tensor("self").dtype == ScalarType::kBool;
  const bool other_bool = a.has("other") && a.optional_tensor("other") != nullptr
                              ? a.tensor("other").dtype == ScalarType::kBool
                              : a.scalar("other", ScalarArg::integer(0)).type == ScalarType::kBool;
  if (self_bool && other_bool) {
    throw RefError{
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
        "`^` or `logical_xor()` operator instead."};
  }
  if (self_bool || other_bool) {
    throw RefError{
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
        "trying to invert a mask, use the `~` or `logical_not()` operator instead."};
  }
}

const std::vector<Kwargs> kAlphas = {{{"alpha", Value(Scalar(int64_t{2}))}},
                                     {{"alpha", Value(Scalar(-1.5))}}};

// Integer division and remainder by zero raise; -1 is left out of divisors (INT_MIN / -1 traps).
const Domain kDivisor{.exclude = {0.0, -1.0}};

Int nonzero(Int b) {
  if (b == Int(0)) throw RefError{"ZeroDivisionError"};
  return b;
}

// PyTorch's div_floor_floating, in the precision its kernel computes in.
double floor_divide(double a, double b, const Ctx& c) {
  if (b == 0) return a / b;
  const double mod = std::fmod(a, b);
  double div = c.round_opmath((a - mod) / b);
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

// Samples with a zero integral divisor.
std::vector<Sample> zero_divisor(ScalarType dtype, ValueSource& src) {
  if (!is_integral(dtype, /*include_bool=*/false)) return {};
  RefTensor divisor = src.draw(dtype, {3}, kDivisor);
  divisor.values[1] = from_int(Int(0));
  Sample s;
  s.add("self", make_tensor(src, dtype, {3}, Layout::kContiguous));
  s.add("other", lay_out(divisor, Layout::kContiguous));
  s.note = "error: an integer divided by zero";
  return {s};
}

const ElementFn kDivMath = math<kFloatingKind>([](auto a, auto b) { return a / b; });

// div with rounding_mode: no rounding mode is true division; with one, integers stay integers.
ScalarType div_mode_result(const RefArgs& a, ScalarType common) {
  if (!a.string("rounding_mode") && is_integral(common, true)) return ScalarType::kFloat32;
  return common;
}

const ElementFn kDivModeMath = math<kIntOrRealKind>([](auto a, auto b, const Ctx& c) {
  using T = decltype(a);
  const std::optional<std::string> mode = c.args().string("rounding_mode");
  if constexpr (kIsInt<T>) {
    return *mode == "trunc" ? trunc_div(a, nonzero(b)) : floor_div(a, nonzero(b));
  } else {
    if (!mode) return a / b;
    if (*mode == "trunc") return std::trunc(c.round_opmath(a / b));
    return floor_divide(a, b, c);
  }
});

const std::vector<Kwargs> kRoundingModes = {{{"rounding_mode", Value("floor")}},
                                            {{"rounding_mode", Value()}}};

// remainder: the result has the divisor's sign (Python's %).
const ElementFn kRemainderMath = math<kIntOrRealKind>([](auto a, auto b, const Ctx& c) {
  if constexpr (kIsInt<decltype(a)>) {
    return floor_mod(a, nonzero(b));
  } else {
    double mod = std::fmod(a, b);
    if (mod != 0 && (b < 0) != (mod < 0)) mod = c.round_opmath(mod + b);
    return mod;
  }
});

// The larger / smaller value, NaN if either is NaN, self of equal values (std::max / std::min,
// PyTorch's scalar loop: minimum(0.0, -0.0) is 0.0).
const ElementFn kMaximumMath = math<kIntOrRealKind>([](auto a, auto b) {
  if constexpr (kIsReal<decltype(a)>) {
    if (std::isnan(a) || std::isnan(b)) return std::nan("");
  }
  return a < b ? b : a;
});
const ElementFn kMinimumMath = math<kIntOrRealKind>([](auto a, auto b) {
  if constexpr (kIsReal<decltype(a)>) {
    if (std::isnan(a) || std::isnan(b)) return std::nan("");
  }
  return b < a ? b : a;
});

// log(e^a + e^b) (base 2: log2(2^a + 2^b)), around the larger operand m: m + log(e^(a - m) +
// e^(b - m)), whose terms cannot overflow; an infinite m is the result.
template <bool kBase2>
Wide log_add_exp(const std::vector<Wide>& x, const Ctx& c) {
  return math<kRealKind>([](double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::nan("");
    const double m = std::max(a, b);
    if (std::isinf(m)) return m;
    if constexpr (kBase2) {
      return m + std::log2(std::exp2(a - m) + std::exp2(b - m));
    } else {
      return m + std::log(std::exp(a - m) + std::exp(b - m));
    }
  })(x, c);
}

// fmax / fmin: a NaN operand is ignored (NaN only when both are); self of equal values.
template <bool kMax>
Wide fmax_fmin(const std::vector<Wide>& x, const Ctx& c) {
  return math<kIntOrRealKind>([](auto a, auto b) {
    if constexpr (kIsReal<decltype(a)>) {
      if (std::isnan(a)) return b;
      if (std::isnan(b)) return a;
    }
    if constexpr (kMax) {
      return a < b ? b : a;
    } else {
      return b < a ? b : a;
    }
  })(x, c);
}

// lcm: |a / gcd(a, b) * b| (0 when the gcd is 0), with C's abs and % in the dtype's width (so the
// gcd of the minimum can be negative); the product and its magnitude in int32 for narrower types
// (C++'s promotion in PyTorch's kernel), then wrapped to the dtype.
Int lcm(Int a, Int b, const Ctx& c) {
  Int x = c.wrap(a < Int(0) ? -a : a);
  Int y = c.wrap(b < Int(0) ? -b : b);
  while (x != Int(0)) {
    const Int next = c.wrap(trunc_mod(y, x));
    y = x;
    x = next;
  }
  if (y == Int(0)) return Int(0);
  Int product = trunc_div(a, y) * b;
  const bool narrow = c.compute() == ScalarType::kInt8 || c.compute() == ScalarType::kUInt8 ||
                      c.compute() == ScalarType::kInt16;
  if (!narrow) product = c.wrap(product);
  return c.wrap(product < Int(0) ? -product : product);
}

// heaviside: operands of one dtype (and an out of it), not complex.
void check_heaviside(const RefArgs& a, ScalarType) {
  if (a.tensor("self").dtype != a.tensor("values").dtype) {
    throw RefError{"heaviside is not yet implemented for tensors with different dtypes."};
  }
}

std::string heaviside_out_error(ScalarType, ScalarType given) {
  return is_complex(given) ? "heaviside is not yet implemented for complex tensors."
                           : "heaviside is not yet implemented for tensors with different dtypes.";
}

// heaviside's operands of two dtypes.
std::vector<Sample> heaviside_mixed(ScalarType dtype, ValueSource& src) {
  const ScalarType other =
      dtype == ScalarType::kFloat64 ? ScalarType::kFloat32 : ScalarType::kFloat64;
  Sample s;
  s.add("self", make_tensor(src, dtype, {3}, Layout::kContiguous));
  s.add("values", make_tensor(src, other, {3}, Layout::kContiguous));
  s.note = "error: operands of two dtypes";
  return {s};
}

// ldexp is PyTorch's mul(self, pow(2.0, other)): pow's dtype is that of a wrapped 2.0 and other,
// the result's that of mul of self and pow's result (zero-dim when other is zero-dim or a number).
ScalarType ldexp_result(const RefArgs& a, ScalarType /*common*/) {
  ResultTypeState pow_state;
  update_result_type_state(pow_state, ScalarType::kFloat64, OperandKind::kWrappedScalar);
  update_result_type_state(pow_state, a.tensor("other").dtype, a.operand_kind("other"));
  ResultTypeState mul_state;
  update_result_type_state(mul_state, a.tensor("self").dtype, a.operand_kind("self"));
  update_result_type_state(mul_state, result_type(pow_state),
                           a.operand_kind("other") == OperandKind::kTensor
                               ? OperandKind::kTensor
                               : OperandKind::kZeroDimTensor);
  return result_type(mul_state);
}

// float_power computes in float64, or complex128 when an operand is complex; its out (and self,
// in place) must have that dtype.
ScalarType float_power_result(const RefArgs& /*a*/, ScalarType common) {
  return is_complex(common) ? ScalarType::kComplex128 : ScalarType::kFloat64;
}

std::string float_power_out_error(ScalarType expected, ScalarType given) {
  return "the output given to float_power has dtype " + std::string(scalar_type_name(given)) +
         " but the operation's result requires dtype " + std::string(scalar_type_name(expected));
}

// float_power_ checks self's dtype before anything else: a self of another dtype than float64
// and complex128 is refused whatever the sample (a complex exponent with a float64 self is the
// inplace_dtype_error's).
constexpr DtypeSet kFloatPowerBaseRejected =
    kAllDtypes - DtypeSet(ScalarType::kFloat64) - DtypeSet(ScalarType::kComplex128);
const char* const kFloatPowerBaseMessage = "the base given to float_power_ has dtype";

std::string float_power_base_error(ScalarType result, ScalarType self) {
  return "the base given to float_power_ has dtype " + std::string(scalar_type_name(self)) +
         " but the operation's result requires dtype " + std::string(scalar_type_name(result));
}

// float_power's entries: any dtype, computed in float64 (complex128), which a given out, and
// self in place when `inplace`, must have.
PointwiseSpec float_power(PointwiseSpec spec, bool inplace = true) {
  spec.dtypes = kAllDtypes;
  spec.tier = 2;
  spec.result_dtype = float_power_result;
  spec.out_dtype = OutDtypeRule::kExact;
  spec.out_dtype_error = float_power_out_error;
  if (inplace) {
    spec.inplace_dtype_error = float_power_base_error;
    spec.inplace_rejected = kFloatPowerBaseRejected;
    spec.inplace_rejected_message = kFloatPowerBaseMessage;
  }
  return spec;
}

// polar and complex: the complex dtype of their parts' dtype, which an out must have exactly.
ScalarType complex_result(const RefArgs& /*a*/, ScalarType common) {
  return to_complex_type(common);
}

std::string complex_out_error(ScalarType expected, ScalarType given) {
  return "Expected object of scalar type " + std::string(scalar_type_name(expected)) +
         " but got scalar type " + std::string(scalar_type_name(given)) + " for argument 'out'";
}

// polar(abs, angle) and complex(real, imag): float32 or float64 parts of one dtype (no numbers or
// promotions: PyTorch refuses mixed dtypes) into the complex dtype; integral, bool and complex
// parts are refused, float16 passes the checks and has no kernel.
PointwiseSpec complex_from_parts(std::string name, std::vector<Operand> parts, ElementFn math) {
  return {.name = std::move(name),
          .dtypes = DtypeSet(ScalarType::kFloat32) | DtypeSet(ScalarType::kFloat64),
          .tier = 2,
          .operands = std::move(parts),
          .result_dtype = complex_result,
          .math = std::move(math),
          .rejected = kAllDtypes - DtypeSet(ScalarType::kFloat16) - DtypeSet(ScalarType::kFloat32) -
                      DtypeSet(ScalarType::kFloat64),
          .rejected_message = "Expected both inputs to be Half, Float or Double tensors",
          .numbers = false,
          .promotions = false,
          .out_dtype = OutDtypeRule::kExact,
          .out_dtype_error = complex_out_error};
}

// floor_divide is div(rounding_mode='floor').
const ElementFn kFloorDivideMath = math<kIntOrRealKind>([](auto a, auto b, const Ctx& c) {
  if constexpr (kIsInt<decltype(a)>) {
    return floor_div(a, nonzero(b));
  } else {
    return floor_divide(a, b, c);
  }
});

// fmod: the remainder with the dividend's sign (C's fmod and %).
const ElementFn kFmodMath = math<kIntOrRealKind>([](auto a, auto b) {
  if constexpr (kIsInt<decltype(a)>) {
    return trunc_mod(a, nonzero(b));
  } else {
    return std::fmod(a, b);
  }
});

// rsub.Scalar: other - alpha * self.
const ElementFn kRsubMath = math<kAnyKind>([](auto a, auto b, const Ctx& c) {
  return b - c.scalar<decltype(a)>("alpha", ScalarArg::integer(1)) * a;
});

// Real divisors of the tensor-scalar overloads: neither zero nor -1 (see kDivisor).
const std::vector<Scalar> kScalarDivisors = {Scalar(int64_t{3}), Scalar(-2.5), Scalar(int64_t{-4})};

const ElementFn kLessMath = math<kIntOrRealKind>([](auto a, auto b) { return a < b; });
const ElementFn kBitwiseAndMath = math<kIntKind>([](Int a, Int b) { return a & b; });
const ElementFn kBitwiseOrMath = math<kIntKind>([](Int a, Int b) { return a | b; });
const ElementFn kBitwiseXorMath = math<kIntKind>([](Int a, Int b) { return a ^ b; });
const std::vector<Scalar> kBitmasks = {Scalar(int64_t{3}), Scalar(int64_t{-6}), Scalar(true)};

// Values that compare equal often (whole numbers in a small range, zeros included).
const Domain kFewValues{.low = -3, .high = 3, .int_low = -3, .int_high = 3, .whole = true};

// Shifts as PyTorch 1.13's CPU kernels compute them on x86: the amount modulo 32 (int64: 64),
// narrower types shifted as 32-bit integers (so their left shifts by 8 or more give 0 and their
// right shifts fill with the sign), here as multiplication and floor division by 2^amount.
int shift_amount(Int b, ScalarType dtype) {
  const int64_t width = dtype == ScalarType::kInt64 ? 64 : 32;
  return static_cast<int>(((b.v % width) + width) % width);
}
const ElementFn kLeftShiftMath = math<kIntKind>([](Int a, Int b, const Ctx& c) {
  const int n = shift_amount(b, c.compute());
  return c.wrap(a * Int(static_cast<int64_t>(uint64_t{1} << n)));
});
const ElementFn kRightShiftMath = math<kIntKind>([](Int a, Int b, const Ctx& c) {
  const int n = shift_amount(b, c.compute());
  if (n == 63) return a < Int(0) ? Int(-1) : Int(0);  // 2^63 is no int64
  return floor_div(a, Int(int64_t{1} << n));
});
const std::vector<Scalar> kShiftAmounts = {Scalar(int64_t{3}), Scalar(int64_t{-1}),
                                           Scalar(int64_t{33}), Scalar(true)};
const std::vector<Scalar> kShifted = {Scalar(int64_t{5}), Scalar(int64_t{-6}), Scalar(true)};

// Bases of powers: small (integer powers overflow soon enough), never zero (complex powers of
// zero are left to implementations).
const Domain kBase{.low = -4, .high = 4, .int_low = -9, .int_high = 9, .exclude = {0.0}};

// Integer powers: repeated squaring with wrap-around; negative exponents as PyTorch's powi.
Int int_pow(Int base, Int exp) {
  if (exp < Int(0)) {
    if (base == Int(1)) return Int(1);
    if (base == Int(-1)) return (exp.v % 2 != 0) ? Int(-1) : Int(1);
    return Int(0);
  }
  Int result(1);
  for (int64_t e = exp.v; e != 0; e /= 2) {
    if (e % 2 != 0) result = result * base;
    base = base * base;
  }
  return result;
}

// pow with a tensor exponent.
const ElementFn kPowMath = math<kAnyKind>([](auto a, auto b) {
  if constexpr (kIsInt<decltype(a)>) {
    return int_pow(a, b);
  } else {
    return std::pow(a, b);
  }
});

// pow with a Scalar exponent: PyTorch computes some exponents with other functions, which
// differ from std::pow on signed zeros and infinities.
template <typename T>
T pow_scalar(T x, T e) {
  if (e == T(0)) return T(1);
  if (e == T(1)) return x;
  if (e == T(0.5)) return std::sqrt(x);
  if (e == T(-0.5)) return T(1) / std::sqrt(x);
  if (e == T(-1)) return T(1) / x;
  if (e == T(2)) return x * x;
  if (e == T(3)) return x * x * x;
  if (e == T(-2)) return T(1) / (x * x);
  return std::pow(x, e);
}

// A tier-2 comparison's name.Tensor and name.Scalar entries (and their in-place and out= ops),
// on values that are often equal; `more_scalars` are tried after 3, -2.0 and True.
void add_comparison(OpDatabase& db, const std::string& name, DtypeSet dtypes, ElementFn fn,
                    const std::vector<Scalar>& more_scalars = {}) {
  std::vector<Scalar> scalars = {Scalar(int64_t{3}), Scalar(-2.0), Scalar(true)};
  scalars.insert(scalars.end(), more_scalars.begin(), more_scalars.end());
  db.add(pointwise(
      {.name = name + ".Tensor",
       .dtypes = dtypes,
       .tier = 2,
       .operands = {{"self", std::nullopt, kFewValues}, {"other", std::nullopt, kFewValues}},
       .result = ResultDtype::kBool,
       .math = fn}));
  db.add(pointwise({.name = name + ".Scalar",
                    .dtypes = dtypes,
                    .tier = 2,
                    .operands = {{"self", std::nullopt, kFewValues}},
                    .scalar_operands = {"other"},
                    .scalars = std::move(scalars),
                    .result = ResultDtype::kBool,
                    .math = fn}));
}

// A tier-2 logical op (bool result, every dtype), on values with zeros among them.
void add_logical(OpDatabase& db, const std::string& name, ElementFn fn) {
  db.add(pointwise(
      {.name = name,
       .dtypes = kAllDtypes,
       .tier = 2,
       .operands = {{"self", std::nullopt, kFewValues}, {"other", std::nullopt, kFewValues}},
       .result = ResultDtype::kBool,
       .math = fn}));
}

// The overloads of a bitwise op: name.Tensor, a tensor with a Scalar other (name.<overload>:
// "Scalar", or the shifts' "Tensor_Scalar") and a Scalar self with a tensor (name.Scalar_Tensor).
struct BitwiseOverloads {
  std::string name;
  std::string tensor_scalar;
  DtypeSet dtypes;
  int tier;
  std::vector<Scalar> others;  // tried as the Scalar other
  std::vector<Scalar> selves;  // tried as the Scalar self
};

void add_bitwise(OpDatabase& db, const BitwiseOverloads& op, const ElementFn& fn) {
  db.add(pointwise({.name = op.name + ".Tensor",
                    .dtypes = op.dtypes,
                    .tier = op.tier,
                    .operands = {{"self"}, {"other"}},
                    .math = fn}));
  db.add(pointwise({.name = op.name + "." + op.tensor_scalar,
                    .dtypes = op.dtypes,
                    .tier = op.tier,
                    .scalar_operands = {"other"},
                    .scalars = op.others,
                    .math = fn}));
  db.add(pointwise({.name = op.name + ".Scalar_Tensor",
                    .dtypes = op.dtypes,
                    .tier = op.tier,
                    .operands = {{"other"}},
                    .scalar_operands = {"self"},
                    .scalars = op.selves,
                    .math = scalar_first(fn)}));
}

}  // namespace

void add_binary_entries(OpDatabase& db) {
  db.add(pointwise({.name = "add.Tensor",
                    .dtypes = kAllDtypes,
                    .operands = {{"self"}, {"other"}},
                    .math = kAddMath,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas}));
  db.add(pointwise({.name = "add.Scalar",
                    .dtypes = kAllDtypes,
                    .scalar_operands = {"other"},
                    .scalars = kNumbers,
                    .math = kAddMath,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas}));
  db.add(pointwise({.name = "sub.Tensor",
                    .dtypes = kAllButBool,
                    .operands = {{"self"}, {"other"}},
                    .math = kSubMath,
                    .check = check_sub,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas,
                    .extra_samples = [](ScalarType dtype, ValueSource& src) {
                      std::vector<Sample> s;
                      if (dtype != ScalarType::kFloat32) return s;
                      for (ScalarType other : {ScalarType::kBool, ScalarType::kFloat32}) {
                        Sample bools;
                        bools.add("self",
                                  make_tensor(src, ScalarType::kBool, {7}, Layout::kContiguous));
                        bools.add("other", make_tensor(src, other, {7}, Layout::kContiguous));
                        bools.note = "error: bool operands";
                        s.push_back(std::move(bools));
                      }
                      return s;
                    }}));
  db.add(pointwise({.name = "sub.Scalar",
                    .dtypes = kAllButBool,
                    .scalar_operands = {"other"},
                    .scalars = kNumbers,
                    .math = kSubMath,
                    .check = check_sub,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas}));
  // rsub is sub(other, self): other broadcasts as sub's first operand, in its messages too.
  db.add(pointwise({.name = "rsub.Tensor",
                    .dtypes = kAllButBool,
                    .tier = 2,
                    .operands = {{"other"}, {"self"}},
                    .math = kSubMath,
                    .check = check_sub,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas}));
  db.add(pointwise({.name = "mul.Tensor",
                    .dtypes = kAllDtypes,
                    .operands = {{"self"}, {"other"}},
                    .math = math<kAnyKind>([](auto a, auto b) { return a * b; })}));
  db.add(pointwise({.name = "mul.Scalar",
                    .dtypes = kAllDtypes,
                    .scalar_operands = {"other"},
                    .scalars = kNumbers,
                    .math = math<kAnyKind>([](auto a, auto b) { return a * b; })}));
  db.add(pointwise({.name = "div.Tensor",
                    .dtypes = kAllDtypes,
                    .operands = {{"self"}, {"other"}},
                    .result = ResultDtype::kFloat,
                    .math = kDivMath}));
  db.add(pointwise({.name = "div.Scalar",
                    .dtypes = kAllDtypes,
                    .scalar_operands = {"other"},
                    .scalars = kNumbers,
                    .result = ResultDtype::kFloat,
                    .math = kDivMath}));
  db.add(pointwise({.name = "div.Tensor_mode",
                    .dtypes = kAllTypes,
                    .operands = {{"self"}, {"other", std::nullopt, kDivisor}},
                    .result_dtype = div_mode_result,
                    .math = kDivModeMath,
                    .kwargs = {{"rounding_mode", Value("trunc")}},
                    .extra_kwargs = kRoundingModes,
                    .extra_samples = zero_divisor}));
  db.add(pointwise({.name = "div.Scalar_mode",
                    .dtypes = kAllTypes,
                    .scalar_operands = {"other"},
                    .scalars = kScalarDivisors,
                    .result_dtype = div_mode_result,
                    .math = kDivModeMath,
                    .kwargs = {{"rounding_mode", Value("trunc")}},
                    .extra_kwargs = kRoundingModes}));
  add_alias(db, "true_divide.Tensor", "div.Tensor");
  db.add(pointwise({.name = "floor_divide",
                    .dtypes = kAllTypes,
                    .tier = 2,
                    .operands = {{"self"}, {"other", std::nullopt, kDivisor}},
                    .math = kFloorDivideMath,
                    .extra_samples = zero_divisor}));
  db.add(pointwise({.name = "fmod.Tensor",
                    .dtypes = kAllTypes,
                    .tier = 2,
                    .operands = {{"self"}, {"other", std::nullopt, kDivisor}},
                    .math = kFmodMath,
                    .extra_samples = zero_divisor}));
  db.add(pointwise({.name = "remainder.Tensor",
                    .dtypes = kAllTypes,
                    .operands = {{"self"}, {"other", std::nullopt, kDivisor}},
                    .math = kRemainderMath,
                    .extra_samples = zero_divisor}));
  db.add(pointwise({.name = "remainder.Scalar",
                    .dtypes = kAllTypes,
                    .scalar_operands = {"other"},
                    .scalars = kScalarDivisors,
                    .math = kRemainderMath}));
  // A scalar on the left: the math takes the tensor operand first.
  db.add(pointwise({.name = "remainder.Scalar_Tensor",
                    .dtypes = kAllTypes,
                    .operands = {{"other", std::nullopt, kDivisor}},
                    .scalar_operands = {"self"},
                    .scalars = kScalarDivisors,
                    .math = scalar_first(kRemainderMath)}));
  db.add(pointwise({.name = "pow.Tensor_Tensor",
                    .dtypes = kAllButBool,
                    .operands = {{"self", std::nullopt, kBase},
                                 {"exponent", std::nullopt,
                                  Domain{.low = -3, .high = 3, .int_low = -2, .int_high = 9}}},
                    .math = kPowMath}));
  // A scalar base: PyTorch computes it as pow.Tensor_Tensor with the base wrapped as a tensor.
  db.add(pointwise({.name = "pow.Scalar",
                    .dtypes = kAllButBool,
                    .operands = {{"exponent", std::nullopt,
                                  Domain{.low = -3, .high = 3, .int_low = 0, .int_high = 9}}},
                    .scalar_operands = {"self"},
                    .scalars = {Scalar(int64_t{2}), Scalar(2.5), Scalar(int64_t{-3})},
                    .math = scalar_first(kPowMath)}));
  db.add(pointwise(
      {.name = "pow.Tensor_Scalar",
       .dtypes = kAllButBool,
       .operands = {{"self", std::nullopt, kBase}},
       .scalar_operands = {"exponent"},
       .scalars = {Scalar(int64_t{2}), Scalar(int64_t{3}), Scalar(0.5), Scalar(-1.0), Scalar(2.5),
                   Scalar(int64_t{0}), Scalar(int64_t{-2}), Scalar(-0.5), Scalar(int64_t{1})},
       .math = math<kAnyKind>([](auto a, auto e) {
         if constexpr (kIsInt<decltype(a)>) {
           return int_pow(a, e);
         } else {
           return pow_scalar(a, e);
         }
       }),
       .check =
           [](const RefArgs& a, ScalarType common) {
             const ScalarArg e = a.scalar("exponent", ScalarArg::integer(1));
             if (is_integral(common, false) && e.type == ScalarType::kInt64 &&
                 e.as_int() < Int(0)) {
               throw RefError{"Integers to negative integer powers are not allowed."};
             }
           },
       // PyTorch builds it as a unary op on the base cast to the common dtype: out= needs
       // that dtype exactly, and so does self in pow_ (an int16 base with exponent 0.5 gives
       // "Found dtype int16 but expected float32").
       .out_dtype = OutDtypeRule::kExact,
       .out_dtype_error = found_dtype,
       .inplace_dtype_error = found_dtype}));
  db.add(pointwise({.name = "maximum",
                    .dtypes = kAllButComplex,
                    .operands = {{"self"}, {"other"}},
                    .math = kMaximumMath,
                    .rejected = kComplex,
                    .rejected_message = "maximum not implemented for complex tensors."}));
  db.add(pointwise({.name = "minimum",
                    .dtypes = kAllButComplex,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = kMinimumMath,
                    .rejected = kComplex,
                    .rejected_message = "minimum not implemented for complex tensors."}));
  db.add(pointwise({.name = "eq.Tensor",
                    .dtypes = kAllDtypes,
                    .operands = {{"self", std::nullopt, Domain{.whole = true}},
                                 {"other", std::nullopt, Domain{.whole = true}}},
                    .result = ResultDtype::kBool,
                    .math = math<kAnyKind>([](auto a, auto b) { return a == b; })}));
  db.add(pointwise(
      {.name = "eq.Scalar",
       .dtypes = kAllDtypes,
       .operands = {{"self", std::nullopt,
                     Domain{.low = -4, .high = 4, .int_low = -4, .int_high = 4, .whole = true}}},
       .scalar_operands = {"other"},
       .scalars = {Scalar(int64_t{3}), Scalar(-2.0), Scalar(true), Scalar(complex<double>(1, -2))},
       .result = ResultDtype::kBool,
       .math = math<kAnyKind>([](auto a, auto b) { return a == b; })}));
  db.add(pointwise({.name = "lt.Tensor",
                    .dtypes = kAllButComplex,
                    .operands = {{"self", std::nullopt, Domain{.whole = true}},
                                 {"other", std::nullopt, Domain{.whole = true}}},
                    .result = ResultDtype::kBool,
                    .math = kLessMath}));
  db.add(pointwise(
      {.name = "lt.Scalar",
       .dtypes = kAllButComplex,
       .operands = {{"self", std::nullopt,
                     Domain{.low = -4, .high = 4, .int_low = -4, .int_high = 4, .whole = true}}},
       .scalar_operands = {"other"},
       .scalars = {Scalar(int64_t{3}), Scalar(-2.0), Scalar(true)},
       .result = ResultDtype::kBool,
       .math = kLessMath}));
  add_comparison(db, "ne", kAllDtypes, math<kAnyKind>([](auto a, auto b) { return a != b; }),
                 {Scalar(complex<double>(1, -2))});
  add_comparison(db, "le", kAllButComplex,
                 math<kIntOrRealKind>([](auto a, auto b) { return a <= b; }));
  add_comparison(db, "gt", kAllButComplex,
                 math<kIntOrRealKind>([](auto a, auto b) { return a > b; }));
  add_comparison(db, "ge", kAllButComplex,
                 math<kIntOrRealKind>([](auto a, auto b) { return a >= b; }));
  db.add(pointwise({.name = "logical_and",
                    .dtypes = kAllDtypes,
                    .operands = {{"self"}, {"other"}},
                    .result = ResultDtype::kBool,
                    .math = math<kAnyKind>([](auto a, auto b) {
                      using T = decltype(a);
                      return a != T(0) && b != T(0);
                    })}));
  add_logical(db, "logical_or", math<kAnyKind>([](auto a, auto b) {
                using T = decltype(a);
                return a != T(0) || b != T(0);
              }));
  add_logical(db, "logical_xor", math<kAnyKind>([](auto a, auto b) {
                using T = decltype(a);
                return (a != T(0)) != (b != T(0));
              }));
  add_bitwise(db, {"bitwise_and", "Scalar", kIntegral | kBoolOnly, 1, kBitmasks, kBitmasks},
              kBitwiseAndMath);
  add_bitwise(db, {"bitwise_or", "Scalar", kIntegral | kBoolOnly, 2, kBitmasks, kBitmasks},
              kBitwiseOrMath);
  add_bitwise(db, {"bitwise_xor", "Scalar", kIntegral | kBoolOnly, 2, kBitmasks, kBitmasks},
              kBitwiseXorMath);
  add_bitwise(db, {"bitwise_left_shift", "Tensor_Scalar", kIntegral, 2, kShiftAmounts, kShifted},
              kLeftShiftMath);
  add_bitwise(db, {"bitwise_right_shift", "Tensor_Scalar", kIntegral, 2, kShiftAmounts, kShifted},
              kRightShiftMath);
  db.add(pointwise({.name = "gcd",
                    .dtypes = kIntegral,
                    .operands = {{"self"}, {"other"}},
                    .math = math<kIntKind>([](Int a, Int b, const Ctx& c) {
                      // PyTorch's calc_gcd, in the dtype's width (abs of the minimum wraps).
                      a = c.wrap(a < Int(0) ? -a : a);
                      b = c.wrap(b < Int(0) ? -b : b);
                      while (a != Int(0)) {
                        const Int next = c.wrap(trunc_mod(b, a));
                        b = a;
                        a = next;
                      }
                      return b;
                    })}));
  db.add(pointwise({.name = "atan2",
                    .dtypes = kAllButComplex,
                    .operands = {{"self"}, {"other"}},
                    .result = ResultDtype::kFloat,
                    .math = math<kRealKind>([](double a, double b) { return std::atan2(a, b); })}));
  db.add(pointwise({.name = "hypot",
                    .dtypes = kFloating,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = math<kRealKind>([](double a, double b) { return std::hypot(a, b); })}));
  db.add(
      pointwise({.name = "copysign.Tensor",
                 .dtypes = kAllButComplex,
                 .tier = 2,
                 .operands = {{"self"}, {"other"}},
                 .result = ResultDtype::kFloat,
                 .math = math<kRealKind>([](double a, double b) { return std::copysign(a, b); })}));
  db.add(pointwise({.name = "logaddexp",
                    .dtypes = kFloating,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = log_add_exp<false>}));
  db.add(pointwise({.name = "logaddexp2",
                    .dtypes = kFloating,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = log_add_exp<true>}));
  db.add(pointwise({.name = "fmax",
                    .dtypes = kAllButComplex,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = fmax_fmin<true>,
                    .rejected = kComplex,
                    .rejected_message = "fmax not implemented for complex tensors."}));
  db.add(pointwise({.name = "fmin",
                    .dtypes = kAllButComplex,
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = fmax_fmin<false>,
                    .rejected = kComplex,
                    .rejected_message = "fmin not implemented for complex tensors."}));
  db.add(
      pointwise({.name = "lcm",
                 .dtypes = kIntegral,
                 .tier = 2,
                 .operands = {{"self"}, {"other"}},
                 .math = math<kIntKind>([](Int a, Int b, const Ctx& c) { return lcm(a, b, c); })}));
  // heaviside: operands of one dtype only, so no numbers or promotions (an error sample instead).
  db.add(pointwise({.name = "heaviside",
                    .dtypes = kAllButComplex,
                    .tier = 2,
                    .operands = {{"self", std::nullopt, kFewValues}, {"values"}},
                    .math = math<kIntOrRealKind>([](auto a, auto b) {
                      using T = decltype(a);
                      if (a == T(0)) return b;
                      return a > T(0) ? T(1) : T(0);
                    }),
                    .check = check_heaviside,
                    .rejected = kComplex,
                    .rejected_message = "heaviside is not yet implemented for complex tensors.",
                    .numbers = false,
                    .promotions = false,
                    .extra_samples = heaviside_mixed,
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = heaviside_out_error}));
  // ldexp: whole exponents in [-8, 8], so the powers of 2 are exact in every dtype; no numbers
  // (PyTorch's ldexp takes tensors only; the golden cases cover the extremes).
  db.add(pointwise(
      {.name = "ldexp.Tensor",
       .dtypes = kAllDtypes,
       .tier = 2,
       .operands = {{"self"},
                    {"other", std::nullopt,
                     Domain{.low = -8,
                            .high = 8,
                            .int_low = -8,
                            .int_high = 8,
                            .int_extremes = false,
                            .whole = true}}},
       .result_dtype = ldexp_result,
       .math = math<kFloatingKind>([](auto a, auto b) { return a * std::pow(decltype(a)(2), b); }),
       .numbers = false}));
  db.add(pointwise(
      float_power({.name = "float_power.Tensor_Tensor",
                   .operands = {{"self", std::nullopt, kBase},
                                {"exponent", std::nullopt,
                                 Domain{.low = -3, .high = 3, .int_low = -2, .int_high = 9}}},
                   .math = math<kFloatingKind>([](auto a, auto b) { return std::pow(a, b); })})));
  // float_power's Scalar overloads: pow.Tensor_Scalar's (exact forms) and pow.Scalar's values in
  // float64; real numbers only (a complex one is complex128: the Tensor_Tensor entry's).
  db.add(pointwise(float_power(
      {.name = "float_power.Tensor_Scalar",
       .operands = {{"self", std::nullopt, kBase}},
       .scalar_operands = {"exponent"},
       .scalars = {Scalar(int64_t{2}), Scalar(int64_t{-1}), Scalar(0.5), Scalar(2.5), Scalar(true)},
       .math = math<kFloatingKind>([](auto a, auto e) { return pow_scalar(a, e); })})));
  db.add(pointwise(float_power(
      {.name = "float_power.Scalar",
       .operands = {{"exponent", std::nullopt,
                     Domain{.low = -3, .high = 3, .int_low = -2, .int_high = 9}}},
       .scalar_operands = {"self"},
       .scalars = {Scalar(int64_t{2}), Scalar(2.5), Scalar(int64_t{-3})},
       .math = scalar_first(math<kFloatingKind>([](auto a, auto b) { return std::pow(a, b); }))},
      /*inplace=*/false)));
  db.add(pointwise(
      complex_from_parts("polar", {{"abs"}, {"angle"}}, [](const std::vector<Wide>& x, const Ctx&) {
        const double r = x[0].z.real(), theta = x[1].z.real();
        return from_complex(cd(r * std::cos(theta), r * std::sin(theta)));
      })));
  db.add(pointwise(complex_from_parts("complex", {{"real"}, {"imag"}},
                                      [](const std::vector<Wide>& x, const Ctx&) {
                                        return from_complex(cd(x[0].z.real(), x[1].z.real()));
                                      })));
  db.add(pointwise({.name = "nextafter",
                    .dtypes = DtypeSet(ScalarType::kFloat32) | DtypeSet(ScalarType::kFloat64),
                    .tier = 2,
                    .operands = {{"self"}, {"other"}},
                    .math = math<kRealKind>([](double a, double b, const Ctx& c) {
                      if (c.compute() == ScalarType::kFloat32) {
                        return static_cast<double>(
                            std::nextafter(static_cast<float>(a), static_cast<float>(b)));
                      }
                      return std::nextafter(a, b);
                    })}));
  db.add(pointwise({.name = "rsub.Scalar",
                    .dtypes = kAllButBool,
                    .tier = 2,
                    .scalar_operands = {"other"},
                    .scalars = kNumbers,
                    .math = kRsubMath,
                    .check = check_sub,
                    .check_after_build = check_alpha,
                    .extra_kwargs = kAlphas}));
  add_alias(db, "true_divide.Scalar", "div.Scalar");
  db.add(pointwise({.name = "floor_divide.Scalar",
                    .dtypes = kAllTypes,
                    .tier = 2,
                    .scalar_operands = {"other"},
                    .scalars = kScalarDivisors,
                    .math = kFloorDivideMath}));
  db.add(pointwise({.name = "fmod.Scalar",
                    .dtypes = kAllTypes,
                    .tier = 2,
                    .scalar_operands = {"other"},
                    .scalars = kScalarDivisors,
                    .math = kFmodMath}));
  db.add(
      pointwise({.name = "copysign.Scalar",
                 .dtypes = kAllButComplex,
                 .tier = 2,
                 .scalar_operands = {"other"},
                 .scalars = {Scalar(int64_t{-3}), Scalar(2.5), Scalar(-0.0), Scalar(true)},
                 .result = ResultDtype::kFloat,
                 .math = math<kRealKind>([](double a, double b) { return std::copysign(a, b); })}));
}

}  // namespace bp::conformance
