// The C sample plugin's device (samples/c_plugin/toy_plugin.c) written in C++ with the
// header-only wrapper backplane/backplane.hpp: typed kernels (parameters in the op's schema
// order, after the iteration plan the host's Common key built for the call; exceptions turned
// into errors) and RAII registrations. The backend is "toycc": memory from a heap of its own,
// add.out and mul.out for float32 and float64, the rest through the host's Common key and CPU
// fallback.
//
// Test it with the conformance suite:
//   backplane-conformance --backend path/to/libtoy_cpp_plugin.so --ops add,mul
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backplane/backplane.hpp"

namespace {

using backplane::Plan;
using backplane::Scalar;
using backplane::Tensor;

const bp_api* api = nullptr;

// ---- Device memory and copies --------------------------------------------------------------

constexpr size_t kAlignment = 64;

bp_error* allocate(void*, bp_device, size_t nbytes, void** out) {
  // aligned_alloc wants a multiple of the alignment (and at least one byte).
  const size_t rounded = (nbytes + kAlignment) / kAlignment * kAlignment;
  *out = std::aligned_alloc(kAlignment, rounded);
  return *out != nullptr ? nullptr : api->error_create(BP_ERROR_OUT_OF_MEMORY, "out of memory");
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

// ---- Kernels ------------------------------------------------------------------------------

// out = f(a, b) over the plan of out, a and b, every operand of dtype T.
template <typename T, typename F>
void run_binary(const Plan& plan, F f) {
  const bp_iter_info info = plan.info();
  const bp_iter_operand ops[3] = {plan.operand(0), plan.operand(1), plan.operand(2)};
  std::vector<int64_t> index(info.ndim, 0);  // fastest dimension first
  for (int64_t n = 0; n < info.numel; ++n) {
    char* p[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = static_cast<char*>(ops[k].data);
      for (size_t d = 0; d < info.ndim; ++d) p[k] += index[d] * ops[k].strides[d];
    }
    T a, b;
    std::memcpy(&a, p[1], sizeof a);
    std::memcpy(&b, p[2], sizeof b);
    const T r = f(a, b);
    std::memcpy(p[0], &r, sizeof r);
    for (size_t d = 0; d < info.ndim && ++index[d] == info.shape[d]; ++d) index[d] = 0;
  }
}

// Runs `f` on the plan in float32 or float64; other dtypes (or mixed ones: the plan does not
// convert operands off the CPU) run on the CPU.
template <typename F>
void dispatch_float(const Plan& plan, F f) {
  const bp_iter_info info = plan.info();
  for (size_t k = 0; k < info.ntensors; ++k) {
    if (plan.operand(k).dtype != info.common_dtype) throw backplane::RunOnCpu();
  }
  switch (info.common_dtype) {
    case BP_DTYPE_FLOAT32:
      return run_binary<float>(plan, f);
    case BP_DTYPE_FLOAT64:
      return run_binary<double>(plan, f);
    default:
      throw backplane::RunOnCpu();
  }
}

// add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!), over the
// plan of out, self and other that add's meta function built (api->kernel_call_iter).
Tensor add_out(const bp_api*, const Plan& plan, Tensor, Tensor, Scalar alpha, Tensor out) {
  if (alpha.value.tag == BP_VALUE_COMPLEX) throw backplane::RunOnCpu();
  const double a = alpha.to_double();
  dispatch_float(plan, [a](auto x, auto y) { return x + static_cast<decltype(x)>(a) * y; });
  return out;
}

// mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor mul_out(const bp_api*, const Plan& plan, Tensor, Tensor, Tensor out) {
  dispatch_float(plan, [](auto x, auto y) { return x * y; });
  return out;
}

// ---- Entry point ----------------------------------------------------------------------------

// What the plugin registered: undone at unload, before the host drops the backend.
std::unique_ptr<std::vector<backplane::Registration>> registrations;

void unload(void*) { registrations.reset(); }

}  // namespace

extern "C" BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  if (!bp_plugin_begin(host, desc, "toycc")) return nullptr;
  api = host;
  desc->unload = &unload;
  static bp_allocator allocator = {sizeof(bp_allocator), nullptr, kAlignment, &allocate,
                                   &deallocate};
  static bp_copy_fns copies = {sizeof(bp_copy_fns), nullptr,        &to_host,
                               &from_host,          &within_device, nullptr};
  bp_backend_desc backend_desc{};
  backend_desc.struct_size = sizeof backend_desc;
  backend_desc.name = "toycc";
  backend_desc.allocator = &allocator;
  backend_desc.copies = &copies;
  try {
    bp_backend* backend = nullptr;
    backplane::check(host, host->backend_register(&backend_desc, &backend));
    registrations = std::make_unique<std::vector<backplane::Registration>>();
    registrations->push_back(backplane::register_kernel<&add_out>(host, backend, "add.out"));
    registrations->push_back(backplane::register_kernel<&mul_out>(host, backend, "mul.out"));
    bp_registration* fallback = nullptr;
    backplane::check(host,
                     host->fallback_register(backend, host->cpu_fallback, nullptr, &fallback));
    registrations->emplace_back(host, fallback);
  } catch (const backplane::Error& e) {
    registrations.reset();
    return host->error_create(e.code(), e.what());
  }
  return nullptr;
}
