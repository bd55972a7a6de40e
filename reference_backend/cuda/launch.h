// Runs planned kernels on a device: looks the kernel up in the device's kernel cache (compiling
// it on first use) and queues it on the device's stream.
//
//   run_elementwise(device, plan_elementwise(...));
//   run_reduce(device, plan_reduce(...));    // two launches and a workspace for split reductions
//   run_reduce(device, plan_reduce_parts(...));  // any size: 32-bit parts, combined
//   run_along_dim(device, plan_along_dim(...));
//   run_gemm(device, plan_gemm(...));
//   run_indexing(device, plan_gather(...));   // or plan_scatter, plan_index_check
//
// Thread safety: as CudaDevice.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_LAUNCH_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_LAUNCH_H_

#include <span>

#include "reference_backend/cuda/along_dim_kernel.h"
#include "reference_backend/cuda/device.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/gemm_kernel.h"
#include "reference_backend/cuda/indexing_kernel.h"
#include "reference_backend/cuda/reduce_kernel.h"

namespace bp::cuda {

void run_elementwise(CudaDevice& device, const ElementwiseLaunch& launch);
void run_reduce(CudaDevice& device, const ReduceLaunch& launch);
void run_reduce(CudaDevice& device, const ReduceGroup& group);
void run_reduce(CudaDevice& device, std::span<const ReduceGroup> groups);
void run_along_dim(CudaDevice& device, const AlongDimLaunch& launch);
void run_gemm(CudaDevice& device, const GemmLaunch& launch);
void run_indexing(CudaDevice& device, const IndexLaunch& launch);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_LAUNCH_H_
