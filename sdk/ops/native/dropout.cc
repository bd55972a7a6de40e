// dropout in evaluation mode: the input itself. See sdk/ops/activations.yaml.
#include "sdk/core/error.h"
#include "sdk/ops/native_kernels.h"

namespace bp::native {
namespace {

// Whether dropout leaves `input` as it is, after PyTorch's check of p; refuses training mode.
bool is_identity(const Tensor& input, double p, bool train) {
  BP_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return true;
  BP_CHECK_NOT_IMPLEMENTED(false,
                           "dropout: training mode (train=True with p > 0) draws a random mask, "
                           "and Backplane has no random generator yet; call it with train=False");
  return false;
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  (void)is_identity(input, p, train);
  return input;
}

Tensor& dropout_(Tensor& self, double p, bool train) {
  (void)is_identity(self, p, train);
  return self;
}

}  // namespace bp::native
