// The perf mode's run: for each selected entry and dtype, its perf cases (perf_samples.h) are
// checked on the backend like any case (execute.h; their records join the run's results, so a
// wrong timed call fails the run as any failed case does), then timed there (time_calls, the
// backend synchronized after each call) and on the CPU reference backend with the same
// arguments. Calls that are not correct are not timed: a fast wrong kernel scores nothing.
//
//   PerfOptions options;
//   options.ops.names = {"add"};
//   options.shapes = select_shapes(shape_catalogue(), {"gpt2-small"});
//   PerfResults perf = run_perf(op_database(), backend, options, results);
//
// Runs in this process (timing a child process would time its start too).
// Thread safety: one run at a time; ops are called on the calling thread.
#ifndef BACKPLANE_CONFORMANCE_PERF_PERF_RUN_H_
#define BACKPLANE_CONFORMANCE_PERF_PERF_RUN_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "conformance/framework/op_entry.h"
#include "conformance/perf/perf_results.h"
#include "conformance/perf/shape_catalogue.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/op_selection.h"
#include "conformance/runner/results.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

struct PerfOptions {
  OpSelection ops;  // empty: every entry
  DtypeSet dtypes = kAllDtypes;
  std::vector<CatalogueShape> shapes;  // catalogue shapes to time besides the entries' samples
  TimingOptions timing;
  const Tolerances* tolerances = nullptr;  // null: Tolerances::builtin()
  // The CPU reference backend to compare times (and values) with; null when the backend under
  // test is the CPU reference itself (its own times are the reference's).
  const Backend* reference = nullptr;
  size_t roof_bytes = size_t{64} << 20;  // the memory roof's copy
  // Called before each entry: "add.Tensor".
  std::function<void(const std::string& entry)> progress;
};

// Adds each perf case's record to `results` (the op's OpResult, which run_suite made for the
// same selection; an op missing there gets none). A memory roof that cannot be measured leaves
// roof.problem (and no roof fractions). Errors: std::invalid_argument when options.ops selects
// nothing.
PerfResults run_perf(const OpDatabase& db, const Backend& backend, const PerfOptions& options,
                     RunResults& results);

// Bytes one call of `c` reads and writes: each tensor argument's distinct elements (an expanded
// dimension counts once) plus each output in `outputs`.
int64_t bytes_moved(const Case& c, const std::vector<RefTensor>& outputs);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_PERF_RUN_H_
