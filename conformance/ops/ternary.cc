// Ternary and masked pointwise ops: where (and its number overloads), clamp (Scalar and Tensor
// bounds), clamp_min, clamp_max, lerp, addcmul, addcdiv, masked_fill.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "conformance/families/memory_rules.h"
#include "conformance/families/pointwise.h"
#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/promotion.h"
#include "sdk/core/scalar_tensor.h"

namespace bp::conformance {
namespace {

void check_clamp_bounds(bool has_min, bool has_max) {
  if (!has_min && !has_max) {
    throw RefError{"torch.clamp: At least one of 'min' or 'max' must not be None"};
  }
}

// PyTorch's clamp: NaN inputs stay NaN, then max with the lower and min with the upper bound.
template <typename T>
T clamp(T x, std::optional<T> lo, std::optional<T> hi) {
  if constexpr (kIsReal<T>) {
    if (std::isnan(x)) return x;
    if (lo && std::isnan(*lo)) return *lo;
    if (hi && std::isnan(*hi)) return *hi;
  }
  if (lo && x < *lo) x = *lo;
  if (hi && *hi < x) x = *hi;
  return x;
}

template <typename T>
std::optional<T> bound(const Ctx& c, const char* name) {
  const std::optional<ScalarArg> s = c.args().optional_scalar(name);
  if (!s) return std::nullopt;
  if constexpr (kIsInt<T>) {
    return c.wrap(s->as_int());  // PyTorch converts the bound to the dtype: -2 is 254 in uint8
  } else {
    return s->as_real();
  }
}

// clamp.Tensor: the bounds are tensors, either may be None.
Expected clamp_tensor_reference(const RefArgs& a) {
  const RefTensor& self = a.tensor("self");
  const RefTensor* lo = a.optional_tensor("min");
  const RefTensor* hi = a.optional_tensor("max");
  check_clamp_bounds(lo != nullptr, hi != nullptr);
  ResultTypeState state;
  std::vector<const RefTensor*> operands = {&self};
  update_result_type_state(state, self.dtype, a.operand_kind("self"));
  for (const char* name : {"min", "max"}) {
    if (const RefTensor* t = a.optional_tensor(name)) {
      operands.push_back(t);
      update_result_type_state(state, t->dtype, a.operand_kind(name));
    }
  }
  const ScalarType common = result_type(state);
  const bool has_lo = lo != nullptr, has_hi = hi != nullptr;
  const ElementFn fn = [has_lo, has_hi](const std::vector<Wide>& x, const Ctx& c) -> Wide {
    const size_t i_hi = has_lo ? 2 : 1;
    if (kind_of(c.compute()) == Kind::kInt) {
      return from_int(clamp<Int>(Int(x[0].i),
                                 has_lo ? std::optional<Int>(Int(x[1].i)) : std::nullopt,
                                 has_hi ? std::optional<Int>(Int(x[i_hi].i)) : std::nullopt));
    }
    return from_real(
        clamp<double>(x[0].z.real(), has_lo ? std::optional<double>(x[1].z.real()) : std::nullopt,
                      has_hi ? std::optional<double>(x[i_hi].z.real()) : std::nullopt));
  };
  return Expected::of(elementwise(operands, common, common, fn, Ctx(a, common)));
}

OpEntry clamp_tensor_entry() {
  OpEntry e;
  e.name = "clamp.Tensor";
  e.family = "ternary";
  e.variants = declared_variants("clamp.Tensor");
  e.dtypes = kAllTypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    PointwiseSamples spec;
    spec.operands = {{"self"},
                     {"min", std::nullopt, Domain{.low = -8, .high = 0, .specials = false}},
                     {"max", std::nullopt, Domain{.low = 0, .high = 8, .specials = false}}};
    spec.supported = kAllTypes;
    spec.extra_kwargs = {
        {{"min", Value()}}, {{"max", Value()}}, {{"min", Value()}, {"max", Value()}}};
    return pointwise_samples(dtype, seed, spec);
  };
  e.reference = clamp_tensor_reference;
  return e;
}

constexpr DtypeSet kReal3 = DtypeSet(ScalarType::kBFloat16) | DtypeSet(ScalarType::kFloat32) |
                            DtypeSet(ScalarType::kFloat64);

// clamp_min / clamp_max with a Scalar bound: clamp with that bound only.
PointwiseSpec clamp_scalar_bound(const char* name, const char* bound_name) {
  const bool is_min = std::string(bound_name) == "min";
  return PointwiseSpec{
      .name = name,
      .dtypes = kIntegral | kReal3,
      .tier = 2,
      .scalar_operands = {bound_name},
      .scalars_in_math = false,
      .scalars = {Scalar(int64_t{-2}), Scalar(-2.5), Scalar(int64_t{3}), Scalar(-0.0)},
      .math = math<kIntOrRealKind>([is_min, bound_name](auto x, const Ctx& c) {
        using T = decltype(x);
        const std::optional<T> b = bound<T>(c, bound_name);
        return is_min ? clamp<T>(x, b, std::nullopt) : clamp<T>(x, std::nullopt, b);
      }),
      .out_dtype = OutDtypeRule::kExact,
      .out_dtype_error = found_dtype,
  };
}

// clamp_min / clamp_max with a Tensor bound: promoted with self; bool takes the or (and).
PointwiseSpec clamp_tensor_bound(const char* name, const char* bound_name) {
  const bool is_min = std::string(bound_name) == "min";
  return PointwiseSpec{
      .name = name,
      .dtypes = kAllButComplex,
      .tier = 2,
      .operands = {{"self"}, {bound_name}},
      .math = math<kIntOrRealKind>([is_min](auto x, auto b) {
        using T = decltype(x);
        return is_min ? clamp<T>(x, b, std::nullopt) : clamp<T>(x, std::nullopt, b);
      }),
  };
}

// masked_fill's value as a number of the compute kind T (a bool: whether it is non-zero).
template <typename T>
T fill_value(const ScalarArg& v, ScalarType compute) {
  if constexpr (kIsInt<T>) {
    if (compute == ScalarType::kBool) return Int(v.as_complex() != cd(0) ? 1 : 0);
    return v.as_int();
  } else if constexpr (kIsReal<T>) {
    return v.as_real();
  } else {
    return v.as_complex();
  }
}

// PyTorch's masked_fill checks: a bool mask, a value that self's dtype holds.
void check_masked_fill(const RefArgs& a, const ScalarArg& value) {
  const ScalarType self = a.tensor("self").dtype, mask = a.tensor("mask").dtype;
  if (mask != ScalarType::kBool) {
    throw RefError{"masked_fill_ only supports boolean masks, but got mask with dtype " +
                   std::string(scalar_type_name(mask))};
  }
  check_fits(value, self);  // c10's checked conversion
}

// masked_fill.Scalar and .Tensor: value where the mask is set, else self, in self's dtype. `value`
// gives the number (the Scalar, or the 0-dim tensor's element).
PointwiseSpec masked_fill_spec(const char* name, std::function<ScalarArg(const RefArgs&)> value) {
  return PointwiseSpec{
      .name = name,
      .dtypes = kAllDtypes,
      .tier = 2,
      .operands = {{"self"}, {"mask", ScalarType::kBool}},
      .not_promoting = {"mask"},
      .math = math<kAnyKind>([value](auto x, auto m, const Ctx& c) {
        using T = decltype(x);
        return m != T(0) ? fill_value<T>(value(c.args()), c.compute()) : x;
      }),
      .check =
          [value](const RefArgs& a, ScalarType) {
            check_masked_fill(a, value(a));
            // The functional op broadcasts the mask with self: the mask is "tensor a".
            (void)broadcast_all({&a.tensor("mask"), &a.tensor("self")});
          },
      .numbers = false,
      .promotions = false,
      // masked_fill_ broadcasts the mask to self: self is "tensor a".
      .inplace_error_first = [](const RefArgs& a) -> std::optional<std::string> {
        try {
          (void)broadcast_all({&a.tensor("self"), &a.tensor("mask")});
        } catch (const RefError& e) {
          return e.message;
        }
        return std::nullopt;
      },
  };
}

ScalarArg scalar_value(const RefArgs& a) { return a.scalar("value", ScalarArg::integer(0)); }

// The element of masked_fill.Tensor's value, which must be 0-dim.
ScalarArg tensor_value(const RefArgs& a) {
  const RefTensor& v = a.tensor("value");
  if (v.dim() != 0) {
    throw RefError{"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
                   std::to_string(v.dim()) + " dimension(s)."};
  }
  // value.item(): a Scalar of bool, int64, float64 or complex128.
  const ScalarType type = v.dtype == ScalarType::kBool                   ? ScalarType::kBool
                          : is_integral(v.dtype, /*include_bool=*/false) ? ScalarType::kInt64
                          : is_complex(v.dtype)                          ? ScalarType::kComplex128
                                                                         : ScalarType::kFloat64;
  return ScalarArg{cast(v.values[0], v.dtype, type), type};
}

// masked_fill error samples (float32 only): a mask that is not bool, a value out of range.
std::vector<Sample> masked_fill_errors(ScalarType dtype, ValueSource& src,
                                       const std::function<void(Sample&)>& add_bad_value,
                                       const std::function<void(Sample&)>& add_good_value) {
  std::vector<Sample> out;
  if (dtype == ScalarType::kFloat32) {
    Sample s;
    s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
    s.add("mask", make_tensor(src, ScalarType::kUInt8, {7}, Layout::kContiguous));
    add_good_value(s);
    s.note = "error: a uint8 mask";
    out.push_back(std::move(s));
  }
  if (dtype == ScalarType::kUInt8 || dtype == ScalarType::kFloat32) {
    Sample s;
    s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
    s.add("mask", make_tensor(src, ScalarType::kBool, {7}, Layout::kContiguous));
    add_bad_value(s);
    s.note = "error: a value self's dtype cannot hold";
    out.push_back(std::move(s));
  }
  return out;
}

// where with numbers: each number a 0-dim tensor of result_type(the other operand, the number).
// `self` / `other` say which operands are numbers.
Expected where_scalars_reference(const RefArgs& a, bool self_number, bool other_number) {
  const RefTensor& condition = a.tensor("condition");
  if (condition.dtype != ScalarType::kBool && condition.dtype != ScalarType::kUInt8) {
    throw RefError{"where expected condition to be a boolean tensor"};
  }
  ResultTypeState state;
  std::vector<RefTensor> numbers;
  for (const char* name : {"self", "other"}) {
    const bool number = std::string(name) == "self" ? self_number : other_number;
    if (number) {
      const ScalarArg s = a.scalar(name, ScalarArg::integer(0));
      update_result_type_state(state, s.type, OperandKind::kWrappedScalar);
    } else {
      update_result_type_state(state, a.tensor(name).dtype, a.operand_kind(name));
    }
  }
  const ScalarType common = result_type(state);
  std::vector<const RefTensor*> operands = {&condition};
  numbers.reserve(2);
  for (const char* name : {"self", "other"}) {
    const bool number = std::string(name) == "self" ? self_number : other_number;
    if (!number) {
      operands.push_back(&a.tensor(name));
      continue;
    }
    const ScalarArg s = a.scalar(name, ScalarArg::integer(0));
    check_fits(s, common);  // at::scalar_tensor(number, dtype): the checked conversion
    numbers.push_back(RefTensor{s.type, {}, {s.value}});
    operands.push_back(&numbers.back());
  }
  const ElementFn fn = math<kAnyKind>([](auto c, auto x, auto y) {
    using T = decltype(c);
    return c != T(0) ? x : y;
  });
  return Expected::of(elementwise(operands, common, common, fn, Ctx(a, common)));
}

OpEntry where_scalars_entry(const char* name, bool self_number, bool other_number) {
  OpEntry e;
  e.name = name;
  e.family = "ternary";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = self_number && other_number ? DtypeSet(ScalarType::kBool) : kAllDtypes;
  e.samples = [self_number, other_number](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    const std::vector<Scalar> numbers = {Scalar(int64_t{2}), Scalar(-1.5), Scalar(true),
                                         Scalar(complex<double>(0.5, -1)), Scalar(-0.0)};
    for (const Scalar& n : numbers) {
      for (const Scalar& m : self_number&& other_number ? numbers : std::vector<Scalar>{n}) {
        Sample s;
        s.add("condition", make_tensor(src, ScalarType::kBool, {3, 4}, Layout::kContiguous));
        if (self_number) {
          s.add("self", Value(n));
        } else {
          s.add("self", make_tensor(src, dtype, {3, 4}, Layout::kTransposed));
        }
        if (other_number) {
          s.add("other", Value(m));
        } else {
          s.add("other", make_tensor(src, dtype, {4}, Layout::kContiguous));
        }
        out.push_back(std::move(s));
      }
    }
    if (dtype == ScalarType::kUInt8 && !(self_number && other_number)) {
      Sample s;
      s.add("condition", make_tensor(src, ScalarType::kBool, {4}, Layout::kContiguous));
      for (const char* name : {"self", "other"}) {
        if (std::string(name) == "self" ? self_number : other_number) {
          s.add(name, Value(Scalar(int64_t{300})));
        } else {
          s.add(name, make_tensor(src, dtype, {4}, Layout::kContiguous));
        }
      }
      s.note = "error: 300 is no uint8";
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [self_number, other_number](const RefArgs& a) {
    return where_scalars_reference(a, self_number, other_number);
  };
  return e;
}

}  // namespace

void add_ternary_entries(OpDatabase& db) {
  db.add(pointwise({
      .name = "where.self",
      .dtypes = kAllDtypes,
      .operands = {{"condition", ScalarType::kBool}, {"self"}, {"other"}},
      .not_promoting = {"condition"},
      .math = math<kAnyKind>([](auto c, auto a, auto b) { return c != decltype(c)(0) ? a : b; }),
      .check =
          [](const RefArgs& a, ScalarType) {
            // PyTorch still takes a uint8 condition (deprecated: it warns once).
            const ScalarType t = a.tensor("condition").dtype;
            if (t != ScalarType::kBool && t != ScalarType::kUInt8) {
              // PyTorch versions differ in what follows (", but got a tensor with dtype Int").
              throw RefError{"where expected condition to be a boolean tensor"};
            }
          },
      .extra_samples =
          [](ScalarType dtype, ValueSource& src) {
            std::vector<Sample> out;
            for (ScalarType other : {ScalarType::kFloat64, ScalarType::kInt64}) {
              Sample s;
              s.add("condition", make_tensor(src, ScalarType::kBool, {7}, Layout::kContiguous));
              s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
              s.add("other", make_tensor(src, other, {}, Layout::kContiguous));
              s.note = "promotion with a zero-dim " + std::string(scalar_type_name(other));
              out.push_back(std::move(s));
            }
            if (dtype == ScalarType::kFloat32) {
              for (ScalarType condition : {ScalarType::kUInt8, ScalarType::kInt32}) {
                Sample s;
                s.add("condition", make_tensor(src, condition, {7}, Layout::kContiguous));
                s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
                s.add("other", make_tensor(src, dtype, {7}, Layout::kContiguous));
                s.note = condition == ScalarType::kUInt8 ? "a uint8 condition (deprecated)"
                                                         : "error: an int32 condition";
                out.push_back(std::move(s));
              }
            }
            return out;
          },
      .out_dtype = OutDtypeRule::kExact,
      .out_dtype_error =
          [](ScalarType expected, ScalarType given) {
            return "Expected out type to be " + std::string(scalar_type_name(expected)) +
                   " but got " + std::string(scalar_type_name(given));
          },
  }));
  db.add(pointwise({
      .name = "clamp",
      .dtypes = kAllTypes,
      .scalar_operands = {"min", "max"},
      .scalars_in_math = false,
      .scalars = {Scalar(int64_t{-2}), Scalar(-2.5)},
      .math = math<kIntOrRealKind>([](auto x, const Ctx& c) {
        using T = decltype(x);
        return clamp<T>(x, bound<T>(c, "min"), bound<T>(c, "max"));
      }),
      .check =
          [](const RefArgs& a, ScalarType) {
            check_clamp_bounds(a.optional_scalar("min").has_value(),
                               a.optional_scalar("max").has_value());
          },
      .kwargs = {{"max", Value(Scalar(int64_t{3}))}},
      .extra_kwargs = {{{"min", Value()}, {"max", Value(Scalar(2.5))}},
                       {{"min", Value(Scalar(1.5))}, {"max", Value()}},
                       {{"min", Value(Scalar(int64_t{5}))}, {"max", Value(Scalar(int64_t{-5}))}},
                       {{"min", Value()}, {"max", Value()}}},
      .out_dtype = OutDtypeRule::kExact,
      .out_dtype_error = found_dtype,
  }));
  db.add(clamp_tensor_entry());
  db.add(pointwise({
      .name = "lerp.Scalar",
      .dtypes = kFloatingAndComplex,
      .operands = {{"self"}, {"end"}},
      .math = math<kFloatingKind>([](auto a, auto b, const Ctx& c) {
        using T = decltype(a);
        const T w = c.scalar<T>("weight", ScalarArg::real(0.5));
        return std::abs(w) < 0.5 ? a + w * (b - a) : b - (b - a) * (T(1) - w);
      }),
      .check =
          [](const RefArgs& a, ScalarType) {
            const ScalarType self = a.tensor("self").dtype, end = a.tensor("end").dtype;
            if (self != end) {
              throw RefError{"expected dtype " + std::string(scalar_type_name(self)) +
                             " for `end` but got dtype " + std::string(scalar_type_name(end))};
            }
          },
      .kwargs = {{"weight", Value(Scalar(0.3))}},
      .extra_kwargs = {{{"weight", Value(Scalar(0.75))}},
                       {{"weight", Value(Scalar(-1.5))}},
                       {{"weight", Value(Scalar(int64_t{2}))}}},
      .numbers = false,
      .promotions = false,
      .extra_samples =
          [](ScalarType dtype, ValueSource& src) {
            std::vector<Sample> out;
            if (dtype != ScalarType::kFloat32) return out;
            Sample s;
            s.add("self", make_tensor(src, ScalarType::kFloat32, {7}, Layout::kContiguous));
            s.add("end", make_tensor(src, ScalarType::kFloat64, {7}, Layout::kContiguous));
            s.add("weight", Value(Scalar(0.3)));
            s.note = "error: end of another dtype";
            out.push_back(std::move(s));
            return out;
          },
      // As PyTorch's build_binary_op: out= takes any dtype the result can be cast to.
      .out_dtype = OutDtypeRule::kSafeCast,
  }));
  db.add(pointwise({
      .name = "addcmul",
      .dtypes = kAllButBool,
      .operands = {{"self"}, {"tensor1"}, {"tensor2"}},
      .math = math<kAnyKind>([](auto s, auto a, auto b, const Ctx& c) {
        return s + c.scalar<decltype(s)>("value", ScalarArg::integer(1)) * a * b;
      }),
      .extra_kwargs = {{{"value", Value(Scalar(int64_t{2}))}},
                       {{"value", Value(Scalar(int64_t{-3}))}}},
  }));
  db.add(pointwise(clamp_scalar_bound("clamp_min", "min")));
  db.add(pointwise(clamp_scalar_bound("clamp_max", "max")));
  db.add(pointwise(clamp_tensor_bound("clamp_min.Tensor", "min")));
  db.add(pointwise(clamp_tensor_bound("clamp_max.Tensor", "max")));
  db.add(pointwise({
      .name = "lerp.Tensor",
      .dtypes = kFloatingAndComplex,
      .tier = 2,
      .operands = {{"self"}, {"end"}, {"weight", std::nullopt, Domain{.low = -1.5, .high = 1.5}}},
      .math = math<kFloatingKind>([](auto a, auto b, auto w) {
        using T = decltype(a);
        return std::abs(w) < 0.5 ? a + w * (b - a) : b - (b - a) * (T(1) - w);
      }),
      .check =
          [](const RefArgs& a, ScalarType) {
            const ScalarType self = a.tensor("self").dtype;
            for (const char* name : {"end", "weight"}) {
              const ScalarType t = a.tensor(name).dtype;
              if (t != self) {
                throw RefError{"expected dtype " + std::string(scalar_type_name(self)) + " for `" +
                               name + "` but got dtype " + std::string(scalar_type_name(t))};
              }
            }
          },
      .numbers = false,
      .promotions = false,
      .extra_samples =
          [](ScalarType dtype, ValueSource& src) {
            std::vector<Sample> out;
            if (dtype != ScalarType::kFloat32) return out;
            Sample s;
            s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
            s.add("end", make_tensor(src, dtype, {7}, Layout::kContiguous));
            s.add("weight", make_tensor(src, ScalarType::kFloat64, {7}, Layout::kContiguous));
            s.note = "error: weight of another dtype";
            out.push_back(std::move(s));
            return out;
          },
      .out_dtype = OutDtypeRule::kExact,
      .out_dtype_error = found_dtype,
  }));
  db.add(pointwise({
      .name = "addcdiv",
      .dtypes = kReal3 | kComplex,
      .tier = 2,
      .operands = {{"self"}, {"tensor1"}, {"tensor2"}},
      .math = math<kFloatingKind>([](auto s, auto a, auto b, const Ctx& c) {
        using T = decltype(s);
        const T value = [&] {
          if constexpr (kIsReal<T>) {
            return c.scalar<double>("value", ScalarArg::integer(1));
          } else {
            return c.scalar<cd>("value", ScalarArg::integer(1));
          }
        }();
        return s + value * a / b;
      }),
      .check =
          [](const RefArgs& a, ScalarType) {
            if (is_integral(a.tensor("tensor1").dtype, /*include_bool=*/true) &&
                is_integral(a.tensor("tensor2").dtype, /*include_bool=*/true)) {
              throw RefError{
                  "Integer division with addcdiv is no longer supported, and in a future  "
                  "release addcdiv will perform a true division of tensor1 and tensor2. The "
                  "historic addcdiv behavior can be implemented as (input + value * "
                  "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                  "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
                  "behavior is just the latter implementation: (input + value * tensor1 / "
                  "tensor2), for all dtypes."};
            }
          },
      .kwargs = {},
      .extra_kwargs = {{{"value", Value(Scalar(int64_t{2}))}}, {{"value", Value(Scalar(-0.5))}}},
      .extra_samples =
          [](ScalarType dtype, ValueSource& src) {
            std::vector<Sample> out;
            if (dtype != ScalarType::kFloat32) return out;
            Sample s;
            s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
            s.add("tensor1", make_tensor(src, ScalarType::kInt64, {7}, Layout::kContiguous));
            s.add("tensor2", make_tensor(src, ScalarType::kInt32, {7}, Layout::kContiguous));
            s.note = "error: integral tensor1 and tensor2";
            out.push_back(std::move(s));
            return out;
          },
  }));
  PointwiseSpec masked_fill = masked_fill_spec("masked_fill.Scalar", scalar_value);
  masked_fill.kwargs = {{"value", Value(Scalar(2.5))}};
  masked_fill.extra_kwargs = {{{"value", Value(Scalar(int64_t{-3}))}},
                              {{"value", Value(Scalar(-0.0))}},
                              {{"value", Value(Scalar(true))}}};
  masked_fill.extra_samples = [](ScalarType dtype, ValueSource& src) {
    return masked_fill_errors(
        dtype, src,
        [dtype](Sample& s) {
          s.add("value", dtype == ScalarType::kUInt8 ? Value(Scalar(int64_t{300}))
                                                     : Value(Scalar(complex<double>(1, 2))));
        },
        [](Sample& s) { s.add("value", Value(Scalar(1.5))); });
  };
  db.add(pointwise(std::move(masked_fill)));
  PointwiseSpec masked_fill_t = masked_fill_spec("masked_fill.Tensor", tensor_value);
  masked_fill_t.extra_samples = [](ScalarType dtype, ValueSource& src) {
    // A complex value (float32) or 300 (uint8) in a 0-dim tensor.
    Tensor bad = dtype == ScalarType::kUInt8
                     ? scalar_tensor(Scalar(int64_t{300}), ScalarType::kInt64)
                     : scalar_tensor(Scalar(complex<double>(1, 2)), ScalarType::kComplex64);
    const Tensor good = scalar_tensor(Scalar(1.5), ScalarType::kFloat64);
    std::vector<Sample> out = masked_fill_errors(
        dtype, src, [bad](Sample& s) { s.add("value", bad); },
        [good](Sample& s) { s.add("value", good); });
    Sample s;
    s.add("self", make_tensor(src, dtype, {7}, Layout::kContiguous));
    s.add("mask", make_tensor(src, ScalarType::kBool, {7}, Layout::kContiguous));
    s.add("value", make_tensor(src, dtype, {1}, Layout::kContiguous));
    s.note = "error: a 1-dim value";
    out.push_back(std::move(s));
    return out;
  };
  OpEntry masked_fill_tensor = pointwise(std::move(masked_fill_t));
  // Every sample's value is a 0-dim tensor: of self's dtype, then of float64 and of bool.
  masked_fill_tensor.samples = [base = masked_fill_tensor.samples](ScalarType dtype,
                                                                   uint64_t seed) {
    std::vector<Sample> out = base(dtype, seed);
    ValueSource src(seed ^ 0x51ed270b27a4c3e5ull);
    const ScalarType value_dtypes[] = {
        dtype,
        is_integral(dtype, /*include_bool=*/false) ? ScalarType::kInt64 : ScalarType::kFloat64,
        ScalarType::kBool};
    size_t k = 0;
    for (Sample& s : out) {
      if (s.find("value") != nullptr) continue;  // the error samples have theirs
      const ScalarType t = value_dtypes[k++ % 3];
      s.add("value", make_tensor(src, t, {}, Layout::kContiguous));
    }
    return out;
  };
  db.add(std::move(masked_fill_tensor));
  db.add(where_scalars_entry("where.ScalarSelf", true, false));
  db.add(where_scalars_entry("where.ScalarOther", false, true));
  db.add(where_scalars_entry("where.Scalar", true, true));
  add_alias(db, "clip", "clamp");
  add_alias(db, "clip.Tensor", "clamp.Tensor");
}

}  // namespace bp::conformance
