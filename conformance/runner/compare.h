// Comparisons of the executor: values against expectations within a tolerance, results of two
// runs bit for bit, and storage bytes outside a tensor's elements (guard bytes).
//
//   std::string why = compare_values(actual, expected, tol);   // "" when they match
//   // "2 of 12 elements differ: [0, 3] got 1.5 expected 1.25 (|diff| 0.25 > 1.3e-05) ..."
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_COMPARE_H_
#define BACKPLANE_CONFORMANCE_RUNNER_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/framework/ref_tensor.h"
#include "conformance/runner/tolerances.h"
#include "sdk/core/tensor.h"

namespace bp::conformance {

// Dtype, sizes, then every element within `tol` (see tolerances.json for the rule). Returns ""
// or what differs, naming the first few elements.
std::string compare_values(const RefTensor& actual, const RefTensor& expected, Tolerance tol);
// Dtype, sizes and values bit for bit (NaN matches NaN; -0.0 differs from 0.0).
std::string compare_identical(const RefTensor& a, const RefTensor& b);

// Every element of a CPU tensor's whole storage in storage order, as a 1-d tensor of its dtype
// (elements outside the tensor's view included).
RefTensor storage_elements(const Tensor& host);
// The bytes of a CPU tensor's whole storage.
std::vector<uint8_t> storage_bytes(const Tensor& host);
// Per storage element: whether one of the tensor's elements lives there.
std::vector<bool> footprint(const Tensor& t);
// Compares two storages' bytes outside `t`'s elements (t's geometry, `before` and `after` of
// equal size). Returns "" or "wrote outside its elements: N bytes changed, first at byte B".
std::string compare_outside(const Tensor& t, const std::vector<uint8_t>& before,
                            const std::vector<uint8_t>& after);
// "" when equal, else "its storage changed: N bytes, first at byte B".
std::string compare_bytes(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_COMPARE_H_
