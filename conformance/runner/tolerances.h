// Tolerances are data: conformance/tolerances.json (compiled into the suite) gives defaults per
// dtype and overrides per op; a vendor may merge an override file of the same shape on top, and
// the report names every file that took part.
//
//   Tolerances t = Tolerances::builtin();
//   t.merge_file("vendor_tolerances.json");   // throws std::runtime_error on a bad file
//   Tolerance f = t.get("exp", ScalarType::kFloat32);
//
// Integral and bool dtypes are always exact (atol = rtol = 0).
//
// Thread safety: const access is safe from any thread.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_TOLERANCES_H_
#define BACKPLANE_CONFORMANCE_RUNNER_TOLERANCES_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"
#include "sdk/core/scalar_type.h"

namespace bp::conformance {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  bool signed_zeros = true;  // a zero must have the expected sign
};

class Tolerances {
 public:
  // The tolerances compiled in from conformance/tolerances.json.
  static const Tolerances& builtin();

  // Merges a JSON document of tolerances.json's shape (later values win); `source` names it in
  // reports. Throws std::runtime_error naming the source on a malformed document.
  void merge(const nlohmann::json& doc, const std::string& source);
  void merge_file(const std::string& path);

  Tolerance get(std::string_view op, ScalarType dtype) const;
  const std::vector<std::string>& sources() const { return sources_; }
  // Every override merged from files other than the built-in one, as "op dtype: atol=.. rtol=..".
  const std::vector<std::string>& vendor_overrides() const { return vendor_overrides_; }

 private:
  std::map<std::string, Tolerance> defaults_;                                 // by dtype name
  std::map<std::string, std::map<std::string, Tolerance>, std::less<>> ops_;  // op -> dtype|*
  std::vector<std::string> sources_;
  std::vector<std::string> vendor_overrides_;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_TOLERANCES_H_
