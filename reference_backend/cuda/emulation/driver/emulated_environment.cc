#include "reference_backend/cuda/emulation/driver/emulated_environment.h"

#include <cstdlib>
#include <string>

namespace bp::emulated_cuda {

void use_emulated_cuda() {
  setenv("BP_CUDA_DRIVER", kEmulatedDriver, 1);
  setenv("BP_CUDA_NVRTC", kEmulatedNvrtc, 1);
  const char* tmp = std::getenv("TEST_TMPDIR");
  setenv("BP_KERNEL_CACHE_DIR", (std::string(tmp != nullptr ? tmp : "/tmp") + "/kernels").c_str(),
         1);
}

}  // namespace bp::emulated_cuda
