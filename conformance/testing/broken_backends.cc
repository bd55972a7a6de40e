#include "conformance/testing/broken_backends.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "backplane/backplane.h"
#include "conformance/framework/ref_tensor.h"
#include "conformance/runner/transfer_counters.h"
#include "sdk/core/error.h"
#include "sdk/core/result_type.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/dispatch/cpu_fallback.h"
#include "sdk/dispatch/kernel.h"

namespace bp::conformance {
namespace {

// The element of `t` (broadcast to `index`'s rank) at `index`, reading through `strides`.
Wide element(const Tensor& t, const Index& index, const Sizes& strides) {
  const size_t lead = index.size() - static_cast<size_t>(t.dim());
  int64_t offset = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] != 1) offset += index[lead + d] * strides[d];
  }
  const int64_t elements = static_cast<int64_t>(t.storage().nbytes() / t.itemsize());
  offset = elements == 0 ? 0 : offset % elements;  // stay inside the storage whatever the defect
  return read_element(static_cast<const char*>(t.storage().data()) + offset * t.itemsize(),
                      t.dtype());
}

// a + alpha * b in the kind of `t`.
Wide add(const Wide& a, const Wide& b, const Scalar& alpha, ScalarType t) {
  Wide w;
  switch (kind_of(t)) {
    case Kind::kInt:
      w = from_int(Int(alpha.to_unchecked<int64_t>()));
      break;
    case Kind::kReal:
      w = from_real(alpha.to_unchecked<double>());
      break;
    case Kind::kComplex: {
      const complex<double> c = alpha.to_unchecked<complex<double>>();
      w = from_complex(cd(c.real(), c.imag()));
      break;
    }
  }
  return conformance::add(a, mul(w, b, t), t);
}

// out = self + alpha * other, elementwise with broadcasting, on host memory.
void compute_add(Defect d, const Tensor& self, const Tensor& other, const Scalar& alpha,
                 const Tensor& out) {
  const ScalarType compute = promoted_dtype(self, other);
  auto strides = [&](const Tensor& t) {
    return d == Defect::kIgnoresStrides
               ? contiguous_strides_of(Sizes(t.sizes().begin(), t.sizes().end()))
               : Sizes(t.strides().begin(), t.strides().end());
  };
  const Sizes self_strides = strides(self), other_strides = strides(other);
  auto* base = static_cast<char*>(out.storage().data());
  for_each_index(Sizes(out.sizes().begin(), out.sizes().end()), [&](const Index& i) {
    const Wide a = cast(element(self, i, self_strides), self.dtype(), compute);
    const Wide b = cast(element(other, i, other_strides), other.dtype(), compute);
    Wide r = add(a, b, alpha, compute);
    if (d == Defect::kWrongValuesInt32 && compute == ScalarType::kInt32) r.i += 1;
    int64_t offset = out.storage_offset();
    for (size_t k = 0; k < i.size(); ++k) offset += i[k] * out.strides()[k];
    write_element(base + offset * out.itemsize(), out.dtype(), cast(r, compute, out.dtype()));
  });
  if (d == Defect::kWritesPastOutput) {
    const int64_t past = out.storage_offset() + out.numel();
    if ((past + 1) * static_cast<int64_t>(out.itemsize()) <=
        static_cast<int64_t>(out.storage().nbytes())) {
      write_element(base + past * out.itemsize(), out.dtype(), from_int(Int(7)));
    }
  }
  if (d == Defect::kWritesPastCommonOutput) {
    // Past the last element whatever the storage holds: a real overrun when the storage ends
    // there (an output the Common key allocated).
    const int64_t past = out.storage_offset() + out.numel();
    write_element(base + past * out.itemsize(), out.dtype(), from_int(Int(7)));
  }
  if (d == Defect::kModifiesInput && self.numel() > 0) {
    auto* p = static_cast<char*>(self.storage().data()) + self.storage_offset() * self.itemsize();
    *p = static_cast<char>(*p ^ 0x55);
  }
}

// Boxed add.out: (self, other, alpha, out) -> out.
void add_out_kernel(void* user_data, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  const Defect d = *static_cast<const Defect*>(user_data);
  if (d == Defect::kCrashes) std::raise(SIGSEGV);
  Stack& s = *stack;
  const size_t n = s.size();
  Tensor out = s[n - 1].ref<Tensor>();
  compute_add(d, s[n - 4].ref<Tensor>(), s[n - 3].ref<Tensor>(), s[n - 2].to<Scalar>(), out);
  s.resize(n - 4);
  s.emplace_back(out);
}

// Boxed add.Tensor of the wrong-shape backend: right values, returned flattened.
void add_flattened_kernel(void* user_data, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  const Defect d = *static_cast<const Defect*>(user_data);
  Stack& s = *stack;
  const size_t n = s.size();
  const Tensor self = s[n - 3].ref<Tensor>(), other = s[n - 2].ref<Tensor>();
  Sizes shape;
  const Sizes a(self.sizes().begin(), self.sizes().end()),
      b(other.sizes().begin(), other.sizes().end());
  // No shared meta function runs before this kernel: it checks the shapes itself.
  BP_CHECK(broadcast_sizes(a, b, &shape), "The size of tensor a must match the size of tensor b");
  const ScalarType dtype = promoted_dtype(self, other);
  Storage storage = Storage::allocate(static_cast<size_t>(numel_of(shape)) * element_size(dtype),
                                      self.storage().allocator());
  Tensor out(IntrusivePtr<TensorImpl>::make(storage, dtype, IntArrayRef(shape),
                                            IntArrayRef(contiguous_strides_of(shape)), 0));
  compute_add(d, self, other, s[n - 1].to<Scalar>(), out);
  const Sizes flat = {numel_of(shape)};
  Tensor flattened(
      IntrusivePtr<TensorImpl>::make(storage, dtype, IntArrayRef(flat), IntArrayRef(Sizes{1}), 0));
  s.resize(n - 3);
  s.emplace_back(flattened);
}

const Defect kDefects[] = {Defect::kNone,
                           Defect::kWrongValuesInt32,
                           Defect::kIgnoresStrides,
                           Defect::kWritesPastOutput,
                           Defect::kModifiesInput,
                           Defect::kWrongOutputShape,
                           Defect::kCrashes,
                           Defect::kSupportsNothing,
                           Defect::kWritesPastCommonOutput,
                           Defect::kAllocatorReturnsNull,
                           Defect::kReleasesBorrowed,
                           Defect::kLeaksTensor,
                           Defect::kCKernelCallsFallback};
static_assert(sizeof kDefects / sizeof kDefects[0] ==
                  static_cast<size_t>(Defect::kCKernelCallsFallback) + 1,
              "kDefects lists every Defect in order");

std::string describe(Defect d) {
  switch (d) {
    case Defect::kNone:
      return "a correct plugin backend: every op runs through the CPU fallback";
    case Defect::kWrongValuesInt32:
      return "broken: add.out is off by one in int32";
    case Defect::kIgnoresStrides:
      return "broken: add.out reads its inputs as if they were contiguous";
    case Defect::kWritesPastOutput:
      return "broken: add.out writes one element past its output";
    case Defect::kModifiesInput:
      return "broken: add.out overwrites the first element of self";
    case Defect::kWrongOutputShape:
      return "broken: add.Tensor returns its result flattened";
    case Defect::kCrashes:
      return "broken: add.out raises SIGSEGV";
    case Defect::kSupportsNothing:
      return "broken: registers no kernel";
    case Defect::kWritesPastCommonOutput:
      return "broken: add.out writes one element past its output, past its storage too";
    case Defect::kAllocatorReturnsNull:
      return "broken (C ABI): the allocator returns NULL for add.out's workspace";
    case Defect::kReleasesBorrowed:
      return "broken (C ABI): add.out releases its borrowed argument self";
    case Defect::kLeaksTensor:
      return "broken (C ABI): add.out leaks a tensor per call";
    case Defect::kCKernelCallsFallback:
      return "a correct C ABI backend: its add.out kernel hands every call to api->cpu_fallback";
  }
  return "";
}

}  // namespace

std::string defect_backend_name(Defect d) {
  switch (d) {
    case Defect::kNone:
      return "fallback";
    case Defect::kWrongValuesInt32:
      return "wrong_values_int32";
    case Defect::kIgnoresStrides:
      return "ignores_strides";
    case Defect::kWritesPastOutput:
      return "writes_past_output";
    case Defect::kModifiesInput:
      return "modifies_input";
    case Defect::kWrongOutputShape:
      return "wrong_output_shape";
    case Defect::kCrashes:
      return "crashes";
    case Defect::kSupportsNothing:
      return "supports_nothing";
    case Defect::kWritesPastCommonOutput:
      return "writes_past_common_output";
    case Defect::kAllocatorReturnsNull:
      return "allocator_returns_null";
    case Defect::kReleasesBorrowed:
      return "releases_borrowed";
    case Defect::kLeaksTensor:
      return "leaks_tensor";
    case Defect::kCKernelCallsFallback:
      return "c_kernel_fallback";
  }
  return "";
}

std::unique_ptr<PluginBackend> make_test_backend(Defect d) {
  if (is_c_abi_defect(d)) {
    throw std::invalid_argument(defect_backend_name(d) +
                                " is a C ABI test backend: make_c_abi_test_backend");
  }
  auto backend = std::make_unique<PluginBackend>(defect_backend_name(d), describe(d));
  // The kernels' user data: one static Defect per kind (outlives every registration).
  void* defect = const_cast<Defect*>(&kDefects[static_cast<int>(d)]);
  Library& lib = backend->library();
  switch (d) {
    case Defect::kNone:
      lib.fallback(backend->key(), KernelFunction::make_from_boxed(&cpu_fallback), "cpu_fallback");
      break;
    case Defect::kSupportsNothing:
      break;
    case Defect::kWrongOutputShape:
      lib.impl("add.Tensor", backend->key(),
               KernelFunction::make_from_boxed(&add_flattened_kernel, defect), "add_flattened");
      [[fallthrough]];
    default:
      lib.impl("add.out", backend->key(), KernelFunction::make_from_boxed(&add_out_kernel, defect),
               "broken_add_out");
  }
  return backend;
}

BackendFactories test_backend_factories() {
  BackendFactories f = {cpu_backend_factory()};
  for (Defect d : kDefects) {
    f.push_back({defect_backend_name(d), describe(d), [d]() -> std::unique_ptr<Backend> {
                   if (is_c_abi_defect(d)) return make_c_abi_test_backend(d);
                   return make_test_backend(d);
                 }});
  }
  return f;
}

// ---- C ABI test backends -------------------------------------------------------------------

namespace {

const bp_api* api() { return bp_get_api(); }

// The tensors kLeaksTensor's add.out created and did not release during its calls: kept here,
// as a plugin's cache would, and released when the backend goes (the process leaks nothing).
struct Leaked {
  std::mutex mutex;
  std::vector<bp_tensor*> tensors;
};
Leaked& leaked_tensors() {
  static Leaked* l = new Leaked();
  return *l;
}

// Set by kAllocatorReturnsNull's add.out while it asks for its workspace.
thread_local bool tls_allocator_returns_null = false;

bp_error* host_allocate(void*, bp_device, size_t nbytes, void** out) {
  if (tls_allocator_returns_null && nbytes > 0) {
    *out = nullptr;  // the defect: no memory and no error
    return nullptr;
  }
  *out = std::aligned_alloc(64, ((nbytes == 0 ? 1 : nbytes) + 63) / 64 * 64);
  return *out != nullptr ? nullptr : api()->error_create(BP_ERROR_OUT_OF_MEMORY, "out of memory");
}
void host_deallocate(void*, bp_device, void* ptr) { std::free(ptr); }
bp_error* host_to_host(void*, void* dst, const void* src, bp_device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
  return nullptr;
}
bp_error* host_from_host(void*, void* dst, bp_device, const void* src, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
  return nullptr;
}
bp_error* host_within(void*, void* dst, bp_device, const void* src, bp_device, size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
  return nullptr;
}

// add.out (self, other, alpha, out) -> out: the host's CPU fallback computes it, around the
// defect.
bp_error* c_add_out(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                    bp_value* results, size_t nresults) {
  const Defect d = *static_cast<const Defect*>(user_data);
  bp_tensor_info self{};
  self.struct_size = sizeof self;
  if (bp_error* e = api()->tensor_info(args[0].u.tensor, &self)) return e;
  if (d == Defect::kAllocatorReturnsNull) {
    const int64_t sizes[1] = {self.numel};
    bp_tensor* workspace = nullptr;
    tls_allocator_returns_null = true;
    bp_error* e = api()->tensor_empty(sizes, 1, self.dtype, self.device, &workspace);
    tls_allocator_returns_null = false;
    if (e != nullptr) return e;
    bp_tensor_info w{};
    w.struct_size = sizeof w;
    e = api()->tensor_info(workspace, &w);
    if (e == nullptr && w.numel > 0) static_cast<char*>(w.data)[0] = 0;  // NULL: SIGSEGV
    api()->tensor_release(workspace);
    if (e != nullptr) return e;
  }
  if (bp_error* e = api()->cpu_fallback(nullptr, op, args, nargs, results, nresults)) return e;
  if (d == Defect::kReleasesBorrowed) api()->tensor_release(args[0].u.tensor);
  if (d == Defect::kLeaksTensor) {
    const int64_t two[1] = {2};
    bp_tensor* leaked = nullptr;
    if (bp_error* e = api()->tensor_empty(two, 1, BP_DTYPE_FLOAT32, self.device, &leaked)) return e;
    Leaked& l = leaked_tensors();
    std::lock_guard<std::mutex> lock(l.mutex);
    l.tensors.push_back(leaked);  // not released before the call returns
  }
  return nullptr;
}

// Throws `what` with the error's message, destroying the error.
void check(bp_error* error, const std::string& what) {
  if (error == nullptr) return;
  std::string message = what + ": " + api()->error_message(error);
  api()->error_destroy(error);
  throw std::runtime_error(message);
}

class CAbiTestBackend final : public CAbiBackend {
 public:
  explicit CAbiTestBackend(Defect d) : name_(defect_backend_name(d)), description_(describe(d)) {
    static const bp_allocator allocator{sizeof(bp_allocator), nullptr, 64, &host_allocate,
                                        &host_deallocate};
    static const bp_copy_fns copies{sizeof(bp_copy_fns), nullptr,      &host_to_host,
                                    &host_from_host,     &host_within, nullptr};
    bp_backend_desc desc{};
    desc.struct_size = sizeof desc;
    desc.name = name_.c_str();
    desc.device_count = 1;
    desc.allocator = &allocator;
    desc.copies = &copies;
    check(api()->backend_register(&desc, &backend_), "registering backend " + name_);
    try {
      int32_t type = 0;
      check(api()->backend_device_type(backend_, &type), "backend " + name_);
      device_ = Device(static_cast<DeviceType>(type), 0);
      const std::optional<bp::Backend> registered = find_backend(name_);
      if (!registered) throw std::runtime_error("backend " + name_ + " is not registered");
      key_ = registered->key;
      void* defect = const_cast<Defect*>(&kDefects[static_cast<int>(d)]);
      bp_registration* registration = nullptr;
      check(api()->kernel_register(backend_, "add.out", &c_add_out, defect, &registration),
            "registering add.out");
      check(api()->fallback_register(backend_, api()->cpu_fallback, nullptr, &registration),
            "registering the fallback");
      count_transfers(device_.type);
    } catch (...) {
      api()->error_destroy(api()->backend_unregister(backend_));
      throw;
    }
  }
  // Unregisters the backend (and with it its kernels).
  ~CAbiTestBackend() override {
    {
      Leaked& l = leaked_tensors();
      std::lock_guard<std::mutex> lock(l.mutex);
      for (bp_tensor* t : l.tensors) api()->tensor_release(t);
      l.tensors.clear();
    }
    stop_counting_transfers(device_.type);
    api()->error_destroy(api()->backend_unregister(backend_));
  }

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  Device device() const override { return device_; }
  DispatchKey key() const override { return key_; }
  Transfers transfers() const override { return transfers_of(device_.type); }

 private:
  std::string name_;
  std::string description_;
  bp_backend* backend_ = nullptr;
  Device device_;
  DispatchKey key_ = DispatchKey::kUndefined;
};

}  // namespace

bool is_c_abi_defect(Defect d) {
  return d == Defect::kAllocatorReturnsNull || d == Defect::kReleasesBorrowed ||
         d == Defect::kLeaksTensor || d == Defect::kCKernelCallsFallback;
}

std::unique_ptr<CAbiBackend> make_c_abi_test_backend(Defect d) {
  if (!is_c_abi_defect(d)) {
    throw std::invalid_argument(defect_backend_name(d) +
                                " is not a C ABI test backend: make_test_backend");
  }
  return std::make_unique<CAbiTestBackend>(d);
}

}  // namespace bp::conformance
