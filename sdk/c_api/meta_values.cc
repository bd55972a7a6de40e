#include "sdk/c_api/meta_values.h"

#include "sdk/core/allocator.h"
#include "sdk/core/tensor_impl.h"

namespace bp::c_api {

Tensor MetaConverter::to_meta(const Tensor& t) {
  if (!t.defined()) return t;
  auto known = tensors_.find(t.impl());
  if (known != tensors_.end()) return known->second;
  auto storage = storages_.find(t.storage().impl());
  if (storage == storages_.end()) {
    storage =
        storages_
            .emplace(t.storage().impl(), Storage::allocate(t.storage().nbytes(), meta_allocator()))
            .first;
  }
  Tensor meta(IntrusivePtr<TensorImpl>::make(storage->second, t.dtype(), t.sizes(), t.strides(),
                                             t.storage_offset()));
  meta.impl()->set_wrapped_number(t.is_wrapped_number());
  tensors_.emplace(t.impl(), meta);
  return meta;
}

Stack MetaConverter::convert(absl::Span<const Value> args, const FunctionSchema& schema,
                             bool devices_to_meta) {
  Stack out;
  out.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    const bool is_device = i < schema.arguments.size() &&
                           schema.arguments[i].type.kind == TypeKind::kDevice &&
                           !schema.arguments[i].type.is_list;
    if (devices_to_meta && is_device) {
      out.emplace_back(Device(DeviceType::kMeta));
      continue;
    }
    switch (v.tag()) {
      case Value::Tag::kTensor:
        out.emplace_back(to_meta(v.ref<Tensor>()));
        break;
      case Value::Tag::kTensorList: {
        std::vector<Tensor> list;
        for (const Tensor& t : v.ref<std::vector<Tensor>>()) list.push_back(to_meta(t));
        out.emplace_back(std::move(list));
        break;
      }
      case Value::Tag::kOptionalTensorList: {
        std::vector<std::optional<Tensor>> list;
        for (const auto& t : v.ref<std::vector<std::optional<Tensor>>>()) {
          list.push_back(t ? std::optional<Tensor>(to_meta(*t)) : std::nullopt);
        }
        out.emplace_back(std::move(list));
        break;
      }
      default:
        out.push_back(v);
        break;
    }
  }
  return out;
}

}  // namespace bp::c_api
