// Sample inputs of pointwise ops, for any number of tensor operands: the same shapes for all
// operands (0-dim, zero-size, 1-d sizes around vector widths: 7, 15, 17, 33, 65), every layout
// (transposed, sliced with a step, expanded, channels-last, offset, and mixes), broadcasting
// pairs, a large tensor (split across threads), a pair that does not broadcast (an error), and
// for two operands: wrapped numbers on either side and operands of other dtypes (promotion).
//
//   PointwiseSamples spec;
//   spec.operands = {{"self"}, {"other", std::nullopt, Domain{.exclude = {0}}}};
//   spec.supported = kAllDtypes;                 // filters promotions PyTorch rejects
//   spec.extra_kwargs = {{{"alpha", Value(Scalar(2))}}};
//   std::vector<Sample> s = pointwise_samples(ScalarType::kFloat32, seed, spec);
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_SAMPLES_H_
#define BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_SAMPLES_H_

#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/dtype_set.h"
#include "conformance/framework/sample.h"
#include "conformance/framework/values.h"

namespace bp::conformance {

struct Operand {
  Operand(const char* name) : name(name) {}  // NOLINT: {"self"} in operand lists
  Operand(std::string name, std::optional<ScalarType> dtype, Domain domain = {})
      : name(std::move(name)), dtype(dtype), domain(std::move(domain)) {}

  std::string name;
  std::optional<ScalarType> dtype;  // default: the sample's dtype
  Domain domain;
};

using Kwargs = std::vector<SampleArg>;

struct PointwiseSamples {
  std::vector<Operand> operands;
  // Dtypes the op computes in (PyTorch's): promotion samples whose common dtype is outside are
  // left out, and so are wrapped numbers that would promote outside.
  DtypeSet supported = kAllDtypes;
  // Keyword arguments on every sample (e.g. a required rounding_mode).
  Kwargs kwargs;
  // Further keyword sets, each tried on a few representative samples.
  std::vector<Kwargs> extra_kwargs;
  // Two operands: wrapped numbers for either operand, and operands of other dtypes.
  bool numbers = true;
  bool promotions = true;
};

std::vector<Sample> pointwise_samples(ScalarType dtype, uint64_t seed,
                                      const PointwiseSamples& spec);

// Samples of a tensor op with a Scalar operand (add.Scalar, pow.Tensor_Scalar): tensors of
// several shapes and layouts, each with every number of `scalars` whose promotion with the
// tensor's dtype stays in `supported`.
std::vector<Sample> tensor_scalar_samples(ScalarType dtype, uint64_t seed, const Operand& tensor,
                                          const std::string& scalar_name,
                                          const std::vector<Scalar>& scalars, DtypeSet supported,
                                          const Kwargs& kwargs = {});

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_SAMPLES_H_
