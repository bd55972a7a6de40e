// The executor: runs one Case on a backend through the dispatcher's boxed interface and checks
// everything its Expectation says. The only place the suite calls ops.
//
//   CaseOutcome o = execute(c, backend, {.compare_with = &cpu});
//   o.verdict;     // kPass, kFail or kUnsupported (the backend raised NotImplemented)
//   o.failures;    // {"values: 2 of 12 elements differ ...", "[meta] strides [1, 3], ..."}
//
// Steps: copy tensor arguments to the device (same geometry and bytes), build the stack from the
// op's schema (arguments a case leaves out take the schema's defaults; a case argument the schema
// lacks is a failure), call, then check: the error or the outputs (dtype, sizes, values within
// tolerance, strides, aliasing, returned arguments), inputs left unmodified, no writes outside
// written arguments' elements, and optionally the same call on Meta (sizes, strides, dtype) and
// on a second backend (values and geometry). Warnings the op emits are captured, not printed.
// On a plugin device every block the host allocates during the case has guard zones around it
// (allocation_guards.h): a write outside one fails the case. What the backend's C ABI kernels
// did with tensor handles is counted, and a leak or an over-release fails the case
// (Backend::handles).
//
// Thread safety: one case at a time per thread; ops are called on the calling thread.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_EXECUTE_H_
#define BACKPLANE_CONFORMANCE_RUNNER_EXECUTE_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/framework/ref_tensor.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/case.h"
#include "sdk/dispatch/schema.h"

namespace bp::conformance {

enum class Verdict { kPass, kFail, kUnsupported };
std::string_view verdict_name(Verdict v);

struct CaseOutcome {
  Verdict verdict = Verdict::kPass;
  std::vector<std::string> failures;  // what went wrong, one line each
  std::string raised;                 // the error the op raised, if it raised
  std::vector<RefTensor> actual;      // the outputs, read back to the host
  std::vector<Sizes> actual_strides;  // their strides
  // The results that are not tensors (result_type's ScalarType), as they print ("float32").
  std::vector<std::string> actual_plain;
  Transfers transfers;   // bytes the backend moved during the op's calls
  HandleCounts handles;  // what the backend's C ABI kernels did with tensor handles

  void fail(std::string why);
};

struct ExecuteOptions {
  // Also run the case here (the CPU backend, for plugin backends) and compare the results.
  const Backend* compare_with = nullptr;
};

CaseOutcome execute(const Case& c, const Backend& backend, const ExecuteOptions& options = {});

// Whether the executor checks a result of schema type `type` that is not a tensor (compared as
// a value: bool, int, float, ScalarType). Results of other types fail a case with "returned a
// value of type ..., which the suite does not check".
bool plain_result_checked(const Type& type);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_EXECUTE_H_
