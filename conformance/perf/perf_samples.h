// The calls the perf mode times for one op database entry and dtype: the entry's own samples,
// plus each catalogue shape (shape_catalogue.h) put into the entry's first sample whose tensor
// arguments all have one contiguous shape (a template: add's `self` and `other` of [3, 4]
// become two [1, 1024, 768] tensors; scalars and 0-dim tensors stay as they are). A new
// tensor's values repeat the template tensor's values, so they stay in the op's domain (log's
// positive inputs, a divisor without zeros).
//
//   for (const PerfCase& p : perf_cases(entry, ScalarType::kFloat32, shapes, tolerances))
//     time(p.c);   // p.shape: "sample 2" or "gpt2-small.mlp"
//
// Each sample gives one case: the functional variant's, else the first variant the planner
// checks (fill_'s in-place case). Samples whose call must raise (error samples, a catalogue
// shape the op does not accept: a reduction's dim beyond its rank) give none. The cases are
// the planner's (planner.h), with expectations from the entry's naive reference: the timed
// call is checked like any other.
//
// Thread safety: pure apart from reading the dispatcher.
#ifndef BACKPLANE_CONFORMANCE_PERF_PERF_SAMPLES_H_
#define BACKPLANE_CONFORMANCE_PERF_PERF_SAMPLES_H_

#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/op_entry.h"
#include "conformance/perf/shape_catalogue.h"
#include "conformance/runner/case.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

struct PerfCase {
  Case c;             // id "perf/<op>/<dtype>/<shape>"
  std::string shape;  // "sample <i>" (the entry's own) or a catalogue shape's name
};

struct PerfPlan {
  std::vector<PerfCase> cases;
  std::string entry_error;  // as Plan::entry_error
};

PerfPlan perf_cases(const OpEntry& entry, ScalarType dtype,
                    const std::vector<CatalogueShape>& shapes, const Tolerances& tolerances);

// `sample` with every tensor argument of `from`'s sizes replaced by a contiguous tensor of
// `sizes` whose values repeat the old tensor's (in row-major order); nullopt when `sample` has
// no such argument or a tensor argument that is neither of `from`'s sizes nor 0-dim.
std::optional<Sample> with_shape(const Sample& sample, const std::vector<int64_t>& from,
                                 const std::vector<int64_t>& sizes);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_PERF_SAMPLES_H_
