// The variants of an op as Backplane declares them (sdk/ops/*.yaml, read through the generated
// op table), so that a conformance entry names its functional op and nothing else.
//
//   declared_variants("hypot");       // hypot (functional), hypot_ (inplace), hypot.out (out)
//   declared_variants("add.Scalar");  // add.Scalar (functional), add_.Scalar (inplace)
//   declared_variants("hypot", {"hypot_"});  // hypot, hypot.out: PyTorch lacks hypot_
//
// The ops of a structured group are its variants (OpInfo::structured_group), with an in-place op
// outside the group whose arguments are the functional op's in another order (polygamma_(self,
// n) of polygamma(n, self): PyTorch's in-place op takes self first). Other ops are
// grouped as torchgen groups native functions (FunctionSchema.signature()): the ops outside
// structured groups with the same base name (an in-place op's trailing '_' dropped) and the same
// arguments once out= outputs and alias annotations are dropped, whatever their overload names
// (pow.Scalar(Scalar self, Tensor exponent) and pow.Scalar_out group; pow_.Scalar, an in-place
// pow.Tensor_Scalar, does not join them).
//
// Thread safety: reads the immutable op table; safe from any thread.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_DECLARED_VARIANTS_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_DECLARED_VARIANTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/framework/op_entry.h"

namespace bp::conformance {

// The declared variants of the op `op` ("add.Tensor"), functional first, then in-place, then
// out=, less the ops named in `not_in_pytorch` (declared variants PyTorch lacks). Errors
// (internal, raised when the database is built): `op` is not declared, `not_in_pytorch` names
// `op` itself or an op that is not one of its variants, or two variants are of one kind.
std::vector<OpVariant> declared_variants(std::string_view op,
                                         const std::vector<std::string>& not_in_pytorch = {});

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_DECLARED_VARIANTS_H_
