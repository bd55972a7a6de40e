// Helpers of the emulation tests: tensors on an emulated device (host memory, aligned like
// cudaMalloc), iteration plans as the host hands them to the plugin's kernels (the Common key's)
// or builds them (the C ABI's iter_build), and comparison with the CPU backend.
//
//   EmulatedDevice device;
//   Tensor a = random_tensor({5, 207}, ScalarType::kFloat32, /*seed=*/1);
//   Tensor da = device.copy_of(a);
//   HandedPlan h = handed_plan(device, "add.out", {Value(da), Value(db), Value(Scalar(1)),
//                                                  Value(dout)});
//   h.common;                        // S, as the meta function decided
//   TensorIterator iter = build_plan(flags, {dout}, {da, db});   // an iter_build plan
//   IterPlan plan = plan_of(iter);
//   expect_same_values(dout, cpu_out, "add.out float32");
//
// Test-only; not thread-safe.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_TEST_SUPPORT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_TEST_SUPPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "backplane/types.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/emulation/emulator.h"
#include "reference_backend/cuda/iter_plan.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "sdk/core/allocator.h"
#include "sdk/core/scalar.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/value.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::cuda {

ScalarType scalar_type_of(Dtype dtype);
Dtype dtype_of(ScalarType type);

// A plugin-style device whose memory is host memory aligned to 256 bytes (as cudaMalloc's).
class EmulatedDevice {
 public:
  EmulatedDevice();
  // Uninitialised, with these strides (contiguous when empty) and `offset` spare elements in
  // front (the storage offset), so that tests can make misaligned tensors.
  Tensor empty(std::vector<int64_t> sizes, ScalarType dtype, std::vector<int64_t> strides = {},
               int64_t offset = 0) const;
  // A tensor on this device with the same sizes, strides and values as `cpu`.
  Tensor copy_of(const Tensor& cpu, int64_t offset = 0) const;
  Device device() const { return fake_.device(); }
  DispatchKey key() const { return fake_.key(); }

 private:
  struct AlignedAllocator : Allocator {
    DataPtr allocate(size_t nbytes) override;
    size_t alignment() const override { return 256; }
    Device device;
  };
  FakeDevice fake_;
  mutable AlignedAllocator allocator_;
};

// A contiguous CPU tensor of pseudo-random values for `dtype`: booleans, small non-zero integers,
// and floating / complex values in [-3, 3] that every wider type represents exactly, with a NaN,
// an infinity and a negative zero every 61 elements.
Tensor random_tensor(std::vector<int64_t> sizes, ScalarType dtype, uint64_t seed);
// `t` (any device) converted to `dtype` with the same sizes, on the CPU, contiguous.
Tensor converted(const Tensor& t, ScalarType dtype);

// What the host's Common key hands the plugin's out= kernel (api->kernel_call_iter): the
// TensorIterator of the op's meta function, as the plugin reads it.
struct HandedPlan {
  IterPlan plan;
  Dtype common;  // S, the dtype the op computes in
};
// Calls out= op `op_name` ("add.out") with boxed arguments whose tensors are on `device`: the
// host's Common key runs the op's meta function and calls the device's kernel, here a stand-in
// that takes the plan and computes nothing. The plan points into the tensors: keep them alive
// while using it. Errors (bp::Error): the meta function's.
HandedPlan handed_plan(const EmulatedDevice& device, const std::string& op_name, Stack args);

// The TensorIterator api->iter_build builds for these bp_iter_flags.
TensorIterator build_plan(uint32_t flags, const std::vector<Tensor>& outputs,
                          const std::vector<Tensor>& inputs);
// The plan the plugin reads from a built iterator.
IterPlan plan_of(const TensorIteratorBase& iter);

// Kernel k's outputs for reducing `input` (on `device`) over `dims`, keeping them (size 1), and
// the reduction's plan over the outputs (stride 0 along `dims`) and `input`, as iter_build makes
// it for the plugin.
struct ReductionCall {
  std::vector<Tensor> outputs;
  TensorIterator iter;
};
ReductionCall reduction_call(const EmulatedDevice& device, const ReduceKernel& k,
                             const Tensor& input, const std::vector<int64_t>& dims);

// A Scalar as the C ABI passes it.
bp_value abi_value(const Scalar& s);
// A Scalar argument suited to `dtype`: true, 2, 1.5 or (1.5, 0.5).
Scalar sample_scalar(ScalarType dtype);

// Calls op `name` with boxed arguments on the CPU backend; returns its results.
Stack call_op(const std::string& name, Stack args);

// Runs a planned kernel in the emulator. Adds a test failure and returns false when the kernel
// was not built for emulation.
bool run_emulated(const std::string& entry, uint32_t blocks, unsigned threads, const void* params);

// Expects every element of `actual` (any device's host-visible memory) to equal `expected`
// (CPU): exactly for integers and bool; NaN matching NaN and within a dtype tolerance for
// floating and complex values (the looser tolerance of the two dtypes), complex values part by
// part (a NaN real or imaginary part must be NaN in both).
void expect_same_values(const Tensor& actual, const Tensor& expected, const std::string& what);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_TEST_SUPPORT_H_
