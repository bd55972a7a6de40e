// CaseOutcome: what running one Case on a backend found. execute() (execute.h) makes them; repro
// files (conformance/io/case_file.h) write them. A header of its own so that code which only reads
// or writes outcomes needs neither the executor nor the ops it calls.
//
// verdict_name (execute.h) and CaseOutcome::fail are defined with the executor (execute.cc).
// Thread safety: value types.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_CASE_OUTCOME_H_
#define BACKPLANE_CONFORMANCE_RUNNER_CASE_OUTCOME_H_

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/framework/ref_tensor.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/transfer_counters.h"

namespace bp::conformance {

enum class Verdict { kPass, kFail, kUnsupported };

struct CaseOutcome {
  Verdict verdict = Verdict::kPass;
  std::vector<std::string> failures;  // what went wrong, one line each
  std::string raised;                 // the error the op raised, if it raised
  std::vector<RefTensor> actual;      // the outputs, read back to the host
  std::vector<Sizes> actual_strides;  // their strides
  // The results that are not tensors (result_type's ScalarType), as they print ("float32").
  std::vector<std::string> actual_plain;
  Transfers transfers;  // bytes the backend moved during the op's call (the CPU fallback's, a
                        // kernel's own copies)
  Transfers staging;    // bytes the suite moved: arguments to the device, results back
  // Calls of the CPU fallback during the op's call (sdk/dispatch/cpu_fallback.h): 0 when the
  // backend's kernels served it themselves.
  int64_t fallback_calls = 0;
  HandleCounts handles;  // what the backend's C ABI kernels did with tensor handles

  // Marks the outcome failed, with `why` as one more failure line.
  void fail(std::string why);
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_CASE_OUTCOME_H_
