#include "sdk/c_api/values.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "sdk/c_api/convert.h"
#include "sdk/core/error.h"
#include "sdk/dispatch/backend_registry.h"

namespace bp::c_api {
namespace {

constexpr std::array<const char*, 14> kTagNames = {
    "None",   "bool",         "int",   "float",  "complex",  "str",     "ScalarType",
    "Device", "MemoryFormat", "int[]", "Tensor", "Tensor[]", "float[]", "bool[]",
};
static_assert(BP_VALUE_BOOL_LIST + 1 == kTagNames.size());

[[noreturn]] void mismatch(const Type& type, const bp_value& v) {
  const bool null_tensor = v.tag == BP_VALUE_TENSOR && v.u.tensor == nullptr;
  detail::throw_error(ErrorCode::kTypeError,
                      detail::str_cat("must be ", to_string(type), ", not ",
                                      null_tensor ? "a NULL tensor" : tag_name(v.tag)));
}

template <typename T>
std::vector<T> list_of(const T* data, size_t size, const char* what) {
  BP_CHECK(data != nullptr || size == 0, "a ", what, " list of ", size, " elements has NULL data");
  return std::vector<T>(data, data + size);
}

// A tensor argument, refusing one whose device has no dispatch keys (its backend is gone): the
// dispatcher would send the call to the CPU, which must not touch another device's memory.
Tensor live_tensor(const bp_tensor* h) {
  Tensor t = tensor_from(h);
  const DeviceType type = t.device().type;
  if (BP_UNLIKELY(device_type_key_set(type).empty())) {
    detail::throw_error(ErrorCode::kInvalidArgument,
                        detail::str_cat("is a tensor on device type '", type,
                                        "', whose backend is no longer registered"));
  }
  return t;
}

Scalar scalar_of(const bp_value& v, const Type& type) {
  switch (v.tag) {
    case BP_VALUE_BOOL:
      return Scalar(v.u.b);
    case BP_VALUE_INT:
      return Scalar(v.u.i);
    case BP_VALUE_DOUBLE:
      return Scalar(v.u.d);
    case BP_VALUE_COMPLEX:
      return Scalar(complex<double>(v.u.c.re, v.u.c.im));
    default:
      mismatch(type, v);
  }
}

Value list_value(const bp_value& v, const Type& type) {
  switch (type.kind) {
    case TypeKind::kInt:
      if (v.tag == BP_VALUE_INT && type.list_size) {
        return Value(std::vector<int64_t>(static_cast<size_t>(*type.list_size), v.u.i));
      }
      if (v.tag != BP_VALUE_INT_LIST) break;
      return Value(list_of(v.u.ints.data, v.u.ints.size, "int"));
    case TypeKind::kFloat:
      if (v.tag != BP_VALUE_DOUBLE_LIST) break;
      return Value(list_of(v.u.doubles.data, v.u.doubles.size, "float"));
    case TypeKind::kBool: {
      if (v.tag != BP_VALUE_BOOL_LIST) break;
      BP_CHECK(v.u.bools.data != nullptr || v.u.bools.size == 0, "a bool list of ", v.u.bools.size,
               " elements has NULL data");
      return Value(std::vector<bool>(v.u.bools.data, v.u.bools.data + v.u.bools.size));
    }
    case TypeKind::kTensor: {
      if (v.tag != BP_VALUE_TENSOR_LIST) break;
      BP_CHECK(v.u.tensors.data != nullptr || v.u.tensors.size == 0, "a Tensor list of ",
               v.u.tensors.size, " elements has NULL data");
      if (type.element_optional) {
        std::vector<std::optional<Tensor>> list;
        list.reserve(v.u.tensors.size);
        for (size_t i = 0; i < v.u.tensors.size; ++i) {
          const bp_tensor* h = v.u.tensors.data[i];
          list.push_back(h ? std::optional<Tensor>(live_tensor(h)) : std::nullopt);
        }
        return Value(std::move(list));
      }
      std::vector<Tensor> list;
      list.reserve(v.u.tensors.size);
      for (size_t i = 0; i < v.u.tensors.size; ++i) {
        const bp_tensor* h = v.u.tensors.data[i];
        if (h == nullptr) {
          detail::throw_error(ErrorCode::kTypeError,
                              detail::str_cat("must be ", to_string(type), ", but element ", i,
                                              " is a NULL tensor"));
        }
        list.push_back(live_tensor(h));
      }
      return Value(std::move(list));
    }
    default:
      break;
  }
  mismatch(type, v);
}

Value default_value_of(const DefaultValue& d, const Type& type) {
  return std::visit(
      [&](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, NoneLiteral>) {
          return Value();
        } else if constexpr (std::is_same_v<T, bool>) {
          if (type.kind == TypeKind::kScalar) return Value(Scalar(x));
          return Value(x);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          if (type.is_list && type.list_size) {
            return Value(std::vector<int64_t>(static_cast<size_t>(*type.list_size), x));
          }
          if (type.kind == TypeKind::kFloat) return Value(static_cast<double>(x));
          if (type.kind == TypeKind::kScalar) return Value(Scalar(x));
          return Value(x);
        } else if constexpr (std::is_same_v<T, double>) {
          if (type.kind == TypeKind::kScalar) return Value(Scalar(x));
          return Value(x);
        } else if constexpr (std::is_same_v<T, StringLiteral>) {
          return Value(x.value);
        } else if constexpr (std::is_same_v<T, Identifier>) {
          if (type.kind == TypeKind::kMemoryFormat) {
            if (x.name == "contiguous_format") return Value(MemoryFormat::kContiguous);
            if (x.name == "channels_last") return Value(MemoryFormat::kChannelsLast);
            if (x.name == "channels_last_3d") return Value(MemoryFormat::kChannelsLast3d);
            if (x.name == "preserve_format") return Value(MemoryFormat::kPreserve);
          } else if (type.kind == TypeKind::kScalarType) {
            if (auto t = scalar_type_from_name(x.name)) return Value(*t);
          }
          BP_INTERNAL_ASSERT(false, "the C ABI cannot convert the default '", x.name, "' of a ",
                             to_string(type), " argument");
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          if (type.kind == TypeKind::kFloat) return Value(std::vector<double>(x.begin(), x.end()));
          return Value(x);
        } else {
          return Value(x);
        }
      },
      d);
}

// malloc'd copy of `n` elements (host memory that release_value frees).
template <typename T>
T* host_copy(const T* data, size_t n) {
  if (n == 0) return nullptr;
  void* p = std::malloc(n * sizeof(T));
  if (p == nullptr) throw std::bad_alloc();
  if (data != nullptr) std::memcpy(p, data, n * sizeof(T));
  return static_cast<T*>(p);
}

void store_scalar(const Scalar& s, bp_value* out) {
  if (s.is_boolean()) {
    out->tag = BP_VALUE_BOOL;
    out->u.b = s.to<bool>();
  } else if (s.is_integral(false)) {
    out->tag = BP_VALUE_INT;
    out->u.i = s.to<int64_t>();
  } else if (s.is_floating_point()) {
    out->tag = BP_VALUE_DOUBLE;
    out->u.d = s.to<double>();
  } else {
    const auto c = s.to<complex<double>>();
    out->tag = BP_VALUE_COMPLEX;
    out->u.c.re = c.real();
    out->u.c.im = c.imag();
  }
}

// The TENSOR_LIST arrays the host allocated and has not freed yet. release_value frees only
// these: a list a plugin kernel filled itself points into the plugin's memory.
class HostTensorArrays {
 public:
  // A new malloc'd array for `size` handles (room for one at least, so that every array, also an
  // empty list's, has an address of its own), tracked. Errors: std::bad_alloc.
  bp_tensor** allocate(size_t size) {
    if (size > SIZE_MAX / sizeof(bp_tensor*)) throw std::bad_alloc();
    void* p = std::malloc((size == 0 ? 1 : size) * sizeof(bp_tensor*));
    if (p == nullptr) throw std::bad_alloc();
    try {
      absl::MutexLock lock(&mutex_);
      arrays_.insert(p);
    } catch (...) {
      std::free(p);
      throw;
    }
    return static_cast<bp_tensor**>(p);
  }

  bool contains(const void* array) const {
    absl::MutexLock lock(&mutex_);
    return arrays_.contains(array);
  }

  // Frees `array` when it is tracked (and forgets it); leaves anything else alone.
  void free(const void* array) noexcept {
    {
      absl::MutexLock lock(&mutex_);
      if (arrays_.erase(array) == 0) return;
    }
    std::free(const_cast<void*>(array));
  }

 private:
  mutable absl::Mutex mutex_;
  absl::flat_hash_set<const void*> arrays_ ABSL_GUARDED_BY(mutex_);
};

HostTensorArrays& host_tensor_arrays() {
  static HostTensorArrays* arrays = new HostTensorArrays();  // never destroyed: used at exit
  return *arrays;
}

template <typename List, typename Handle>
bp_tensor** tensor_array(const List& list, Handle&& handle) {
  bp_tensor** array = host_tensor_arrays().allocate(list.size());
  for (size_t i = 0; i < list.size(); ++i) array[i] = handle(list[i]);
  return array;
}

}  // namespace

std::string tag_name(int32_t tag) {
  if (tag >= 0 && static_cast<size_t>(tag) < kTagNames.size()) return kTagNames[tag];
  return detail::str_cat("tag ", tag);
}

ArgSpec make_arg_spec(const Argument& argument) {
  ArgSpec spec{argument.name, argument.type, std::nullopt};
  if (argument.default_value) {
    spec.default_value = default_value_of(*argument.default_value, argument.type);
  }
  return spec;
}

Value to_value(const bp_value& v, const Type& type) {
  const bool is_none =
      v.tag == BP_VALUE_NONE || (v.tag == BP_VALUE_TENSOR && v.u.tensor == nullptr &&
                                 type.kind == TypeKind::kTensor && !type.is_list);
  if (is_none) {
    if (type.optional) return Value();
    mismatch(type, v);
  }
  if (type.is_list) return list_value(v, type);
  switch (type.kind) {
    case TypeKind::kTensor:
      if (v.tag == BP_VALUE_TENSOR) return Value(live_tensor(v.u.tensor));
      break;
    case TypeKind::kInt:
      if (v.tag == BP_VALUE_INT) return Value(v.u.i);
      break;
    case TypeKind::kFloat:
      if (v.tag == BP_VALUE_DOUBLE) return Value(v.u.d);
      if (v.tag == BP_VALUE_INT) return Value(static_cast<double>(v.u.i));
      break;
    case TypeKind::kBool:
      if (v.tag == BP_VALUE_BOOL) return Value(v.u.b);
      break;
    case TypeKind::kStr:
      if (v.tag != BP_VALUE_STRING) break;
      BP_CHECK(v.u.s != nullptr, "a str value is NULL");
      return Value(std::string(v.u.s));
    case TypeKind::kScalar:
      return Value(scalar_of(v, type));
    case TypeKind::kScalarType:
      if (v.tag == BP_VALUE_DTYPE) return Value(to_scalar_type(v.u.dtype));
      break;
    case TypeKind::kDevice:
      if (v.tag == BP_VALUE_DEVICE) return Value(to_device(v.u.device));
      break;
    case TypeKind::kMemoryFormat:
      if (v.tag == BP_VALUE_MEMORY_FORMAT) return Value(to_memory_format(v.u.memory_format));
      break;
    case TypeKind::kLayout:
    case TypeKind::kGenerator:
      break;
  }
  mismatch(type, v);
}

void push_argument(Stack& stack, const bp_value& v, const ArgSpec& spec, size_t position) {
  try {
    if (v.tag == BP_VALUE_TENSOR && v.u.tensor != nullptr && spec.type.kind == TypeKind::kTensor &&
        !spec.type.is_list) {
      stack.emplace_back(live_tensor(v.u.tensor));  // the common case, built in place
      return;
    }
    stack.push_back(to_value(v, spec.type));
  } catch (const Error& e) {
    detail::throw_error(e.code(), detail::str_cat("argument '", spec.name, "' (position ", position,
                                                  ") ", e.message()));
  }
}

void store_result(Value&& value, bp_value* out) {
  if (value.is_tensor()) {  // the common case, without reference count traffic
    Tensor& t = value.ref<Tensor>();
    out->tag = BP_VALUE_TENSOR;
    out->u.tensor = t.defined() ? take_reference(t) : nullptr;
    return;
  }
  bp_value v;
  std::memset(&v, 0, sizeof v);
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          v.tag = BP_VALUE_NONE;
        } else if constexpr (std::is_same_v<T, bool>) {
          v.tag = BP_VALUE_BOOL;
          v.u.b = x;
        } else if constexpr (std::is_same_v<T, int64_t>) {
          v.tag = BP_VALUE_INT;
          v.u.i = x;
        } else if constexpr (std::is_same_v<T, double>) {
          v.tag = BP_VALUE_DOUBLE;
          v.u.d = x;
        } else if constexpr (std::is_same_v<T, complex<double>>) {
          v.tag = BP_VALUE_COMPLEX;
          v.u.c.re = x.real();
          v.u.c.im = x.imag();
        } else if constexpr (std::is_same_v<T, std::string>) {
          v.tag = BP_VALUE_STRING;
          v.u.s = host_copy(x.c_str(), x.size() + 1);
        } else if constexpr (std::is_same_v<T, ScalarType>) {
          v.tag = BP_VALUE_DTYPE;
          v.u.dtype = to_bp_dtype(x);
        } else if constexpr (std::is_same_v<T, Device>) {
          v.tag = BP_VALUE_DEVICE;
          v.u.device = to_bp_device(x);
        } else if constexpr (std::is_same_v<T, MemoryFormat>) {
          v.tag = BP_VALUE_MEMORY_FORMAT;
          v.u.memory_format = static_cast<int32_t>(x);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          v.tag = BP_VALUE_INT_LIST;
          v.u.ints.data = host_copy(x.data(), x.size());
          v.u.ints.size = x.size();
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          v.tag = BP_VALUE_DOUBLE_LIST;
          v.u.doubles.data = host_copy(x.data(), x.size());
          v.u.doubles.size = x.size();
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          bool* bools = host_copy<bool>(nullptr, x.size());
          for (size_t i = 0; i < x.size(); ++i) bools[i] = x[i];
          v.tag = BP_VALUE_BOOL_LIST;
          v.u.bools.data = bools;
          v.u.bools.size = x.size();
        } else if constexpr (std::is_same_v<T, Tensor>) {
          v.tag = BP_VALUE_TENSOR;
          v.u.tensor = x.defined() ? new_reference(x) : nullptr;
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
          v.tag = BP_VALUE_TENSOR_LIST;
          v.u.tensors.data = tensor_array(x, [](const Tensor& t) { return new_reference(t); });
          v.u.tensors.size = x.size();
        } else if constexpr (std::is_same_v<T, std::vector<std::optional<Tensor>>>) {
          v.tag = BP_VALUE_TENSOR_LIST;
          v.u.tensors.data = tensor_array(x, [](const std::optional<Tensor>& t) {
            return t && t->defined() ? new_reference(*t) : nullptr;
          });
          v.u.tensors.size = x.size();
        } else {
          static_assert(std::is_same_v<T, Scalar>);
          store_scalar(x, &v);
        }
      },
      value.payload());
  *out = v;
}

void store_tensor_list(bp_tensor* const* handles, size_t size, bp_value* out) {
  bp_tensor** array = host_tensor_arrays().allocate(size);
  if (size > 0) std::memcpy(array, handles, size * sizeof(bp_tensor*));
  out->tag = BP_VALUE_TENSOR_LIST;
  out->u.tensors.data = array;
  out->u.tensors.size = size;
}

bool is_host_tensor_list(const bp_value& v) {
  return v.tag == BP_VALUE_TENSOR_LIST && v.u.tensors.data != nullptr &&
         host_tensor_arrays().contains(v.u.tensors.data);
}

void release_kernel_result(bp_value* v) noexcept {
  if (v->tag == BP_VALUE_TENSOR) {
    if (v->u.tensor != nullptr) adopt(v->u.tensor);  // the adopted reference dies here
    v->u.tensor = nullptr;
  } else if (v->tag == BP_VALUE_TENSOR_LIST && v->u.tensors.data != nullptr) {
    for (size_t i = 0; i < v->u.tensors.size; ++i) {
      if (v->u.tensors.data[i] != nullptr) adopt(v->u.tensors.data[i]);
    }
    host_tensor_arrays().free(v->u.tensors.data);
    v->u.tensors.data = nullptr;
    v->u.tensors.size = 0;
  }
}

void release_value(bp_value* v) noexcept {
  release_kernel_result(v);
  switch (v->tag) {
    case BP_VALUE_STRING:
      std::free(const_cast<char*>(v->u.s));
      break;
    case BP_VALUE_INT_LIST:
      std::free(const_cast<int64_t*>(v->u.ints.data));
      break;
    case BP_VALUE_DOUBLE_LIST:
      std::free(const_cast<double*>(v->u.doubles.data));
      break;
    case BP_VALUE_BOOL_LIST:
      std::free(const_cast<bool*>(v->u.bools.data));
      break;
    default:  // TENSOR_LIST: release_kernel_result freed its array when the host owns it
      break;
  }
  std::memset(v, 0, sizeof *v);
  v->tag = BP_VALUE_NONE;
}

BorrowedValues::BorrowedValues(absl::Span<const Value> values) {
  values_.reserve(values.size());
  for (const Value& v : values) values_.push_back(view(v));
}

bp_value BorrowedValues::view(const Value& value) {
  bp_value v;
  std::memset(&v, 0, sizeof v);
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          v.tag = BP_VALUE_NONE;
        } else if constexpr (std::is_same_v<T, std::string>) {
          v.tag = BP_VALUE_STRING;
          v.u.s = x.c_str();
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          v.tag = BP_VALUE_INT_LIST;
          v.u.ints.data = x.data();
          v.u.ints.size = x.size();
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          v.tag = BP_VALUE_DOUBLE_LIST;
          v.u.doubles.data = x.data();
          v.u.doubles.size = x.size();
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          auto& bools = bool_arrays_.emplace_back(new bool[x.size() + 1]);
          for (size_t i = 0; i < x.size(); ++i) bools[i] = x[i];
          v.tag = BP_VALUE_BOOL_LIST;
          v.u.bools.data = bools.get();
          v.u.bools.size = x.size();
        } else if constexpr (std::is_same_v<T, Tensor>) {
          v.tag = BP_VALUE_TENSOR;
          v.u.tensor = handle_of(x);
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>> ||
                             std::is_same_v<T, std::vector<std::optional<Tensor>>>) {
          auto& handles = tensor_arrays_.emplace_back(new bp_tensor*[x.size() + 1]);
          for (size_t i = 0; i < x.size(); ++i) {
            if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
              handles[i] = handle_of(x[i]);
            } else {
              handles[i] = x[i] ? handle_of(*x[i]) : nullptr;
            }
          }
          v.tag = BP_VALUE_TENSOR_LIST;
          v.u.tensors.data = handles.get();
          v.u.tensors.size = x.size();
        } else {
          // Numbers, dtypes, devices, memory formats and scalars: store_result's encoding.
          store_result(Value(x), &v);
        }
      },
      value.payload());
  return v;
}

}  // namespace bp::c_api
