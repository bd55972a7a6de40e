#include "sdk/core/tensor.h"

#include <string>

namespace bp {
namespace detail {

void throw_dim_out_of_range(int64_t dim, int64_t ndim, bool wrap_scalar) {
  BP_CHECK_INDEX(ndim >= 0, "Rank cannot be negative but got ", ndim);
  if (ndim == 0) {
    BP_CHECK_INDEX(wrap_scalar, "Dimension specified as ", dim, " but tensor has no dimensions");
    ndim = 1;
  }
  throw_error(ErrorCode::kIndexError,
              str_cat("Dimension out of range (expected to be in range of [", -ndim, ", ", ndim - 1,
                      "], but got ", dim, ")"));
}

}  // namespace detail

void Tensor::check_dtype(ScalarType expected) const {
  BP_CHECK_TYPE(dtype() == expected, "expected scalar type ", expected, " but found ", dtype());
}

std::ostream& operator<<(std::ostream& out, const Tensor& tensor) {
  if (!tensor.defined()) return out << "Tensor(undefined)";
  return out << "Tensor(" << tensor.dtype() << int_list_string(tensor.sizes()) << ", "
             << tensor.device() << ")";
}

std::string legacy_type_name(const Tensor& tensor) {
  return legacy_type_name(tensor.dtype(), tensor.device().type);
}

std::string legacy_type_name(ScalarType dtype, DeviceType device) {
  static constexpr const char* kNames[kNumScalarTypes] = {
      "BoolTensor",  "ByteTensor",   "CharTensor",         "ShortTensor",
      "IntTensor",   "LongTensor",   "HalfTensor",         "BFloat16Tensor",
      "FloatTensor", "DoubleTensor", "ComplexFloatTensor", "ComplexDoubleTensor"};
  std::string prefix = "torch.";
  if (device != DeviceType::kCPU) prefix += std::string(device_type_name(device)) + ".";
  return prefix + kNames[index_of(dtype)];
}

}  // namespace bp
