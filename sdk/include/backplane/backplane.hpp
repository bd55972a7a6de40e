// Backplane's header-only C++ wrapper over the C ABI (C++17): RAII handles, exceptions on the C++
// side only, and typed kernels for plugins.
//
//   // A client (links libbackplane):
//   const bp_api* api = bp_get_api();
//   backplane::Tensor a = backplane::Tensor::from_host<float>(api, {1, 2, 3}, {3});
//   backplane::Tensor b = backplane::Tensor::from_host<float>(api, {4, 5, 6}, {3});
//   backplane::Op add(api, "add.Tensor");
//   backplane::Tensor c = add.call({backplane::arg(a), backplane::arg(b)}).tensor(0);
//   std::vector<float> values = c.to_host<float>();               // {5, 7, 9}
//
//   // A plugin kernel (no Backplane library linked), reading the plan the host's Common key
//   // built for the call (shape, strides, dtypes):
//   backplane::Tensor my_neg_out(const bp_api* api, const backplane::Plan& plan,
//                                backplane::Tensor self, backplane::Tensor out) {...; return out; }
//   backplane::Registration r =
//       backplane::register_kernel<&my_neg_out>(api, backend, "neg.out");
//
// Every failing C call becomes a backplane::Error (code + message); a typed kernel's exception
// becomes the bp_error it returns, so no exception crosses the C ABI. Everything here is inline
// and has hidden visibility: a plugin built with this header exports nothing but its
// bp_plugin_init.
//
// Thread safety: as the C functions underneath; a handle object is used by one thread at a time.
#ifndef BACKPLANE_BACKPLANE_HPP_
#define BACKPLANE_BACKPLANE_HPP_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "backplane/plugin.h"

#pragma GCC visibility push(hidden)

namespace backplane {

// A failed C ABI call: its bp_error_code and message.
class Error : public std::runtime_error {
 public:
  Error(int32_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int32_t code() const noexcept { return code_; }

 private:
  int32_t code_;
};

// Owns a bp_error* (or nothing): for code that inspects an error instead of throwing.
class ErrorHandle {
 public:
  ErrorHandle(const bp_api* api, bp_error* error) : api_(api), error_(error) {}
  ErrorHandle(ErrorHandle&& other) noexcept
      : api_(other.api_), error_(std::exchange(other.error_, nullptr)) {}
  ErrorHandle& operator=(ErrorHandle&& other) noexcept {
    std::swap(api_, other.api_);
    std::swap(error_, other.error_);
    return *this;
  }
  ErrorHandle(const ErrorHandle&) = delete;
  ErrorHandle& operator=(const ErrorHandle&) = delete;
  ~ErrorHandle() { api_->error_destroy(error_); }

  explicit operator bool() const { return error_ != nullptr; }
  int32_t code() const { return api_->error_code(error_); }
  std::string message() const { return api_->error_message(error_); }
  // Throws Error when there is an error (and keeps owning it until destruction).
  void throw_if_error() const {
    if (error_ != nullptr) throw Error(code(), message());
  }

 private:
  const bp_api* api_;
  bp_error* error_;
};

// Throws Error for a non-NULL `error`, which it destroys.
inline void check(const bp_api* api, bp_error* error) { ErrorHandle(api, error).throw_if_error(); }

// The bp_dtype of a C++ element type.
template <typename T>
constexpr int32_t dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return BP_DTYPE_BOOL;
  if constexpr (std::is_same_v<T, uint8_t>) return BP_DTYPE_UINT8;
  if constexpr (std::is_same_v<T, int8_t>) return BP_DTYPE_INT8;
  if constexpr (std::is_same_v<T, int16_t>) return BP_DTYPE_INT16;
  if constexpr (std::is_same_v<T, int32_t>) return BP_DTYPE_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return BP_DTYPE_INT64;
  if constexpr (std::is_same_v<T, float>) return BP_DTYPE_FLOAT32;
  if constexpr (std::is_same_v<T, double>) return BP_DTYPE_FLOAT64;
  static_assert(std::is_arithmetic_v<T>, "no bp_dtype for this C++ type");
  return 0;
}

inline constexpr bp_device kCpu = {BP_DEVICE_CPU, -1};
inline constexpr bp_device kMeta = {BP_DEVICE_META, -1};

// An owning tensor handle: copies retain, destruction releases. Empty when default-constructed.
class Tensor {
 public:
  Tensor() = default;
  // Adopts a new reference.
  Tensor(const bp_api* api, bp_tensor* handle) : api_(api), handle_(handle) {}
  // A new reference to a borrowed handle (e.g. a kernel argument).
  static Tensor borrow(const bp_api* api, bp_tensor* handle) {
    if (handle != nullptr) api->tensor_retain(handle);
    return Tensor(api, handle);
  }
  Tensor(const Tensor& other) : api_(other.api_), handle_(other.handle_) {
    if (handle_ != nullptr) api_->tensor_retain(handle_);
  }
  Tensor(Tensor&& other) noexcept
      : api_(other.api_), handle_(std::exchange(other.handle_, nullptr)) {}
  Tensor& operator=(Tensor other) noexcept {
    std::swap(api_, other.api_);
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~Tensor() {
    if (handle_ != nullptr) api_->tensor_release(handle_);
  }

  static Tensor empty(const bp_api* api, const std::vector<int64_t>& sizes, int32_t dtype,
                      bp_device device = kCpu) {
    bp_tensor* t = nullptr;
    check(api, api->tensor_empty(sizes.data(), sizes.size(), dtype, device, &t));
    return Tensor(api, t);
  }
  template <typename T>
  static Tensor from_host(const bp_api* api, const std::vector<T>& values,
                          const std::vector<int64_t>& sizes, bp_device device = kCpu) {
    static_assert(!std::is_same_v<T, bool>, "use from_host_bytes for bool (std::vector<bool>)");
    bp_tensor* t = nullptr;
    check(api, api->tensor_from_host(values.data(), values.size() * sizeof(T), sizes.data(),
                                     sizes.size(), dtype_of<T>(), device, &t));
    return Tensor(api, t);
  }

  bool defined() const { return handle_ != nullptr; }
  bp_tensor* get() const { return handle_; }
  // Gives up ownership of the reference (e.g. to return it from a kernel).
  bp_tensor* release() { return std::exchange(handle_, nullptr); }
  const bp_api* api() const { return api_; }

  bp_tensor_info info() const {
    bp_tensor_info info{};
    info.struct_size = sizeof info;
    check(api_, api_->tensor_info(handle_, &info));
    return info;
  }
  std::vector<int64_t> sizes() const {
    const bp_tensor_info i = info();
    return std::vector<int64_t>(i.sizes, i.sizes + i.ndim);
  }
  std::vector<int64_t> strides() const {
    const bp_tensor_info i = info();
    return std::vector<int64_t>(i.strides, i.strides + i.ndim);
  }
  int32_t dtype() const { return info().dtype; }
  bp_device device() const { return info().device; }
  int64_t numel() const { return info().numel; }
  void* data() const { return info().data; }

  // A view sharing this tensor's memory with these sizes and strides (elements) from
  // `storage_offset` (api->tensor_as_strided, C ABI 0.3; throws BP_ERROR_NOT_IMPLEMENTED on an
  // older host, and the call's error otherwise).
  Tensor as_strided(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                    int64_t storage_offset) const {
    if (!BP_API_HAS(api_, tensor_as_strided)) {
      throw Error(BP_ERROR_NOT_IMPLEMENTED, "tensor_as_strided needs a host of C ABI 0.3 or later");
    }
    if (sizes.size() != strides.size()) {
      throw Error(BP_ERROR_INVALID_ARGUMENT, "as_strided: sizes and strides differ in length");
    }
    bp_tensor* out = nullptr;
    check(api_, api_->tensor_as_strided(handle_, sizes.data(), strides.data(), sizes.size(),
                                        storage_offset, &out));
    return Tensor(api_, out);
  }

  // The elements in row-major order, copied to the host (any device with copy functions).
  template <typename T>
  std::vector<T> to_host() const {
    static_assert(!std::is_same_v<T, bool>, "read bool tensors as uint8_t");
    if (dtype_of<T>() != dtype()) throw Error(BP_ERROR_TYPE, "to_host: element type mismatch");
    std::vector<T> out(static_cast<size_t>(numel()));
    check(api_, api_->tensor_to_host(handle_, out.data(), out.size() * sizeof(T)));
    return out;
  }

 private:
  const bp_api* api_ = nullptr;
  bp_tensor* handle_ = nullptr;
};

// ---- Boxed values --------------------------------------------------------------------------
// Arguments borrow what they point to: keep tensors and lists alive during the call.

inline bp_value none() {
  bp_value v{};
  v.tag = BP_VALUE_NONE;
  return v;
}
inline bp_value arg(const Tensor& t) {
  bp_value v{};
  v.tag = BP_VALUE_TENSOR;
  v.u.tensor = t.get();
  return v;
}
inline bp_value arg(bool b) {
  bp_value v{};
  v.tag = BP_VALUE_BOOL;
  v.u.b = b;
  return v;
}
template <typename T,
          typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
bp_value arg(T i) {
  bp_value v{};
  v.tag = BP_VALUE_INT;
  v.u.i = static_cast<int64_t>(i);
  return v;
}
inline bp_value arg(double d) {
  bp_value v{};
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = d;
  return v;
}
inline bp_value arg(const char* s) {
  bp_value v{};
  v.tag = BP_VALUE_STRING;
  v.u.s = s;
  return v;
}
inline bp_value arg(const std::vector<int64_t>& list) {
  bp_value v{};
  v.tag = BP_VALUE_INT_LIST;
  v.u.ints.data = list.data();
  v.u.ints.size = list.size();
  return v;
}
// A `Tensor[]` argument (broadcast_tensors' tensors): the handles, borrowed like any argument.
inline bp_value arg(const std::vector<bp_tensor*>& tensors) {
  bp_value v{};
  v.tag = BP_VALUE_TENSOR_LIST;
  v.u.tensors.data = tensors.data();
  v.u.tensors.size = tensors.size();
  return v;
}
inline bp_value arg(bp_device device) {
  bp_value v{};
  v.tag = BP_VALUE_DEVICE;
  v.u.device = device;
  return v;
}
inline bp_value dtype_arg(int32_t dtype) {
  bp_value v{};
  v.tag = BP_VALUE_DTYPE;
  v.u.dtype = dtype;
  return v;
}

// The results of an op call; releases what it holds.
class Results {
 public:
  Results(const bp_api* api, size_t capacity) : api_(api), values_(capacity) {}
  Results(Results&& other) noexcept
      : api_(other.api_),
        values_(std::move(other.values_)),
        count_(std::exchange(other.count_, 0)) {}
  Results(const Results&) = delete;
  Results& operator=(const Results&) = delete;
  ~Results() {
    for (size_t i = 0; i < count_; ++i) api_->value_release(&values_[i]);
  }

  size_t size() const { return count_; }
  const bp_value& operator[](size_t i) const { return values_.at(i); }
  // Result `i` as a tensor (a new reference). Errors: not a tensor.
  Tensor tensor(size_t i) const {
    if (i >= count_ || values_[i].tag != BP_VALUE_TENSOR) {
      throw Error(BP_ERROR_TYPE, "result " + std::to_string(i) + " is not a tensor");
    }
    return Tensor::borrow(api_, values_[i].u.tensor);
  }
  // Result `i` as a list of tensors (new references; a NULL entry gives an empty Tensor).
  // Errors: not a list of tensors.
  std::vector<Tensor> tensor_list(size_t i) const {
    if (i >= count_ || values_[i].tag != BP_VALUE_TENSOR_LIST) {
      throw Error(BP_ERROR_TYPE, "result " + std::to_string(i) + " is not a list of tensors");
    }
    std::vector<Tensor> list;
    for (size_t j = 0; j < values_[i].u.tensors.size; ++j) {
      list.push_back(Tensor::borrow(api_, values_[i].u.tensors.data[j]));
    }
    return list;
  }
  // Result `i` as a dtype (a bp_dtype; result_type returns one). Errors: not a dtype.
  int32_t dtype(size_t i) const {
    if (i >= count_ || values_[i].tag != BP_VALUE_DTYPE) {
      throw Error(BP_ERROR_TYPE, "result " + std::to_string(i) + " is not a dtype");
    }
    return values_[i].u.dtype;
  }

  size_t capacity() const { return values_.size(); }
  bp_value* data() { return values_.data(); }
  size_t* count() { return &count_; }

 private:
  const bp_api* api_;
  std::vector<bp_value> values_;
  size_t count_ = 0;
};

// An op found by name ("add.Tensor"), callable boxed.
class Op {
 public:
  Op(const bp_api* api, const char* name) : api_(api) { check(api, api->op_find(name, &op_)); }

  Results call(std::initializer_list<bp_value> args, size_t max_results = 4) const {
    Results results(api_, max_results);
    check(api_, api_->op_call(op_, args.begin(), args.size(), results.data(), max_results,
                              results.count()));
    return results;
  }
  // As call, but returns the error instead of throwing.
  ErrorHandle try_call(std::initializer_list<bp_value> args, Results& results) const {
    return ErrorHandle(api_, api_->op_call(op_, args.begin(), args.size(), results.data(),
                                           results.capacity(), results.count()));
  }
  // Shapes and dtypes only (api->op_call_meta).
  Results call_meta(std::initializer_list<bp_value> args, size_t max_results = 4) const {
    Results results(api_, max_results);
    check(api_, api_->op_call_meta(op_, args.begin(), args.size(), results.data(), max_results,
                                   results.count()));
    return results;
  }
  const bp_op* get() const { return op_; }

 private:
  const bp_api* api_;
  const bp_op* op_ = nullptr;
};

// A kernel or fallback registration: undone on destruction (or by reset()).
class Registration {
 public:
  Registration() = default;
  Registration(const bp_api* api, bp_registration* r) : api_(api), registration_(r) {}
  Registration(Registration&& other) noexcept
      : api_(other.api_), registration_(std::exchange(other.registration_, nullptr)) {}
  Registration& operator=(Registration&& other) noexcept {
    reset();
    api_ = other.api_;
    registration_ = std::exchange(other.registration_, nullptr);
    return *this;
  }
  ~Registration() { reset(); }
  void reset() {
    if (registration_ != nullptr) api_->registration_destroy(std::exchange(registration_, nullptr));
  }

 private:
  const bp_api* api_ = nullptr;
  bp_registration* registration_ = nullptr;
};

// Lazy mode on the calling thread while alive (api->lazy_scope_begin, C ABI 0.5): pointwise and
// reduction calls are recorded and run fused (docs/fusion.md).
//
//   {
//     backplane::LazyScope lazy(api);
//     Tensor y = gelu.call({arg(add.call({arg(mul.call({arg(x), arg(w)}).tensor(0)), arg(b)})
//                              .tensor(0))}).tensor(0);     // pending
//     lazy.end();                                           // runs it; throws its error
//   }
//
// end() ends the scope and throws the run's error (Error); the destructor ends a scope still
// open and ignores the error, as destructors must. Errors (Error): BP_ERROR_NOT_IMPLEMENTED from
// a host older than 0.5.
class LazyScope {
 public:
  explicit LazyScope(const bp_api* api) : api_(api) {
    if (!BP_API_HAS(api, lazy_scope_begin)) {
      throw Error(BP_ERROR_NOT_IMPLEMENTED, "lazy scopes need a host of C ABI 0.5 or later");
    }
    check(api, api->lazy_scope_begin(&scope_));
  }
  LazyScope(const LazyScope&) = delete;
  LazyScope& operator=(const LazyScope&) = delete;
  ~LazyScope() {
    if (scope_ != nullptr) {
      const ErrorHandle ignored(api_, api_->lazy_scope_end(scope_));
    }
  }
  void end() { check(api_, api_->lazy_scope_end(std::exchange(scope_, nullptr))); }

 private:
  const bp_api* api_;
  bp_lazy_scope* scope_ = nullptr;
};

// An iteration plan (iter.h): one built with api->iter_build (destroyed with the object), or the
// plan the Common key built for a kernel call (borrowed from the host for the call):
//
//   const backplane::Plan own(api, {out.get()}, {a.get(), b.get()}, BP_ITER_BINARY_OP);
//   const backplane::Plan handed = backplane::Plan::of_call(api, args);  // in a kernel
//
// Typed kernels get the handed plan as a first `const backplane::Plan&` parameter.
class Plan {
 public:
  // Errors (Error): as api->iter_build.
  Plan(const bp_api* api, std::vector<bp_tensor*> outputs, std::vector<bp_tensor*> inputs,
       uint32_t flags)
      : api_(api), owned_(true) {
    bp_iter_config config{};
    config.struct_size = sizeof config;
    config.outputs = outputs.data();
    config.noutputs = outputs.size();
    config.inputs = inputs.data();
    config.ninputs = inputs.size();
    config.flags = flags;
    check(api, api->iter_build(&config, &iter_));
  }
  // The plan the host built for the kernel call that received `args` (api->kernel_call_iter, C
  // ABI 0.2): valid until the kernel returns. Errors (Error): as api->kernel_call_iter;
  // BP_ERROR_NOT_IMPLEMENTED also for a host older than 0.2.
  static Plan of_call(const bp_api* api, const bp_value* args) {
    if (!BP_API_HAS(api, kernel_call_iter)) {
      throw Error(BP_ERROR_NOT_IMPLEMENTED, "this host has no api->kernel_call_iter (C ABI 0.2)");
    }
    const bp_iter* iter = nullptr;
    check(api, api->kernel_call_iter(args, &iter));
    return Plan(api, const_cast<bp_iter*>(iter));
  }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    if (owned_) api_->iter_destroy(iter_);
  }

  bp_iter_info info() const {
    bp_iter_info info{};
    info.struct_size = sizeof info;
    check(api_, api_->iter_info(iter_, &info));
    return info;
  }
  bp_iter_operand operand(size_t i) const {
    bp_iter_operand op{};
    op.struct_size = sizeof op;
    check(api_, api_->iter_operand(iter_, i, &op));
    return op;
  }
  Tensor tensor(size_t i) const {
    bp_tensor* t = nullptr;
    check(api_, api_->iter_tensor(iter_, i, &t));
    return Tensor(api_, t);
  }
  // The handle (the host's for a handed plan: do not destroy it).
  bp_iter* get() const { return iter_; }
  // Whether the plan is the object's own (built with iter_build) rather than handed.
  bool owned() const { return owned_; }

 private:
  Plan(const bp_api* api, bp_iter* borrowed) : api_(api), iter_(borrowed), owned_(false) {}

  const bp_api* api_;
  bp_iter* iter_ = nullptr;
  bool owned_;
};

// ---- Streams ----------------------------------------------------------------------------------

// A stream (api->stream_*): created on a device by the constructor, synchronized and destroyed
// with the object (an error then is dropped: call reset() to see it). Streams borrowed from the
// host (the current or a default stream) are never destroyed.
//
//   backplane::Stream s(api, device);
//   {
//     backplane::StreamGuard guard(s);    // current on this thread for s's device
//     ... op calls: the backend's kernels enqueue on s
//   }                                     // the previous stream is current again
//   s.synchronize();
class Stream {
 public:
  Stream() = default;
  // A new stream on `device`. Errors: as api->stream_create.
  Stream(const bp_api* api, bp_device device) : api_(api), owned_(true) {
    check(api, api->stream_create(device, &stream_));
  }
  // This thread's current stream of `device` (borrowed).
  static Stream current(const bp_api* api, bp_device device) {
    bp_stream* s = nullptr;
    check(api, api->stream_current(device, &s));
    return borrow(api, s);
  }
  // A handle that does not destroy `stream`.
  static Stream borrow(const bp_api* api, bp_stream* stream) {
    Stream s;
    s.api_ = api;
    s.stream_ = stream;
    return s;
  }
  Stream(Stream&& other) noexcept
      : api_(other.api_),
        stream_(std::exchange(other.stream_, nullptr)),
        owned_(std::exchange(other.owned_, false)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      destroy_quietly();
      api_ = other.api_;
      stream_ = std::exchange(other.stream_, nullptr);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { destroy_quietly(); }

  // Synchronizes and destroys an owned stream now (a borrowed one is only let go). Errors: as
  // api->stream_destroy (the stream is gone even then).
  void reset() {
    bp_stream* s = std::exchange(stream_, nullptr);
    if (std::exchange(owned_, false)) check(api_, api_->stream_destroy(s));
  }

  void synchronize() const { check(api_, api_->stream_synchronize(stream_)); }
  // Work queued on this stream from now on waits for the work queued on `other` so far.
  void wait(const Stream& other) const { check(api_, api_->stream_wait(stream_, other.stream_)); }
  bool query() const {
    bool idle = false;
    check(api_, api_->stream_query(stream_, &idle));
    return idle;
  }
  // The backend's handle (NULL for default, CPU and Meta streams).
  void* native() const {
    void* n = nullptr;
    check(api_, api_->stream_native(stream_, nullptr, &n));
    return n;
  }
  bp_device device() const {
    bp_device d{};
    check(api_, api_->stream_native(stream_, &d, nullptr));
    return d;
  }

  bp_stream* get() const { return stream_; }
  const bp_api* api() const { return api_; }
  explicit operator bool() const { return stream_ != nullptr; }

 private:
  void destroy_quietly() noexcept {
    bp_stream* s = std::exchange(stream_, nullptr);
    if (std::exchange(owned_, false)) {
      const ErrorHandle dropped(api_, api_->stream_destroy(s));
    }
  }

  const bp_api* api_ = nullptr;
  bp_stream* stream_ = nullptr;
  bool owned_ = false;  // created here: destroyed with the object
};

// Makes a stream current for its device on this thread while alive, then restores the stream
// that was current before. Errors (in the constructor): as api->stream_set_current.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream) : StreamGuard(stream.api(), stream.get()) {}
  StreamGuard(const bp_api* api, bp_stream* stream) : api_(api) {
    check(api, api->stream_set_current(stream, &previous_));
  }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;
  // The previous stream must outlive the guard (restoring a destroyed one fails, and the error is
  // dropped).
  ~StreamGuard() { const ErrorHandle dropped(api_, api_->stream_set_current(previous_, nullptr)); }

  // The stream that was current before (borrowed).
  bp_stream* previous() const { return previous_; }

 private:
  const bp_api* api_;
  bp_stream* previous_ = nullptr;
};

// ---- Typed kernels ---------------------------------------------------------------------------

// A Scalar argument (BOOL, INT, DOUBLE or COMPLEX value) with conversions.
struct Scalar {
  bp_value value;
  bool is_integral() const { return value.tag == BP_VALUE_INT || value.tag == BP_VALUE_BOOL; }
  double to_double() const {
    switch (value.tag) {
      case BP_VALUE_BOOL:
        return value.u.b ? 1.0 : 0.0;
      case BP_VALUE_INT:
        return static_cast<double>(value.u.i);
      case BP_VALUE_DOUBLE:
        return value.u.d;
      default:
        throw Error(BP_ERROR_TYPE, "a complex Scalar has no real value");
    }
  }
  int64_t to_int() const {
    if (value.tag == BP_VALUE_INT) return value.u.i;
    if (value.tag == BP_VALUE_BOOL) return value.u.b ? 1 : 0;
    throw Error(BP_ERROR_TYPE, "the Scalar is not an integer");
  }
};

// Thrown by a typed kernel for a case its device does not handle (a dtype, a layout): the call
// then runs on the CPU through api->cpu_fallback, as if the backend had no kernel for the op.
struct RunOnCpu {};

// A list of ints (borrowed from the call).
struct IntList {
  const int64_t* data;
  size_t size;
};

namespace detail {

[[noreturn]] inline void wrong_argument(const char* expected) {
  throw Error(BP_ERROR_TYPE, std::string("typed kernel: an argument is not a ") + expected);
}

// Reads one boxed argument as the kernel's parameter type T.
template <typename T>
T read(const bp_api* api, const bp_value& v) {
  if constexpr (std::is_same_v<T, Tensor>) {
    if (v.tag != BP_VALUE_TENSOR || v.u.tensor == nullptr) wrong_argument("Tensor");
    return Tensor::borrow(api, v.u.tensor);
  } else if constexpr (std::is_same_v<T, std::optional<Tensor>>) {
    if (v.tag == BP_VALUE_NONE || (v.tag == BP_VALUE_TENSOR && v.u.tensor == nullptr)) {
      return std::nullopt;
    }
    return read<Tensor>(api, v);
  } else if constexpr (std::is_same_v<T, Scalar>) {
    if (v.tag < BP_VALUE_BOOL || v.tag > BP_VALUE_COMPLEX) wrong_argument("Scalar");
    return Scalar{v};
  } else if constexpr (std::is_same_v<T, bool>) {
    if (v.tag != BP_VALUE_BOOL) wrong_argument("bool");
    return v.u.b;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (v.tag != BP_VALUE_INT) wrong_argument("int");
    return v.u.i;
  } else if constexpr (std::is_same_v<T, double>) {
    if (v.tag != BP_VALUE_DOUBLE) wrong_argument("float");
    return v.u.d;
  } else if constexpr (std::is_same_v<T, IntList>) {
    if (v.tag != BP_VALUE_INT_LIST) wrong_argument("int[]");
    return IntList{v.u.ints.data, v.u.ints.size};
  } else if constexpr (std::is_same_v<T, bp_value>) {
    return v;
  } else {
    static_assert(sizeof(T) == 0,
                  "typed kernels take Tensor, std::optional<Tensor>, Scalar, "
                  "bool, int64_t, double, IntList or bp_value parameters");
  }
}

// Writes a typed kernel's result into `out`, which takes over its references.
inline void write_result(const bp_api*, Tensor& result, bp_value* out) {
  out->tag = BP_VALUE_TENSOR;
  out->u.tensor = result.release();
}
// A list (api->value_set_tensor_list); on an error the tensors keep their references.
inline void write_result(const bp_api* api, std::vector<Tensor>& result, bp_value* out) {
  if (!BP_API_HAS(api, value_set_tensor_list)) {
    throw Error(BP_ERROR_NOT_IMPLEMENTED,
                "typed kernel: this host has no api->value_set_tensor_list for list results");
  }
  std::vector<bp_tensor*> handles;
  handles.reserve(result.size());
  for (const Tensor& t : result) handles.push_back(t.get());
  check(api, api->value_set_tensor_list(out, handles.data(), handles.size()));
  for (Tensor& t : result) t.release();  // the list holds the references now
}

template <auto Fn>
struct TypedKernel;

// Whether a typed kernel's parameters (after the api) start with `const Plan&`.
template <typename... A>
struct TakesPlan : std::false_type {};
template <typename... A>
struct TakesPlan<const Plan&, A...> : std::true_type {};

template <typename R, typename... A, R (*Fn)(const bp_api*, A...)>
struct TypedKernel<Fn> {
  static_assert(std::is_void_v<R> || std::is_same_v<R, Tensor> ||
                    std::is_same_v<R, std::vector<Tensor>>,
                "typed kernels return Tensor, std::vector<Tensor> or nothing");
  static constexpr bool kTakesPlan = TakesPlan<A...>::value;
  // The op's arguments the kernel takes (a leading Plan is not one).
  static constexpr size_t kArity = sizeof...(A) - (kTakesPlan ? 1 : 0);
  template <size_t I>
  using Param = std::decay_t<std::tuple_element_t<I + (kTakesPlan ? 1 : 0), std::tuple<A...>>>;

  static bp_error* call(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                        bp_value* results, size_t nresults) {
    const bp_api* api = static_cast<const bp_api*>(user_data);
    try {
      if (nargs != kArity) {
        return api->error_create(BP_ERROR_INTERNAL,
                                 ("typed kernel takes " + std::to_string(kArity) +
                                  " arguments but the op has " + std::to_string(nargs))
                                     .c_str());
      }
      invoke(api, args, results, nresults, std::make_index_sequence<kArity>{});
      return nullptr;
    } catch (const RunOnCpu&) {
      return api->cpu_fallback(nullptr, op, args, nargs, results, nresults);  // results unset
    } catch (const Error& e) {
      return api->error_create(e.code(), e.what());
    } catch (const std::exception& e) {
      return api->error_create(BP_ERROR_INTERNAL, e.what());
    } catch (...) {
      return api->error_create(BP_ERROR_INTERNAL, "unknown C++ exception in a typed kernel");
    }
  }

  template <size_t... I>
  static void invoke(const bp_api* api, const bp_value* args, bp_value* results, size_t nresults,
                     std::index_sequence<I...>) {
    if constexpr (std::is_void_v<R>) {
      run(api, args, std::index_sequence<I...>{});
    } else {
      R result = run(api, args, std::index_sequence<I...>{});
      if (nresults < 1) throw Error(BP_ERROR_INTERNAL, "the op has no result for the tensor");
      write_result(api, result, &results[0]);
    }
  }

  template <size_t... I>
  static R run(const bp_api* api, const bp_value* args, std::index_sequence<I...>) {
    if constexpr (kTakesPlan) {
      const Plan plan = Plan::of_call(api, args);
      return Fn(api, plan, read<Param<I>>(api, args[I])...);
    } else {
      return Fn(api, read<Param<I>>(api, args[I])...);
    }
  }
};

}  // namespace detail

// Registers `Fn`, a function `Tensor fn(const bp_api*, Args...)` (or returning
// std::vector<Tensor> for a `Tensor[]` result, through api->value_set_tensor_list, or void) whose
// parameters follow the op's schema, as the backend's kernel for `op_name`. A first parameter
// `const Plan&` receives the Common key's plan for the call (Plan::of_call; its error fails the
// call): `Tensor add_out(const bp_api*, const Plan&, Tensor self, Tensor other, Scalar alpha,
// Tensor out)`. `Fn` may throw Error (the call fails with its code and message) or RunOnCpu (the
// call runs on the CPU).
template <auto Fn>
Registration register_kernel(const bp_api* api, bp_backend* backend, const char* op_name) {
  bp_registration* r = nullptr;
  check(api, api->kernel_register(backend, op_name, &detail::TypedKernel<Fn>::call,
                                  const_cast<bp_api*>(api), &r));
  return Registration(api, r);
}

}  // namespace backplane

#pragma GCC visibility pop

#endif  // BACKPLANE_BACKPLANE_HPP_
