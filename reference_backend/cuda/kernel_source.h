// Kernel source generation: an elementwise kernel is a computation (computation.h) wrapped in one
// of the loops of jit/elementwise.cuh; a program is the common head (jit_sources.h) followed by
// the bodies and entry points of one or more kernels, so that many kernels can share one NVRTC
// compilation.
//
//   ElementwiseKernel k{computation_of(*find_pointwise_op("add.out")), Dtype::kFloat32,
//                       Dtype::kFloat32, Variant::kVectorized, 4, 0};
//   k.entry_name();       // "add_out__float32__float32__vec4__s0"
//   ProgramSource program;
//   program.add(k);
//   nvrtc.compile(program.text(), ...);
//
// Thread safety: values; ProgramSource is not shared between threads.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_SOURCE_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_SOURCE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

enum class Variant {
  kVectorized,  // contiguous operands of dtype S, vector loads of `vec` elements
  kStrided,     // any strides, operands of dtype S
  kDynamic,     // any strides, any operand dtypes (read from the arguments)
};
const char* variant_name(Variant variant);

struct ElementwiseKernel {
  Computation computation;
  Dtype dtype;      // S: the common dtype, which inputs are read as
  Dtype out_dtype;  // the output's dtype (static variants); S for kDynamic
  Variant variant = Variant::kVectorized;
  int vec = 1;               // kVectorized: 4, 2 or 1
  uint32_t scalar_mask = 0;  // bit i: input i is passed by value (a CPU scalar)

  // The dtype the computation runs in: compute_dtype(dtype) with opmath, else dtype.
  Dtype compute() const;
  // A C identifier naming everything the kernel's code depends on besides the program head:
  // computation, dtypes, variant, vector width and by-value inputs.
  std::string entry_name() const;
};

class ProgramSource {
 public:
  // Adds the kernel's body (once per computation and compute type) and entry point.
  void add(const ElementwiseKernel& kernel);
  // Adds literal source after the bodies (reduction kernels, tests).
  void add_text(const std::string& text, const std::string& entry_name);

  // The whole program: program_head(), then the bodies and entries added.
  std::string text() const;
  const std::vector<std::string>& entry_names() const { return entries_; }

 private:
  std::set<std::string> bodies_seen_;
  std::string bodies_;
  std::string kernels_;
  std::vector<std::string> entries_;
};

// The body struct's name and definition for a computation in compute dtype `compute`.
std::string body_name(const Computation& computation, Dtype compute);
std::string body_source(const Computation& computation, Dtype compute);
// The entry point of `kernel` (extern "C" __global__, calling its loop template).
std::string entry_source(const ElementwiseKernel& kernel);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_SOURCE_H_
