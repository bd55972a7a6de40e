// RefArgs: a sample's arguments as a reference reads them: tensors as RefTensors (row-major
// values in wide precision), numbers as ScalarArgs, the rest as plain C++ values, each with the
// default PyTorch's schema gives when the sample leaves it out (the reference states it).
//
//   Expected add_reference(const RefArgs& a) {
//     const RefTensor& self = a.tensor("self");
//     ScalarArg alpha = a.scalar("alpha", ScalarArg::integer(1));
//     std::vector<int64_t> dims = a.ints("dim", {});
//     ...
//   }
//
// Asking for an argument of the wrong kind is a bug in the entry (internal error).
//
// Thread safety: read-only after construction.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_REF_ARGS_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_REF_ARGS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/ref_tensor.h"
#include "conformance/framework/sample.h"
#include "conformance/framework/wide.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {

// A number argument (Scalar, int, float or bool): its value and the dtype a Scalar of it has
// (bool, int64, float64 or complex128).
struct ScalarArg {
  Wide value;
  ScalarType type = ScalarType::kInt64;

  static ScalarArg integer(int64_t v) { return {from_int(Int(v)), ScalarType::kInt64}; }
  static ScalarArg real(double v) { return {from_real(v), ScalarType::kFloat64}; }
  static ScalarArg boolean(bool v) { return {from_int(Int(v ? 1 : 0)), ScalarType::kBool}; }

  Int as_int() const { return conformance::as_int(value, type); }
  double as_real() const { return conformance::as_real(value, type); }
  cd as_complex() const { return conformance::as_complex(value, type); }
};

class RefArgs {
 public:
  explicit RefArgs(const Sample& sample);

  bool has(const std::string& name) const;
  // A tensor argument (must be present).
  const RefTensor& tensor(const std::string& name) const;
  // A tensor argument, or null when absent or None.
  const RefTensor* optional_tensor(const std::string& name) const;
  // The CPU tensor behind a tensor argument: its geometry (views) and storage.
  const Tensor& host(const std::string& name) const;
  // The CPU tensors of a `Tensor[]` argument (must be present).
  const std::vector<Tensor>& host_list(const std::string& name) const;
  // Whether a tensor argument stays on the host when the device under test is another one.
  bool on_host(const std::string& name) const;
  // How a tensor argument takes part in type promotion (tensor, zero-dim, wrapped number).
  OperandKind operand_kind(const std::string& name) const;

  // Numbers; `fallback` when absent.
  ScalarArg scalar(const std::string& name, ScalarArg fallback) const;
  std::optional<ScalarArg> optional_scalar(const std::string& name) const;
  // A Scalar argument as given, with its type (must be present): for ops about the number's
  // type itself (result_type).
  Scalar given_scalar(const std::string& name) const;
  int64_t integer(const std::string& name, int64_t fallback) const;
  std::optional<int64_t> optional_integer(const std::string& name) const;
  bool boolean(const std::string& name, bool fallback) const;
  std::optional<double> optional_real(const std::string& name) const;
  std::vector<int64_t> ints(const std::string& name, std::vector<int64_t> fallback) const;
  // An `int[]?`: nullopt when absent or None.
  std::optional<std::vector<int64_t>> optional_ints(const std::string& name) const;
  std::optional<std::string> string(const std::string& name) const;
  std::optional<ScalarType> dtype(const std::string& name) const;
  std::optional<MemoryFormat> memory_format(const std::string& name) const;

 private:
  const Value* value(const std::string& name) const;  // null when absent

  const Sample* sample_;
  std::map<std::string, RefTensor> tensors_;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_REF_ARGS_H_
