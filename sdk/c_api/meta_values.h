// Meta copies of an op's arguments: what op_call_meta and the debug checks run the op's meta
// function on.
//
//   MetaConverter meta;
//   Stack meta_args = meta.convert(args, schema, /*devices_to_meta=*/true);
//   op.redispatch_boxed(DispatchKeySet(DispatchKey::kMeta), &meta_args);
//
// Every tensor becomes a Meta tensor with the same sizes, strides, storage offset and dtype over
// a Meta storage of the same size. Aliasing is kept: two arguments sharing a storage get Meta
// tensors sharing one Meta storage, and one TensorImpl passed twice becomes one Meta tensor, so
// overlap checks and in-place identity behave as on the real arguments.
//
// Thread safety: a converter is used by one call.
#ifndef BACKPLANE_SDK_C_API_META_VALUES_H_
#define BACKPLANE_SDK_C_API_META_VALUES_H_

#include <map>

#include "absl/types/span.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp::c_api {

class MetaConverter {
 public:
  // The Meta counterpart of `t` (undefined stays undefined; Meta tensors are copied too, so the
  // caller's tensors are never resized by a meta function).
  Tensor to_meta(const Tensor& t);

  // Meta copies of `args` (the op's arguments in schema order). With `devices_to_meta`, Device
  // arguments (and absent optional ones) become Meta, so factories allocate nothing.
  Stack convert(absl::Span<const Value> args, const FunctionSchema& schema, bool devices_to_meta);

 private:
  std::map<const TensorImpl*, Tensor> tensors_;
  std::map<const StorageImpl*, Storage> storages_;
};

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_META_VALUES_H_
