// Stand-ins for elementwise kernels the prebuilt emulation set lacks. The plugin chooses among
// many static variants of one computation (vector width 4, 2 or 1, strided, each by-value input
// combination, any output dtype); compiling all of them for the host would multiply the
// emulation's build time, and compiling them at run time costs about a second each. Under the
// emulated driver such a kernel runs as a stand-in of the same computation and dtypes: a
// contiguous kernel as the strided kernel of the same types if built, else as the dynamic-cast
// kernel of the same computation and common dtype (the kernel the plugin itself takes for mixed
// dtypes). Its parameters are rewritten as the stand-in's (one dimension, each operand's dtype;
// inputs passed by value, when the dynamic kernel of that by-value combination is absent too,
// are stored in the parameter block and read from there). The result is the same computation,
// converted the same way; what is not run is the chosen variant's loop. Launches of stand-ins are
// counted (control.h).
//
// Thread safety: pure functions over the emulator's registry.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_SUBSTITUTES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_SUBSTITUTES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference_backend/cuda/emulation/emulator.h"

namespace bp::emulated_cuda {

struct Substitute {
  std::string name;  // the stand-in's entry
  emulation::EmulatedKernel kernel;
  bool from_contiguous = false;   // the original reads ContiguousArgs (else StridedArgs)
  int32_t input_code = 0;         // S, the inputs' dtype code
  int32_t output_code = 0;        // the output's dtype code
  int32_t compute_code = 0;       // the dtype by-value inputs are held in
  uint32_t materialize_mask = 0;  // by-value inputs to store in the block
};

// The stand-in for elementwise entry `name` ("<computation>__<S>__<out>__<variant>__s<mask>"), or
// nullopt when `name` is not an elementwise entry or no dynamic kernel of it was built.
std::optional<Substitute> find_substitute(const std::string& name);

// The stand-in's parameter block (StridedArgs and any stored by-value inputs, which it points
// into: keep the vector's buffer where it is) from the original's.
std::vector<char> substitute_params(const Substitute& s, const void* original);

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_SUBSTITUTES_H_
