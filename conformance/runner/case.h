// Case: one call of one op with its arguments and everything the call must satisfy. The planner
// derives cases from the op database; case files (docs/conformance.md) give them as data; a
// repro file is one failed case. One executor (execute.h) checks them all.
//
//   Case c;
//   c.op = "add.out";
//   c.args = {{"self", TensorArg{a}}, {"other", TensorArg{b}}, {"out", TensorArg{guarded}}};
//   c.expect.outputs = {Expected::output(sum)};
//   c.expect.returns_args = {"out"};           // add.out returns `out` itself
//   c.expect.written = {"out"};                // nothing outside out's elements may change
//   c.expect.unmodified = {"self", "other"};   // inputs' storage must not change
//
// Thread safety: value types.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_CASE_H_
#define BACKPLANE_CONFORMANCE_RUNNER_CASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/expected.h"
#include "conformance/framework/sample.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

struct Expectation {
  // The op must raise a bp::Error whose message contains this text.
  std::optional<std::string> error;
  // Otherwise, per returned value:
  std::vector<ExpectedOutput> outputs;
  std::vector<Tolerance> tolerances;  // per output (default: exact)
  // Per output, the argument the op must return itself ("self" for in-place ops, "out"), or "".
  std::vector<std::string> returns_args;
  // Arguments whose storage must not change at all.
  std::vector<std::string> unmodified;
  // Arguments written in place: bytes of their storage outside their elements must not change
  // (guard bytes around outputs, gaps of strided outputs).
  std::vector<std::string> written;
  // Also run on the Meta device and compare sizes, strides and dtype.
  bool check_meta = false;
};

struct Case {
  std::string op;     // the op called, "add_.Tensor"
  std::string entry;  // the database entry, "" for cases from files
  std::string check;  // what it checks: "functional", "inplace", "out", "out_resize", ...
  ScalarType dtype = ScalarType::kFloat32;  // the dtype it counts for in reports
  std::vector<SampleArg> args;
  Expectation expect;
  std::string description;  // the sample in one line
  uint64_t seed = 0;        // the seed its sample was drawn with
  int sample_index = -1;    // cases of one sample share it (variants must agree)
  // The case's id in reports (per-case results): a case file's `id`, else generated; the
  // planner's are "<op>/<dtype>/<sample index>/<check>" ("add.Tensor/float32/3/out").
  std::string id;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_CASE_H_
