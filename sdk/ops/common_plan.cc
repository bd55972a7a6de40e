#include "sdk/ops/common_plan.h"

namespace bp {
namespace {

constinit thread_local CommonPlanScope::Published tls_published{};

}  // namespace

CommonPlanScope::CommonPlanScope(const OperatorHandle& op, const TensorIteratorBase& plan) noexcept
    : previous_(tls_published) {
  tls_published = Published{&op, &plan};
}

CommonPlanScope::~CommonPlanScope() { tls_published = previous_; }

const TensorIteratorBase* take_common_plan(const OperatorHandle& op) noexcept {
  const CommonPlanScope::Published published = tls_published;
  tls_published = CommonPlanScope::Published{};
  return published.plan != nullptr && *published.op == op ? published.plan : nullptr;
}

}  // namespace bp
