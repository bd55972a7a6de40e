// The family of ops along one dim that keep the input's shape (scans: cumsum, ...;
// normalisations: softmax, ...): samples over every layout with each dim, and an entry builder
// that casts the input to the result dtype and hands each line along `dim` to the entry's line
// function.
//
//   db.add(along_dim({
//       .name = "cumsum", .family = "scan", .dtypes = kAllDtypes, .tier = 2,
//       .result_dtype = [](const RefArgs& a, ScalarType self) { ... },
//       .line = [](const std::vector<Wide>& xs, ScalarType t) { ...; return {running_sums}; },
//   }));
//
// Thread safety: builders run once, at database construction.
#ifndef BACKPLANE_CONFORMANCE_FAMILIES_ALONG_DIM_H_
#define BACKPLANE_CONFORMANCE_FAMILIES_ALONG_DIM_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/families/pointwise_samples.h"
#include "conformance/framework/op_entry.h"

namespace bp::conformance {

// The results of one line from its elements (in order along the dim), all of dtype `t` (the
// result dtype, in its kind): one vector per output, the same length as the line; values are
// rounded to `t` (indices: int64) afterwards.
using LineFn =
    std::function<std::vector<std::vector<Wide>>(const std::vector<Wide>& line, ScalarType t)>;

struct AlongDimSpec {
  std::string name;    // the functional op; its variants come from the declarations
  std::string family;  // "scan", "normalization"
  DtypeSet dtypes;     // the result dtypes PyTorch computes in on CPU
  int tier = 2;
  // The result's dtype (the input is cast to it first). Raises RefError for dtypes PyTorch
  // rejects.
  std::function<ScalarType(const RefArgs& a, ScalarType self)> result_dtype;
  LineFn line;
  // A second output: the int64 indices of the elements the values come from (cummax).
  bool indices = false;
  Domain domain;
  // Samples with dtype=: these dtypes, where the input casts to them.
  std::vector<ScalarType> dtype_kwargs;
  OutDtypeRule out_dtype = OutDtypeRule::kExact;
  // The in-place variant computes in self's dtype (the cumulative ops take the out's dtype).
  bool inplace_in_self_dtype = false;
};

OpEntry along_dim(AlongDimSpec spec);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FAMILIES_ALONG_DIM_H_
