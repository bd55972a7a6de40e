#include "conformance/io/json_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "conformance/framework/layouts.h"
#include "sdk/core/empty.h"
#include "sdk/core/geometry_check.h"
#include "sdk/core/memory_format.h"

namespace bp::conformance {
namespace {

[[noreturn]] void malformed(const std::string& what, const json& j) {
  throw std::runtime_error(what + ", got " + excerpt(j.dump()));
}

// `j` as an int64; `field` names it in the error ("sizes[1]"; empty: the value alone).
int64_t int_of(const json& j, const std::string& field) {
  // nlohmann reads 2.5 and 1e23 as floats and 2^63..2^64-1 as unsigned: get<int64_t>() would
  // truncate or wrap them.
  const bool in_range = j.is_number_integer() &&
                        (!j.is_number_unsigned() || j.get<uint64_t>() <= uint64_t{INT64_MAX});
  if (!in_range) {
    throw std::runtime_error((field.empty() ? "" : field + " is ") + excerpt(j.dump()) +
                             (field.empty() ? " is" : ":") +
                             " not a JSON integer within int64 range");
  }
  return j.get<int64_t>();
}

json real_to_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0 && std::signbit(v)) return "-0.0";
  return v;
}

double real_from_json(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "-0.0") return -0.0;
  }
  malformed("expected a number or \"nan\", \"inf\", \"-inf\", \"-0.0\"", j);
}

std::string memory_format_name(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::kContiguous:
      return "contiguous_format";
    case MemoryFormat::kChannelsLast:
      return "channels_last";
    case MemoryFormat::kChannelsLast3d:
      return "channels_last_3d";
    case MemoryFormat::kPreserve:
      return "preserve_format";
  }
  return "?";
}

// A complex number spelled [real, imag] (as tensor elements are written) or {"real": ..,
// "imag": ..} (as Scalars are): both are read anywhere a complex number goes. nullopt for JSON
// that is neither an array nor an object (a real number).
std::optional<cd> complex_from_json(const json& j) {
  if (j.is_array()) {
    if (j.size() != 2) malformed("a complex number is [real, imag]", j);
    return cd(real_from_json(j[0]), real_from_json(j[1]));
  }
  if (j.is_object()) {
    if (j.size() != 2 || !j.contains("real") || !j.contains("imag")) {
      malformed("a complex number is {\"real\": .., \"imag\": ..}", j);
    }
    return cd(real_from_json(j.at("real")), real_from_json(j.at("imag")));
  }
  return std::nullopt;
}

MemoryFormat memory_format_from_json(const json& j) {
  for (MemoryFormat f : {MemoryFormat::kContiguous, MemoryFormat::kChannelsLast,
                         MemoryFormat::kChannelsLast3d, MemoryFormat::kPreserve}) {
    if (j.is_string() && j.get<std::string>() == memory_format_name(f)) return f;
  }
  malformed("expected a memory format name", j);
}

// A list of int64; `field` ("sizes") names it and its elements ("sizes[1]") in errors.
Sizes ints_of(const json& j, const std::string& field) {
  if (!j.is_array())
    malformed((field.empty() ? "" : field + ": ") + "expected a list of integers", j);
  Sizes v;
  v.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    v.push_back(int_of(j[i], (field.empty() ? "element " : field) + "[" + std::to_string(i) + "]"));
  }
  return v;
}

// Row-major strides, checked for overflow ("Stride calculation overflowed"): with a zero size,
// the product of the other sizes may exceed int64 though the number of elements does not.
Sizes row_major_strides_of(const Sizes& sizes) {
  const DimVector strides = contiguous_strides(sizes);
  return Sizes(strides.begin(), strides.end());
}

// Runs `f`, prefixing the message of any error it throws with `context`.
template <typename F>
auto in_context(const std::string& context, F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw std::runtime_error(context + e.what());
  }
}

json scalar_to_json(const Scalar& s) {
  switch (s.type()) {
    case ScalarType::kBool:
      return s.to<bool>();
    case ScalarType::kInt64:
      return s.to<int64_t>();
    case ScalarType::kFloat64:
      return real_to_json(s.to<double>());
    default: {
      const complex<double> z = s.to<complex<double>>();
      return json{{"real", real_to_json(z.real())}, {"imag", real_to_json(z.imag())}};
    }
  }
}

Scalar scalar_from_json(const json& j) {
  if (j.is_boolean()) return Scalar(j.get<bool>());
  if (j.is_number_integer()) return Scalar(int_of(j, ""));
  if (const std::optional<cd> z = complex_from_json(j)) {
    return Scalar(complex<double>(z->real(), z->imag()));
  }
  return Scalar(real_from_json(j));
}

}  // namespace

std::string excerpt(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  size_t n = max_chars;
  // Cut before a UTF-8 continuation byte, so the excerpt stays valid UTF-8 (reports are JSON).
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return std::string(text.substr(0, n)) + "... (" + std::to_string(text.size()) + " bytes)";
}

json element_to_json(const Wide& w, ScalarType dtype) {
  switch (kind_of(dtype)) {
    case Kind::kInt:
      if (dtype == ScalarType::kBool) return w.i != 0;
      return w.i;
    case Kind::kReal:
      return real_to_json(w.z.real());
    case Kind::kComplex:
      return json::array({real_to_json(w.z.real()), real_to_json(w.z.imag())});
  }
  return nullptr;
}

Wide element_from_json(const json& j, ScalarType dtype) {
  switch (kind_of(dtype)) {
    case Kind::kInt:
      if (j.is_boolean()) return from_int(Int(j.get<bool>() ? 1 : 0));
      return cast(from_int(Int(int_of(j, ""))), ScalarType::kInt64, dtype);
    case Kind::kReal:
      return from_real(real_from_json(j));
    case Kind::kComplex:
      if (const std::optional<cd> z = complex_from_json(j)) return from_complex(*z);
      return from_complex(cd(real_from_json(j), 0));
  }
  return Wide{};
}

ScalarType dtype_from_json(const json& j) {
  if (j.is_string()) {
    if (auto t = scalar_type_from_name(j.get<std::string>())) return *t;
  }
  malformed("expected a dtype name such as \"float32\"", j);
}

namespace {

// A storage's elements (a JSON list of `dtype` elements) in a new 1-d CPU tensor.
Tensor storage_from_json(const json& elements, ScalarType dtype) {
  if (!elements.is_array()) malformed("expected a list of elements", elements);
  Tensor base =
      native::empty({static_cast<int64_t>(elements.size())}, dtype, Device(DeviceType::kCPU));
  auto* p = static_cast<char*>(base.storage().data());
  for (size_t i = 0; i < elements.size(); ++i) {
    write_element(p + i * element_size(dtype), dtype, element_from_json(elements[i], dtype));
  }
  return base;
}

// Every element of a CPU tensor's whole storage, in storage order.
json storage_elements_to_json(const Tensor& host) {
  json storage = json::array();
  for (const Wide& w : storage_elements(host).values) {
    storage.push_back(element_to_json(w, host.dtype()));
  }
  return storage;
}

// The storage a tensor names: one of the case's "storages".
const Tensor& named_storage(const std::string& name, const NamedStorages* storages) {
  if (storages != nullptr) {
    if (auto it = storages->find(name); it != storages->end()) return it->second;
  }
  throw std::runtime_error("storage '" + excerpt(name) + "' is not one of the case's \"storages\"");
}

}  // namespace

NamedStorages storages_from_json(const json& j) {
  if (!j.is_object()) malformed("\"storages\": expected an object of named storages", j);
  NamedStorages storages;
  for (const auto& item : j.items()) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const std::string& name = item.key();
    const json& s = item.value();
    in_context("storage '" + excerpt(name) + "': ", [&] {
      if (!s.is_object() || !s.contains("dtype") || !s.contains("values")) {
        malformed("expected {\"dtype\", \"values\"}", s);
      }
      storages[name] = storage_from_json(s.at("values"), dtype_from_json(s.at("dtype")));
      return 0;
    });
  }
  return storages;
}

json shared_storages_to_json(const std::vector<SampleArg>& args, StorageNames* names) {
  // The tensors of the arguments, in order, and how many view each storage.
  std::vector<const Tensor*> tensors;
  for (const SampleArg& a : args) {
    if (const auto* t = std::get_if<TensorArg>(&a.value)) tensors.push_back(&t->host);
    if (const auto* list = std::get_if<TensorListArg>(&a.value)) {
      for (const Tensor& t : list->host) tensors.push_back(&t);
    }
  }
  std::map<const StorageImpl*, int> views;
  for (const Tensor* t : tensors) ++views[t->storage().impl()];
  json storages = json::object();
  for (const Tensor* t : tensors) {
    const StorageImpl* storage = t->storage().impl();
    if (views[storage] < 2 || names->count(storage) != 0) continue;
    const std::string name = "s" + std::to_string(names->size());
    (*names)[storage] = name;
    storages[name] = json{{"dtype", std::string(scalar_type_name(t->dtype()))},
                          {"values", storage_elements_to_json(*t)}};
  }
  return storages;
}

json tensor_to_json(const Tensor& host, const StorageNames* names) {
  json j{{"dtype", std::string(scalar_type_name(host.dtype()))},
         {"sizes", Sizes(host.sizes().begin(), host.sizes().end())},
         {"strides", Sizes(host.strides().begin(), host.strides().end())},
         {"storage_offset", host.storage_offset()}};
  const bool named = names != nullptr && names->count(host.storage().impl()) != 0;
  j["storage"] = named ? json(names->at(host.storage().impl())) : storage_elements_to_json(host);
  if (host.is_wrapped_number()) j["wrapped_number"] = true;
  return j;
}

Tensor tensor_from_json(const json& j, const NamedStorages* storages) {
  const bool names_storage = j.is_object() && j.contains("storage") && j.at("storage").is_string();
  if (!j.is_object() || !j.contains("sizes") || (!names_storage && !j.contains("dtype"))) {
    malformed("expected a tensor {\"dtype\", \"sizes\", ...}", j);
  }
  const Sizes sizes = ints_of(j.at("sizes"), "sizes");
  Tensor t;
  if (j.contains("values") && !names_storage) {
    // The short form: row-major values, a new contiguous tensor.
    t = make_contiguous(ref_tensor_from_json(j));
  } else {
    Tensor base;
    if (names_storage) {
      if (j.contains("values")) {
        malformed("a tensor gives \"values\" or a \"storage\", not both", j);
      }
      const std::string& name = j.at("storage").get_ref<const std::string&>();
      base = named_storage(name, storages);
      if (j.contains("dtype") && dtype_from_json(j.at("dtype")) != base.dtype()) {
        throw std::runtime_error("dtype " + excerpt(j.at("dtype").dump()) + " differs from " +
                                 std::string(scalar_type_name(base.dtype())) +
                                 ", the dtype of storage '" + excerpt(name) + "'");
      }
    } else if (j.contains("storage")) {
      base = in_context("\"storage\": ", [&] {
        return storage_from_json(j.at("storage"), dtype_from_json(j.at("dtype")));
      });
    } else {
      malformed("expected a tensor's \"values\", or its \"storage\" (and strides)", j);
    }
    check_tensor_sizes(sizes);
    const Sizes strides =
        j.contains("strides") ? ints_of(j.at("strides"), "strides") : row_major_strides_of(sizes);
    const int64_t offset =
        j.contains("storage_offset") ? int_of(j.at("storage_offset"), "storage_offset") : 0;
    // Every element the view reaches lies in the storage (no negative stride, no overflow).
    check_tensor_geometry(sizes, strides, offset, element_size(base.dtype()), base.numel());
    t = strided_view(base, sizes, strides, offset);
  }
  if (j.value("wrapped_number", false)) t.impl()->set_wrapped_number(true);
  return t;
}

json ref_tensor_to_json(const RefTensor& t) {
  json values = json::array();
  for (const Wide& w : t.values) values.push_back(element_to_json(w, t.dtype));
  return json{{"dtype", std::string(scalar_type_name(t.dtype))},
              {"sizes", t.sizes},
              {"values", std::move(values)}};
}

RefTensor ref_tensor_from_json(const json& j) {
  RefTensor t{dtype_from_json(j.at("dtype")), ints_of(j.at("sizes"), "sizes"), {}};
  const int64_t numel = check_tensor_sizes(t.sizes);
  const json& values = j.at("values");
  if (!values.is_array() || static_cast<int64_t>(values.size()) != numel) {
    malformed("expected " + std::to_string(numel) + " values", values);
  }
  for (const json& v : values) t.values.push_back(element_from_json(v, t.dtype));
  return t;
}

json expected_output_to_json(const ExpectedOutput& o) {
  if (o.plain) return json{{"value", argument_to_json(*o.plain)}};
  json j = ref_tensor_to_json(o.value);
  if (o.values_unspecified) {
    j.erase("values");
    j["values_unspecified"] = true;
  }
  if (o.strides) j["strides"] = *o.strides;
  if (o.storage_offset) j["storage_offset"] = *o.storage_offset;
  if (!o.aliases.empty()) j["aliases"] = o.aliases;
  if (o.may_alias) j["may_alias"] = true;
  if (o.storage) {
    json storage = json::array();
    for (const Wide& w : *o.storage) storage.push_back(element_to_json(w, o.value.dtype));
    j["storage"] = std::move(storage);
  }
  return j;
}

ExpectedOutput expected_output_from_json(const json& j, const FunctionSchema& schema) {
  ExpectedOutput o;
  if (j.contains("value")) {
    // Only ops with one result return non-tensors (result_type), so its type is the first's.
    if (schema.returns.size() != 1 || schema.returns[0].type.kind == TypeKind::kTensor) {
      malformed("a \"value\" output for an op that does not return one non-tensor", j);
    }
    if (!plain_result_checked(schema.returns[0].type)) {
      throw std::runtime_error("a result of type " + to_string(schema.returns[0].type) +
                               " is not supported in case files (the suite checks tensors, "
                               "Tensor[] and bool, int, float and ScalarType values)");
    }
    SampleValue v = argument_from_json(j.at("value"), schema.returns[0].type);
    o.plain = std::get<Value>(std::move(v));
    return o;
  }
  o.values_unspecified = j.value("values_unspecified", false);
  if (o.values_unspecified) {
    // Only the dtype and sizes are compared: values stay empty, so that sizes of any product
    // (checked against int64) allocate nothing here.
    RefTensor t{dtype_from_json(j.at("dtype")), ints_of(j.at("sizes"), "sizes"), {}};
    check_tensor_sizes(t.sizes);
    o.value = std::move(t);
  } else {
    o.value = ref_tensor_from_json(j);
  }
  if (j.contains("strides")) o.strides = ints_of(j.at("strides"), "strides");
  if (j.contains("storage_offset")) {
    o.storage_offset = int_of(j.at("storage_offset"), "storage_offset");
  }
  o.aliases = j.value("aliases", std::string());
  o.may_alias = j.value("may_alias", false);
  if (j.contains("storage")) {
    const json& storage = j.at("storage");
    if (!storage.is_array()) malformed("\"storage\": expected a list of elements", storage);
    o.storage.emplace();
    for (size_t i = 0; i < storage.size(); ++i) {
      o.storage->push_back(in_context("\"storage\"[" + std::to_string(i) + "]: ", [&] {
        return element_from_json(storage[i], o.value.dtype);
      }));
    }
  }
  return o;
}

json argument_to_json(const SampleValue& v, const StorageNames* names) {
  if (const auto* t = std::get_if<TensorArg>(&v)) {
    json j = tensor_to_json(t->host, names);
    if (t->keep_on_host) j["on_host"] = true;
    return j;
  }
  if (const auto* list = std::get_if<TensorListArg>(&v)) {
    json a = json::array();
    for (const Tensor& t : list->host) a.push_back(tensor_to_json(t, names));
    return a;
  }
  if (std::holds_alternative<DeviceUnderTest>(v)) return "<device>";
  const Value& value = std::get<Value>(v);
  switch (value.tag()) {
    case Value::Tag::kNone:
      return nullptr;
    case Value::Tag::kBool:
      return value.to<bool>();
    case Value::Tag::kInt:
      return value.to<int64_t>();
    case Value::Tag::kDouble:
      return real_to_json(value.to<double>());
    case Value::Tag::kString:
      return value.ref<std::string>();
    case Value::Tag::kScalarType:
      return std::string(scalar_type_name(value.ref<ScalarType>()));
    case Value::Tag::kMemoryFormat:
      return memory_format_name(value.ref<MemoryFormat>());
    case Value::Tag::kIntList:
      return value.ref<std::vector<int64_t>>();
    case Value::Tag::kDoubleList: {
      json a = json::array();
      for (double d : value.ref<std::vector<double>>()) a.push_back(real_to_json(d));
      return a;
    }
    case Value::Tag::kBoolList:
      return value.ref<std::vector<bool>>();
    case Value::Tag::kTensor:
      return tensor_to_json(value.ref<Tensor>());
    case Value::Tag::kDevice: {
      std::ostringstream out;
      out << value.ref<Device>();
      return out.str();
    }
    default:
      return scalar_to_json(value.to<Scalar>());
  }
}

SampleValue argument_from_json(const json& j, const Type& type, const NamedStorages* storages) {
  if (j.is_null()) return Value();
  if (type.is_list) {
    switch (type.kind) {
      case TypeKind::kInt:
        return Value(j.is_array() ? ints_of(j, "") : std::vector<int64_t>{int_of(j, "")});
      case TypeKind::kFloat: {
        std::vector<double> v;
        for (const json& x : j) v.push_back(real_from_json(x));
        return Value(std::move(v));
      }
      case TypeKind::kBool:
        return Value(j.get<std::vector<bool>>());
      case TypeKind::kTensor: {
        if (type.element_optional || !j.is_array()) {
          malformed("expected a list of tensors (lists of optional tensors are not supported)", j);
        }
        TensorListArg list;
        for (size_t i = 0; i < j.size(); ++i) {
          list.host.push_back(in_context("element " + std::to_string(i) + ": ",
                                         [&] { return tensor_from_json(j[i], storages); }));
        }
        return list;
      }
      default:
        malformed("arguments of type " + to_string(type) + " are not supported in case files", j);
    }
  }
  switch (type.kind) {
    case TypeKind::kTensor:
      return TensorArg{tensor_from_json(j, storages), j.value("on_host", false)};
    case TypeKind::kInt:
      return Value(int_of(j, ""));
    case TypeKind::kFloat:
      return Value(real_from_json(j));
    case TypeKind::kBool:
      if (!j.is_boolean()) malformed("expected true or false", j);
      return Value(j.get<bool>());
    case TypeKind::kStr:
      if (!j.is_string()) malformed("expected a string", j);
      return Value(j.get<std::string>());
    case TypeKind::kScalar:
      return Value(scalar_from_json(j));
    case TypeKind::kScalarType:
      return Value(dtype_from_json(j));
    case TypeKind::kDevice:
      if (j == "<device>") return DeviceUnderTest{};
      if (!j.is_string()) malformed("expected a device name such as \"cpu\" or \"<device>\"", j);
      try {
        return Value(Device::parse(j.get<std::string>()));
      } catch (const std::exception&) {
        // Device::parse quotes the whole string.
        malformed("expected a device name such as \"cpu\" or \"<device>\"", j);
      }
    case TypeKind::kMemoryFormat:
      return Value(memory_format_from_json(j));
    default:
      malformed("arguments of type " + to_string(type) + " are not supported in case files", j);
  }
}

}  // namespace bp::conformance
