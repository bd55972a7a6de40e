// The planner turns an op database entry into cases, for one dtype: each sample becomes a
// functional case, an in-place case and out= cases, for the variants the registry declares.
//
//   Plan p = plan_cases(entry, ScalarType::kFloat32, Tolerances::builtin());
//   for (const Case& c : p.cases) execute(c, backend);
//
// In-place and out= expectations follow from the functional reference with PyTorch's rules:
// - in-place: `self` is a guarded copy of the sample's self; the op must return it, holding the
//   result cast to self's dtype. Errors: self with overlapping elements ("unsupported operation:
//   more than one element of the written-to tensor refers to a single memory location"), a
//   result of another shape ("output with shape [2] doesn't match the broadcast shape [3, 2]")
//   or of a dtype that cannot be cast to self's ("result type float32 can't be cast to the
//   desired output type int64"). Skipped for samples whose self is a wrapped number.
// - out=: a guarded output of the result's dtype and sizes ("out"); for some samples also a
//   transposed output ("out_strided"), outputs to resize ("out_resize": zero-size and wrong
//   size), an output of a dtype the entry's OutDtypeRule rejects ("out_dtype") and of a wider
//   dtype ("out_widen").
// Entries without a functional variant (fill_, copy_, resize_) give the new `self` directly.
//
// Cases come in a fixed order (crash isolation resumes a child process by case index).
//
// Thread safety: pure apart from reading the dispatcher.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_PLANNER_H_
#define BACKPLANE_CONFORMANCE_RUNNER_PLANNER_H_

#include <string>
#include <vector>

#include "conformance/framework/op_entry.h"
#include "conformance/runner/case.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

struct Plan {
  std::vector<Case> cases;
  // A bug of the entry itself (its samples or reference threw something other than RefError):
  // reported as a failure of every declared variant.
  std::string entry_error;
};

Plan plan_cases(const OpEntry& entry, ScalarType dtype, const Tolerances& tolerances);

// The cases of `samples` (given instead of the entry's own, e.g. the perf mode's samples on model
// shapes) as plan_cases makes them from the entry's.
Plan plan_samples(const OpEntry& entry, ScalarType dtype, const std::vector<Sample>& samples,
                  const Tolerances& tolerances);

// Whether the registry (the dispatcher) has the op.
bool is_declared(const std::string& op);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_PLANNER_H_
