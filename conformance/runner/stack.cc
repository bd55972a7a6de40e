#include "conformance/runner/stack.h"

#include <stdexcept>

#include "conformance/runner/backend.h"
#include "sdk/core/storage_copies.h"

namespace bp::conformance {
namespace {

MemoryFormat memory_format_named(const std::string& name) {
  if (name == "contiguous_format") return MemoryFormat::kContiguous;
  if (name == "channels_last") return MemoryFormat::kChannelsLast;
  if (name == "channels_last_3d") return MemoryFormat::kChannelsLast3d;
  if (name == "preserve_format") return MemoryFormat::kPreserve;
  throw std::invalid_argument("unknown memory format default '" + name + "'");
}

// A plain value converted to what the schema's type takes.
Value coerce(const Type& type, const Value& v) {
  if (type.is_list && type.kind == TypeKind::kInt && v.tag() == Value::Tag::kInt) {
    return Value(std::vector<int64_t>{v.to<int64_t>()});
  }
  if (!type.is_list && type.kind == TypeKind::kFloat && v.tag() == Value::Tag::kInt) {
    return Value(static_cast<double>(v.to<int64_t>()));
  }
  return v;
}

}  // namespace

Value default_value(const Type& type, const DefaultValue& d) {
  return std::visit(
      [&](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, NoneLiteral>) {
          return Value();
        } else if constexpr (std::is_same_v<T, bool>) {
          return Value(x);
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, double>) {
          if (type.kind == TypeKind::kScalar) return Value(Scalar(x));
          if (type.kind == TypeKind::kFloat) return Value(static_cast<double>(x));
          if (type.is_list) return Value(std::vector<int64_t>{static_cast<int64_t>(x)});
          return Value(x);
        } else if constexpr (std::is_same_v<T, StringLiteral>) {
          return Value(x.value);
        } else if constexpr (std::is_same_v<T, Identifier>) {
          if (type.kind == TypeKind::kMemoryFormat) return Value(memory_format_named(x.name));
          if (type.kind == TypeKind::kScalarType) {
            if (auto t = scalar_type_from_name(x.name)) return Value(*t);
          }
          throw std::invalid_argument("unsupported schema default '" + x.name + "'");
        } else {
          return Value(x);  // int, float and bool lists
        }
      },
      d);
}

PreparedCall prepare_call(const FunctionSchema& schema, const std::vector<SampleArg>& args,
                          Device device) {
  for (const SampleArg& a : args) {
    bool known = false;
    for (const Argument& s : schema.arguments) known |= s.name == a.name;
    if (!known) {
      throw std::invalid_argument("argument '" + a.name + "' is not in the schema " +
                                  to_string(schema));
    }
  }
  PreparedCall call;
  // One copy per storage and target: arguments that share a storage on the host share one on
  // the device (`x.add_(x.t())`).
  StorageCopies on_device(device), on_host(Device(DeviceType::kCPU));
  for (const Argument& s : schema.arguments) {
    const SampleArg* given = nullptr;
    for (const SampleArg& a : args) {
      if (a.name == s.name) given = &a;
    }
    if (given == nullptr) {
      if (s.default_value) {
        call.stack.push_back(default_value(s.type, *s.default_value));
      } else if (s.type.optional) {
        call.stack.emplace_back();
      } else {
        throw std::invalid_argument("the case gives no argument '" + s.name + "', which " +
                                    to_string(schema) + " requires");
      }
      continue;
    }
    if (const auto* t = std::get_if<TensorArg>(&given->value)) {
      Tensor d = (t->keep_on_host ? on_host : on_device).copy(t->host);
      call.tensors[s.name] = d;
      call.stack.emplace_back(std::move(d));
    } else if (const auto* list = std::get_if<TensorListArg>(&given->value)) {
      std::vector<Tensor> copies;
      for (size_t i = 0; i < list->host.size(); ++i) {
        copies.push_back(on_device.copy(list->host[i]));
        call.tensors[list_element_name(s.name, i)] = copies.back();
      }
      call.stack.emplace_back(std::move(copies));
    } else if (std::holds_alternative<DeviceUnderTest>(given->value)) {
      call.stack.emplace_back(device);
    } else {
      call.stack.push_back(coerce(s.type, std::get<Value>(given->value)));
    }
  }
  return call;
}

}  // namespace bp::conformance
