// Ternary and masked pointwise ops: where, clamp (Scalar and Tensor bounds), lerp, addcmul.
#include <cmath>
#include <limits>
#include <memory>

#include "conformance/families/pointwise.h"
#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"
#include "sdk/core/promotion.h"

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
  add_alias(db, "clip", "clamp");
  add_alias(db, "clip.Tensor", "clamp.Tensor");
}

}  // namespace bp::conformance
