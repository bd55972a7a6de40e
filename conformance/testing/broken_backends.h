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
//   kWritesPastCommonOutput  writes one element past the end of `out`'s elements, also where
//                       that is past the end of its storage (add.Tensor's output, which the
//                       Common key allocates on the device: the allocator's rounding hides it)
// and kNone registers cpu_fallback for every op instead.
//
// The C ABI test backends (make_c_abi_test_backend) register through bp_get_api() in process,
// as a plugin would: add.out is a C kernel that computes with api->cpu_fallback, other ops go to
// api->cpu_fallback as the backend's fallback, and the defect is one of:
//   kAllocatorReturnsNull  add.out asks api->tensor_empty for a workspace, for which the
//                       backend's allocator returns NULL without an error (then writes to it)
//   kReleasesBorrowed   add.out releases its argument `self`, a reference it does not own
//   kLeaksTensor        add.out creates a float32 [2] tensor with api->tensor_empty per call and
//                       keeps it past the call (released only when the backend goes)
//   kCKernelCallsFallback  none: a correct backend whose add.out kernel hands every call to
//                       api->cpu_fallback (what the report's served_by must show)
//
// Test-only. Thread safety: one backend of a kind at a time (each registers a named backend).
#ifndef BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_
#define BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_

#include <memory>
#include <string>

#include "conformance/cli/cli.h"
#include "conformance/runner/loaded_plugin_backend.h"
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
  kWritesPastCommonOutput,
  kAllocatorReturnsNull,
  kReleasesBorrowed,
  kLeaksTensor,
  kCKernelCallsFallback,
};

// "fallback", "wrong_values_int32", "ignores_strides", "writes_past_output", "modifies_input",
// "wrong_output_shape", "crashes", "supports_nothing", "writes_past_common_output",
// "allocator_returns_null", "releases_borrowed", "leaks_tensor", "c_kernel_fallback".
std::string defect_backend_name(Defect d);

// A test backend on a PluginBackend (every defect but those of the C ABI backends).
std::unique_ptr<PluginBackend> make_test_backend(Defect d);

// Whether `d` is a defect of a C ABI test backend.
bool is_c_abi_defect(Defect d);
// A C ABI test backend with defect `d` (kAllocatorReturnsNull, kReleasesBorrowed, kLeaksTensor,
// kCKernelCallsFallback).
// Errors: std::runtime_error when the C ABI refuses the registration.
std::unique_ptr<CAbiBackend> make_c_abi_test_backend(Defect d);

// The CPU backend and every test backend, for the CLI.
BackendFactories test_backend_factories();

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_TESTING_BROKEN_BACKENDS_H_
