// result_type's four overloads: the rules of sdk/core/result_type.h, with each Scalar taking part
// as a number (a wrapped number, the lowest priority class), as PyTorch's TypeProperties.cpp.
#include "sdk/core/result_type.h"
#include "sdk/ops/native_kernels.h"

namespace bp::native {

ScalarType result_type_tensor(const Tensor& tensor, const Tensor& other) {
  return promoted_dtype(tensor, other);
}

ScalarType result_type_scalar(const Tensor& tensor, const Scalar& other) {
  return promoted_dtype(tensor, other);
}

ScalarType result_type_scalar_tensor(const Scalar& scalar, const Tensor& tensor) {
  return promoted_dtype(tensor, scalar);
}

ScalarType result_type_scalar_scalar(const Scalar& scalar1, const Scalar& scalar2) {
  const Scalar scalars[] = {scalar1, scalar2};
  return promoted_dtype({}, scalars);
}

}  // namespace bp::native
