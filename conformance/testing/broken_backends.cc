#include "conformance/testing/broken_backends.h"

#include <csignal>

#include "conformance/framework/ref_tensor.h"
#include "sdk/core/error.h"
#include "sdk/core/result_type.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"
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

Wide add(const Wide& a, const Wide& b, const Scalar& alpha, ScalarType t) {
  switch (kind_of(t)) {
    case Kind::kInt:
      return from_int(Int(a.i) + Int(alpha.to_unchecked<int64_t>()) * Int(b.i));
    case Kind::kReal:
      return from_real(a.z.real() + alpha.to_unchecked<double>() * b.z.real());
    case Kind::kComplex: {
      const complex<double> w = alpha.to_unchecked<complex<double>>();
      return from_complex(a.z + cd(w.real(), w.imag()) * b.z);
    }
  }
  return a;
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

const Defect kDefects[] = {Defect::kNone,           Defect::kWrongValuesInt32,
                           Defect::kIgnoresStrides, Defect::kWritesPastOutput,
                           Defect::kModifiesInput,  Defect::kWrongOutputShape,
                           Defect::kCrashes,        Defect::kSupportsNothing};

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
  }
  return "";
}

std::unique_ptr<PluginBackend> make_test_backend(Defect d) {
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
    f.push_back({defect_backend_name(d), describe(d),
                 [d]() -> std::unique_ptr<Backend> { return make_test_backend(d); }});
  }
  return f;
}

}  // namespace bp::conformance
