// ptxas, the CUDA toolkit's PTX assembler, run on the PTX NVRTC emits for the plugin's kernels
// (no GPU needed): each function's registers, spills, stack and shared memory as `ptxas -v`
// reports them, for ptxas_test.
//
//   const PtxasRun run = run_ptxas(ptx_text, 90);          // ptxas -arch=sm_90 -v
//   if (!run.ok) report(run.log);
//   for (const FunctionResources& f : run.functions) f.registers;
//
// The toolkit is found at $CUDA_HOME, else /usr/local/cuda (ptxas_path()).
//
// Thread safety: run_ptxas may be called from several threads (each run has its own files).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_PTXAS_REPORT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_PTXAS_REPORT_H_

#include <string>
#include <vector>

namespace bp::cuda::testing {

// What ptxas -v says about one function (an entry point, or a function they call that was not
// inlined).
struct FunctionResources {
  std::string name;
  bool entry = false;
  int registers = 0;     // per thread
  int stack_bytes = 0;   // stack frame
  int spill_stores = 0;  // bytes
  int spill_loads = 0;   // bytes
  int shared_bytes = 0;  // static shared memory (smem)
  int barriers = 0;
};

// Parses ptxas -v output: one FunctionResources per function it names, in order.
std::vector<FunctionResources> parse_ptxas_verbose(const std::string& log);

// $CUDA_HOME/bin/ptxas, else /usr/local/cuda/bin/ptxas (whether it exists or not).
std::string ptxas_path();

struct PtxasRun {
  bool ok = false;
  std::string log;  // ptxas's output (with -v), or why it could not run
  std::vector<FunctionResources> functions;
};

// Assembles `ptx` for sm_<arch> with ptxas -v (output discarded) and parses its report.
PtxasRun run_ptxas(const std::string& ptx, int arch);

// The PTX text of entry point `name` in a module (".entry name(" to the next entry or function),
// empty if absent.
std::string ptx_function(const std::string& ptx, const std::string& name);

}  // namespace bp::cuda::testing

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_PTXAS_REPORT_H_
