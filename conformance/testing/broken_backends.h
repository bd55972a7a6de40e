// Deliberately broken in-process plugin backends, each with one defect, to show that the suite
// catches it and reports it for the right op; and a correct one that runs everything through the
// CPU fallback (the plugin path end to end).
//
//   std::unique_ptr<PluginBackend> b = make_test_backend(Defect::kIgnoresStrides);
//   RunResults r = run_suite(op_database(), *b, options);   // add.* fails on transposed samples
//
// Each broken backend implements add.out (boxed, on its host-memory device) and gets add.Tensor
// and add_.Tensor from the Common key; the defect is one of:
//   kWrongValuesInt32   adds 1 when computing in int32
//   kIgnoresStrides     reads its inputs as if they were contiguous
//   kWritesPastOutput   writes one element past the end of `out`
//   kModifiesInput      overwrites the first element of `self`
//   kWrongOutputShape   its own add.Tensor returns the result flattened to 1-d
//   kCrashes            raises SIGSEGV
//   kSupportsNothing    registers no kernel at all
// and kNone registers cpu_fallback for every op instead.
//
// Test-only. Thread safety: one backend of a kind at a time (each registers a named backend).
#ifndef BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_
#define BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_

#include <memory>
#include <string>

#include "conformance/cli/cli.h"
#include "conformance/runner/plugin_backend.h"

namespace bp::conformance {

enum class Defect {
  kNone,
  kWrongValuesInt32,
  kIgnoresStrides,
  kWritesPastOutput,
  kModifiesInput,
  kWrongOutputShape,
  kCrashes,
  kSupportsNothing,
};

// "fallback", "wrong-values-int32", "ignores-strides", "writes-past-output", "modifies-input",
// "wrong-output-shape", "crashes", "supports-nothing".
std::string defect_backend_name(Defect d);

std::unique_ptr<PluginBackend> make_test_backend(Defect d);

// The CPU backend and every test backend, for the CLI.
BackendFactories test_backend_factories();

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_
