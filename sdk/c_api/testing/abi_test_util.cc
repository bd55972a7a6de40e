#include "sdk/c_api/testing/abi_test_util.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace backplane::testing {
namespace {

std::atomic<int64_t> host_allocations{0};

bp_error* host_allocate(void*, bp_device, size_t nbytes, void** out) {
  *out = std::malloc(nbytes == 0 ? 1 : nbytes);
  if (*out == nullptr) return api()->error_create(BP_ERROR_OUT_OF_MEMORY, "host backend: OOM");
  ++host_allocations;
  return nullptr;
}

void host_deallocate(void*, bp_device, void* ptr) {
  std::free(ptr);
  --host_allocations;
}

bp_error* host_to_host(void*, void* dst, const void* src, bp_device, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}

bp_error* host_from_host(void*, void* dst, bp_device, const void* src, size_t n) {
  std::memcpy(dst, src, n);
  return nullptr;
}

bp_error* host_within(void*, void* dst, bp_device, const void* src, bp_device, size_t n) {
  std::memmove(dst, src, n);
  return nullptr;
}

template <typename T>
void fill_as(void* data, int64_t n, int seed) {
  T* p = static_cast<T*>(data);
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>((i * 7 + seed) % 11 - 3);
}

}  // namespace

const bp_api* api() { return bp_get_api(); }

std::string plugin_path(std::string_view file) { return "sdk/c_api/testing/" + std::string(file); }

size_t itemsize(int32_t dtype) { return static_cast<size_t>((dtype >> 8) & 0xff) / 8; }

std::string dtype_name(int32_t dtype) {
  switch (dtype) {
    case BP_DTYPE_BOOL:
      return "bool";
    case BP_DTYPE_UINT8:
      return "uint8";
    case BP_DTYPE_INT8:
      return "int8";
    case BP_DTYPE_INT16:
      return "int16";
    case BP_DTYPE_INT32:
      return "int32";
    case BP_DTYPE_INT64:
      return "int64";
    case BP_DTYPE_FLOAT16:
      return "float16";
    case BP_DTYPE_BFLOAT16:
      return "bfloat16";
    case BP_DTYPE_FLOAT32:
      return "float32";
    case BP_DTYPE_FLOAT64:
      return "float64";
    case BP_DTYPE_COMPLEX64:
      return "complex64";
    case BP_DTYPE_COMPLEX128:
      return "complex128";
    default:
      return "dtype" + std::to_string(dtype);
  }
}

Tensor filled(int32_t dtype, const std::vector<int64_t>& sizes, int seed) {
  // Built as float64 on the CPU and converted by the host's copy_ (every dtype, exact values).
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> values(static_cast<size_t>(n));
  fill_as<double>(values.data(), n, seed);
  Tensor source = Tensor::from_host<double>(api(), values, sizes);
  Tensor result = Tensor::empty(api(), sizes, dtype);
  Op(api(), "copy_").call({arg(result), arg(source)});
  return result;
}

std::vector<uint8_t> bytes_of(const Tensor& t) {
  std::vector<uint8_t> out(static_cast<size_t>(t.numel()) * itemsize(t.dtype()));
  check(api(), api()->tensor_to_host(t.get(), out.data(), out.size()));
  return out;
}

Tensor copy_to(const Tensor& t, bp_device device) {
  const std::vector<uint8_t> bytes = bytes_of(t);
  const std::vector<int64_t> sizes = t.sizes();
  bp_tensor* out = nullptr;
  check(api(), api()->tensor_from_host(bytes.data(), bytes.size(), sizes.data(), sizes.size(),
                                       t.dtype(), device, &out));
  return Tensor(api(), out);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

void use_host_memory_hooks(bp_backend_desc& desc) {
  static const bp_allocator allocator = {sizeof(bp_allocator), nullptr, 0, &host_allocate,
                                         &host_deallocate};
  static const bp_copy_fns copies = {sizeof(bp_copy_fns), nullptr,      &host_to_host,
                                     &host_from_host,     &host_within, nullptr};
  desc.allocator = &allocator;
  desc.copies = &copies;
}

HostBackend::HostBackend(const char* name, int32_t device_count) {
  bp_backend_desc desc{};
  desc.struct_size = sizeof desc;
  desc.name = name;
  desc.device_count = device_count;
  use_host_memory_hooks(desc);
  check(api(), api()->backend_register(&desc, &backend_));
  check(api(), api()->backend_device_type(backend_, &device_type_));
}

HostBackend::~HostBackend() {
  const ErrorHandle error(api(), api()->backend_unregister(backend_));
  if (error) std::abort();  // a test bug: the backend was unregistered twice
}

int64_t HostBackend::live_allocations() const { return host_allocations.load(); }

namespace {

struct BackendSearch {
  std::string name;
  bool found = false;
  bp_device device{};
};

void match_backend(void* user_data, const bp_backend_info* info) {
  auto* search = static_cast<BackendSearch*>(user_data);
  if (search->name == info->name) {
    search->found = true;
    search->device = bp_device{info->device_type, 0};
  }
}

BackendSearch search_backend(const std::string& name) {
  BackendSearch search{name};
  check(api(), api()->backend_list(&match_backend, &search));
  return search;
}

}  // namespace

bp_device backend_device(const std::string& name) {
  const BackendSearch search = search_backend(name);
  if (!search.found) throw Error(BP_ERROR_INVALID_ARGUMENT, "no backend named " + name);
  return search.device;
}

bool backend_exists(const std::string& name) { return search_backend(name).found; }

LoadedPlugin::LoadedPlugin(std::string_view file) : LoadedPlugin(Path{plugin_path(file)}) {}

LoadedPlugin::LoadedPlugin(Path where) {
  const std::string path(where.path);
  check(api(), api()->plugin_load(path.c_str(), &plugin_));
  library_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
}

LoadedPlugin::~LoadedPlugin() {
  if (plugin_ != nullptr) {
    const ErrorHandle error(api(), api()->plugin_unload(plugin_));
  }
  if (library_ != nullptr) ::dlclose(library_);
}

void LoadedPlugin::unload() {
  bp_plugin* plugin = std::exchange(plugin_, nullptr);
  check(api(), api()->plugin_unload(plugin));
}

int64_t LoadedPlugin::counter(const char* symbol) const {
  auto fn = reinterpret_cast<int64_t (*)()>(::dlsym(library_, symbol));
  if (fn == nullptr) throw Error(BP_ERROR_INVALID_ARGUMENT, std::string("no symbol ") + symbol);
  return fn();
}

void use_inert_memory_hooks(bp_backend_desc& desc) {
  static const bp_allocator allocator = [] {
    bp_allocator a{};
    a.struct_size = sizeof a;
    a.allocate = [](void*, bp_device, size_t, void** out) -> bp_error* {
      *out = nullptr;
      return nullptr;
    };
    a.deallocate = [](void*, bp_device, void*) {};
    return a;
  }();
  static const bp_copy_fns copies = [] {
    bp_copy_fns c{};
    c.struct_size = sizeof c;
    c.to_host = [](void*, void*, const void*, bp_device, size_t) -> bp_error* { return nullptr; };
    c.from_host = [](void*, void*, bp_device, const void*, size_t) -> bp_error* { return nullptr; };
    c.within_device = [](void*, void*, bp_device, const void*, bp_device, size_t) -> bp_error* {
      return nullptr;
    };
    return c;
  }();
  desc.allocator = &allocator;
  desc.copies = &copies;
}

}  // namespace backplane::testing
