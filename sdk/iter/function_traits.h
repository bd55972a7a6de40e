// function_traits: the result and argument types of a non-generic callable, as ATen's.
//
//   auto add = [](float a, int32_t b) -> double { return a + b; };
//   using traits = function_traits<decltype(add)>;
//   static_assert(traits::arity == 2);
//   static_assert(std::is_same_v<traits::arg_t<1>, int32_t>);
//   static_assert(std::is_same_v<traits::result_type, double>);
//
// Argument types are decayed (a `const float&` parameter reads as float). Generic lambdas and
// overloaded call operators have no single signature and do not compile.
#ifndef BACKPLANE_SDK_ITER_FUNCTION_TRAITS_H_
#define BACKPLANE_SDK_ITER_FUNCTION_TRAITS_H_

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace bp {

template <typename F>
struct function_traits : function_traits<decltype(&std::decay_t<F>::operator())> {};

template <typename R, typename... Args>
struct function_traits<R (*)(Args...)> {
  using result_type = R;
  using args_tuple = std::tuple<std::decay_t<Args>...>;
  static constexpr int arity = sizeof...(Args);
  template <size_t I>
  using arg_t = std::tuple_element_t<I, args_tuple>;
};

template <typename R, typename... Args>
struct function_traits<R(Args...)> : function_traits<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...) const> : function_traits<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...)> : function_traits<R (*)(Args...)> {};

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_FUNCTION_TRAITS_H_
