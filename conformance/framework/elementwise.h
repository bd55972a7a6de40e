// Naive elementwise references: broadcast the operands with plain index loops, convert each
// element to the dtype the op computes in, apply the op's scalar function in wide precision, and
// cast to the result dtype. No TensorIterator and no shared math: the scalar functions are the
// entries' own lambdas.
//
//   // add: all three kinds of arithmetic, with the `alpha` keyword.
//   ElementFn add = math<kAnyKind>([](auto a, auto b, const Ctx& c) {
//     return a + c.scalar<decltype(a)>("alpha", ScalarArg::integer(1)) * b;
//   });
//   RefTensor r = elementwise({&self, &other}, compute, result, add, ctx_args);
//
// A scalar function takes one argument per operand, of type Int (bool and integral compute
// dtypes), double (floating) or cd (complex), optionally followed by `const Ctx&` (which must be
// spelled with that type); it returns a value convertible to the same type (a bool for
// predicates, a double for abs of a complex). `math<Kinds>` instantiates it only for the kinds
// named, so an expression needs to compile only for those.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_ELEMENTWISE_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_ELEMENTWISE_H_

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/framework/ref_args.h"
#include "conformance/framework/ref_tensor.h"
#include "conformance/framework/wide.h"
#include "sdk/core/error.h"

namespace bp::conformance {

// What a scalar function sees besides its operands: the sample's arguments (keywords such as
// alpha) and the dtype the op computes in.
class Ctx {
 public:
  Ctx(const RefArgs& args, ScalarType compute) : args_(&args), compute_(compute) {}

  const RefArgs& args() const { return *args_; }
  ScalarType compute() const { return compute_; }

  // `v` rounded to the precision PyTorch's CPU kernels compute in for the compute dtype
  // ("opmath": float32 for float16, bfloat16 and float32; double for float64), for ops whose
  // result depends on an intermediate rounding (floor and trunc division).
  double round_opmath(double v) const {
    return compute_ == ScalarType::kFloat64 ? v : static_cast<double>(static_cast<float>(v));
  }
  // `v` wrapped to the width of the (integral) compute dtype.
  Int wrap(Int v) const { return Int(cast(from_int(v), ScalarType::kInt64, compute_).i); }

  // The number argument `name` (or `fallback`) as a T (Int, double or cd).
  template <typename T>
  T scalar(const std::string& name, ScalarArg fallback) const {
    const ScalarArg s = args_->scalar(name, fallback);
    if constexpr (std::is_same_v<T, Int>) {
      return s.as_int();
    } else if constexpr (std::is_same_v<T, double>) {
      return s.as_real();
    } else {
      return s.as_complex();
    }
  }

 private:
  const RefArgs* args_;
  ScalarType compute_;
};

// For `if constexpr` in scalar functions written once for several kinds.
template <typename T>
inline constexpr bool kIsInt = std::is_same_v<T, Int>;
template <typename T>
inline constexpr bool kIsReal = std::is_same_v<T, double>;
template <typename T>
inline constexpr bool kIsComplex = std::is_same_v<T, cd>;

// A scalar function over elements already in the compute dtype's kind.
using ElementFn = std::function<Wide(const std::vector<Wide>& operands, const Ctx& ctx)>;

// Kinds a scalar function is defined for (a bit mask).
enum : unsigned { kIntKind = 1, kRealKind = 2, kComplexKind = 4 };
inline constexpr unsigned kAnyKind = kIntKind | kRealKind | kComplexKind;
inline constexpr unsigned kIntOrRealKind = kIntKind | kRealKind;
inline constexpr unsigned kFloatingKind = kRealKind | kComplexKind;

namespace detail {

template <typename T>
T element_as(const Wide& w) {
  if constexpr (std::is_same_v<T, Int>) {
    return Int(w.i);
  } else if constexpr (std::is_same_v<T, double>) {
    return w.z.real();
  } else {
    return w.z;
  }
}

template <typename T>
Wide wide_of(const T& v) {
  if constexpr (std::is_same_v<T, Int>) {
    return from_int(v);
  } else if constexpr (std::is_same_v<T, double>) {
    return from_real(v);
  } else {
    return from_complex(v);
  }
}

// Calls f with the operands as T (and the context when f takes it); the result converted to T.
template <typename T, typename F>
Wide call_as(const F& f, const std::vector<Wide>& x, const Ctx& c) {
  auto a = [&](size_t i) { return element_as<T>(x[i]); };
  if constexpr (std::is_invocable_v<const F&, T, T, T>) {
    return wide_of<T>(T(f(a(0), a(1), a(2))));
  } else if constexpr (std::is_invocable_v<const F&, T, T>) {
    return wide_of<T>(T(f(a(0), a(1))));
  } else if constexpr (std::is_invocable_v<const F&, T>) {
    return wide_of<T>(T(f(a(0))));
  } else if constexpr (std::is_invocable_v<const F&, T, const Ctx&>) {
    return wide_of<T>(T(f(a(0), c)));
  } else if constexpr (std::is_invocable_v<const F&, T, T, const Ctx&>) {
    return wide_of<T>(T(f(a(0), a(1), c)));
  } else {
    static_assert(std::is_invocable_v<const F&, T, T, T, const Ctx&>,
                  "a scalar function takes 1 to 3 operands, then optionally const Ctx&");
    return wide_of<T>(T(f(a(0), a(1), a(2), c)));
  }
}

}  // namespace detail

// Wraps a scalar function defined for the kinds in `kKinds`.
template <unsigned kKinds, typename F>
ElementFn math(F f) {
  return [f](const std::vector<Wide>& x, const Ctx& c) -> Wide {
    switch (kind_of(c.compute())) {
      case Kind::kInt:
        if constexpr ((kKinds & kIntKind) != 0) return detail::call_as<Int>(f, x, c);
        break;
      case Kind::kReal:
        if constexpr ((kKinds & kRealKind) != 0) return detail::call_as<double>(f, x, c);
        break;
      case Kind::kComplex:
        if constexpr ((kKinds & kComplexKind) != 0) return detail::call_as<cd>(f, x, c);
        break;
    }
    BP_INTERNAL_ASSERT(false, "the reference has no scalar function for dtype ",
                       scalar_type_name(c.compute()));
  };
}

// Broadcasts `operands`, casts their elements to `compute`, applies `fn`, casts to `result`.
// Throws RefError with PyTorch's message when the operands do not broadcast.
RefTensor elementwise(const std::vector<const RefTensor*>& operands, ScalarType compute,
                      ScalarType result, const ElementFn& fn, const Ctx& ctx);

// The broadcast shape of several operands, or RefError "The size of tensor a (2) must match the
// size of tensor b (3) at non-singleton dimension 0".
Sizes broadcast_all(const std::vector<const RefTensor*>& operands);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_ELEMENTWISE_H_
