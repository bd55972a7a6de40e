// The reduction family: samples over every dim style PyTorch's reductions take, and an entry
// builder that reads the dim and keepdim arguments, casts the input to the dtype to reduce in, and
// hands each output position its slice.
//
//   db.add(reduction({
//       .name = "amax", .out = "amax.out", .dtypes = kAllButComplex,
//       .dim = DimArg::kList,
//       .reduce = [](const std::vector<Wide>& xs, const ReductionContext& c) { ... },
//   }));
//
// Thread safety: builders run once, at database construction.
#ifndef BACKPLANE_CONFORMANCE_FAMILIES_REDUCTION_H_
#define BACKPLANE_CONFORMANCE_FAMILIES_REDUCTION_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/families/pointwise_samples.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/op_entry.h"
#include "conformance/framework/reduce.h"

namespace bp::conformance {

// How a reduction takes its dims.
enum class DimArg {
  kOptionalList,  // int[1]? dim (None: every dim): sum, mean, var
  kList,          // int[1] dim (an empty list: every dim): amax, norm, logsumexp
  kInt,           // int dim: prod, max.dim, all, any
  kOptionalInt,   // int? dim (None: the flattened tensor): argmax
  kNone,          // no dim: the full reductions (sum(self), max(self))
};

// What a reduction's slice function sees.
struct ReductionContext {
  const RefArgs& args;
  ScalarType input;   // the dtype the input was cast to (the dtype reduced in)
  ScalarType result;  // the result's dtype
};

using ReduceFn =
    std::function<std::vector<Wide>(const std::vector<Wide>& slice, const ReductionContext& c)>;

struct ReductionSpec {
  std::string name;  // the functional op
  std::string out;   // its out= op
  DtypeSet dtypes;
  int tier = 1;
  DimArg dim = DimArg::kOptionalList;
  // The dtypes of the outputs (one for most, values and indices for max.dim), from the input's
  // dtype; the input is cast to the first one's dtype before reducing unless `reduce_in_input`.
  std::function<std::vector<ScalarType>(const RefArgs& a, ScalarType self)> result_dtypes;
  bool reduce_in_input = false;
  // Whether the op takes `keepdim` (count_nonzero does not).
  bool keepdim = true;
  // The tensor reduced, from the arguments (default: self): aminmax reduces a 0-dim self over a
  // dim as a 1-element vector.
  std::function<RefTensor(const RefArgs& a)> input;
  ReduceFn reduce;
  // Raises RefError for argument errors (before any reduction).
  std::function<void(const RefArgs& a, const std::vector<bool>& reduced)> check;
  // PyTorch's "<fn>: Expected reduction dim N to have non-zero size." checks of empty inputs,
  // with this function name ("amax()"); "" for reductions defined on empty inputs.
  std::string empty_check;
  Domain domain;
  // The elements of the large (parallel) samples, when random ones would make the result depend
  // on the order of the steps (a product of 33,153 elements over- or underflows, and 0 * inf is
  // NaN or inf by its order): -1, or 1 for unsigned dtypes.
  bool large_of_ones = false;
  Kwargs kwargs;
  std::vector<Kwargs> extra_kwargs;
  // Samples with dtype= (sum, mean, prod): these dtypes, where the input casts to them.
  std::vector<ScalarType> dtype_kwargs;
  OutDtypeRule out_dtype = OutDtypeRule::kExact;
  std::function<std::string(ScalarType expected, ScalarType given)> out_dtype_error;
  std::function<std::vector<Sample>(ScalarType dtype, ValueSource& src)> extra_samples;
};

OpEntry reduction(ReductionSpec spec);

// The shapes samples of ops over dims run on (reductions, scans): 0-dim to 4-d, every layout,
// zero-size ones.
struct ShapeAndLayout {
  Sizes sizes;
  Layout layout;
};
const std::vector<ShapeAndLayout>& dim_op_shapes();

// Samples: shapes from 0-dim to 4-d in every layout, zero-size ones, each with several dims and
// keepdim, a dim out of range and a repeated dim (errors).
std::vector<Sample> reduction_samples(ScalarType dtype, uint64_t seed, DimArg dim,
                                      const Domain& domain, const Kwargs& kwargs,
                                      bool keepdim = true);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FAMILIES_REDUCTION_H_
