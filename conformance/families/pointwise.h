// The pointwise family: an entry from an op's operands, its result dtype rule and its scalar
// function; samples (pointwise_samples.h), promotion, broadcasting and the reference loop come
// from here.
//
//   db.add(pointwise({
//       .name = "atan2",  // and its declared in-place and out= ops: atan2_, atan2.out
//       .dtypes = kAllButComplex,
//       .operands = {{"self"}, {"other"}},
//       .result = ResultDtype::kFloat,
//       .math = math<kRealKind>([](double a, double b) { return std::atan2(a, b); }),
//   }));
//
// Thread safety: builders run once, at database construction.
#ifndef BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_H_
#define BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance/families/pointwise_samples.h"
#include "conformance/framework/elementwise.h"
#include "conformance/framework/op_entry.h"

namespace bp::conformance {

// The dtype of a pointwise op's result, from the common dtype of its operands.
enum class ResultDtype {
  kCommon,              // the common dtype (add, maximum, neg)
  kFloat,               // the common dtype, with bool and integral promoted to float32 (exp, div)
  kBool,                // bool, comparing in the common dtype (eq, isnan, logical_and)
  kComplexToReal,       // the common dtype, complex ones as their real counterpart (abs)
  kFloatComplexToReal,  // kFloat, and complex ones as their real counterpart (angle)
};

struct PointwiseSpec {
  // The entry and its functional op ("add.Tensor"). The entry checks the op's variants as
  // sdk/ops/*.yaml declares them (declared_variants: add.Tensor, add_.Tensor, add.out)...
  std::string name;
  // ... but for these, which PyTorch lacks (say why beside the list).
  std::vector<std::string> not_in_pytorch;
  DtypeSet dtypes;  // PyTorch's CPU dtypes
  int tier = 1;
  std::vector<Operand> operands = {{"self"}};
  // Operands left out of type promotion (where's condition).
  std::vector<std::string> not_promoting;
  // Scalar arguments that take part in type promotion ("other" of add.Scalar); present ones
  // are passed to `math` after the tensor operands, unless `scalars_in_math` is false.
  std::vector<std::string> scalar_operands;
  bool scalars_in_math = true;
  // Numbers tried as scalar_operands[0] (tensor-scalar ops).
  std::vector<Scalar> scalars;
  ResultDtype result = ResultDtype::kCommon;
  // Overrides `result` (e.g. div with a rounding mode keeps integers).
  std::function<ScalarType(const RefArgs&, ScalarType common)> result_dtype;
  ElementFn math;
  // Raises RefError for the argument errors PyTorch checks before building the output (bool
  // operands of sub, a negative integral exponent...), given the common dtype...
  std::function<void(const RefArgs&, ScalarType common)> check;
  // ... and after (alpha's type): in-place and out= variants raise their output errors first.
  std::function<void(const RefArgs&, ScalarType common)> check_after_build;
  // Dtypes PyTorch rejects with `rejected_message` (a sample of each rides with the first dtype).
  DtypeSet rejected;
  std::string rejected_message;
  Kwargs kwargs;
  std::vector<Kwargs> extra_kwargs;
  bool numbers = true;
  bool promotions = true;
  // More samples (error inputs such as a zero integral divisor).
  std::function<std::vector<Sample>(ScalarType dtype, ValueSource& src)> extra_samples;
  OutDtypeRule out_dtype = OutDtypeRule::kSafeCast;
  std::function<std::string(ScalarType expected, ScalarType given)> out_dtype_error;
  // OpEntry's in-place errors.
  std::function<std::string(ScalarType result, ScalarType self)> inplace_dtype_error;
  DtypeSet inplace_rejected;
  std::string inplace_rejected_message;
  std::function<std::optional<std::string>(const RefArgs&)> inplace_error_first;
  bool inplace_allows_overlap = false;
};

OpEntry pointwise(PointwiseSpec spec);

// The out= dtype error of ops PyTorch builds with build_(borrowing_)unary_op or a default
// TensorIterator, which need the result's dtype exactly: "Found dtype int64 but expected float32".
std::string found_dtype(ScalarType expected, ScalarType given);

// `fn` for an op whose scalar operand comes first (remainder.Scalar_Tensor, xlogy.Scalar_Self):
// the family passes tensor operands before scalar ones, so `fn` gets them reversed.
ElementFn scalar_first(ElementFn fn);

// The variants of an entry: functional, and in-place and out= where the names are not empty.
std::vector<OpVariant> variants(const std::string& functional, const std::string& inplace,
                                const std::string& out);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FAMILIES_POINTWISE_H_
