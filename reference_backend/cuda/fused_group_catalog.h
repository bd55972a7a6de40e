// A fixed catalogue of fused groups: the structures whose kernels are compiled at build time for
// the emulated driver (emulation_gen) and checked with NVRTC and ptxas (nvrtc_compile_test,
// ptxas_test). At run time the plugin generates the kernel of any group it takes with the same
// function (fused_kernel_of), so a catalogue group's kernel is the plugin's, name for name.
//
//   for (const FusedCatalogEntry& e : fused_group_catalog()) {
//     FusedKernel k = fused_kernel_of(*parse_fused_group(e.json, &why_not));
//   }
//
// Each entry is the group JSON (sdk/fusion/group_json.h) the host writes for a chain recorded in
// a lazy scope (the sizes are examples: kernels depend on the structure only):
//   gelu_mul_add         gelu(x * w + b), float32 x [N, M], w and b [M]
//   exp_sub_amax_sum     exp(x - x.amax(-1, keepdim=True)).sum(-1), float32
//   exp_sub_amax         exp(x - x.amax(-1, keepdim=True)), float32: a row group whose root is
//                        stored element by element (softmax's numerator)
//   tanh_add_mul_half    tanh(a + b) * a, float16
//   relu_mul_mixed       relu(x * w), float16 x [N, M], float32 w [M]: a float32 result
//   exp_mul_scalar       exp(x * 0.5), float32: a CPU scalar (a wrapped number) passed by value
//   mean_mul             (x * x).mean(-1), float32
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_CATALOG_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_CATALOG_H_

#include <string>
#include <vector>

#include "reference_backend/cuda/fused_group_kernel.h"

namespace bp::cuda {

struct FusedCatalogEntry {
  std::string name;  // "gelu_mul_add"
  std::string json;  // the group
};

std::vector<FusedCatalogEntry> fused_group_catalog();

// The kernel of every catalogue entry. Errors: Error(BP_ERROR_INTERNAL) naming an entry the
// plugin would decline (the catalogue is out of date).
std::vector<FusedKernel> fused_catalog_kernels();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_CATALOG_H_
