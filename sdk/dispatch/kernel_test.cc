#include "sdk/dispatch/kernel.h"

#include <string>
#include <tuple>

#include "gtest/gtest.h"
#include "sdk/dispatch/operator_handle.h"

namespace bp {
namespace {

int64_t scale(DispatchKeySet keys, int64_t x, const Scalar& factor, std::optional<int64_t> bias) {
  return x * factor.to<int64_t>() + bias.value_or(0) + (keys.has(DispatchKey::kMeta) ? 1000 : 0);
}

std::tuple<int64_t, double> pair(DispatchKeySet, int64_t x) { return {x, x / 2.0}; }

void boxed_negate(void* user_data, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  ++*static_cast<int*>(user_data);
  int64_t x = stack->back().to<int64_t>();
  stack->back() = Value(-x);
}

// Kernels are called here without a dispatcher: the handle is not read by these kernels.
const OperatorHandle kNoOp(nullptr);

TEST(KernelFunction, DefaultIsInvalidAndFallthroughIsMarked) {
  EXPECT_FALSE(KernelFunction().valid());
  KernelFunction f = KernelFunction::make_fallthrough();
  EXPECT_TRUE(f.valid());
  EXPECT_TRUE(f.is_fallthrough());
  EXPECT_FALSE(f.has_unboxed());
}

TEST(KernelFunction, UnboxedCallGoesStraightToTheFunction) {
  KernelFunction k = KernelFunction::make_from_unboxed<&scale>();
  EXPECT_TRUE(k.has_unboxed());
  EXPECT_EQ(k.unboxed_arity(), 3);
  EXPECT_TRUE((k.has_unboxed_signature<int64_t(int64_t, const Scalar&, std::optional<int64_t>)>()));
  int64_t r = k.call<int64_t, int64_t, const Scalar&, std::optional<int64_t>>(
      kNoOp, DispatchKeySet(DispatchKey::kMeta), 3, Scalar(4), 5);
  EXPECT_EQ(r, 1017);
}

TEST(KernelFunction, UnboxedKernelServesBoxedCallThroughGeneratedWrapper) {
  KernelFunction k = KernelFunction::make_from_unboxed<&scale>();
  Stack stack{Value("unrelated"), Value(3), Value(Scalar(4)), Value(std::nullopt)};
  k.call_boxed(kNoOp, DispatchKeySet(DispatchKey::kCPU), &stack);
  ASSERT_EQ(stack.size(), 2u);  // values below the op's arguments are left alone
  EXPECT_EQ(stack[0].to<std::string>(), "unrelated");
  EXPECT_EQ(stack[1].to<int64_t>(), 12);
}

TEST(KernelFunction, TupleResultsArePushedInOrder) {
  KernelFunction k = KernelFunction::make_from_unboxed<&pair>();
  Stack stack{Value(5)};
  k.call_boxed(kNoOp, DispatchKeySet(), &stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[0].to<int64_t>(), 5);
  EXPECT_EQ(stack[1].to<double>(), 2.5);
}

TEST(KernelFunction, BoxedKernelServesUnboxedCallWithUserData) {
  int calls = 0;
  KernelFunction k = KernelFunction::make_from_boxed(&boxed_negate, &calls);
  EXPECT_EQ((k.call<int64_t, int64_t>(kNoOp, DispatchKeySet(), 7)), -7);
  EXPECT_EQ(calls, 1);
}

TEST(KernelFunction, CallWithAnotherSignatureGoesThroughBoxing) {
  KernelFunction k = KernelFunction::make_from_unboxed<&scale>();
  // int64_t by value vs const int64_t&: a different C++ signature, still served correctly.
  int64_t r = k.call<int64_t, const int64_t&, const Scalar&, std::optional<int64_t>>(
      kNoOp, DispatchKeySet(), 2, Scalar(3), std::nullopt);
  EXPECT_EQ(r, 6);
}

}  // namespace
}  // namespace bp
