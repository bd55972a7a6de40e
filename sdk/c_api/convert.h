// Conversions between the C ABI's codes and handles and the C++ types behind them.
//
//   ScalarType t = to_scalar_type(BP_DTYPE_FLOAT32);   // throws TypeError on an unknown code
//   int32_t code = to_bp_dtype(ScalarType::kInt64);    // BP_DTYPE_INT64
//   Device d = to_device(bp_device{BP_DEVICE_CPU, -1});
//   bp_tensor* h = new_reference(tensor);              // the caller releases it
//   Tensor t = tensor_from(h);                         // one more reference
//
// A bp_tensor* is a TensorImpl* holding one counted reference per handle given out (see
// intrusive_ptr.h release/reclaim): creating, retaining and releasing handles allocates nothing.
//
// Thread safety: pure functions (reference counts are atomic).
#ifndef BACKPLANE_SDK_C_API_CONVERT_H_
#define BACKPLANE_SDK_C_API_CONVERT_H_

#include <cstdint>
#include <memory>

#include "backplane/types.h"
#include "sdk/c_api/handle_ledger.h"
#include "sdk/core/device.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::c_api {

// Errors (kTypeError): "unknown dtype code 0x1234 (dtypes are DLPack's, e.g. BP_DTYPE_FLOAT32)".
ScalarType to_scalar_type(int32_t dtype);
int32_t to_bp_dtype(ScalarType type);

// Errors (kInvalidArgument): an unregistered device type, an index below -1 or too large, and
// the CPU rules of bp::Device.
Device to_device(bp_device device);
bp_device to_bp_device(Device device);

// Errors (kInvalidArgument): a code that is not a bp_memory_format.
MemoryFormat to_memory_format(int32_t format);

// The handle of a tensor, borrowed (no reference added; null for an undefined tensor).
inline bp_tensor* handle_of(const Tensor& t) { return reinterpret_cast<bp_tensor*>(t.impl()); }
// A new reference to `t`'s TensorImpl, for the receiver to release (counted by the handle
// ledger when a plugin kernel receives it).
inline bp_tensor* new_reference(Tensor t) {
  bp_tensor* h = reinterpret_cast<bp_tensor*>(IntrusivePtr<TensorImpl>(t.impl_ptr()).release());
  ledger_note_owned(h);
  return h;
}
// Moves `t`'s reference into a handle without touching the count; `t` becomes undefined.
inline bp_tensor* take_reference(Tensor& t) {
  bp_tensor* h = handle_of(t);
  std::construct_at(&t);  // ends `t` without dropping its reference: the handle owns it now
  ledger_note_owned(h);
  return h;
}

// A Tensor owning one more reference to the handle's TensorImpl (null: undefined).
inline Tensor tensor_from(const bp_tensor* h) {
  return Tensor(
      IntrusivePtr<TensorImpl>::borrow(reinterpret_cast<TensorImpl*>(const_cast<bp_tensor*>(h))));
}
// Adopts one reference (a handle given to us as a new reference).
inline Tensor adopt(bp_tensor* h) {
  return Tensor(IntrusivePtr<TensorImpl>::reclaim(reinterpret_cast<TensorImpl*>(h)));
}

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_CONVERT_H_
