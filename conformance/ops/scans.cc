// Scans and normalisations along a dim: PyTorch's semantics in wide precision, line by line.
#include <cmath>

#include "conformance/families/along_dim.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

// The running sums of a line: wrapping int64 for integral and bool dtypes (bool results are
// then non-zero: a running or), double or complex<double> otherwise.
std::vector<std::vector<Wide>> running_sums(const std::vector<Wide>& xs, ScalarType t) {
  std::vector<Wide> out;
  if (kind_of(t) == Kind::kInt) {
    Int s(0);
    for (const Wide& x : xs) out.push_back(from_int(s = s + Int(x.i)));
  } else {
    cd s(0, 0);
    for (const Wide& x : xs) out.push_back(from_complex(s += x.z));
  }
  return {out};
}

}  // namespace

void add_scan_entries(OpDatabase& db) {
  db.add(along_dim({.name = "cumsum",
                    .family = "scan",
                    .dtypes = kAllDtypes,
                    .result_dtype =
                        [](const RefArgs& a, ScalarType self) {
                          return a.dtype("dtype").value_or(
                              is_integral(self, /*include_bool=*/true) ? ScalarType::kInt64 : self);
                        },
                    .line = running_sums,
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut,
                    .inplace_in_self_dtype = true}));
}

}  // namespace bp::conformance
