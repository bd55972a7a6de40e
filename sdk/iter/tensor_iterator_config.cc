#include "sdk/iter/tensor_iterator_config.h"

#include "sdk/core/error.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp {

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& output) {
  BP_INTERNAL_ASSERT(num_inputs_ == 0, "add every output before the first input");
  tensors_.push_back(MaybeOwnedTensor::borrowed(output));
  ++num_outputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_owned_output(Tensor output) {
  BP_INTERNAL_ASSERT(num_inputs_ == 0, "add every output before the first input");
  tensors_.push_back(MaybeOwnedTensor::owned(std::move(output)));
  ++num_outputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& input) {
  tensors_.push_back(MaybeOwnedTensor::borrowed(input));
  ++num_inputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input_in_own_dtype(const Tensor& input) {
  BP_INTERNAL_ASSERT(tensors_.size() < 64, "too many operands");
  own_dtype_operands_ |= uint64_t{1} << tensors_.size();
  return add_input(input);
}

TensorIteratorConfig& TensorIteratorConfig::add_owned_input(Tensor input) {
  tensors_.push_back(MaybeOwnedTensor::owned(std::move(input)));
  ++num_inputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_shape(IntArrayRef shape,
                                                                 IntArrayRef squash_dims) {
  // A static shape bypasses shape checks; resizing outputs to it would hide mistakes.
  BP_CHECK(!resize_outputs_, "resize_outputs() must be called before declare_static_shape(...)");
  static_shape_ = DimVector(shape.begin(), shape.end());
  for (int64_t dim : squash_dims) {
    BP_CHECK(dim >= 0 && dim < static_cast<int64_t>(shape.size()), "squash_dim ", dim,
             " must be in [0, ", shape.size(), ").");
    (*static_shape_)[dim] = 1;
  }
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_dtype(ScalarType dtype) {
  BP_CHECK(!check_all_same_dtype_,
           "check_all_same_dtype(false) must be called before declare_static_dtype(...)");
  static_dtype_ = dtype;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_device(Device device) {
  static_device_ = device;
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator iter;
  iter.build(*this);
  return iter;
}

}  // namespace bp
