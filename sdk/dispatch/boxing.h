// Conversions between typed C++ arguments/results and Stack values, used by KernelFunction to
// let a boxed kernel serve an unboxed call and an unboxed kernel serve a boxed call.
//
// Internal to sdk/dispatch: kernels never include this directly.
#ifndef BACKPLANE_SDK_DISPATCH_BOXING_H_
#define BACKPLANE_SDK_DISPATCH_BOXING_H_

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sdk/core/error.h"
#include "sdk/dispatch/value.h"

namespace bp::detail {

template <typename T>
struct IsTuple : std::false_type {};
template <typename... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};

// The argument for a parameter of type Arg, read from a stack value. References to stored types
// bind to the value itself (no copy, and `Tensor&` out= parameters see the caller's tensor).
template <typename Arg>
decltype(auto) unbox_arg(Value& v) {
  using T = std::remove_cvref_t<Arg>;
  if constexpr (std::is_lvalue_reference_v<Arg> && Value::kHolds<T>) {
    return v.ref<T>();
  } else {
    return v.to<T>();
  }
}

// A kernel's result held by value: Tensor& -> Tensor, std::tuple<Tensor&, Tensor&> ->
// std::tuple<Tensor, Tensor> (handles, so they still name the caller's tensors).
template <typename R>
struct OwnedResultOf {
  using type = std::remove_cvref_t<R>;
};
template <typename... Ts>
struct OwnedResultOf<std::tuple<Ts...>> {
  using type = std::tuple<std::remove_cvref_t<Ts>...>;
};
template <typename R>
using OwnedResult = typename OwnedResultOf<std::remove_cvref_t<R>>::type;

// Pushes a kernel's result (a value or a tuple of values) onto the stack.
template <typename R>
void push_result(Stack& stack, R&& result) {
  if constexpr (IsTuple<std::remove_cvref_t<R>>::value) {
    std::apply([&](auto&&... items) { (stack.emplace_back(items), ...); }, result);
  } else {
    stack.emplace_back(std::forward<R>(result));
  }
}

// How many stack values a result of type Ret occupies.
template <typename Ret>
constexpr size_t result_count() {
  if constexpr (std::is_void_v<Ret>) {
    return 0;
  } else if constexpr (IsTuple<std::remove_cvref_t<Ret>>::value) {
    return std::tuple_size_v<std::remove_cvref_t<Ret>>;
  } else {
    return 1;
  }
}

// The last `Tensor&` argument: what an in-place or out= op returns by reference (PyTorch's rule:
// in-place ops return `self`, out= ops return `out`, and each is the op's only `Tensor&`).
template <typename... Args>
Tensor& last_mutable_tensor(Args&&... args) {
  Tensor* found = nullptr;
  auto pick = [&](auto&& a) {
    if constexpr (std::is_same_v<decltype(a), Tensor&>) found = &a;
  };
  (pick(std::forward<Args>(args)), ...);
  BP_INTERNAL_ASSERT(found != nullptr, "a kernel returning Tensor& needs a Tensor& argument");
  return *found;
}

// The last N `Tensor&` arguments, in order: what an out= op with N outputs returns by reference
// (e.g. max.dim_max's `(Tensor(a!) values, Tensor(b!) indices)`).
template <size_t N, typename... Args>
std::array<Tensor*, N> last_mutable_tensors(Args&&... args) {
  std::array<Tensor*, sizeof...(Args) + 1> found{};
  size_t count = 0;
  auto pick = [&](auto&& a) {
    if constexpr (std::is_same_v<decltype(a), Tensor&>) found[count++] = &a;
  };
  (pick(std::forward<Args>(args)), ...);
  BP_INTERNAL_ASSERT(count >= N, "a kernel returning ", N,
                     " Tensor& needs as many Tensor& arguments");
  std::array<Tensor*, N> last;
  for (size_t i = 0; i < N; ++i) last[i] = found[count - N + i];
  return last;
}

template <typename T>
struct IsTupleOfTensorRefs : std::false_type {};
template <typename... Ts>
struct IsTupleOfTensorRefs<std::tuple<Ts...>>
    : std::bool_constant<(std::is_same_v<Ts, Tensor&> && ...)> {};

// Converts the results a boxed kernel left on `stack` to Ret.
template <typename Ret, typename... Args>
Ret unbox_result(Stack& stack, Args&&... args) {
  constexpr size_t n = result_count<Ret>();
  BP_CHECK(stack.size() == n, "a boxed kernel left ", stack.size(),
           " values on the stack, expected ", n);
  if constexpr (std::is_void_v<Ret>) {
    return;
  } else if constexpr (std::is_same_v<Ret, Tensor&>) {
    return last_mutable_tensor(std::forward<Args>(args)...);
  } else if constexpr (IsTupleOfTensorRefs<Ret>::value) {
    auto outs = last_mutable_tensors<n>(std::forward<Args>(args)...);
    return [&]<size_t... I>(std::index_sequence<I...>) { return Ret(*outs[I]...); }
    (std::make_index_sequence<n>{});
  } else if constexpr (IsTuple<Ret>::value) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return Ret(stack[I].template to<std::tuple_element_t<I, Ret>>()...);
    }
    (std::make_index_sequence<n>{});
  } else if constexpr (Value::kHolds<Ret>) {
    return std::move(stack[0].ref<Ret>());
  } else {
    return stack[0].to<Ret>();
  }
}

}  // namespace bp::detail

#endif  // BACKPLANE_SDK_DISPATCH_BOXING_H_
