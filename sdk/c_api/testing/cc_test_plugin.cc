// A test plugin written in C++ with the header-only wrapper (backplane.hpp): a "ccplug" device
// in host RAM with a typed neg.out kernel, a typed list kernel for test_list::split_halves where
// that op is defined, and the CPU fallback for everything else. Its exported symbols are checked
// (wrapper_symbols_test): the wrapper adds none.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backplane/backplane.hpp"

namespace {

const bp_api* api = nullptr;
bp_backend* backend = nullptr;
std::vector<backplane::Registration>* registrations = nullptr;

bp_error* allocate(void*, bp_device, size_t nbytes, void** out) {
  *out = std::malloc(nbytes == 0 ? 1 : nbytes);
  return *out != nullptr ? nullptr : api->error_create(BP_ERROR_OUT_OF_MEMORY, "ccplug: OOM");
}

void deallocate(void*, bp_device, void* ptr) { std::free(ptr); }

bp_error* to_host(void*, void* dst, const void* src, bp_device, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}

bp_error* from_host(void*, void* dst, bp_device, const void* src, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}

bp_error* within_device(void*, void* dst, bp_device, const void* src, bp_device, size_t n) {
  std::memmove(dst, src, n);
  return nullptr;
}

// neg.out for contiguous float32 and float64; other dtypes and layouts go to the CPU.
backplane::Tensor neg_out(const bp_api* host, backplane::Tensor self, backplane::Tensor out) {
  const bp_tensor_info in = self.info(), o = out.info();
  bool contiguous = false;
  backplane::check(
      host, host->tensor_is_contiguous(self.get(), BP_MEMORY_FORMAT_CONTIGUOUS, &contiguous));
  if (in.dtype == BP_DTYPE_FLOAT32 && o.dtype == BP_DTYPE_FLOAT32 && contiguous) {
    const float* x = static_cast<const float*>(in.data);
    float* y = static_cast<float*>(o.data);
    for (int64_t i = 0; i < in.numel; ++i) y[i] = -x[i];
    return out;
  }
  throw backplane::Error(BP_ERROR_NOT_IMPLEMENTED, "ccplug: only contiguous float32");
}

// test_list::split_halves (an op only list_results_test defines): the halves of a 1-d float32
// tensor, returned as a list through the wrapper (std::vector<Tensor>).
std::vector<backplane::Tensor> split_halves(const bp_api* host, backplane::Tensor self) {
  const std::vector<float> x = self.to_host<float>();
  auto part = [&](size_t begin, size_t end) {
    return backplane::Tensor::from_host<float>(
        host, std::vector<float>(x.begin() + begin, x.begin() + end),
        {static_cast<int64_t>(end - begin)}, self.device());
  };
  return {part(0, x.size() / 2), part(x.size() / 2, x.size())};
}

void unload(void*) {
  delete registrations;  // undoes the registrations before the host drops the backend
  registrations = nullptr;
}

}  // namespace

extern "C" BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  if (!bp_plugin_begin(host, desc, "ccplug")) return nullptr;
  api = host;
  desc->unload = &unload;
  static bp_allocator allocator = {sizeof(bp_allocator), nullptr, 0, &allocate, &deallocate};
  static bp_copy_fns copies = {sizeof(bp_copy_fns), nullptr,        &to_host,
                               &from_host,          &within_device, nullptr};
  bp_backend_desc backend_desc{};
  backend_desc.struct_size = sizeof backend_desc;
  backend_desc.name = "ccplug";
  backend_desc.allocator = &allocator;
  backend_desc.copies = &copies;
  try {
    backplane::check(host, host->backend_register(&backend_desc, &backend));
    registrations = new std::vector<backplane::Registration>();
    registrations->push_back(backplane::register_kernel<&neg_out>(host, backend, "neg.out"));
    const bp_op* split = nullptr;
    const backplane::ErrorHandle no_split(host, host->op_find("test_list::split_halves", &split));
    if (!no_split) {
      registrations->push_back(
          backplane::register_kernel<&split_halves>(host, backend, "test_list::split_halves"));
    }
    bp_registration* fallback = nullptr;
    backplane::check(host,
                     host->fallback_register(backend, host->cpu_fallback, nullptr, &fallback));
    registrations->emplace_back(host, fallback);
  } catch (const backplane::Error& e) {
    return host->error_create(e.code(), e.what());
  }
  return nullptr;
}
