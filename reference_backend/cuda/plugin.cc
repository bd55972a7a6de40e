// The plugin's entry point: bp_plugin_init loads the CUDA driver and NVRTC (dlopen), creates a
// CudaDevice per GPU, registers the "cuda" backend (allocator: the devices' caching allocators;
// copies and synchronisation: the devices' streams; stream hooks: CUstreams, work going to the
// calling thread's current stream) and its kernels (kernels.h), with the host's CPU fallback for
// every op without a CUDA kernel. cuBLAS is loaded too when available (cublas.h), for the matrix
// products; without it they run jitted.
//
// Without a usable driver (no libcuda.so.1, the toolkit's stub, no GPU) or without NVRTC it
// registers nothing and returns BP_ERROR_UNAVAILABLE "CUDA unavailable: <reason>", which the host
// records as the plugin's load result; everything else keeps working.
#include "backplane/plugin.h"

#include <cstring>
#include <memory>
#include <string>

#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/fused_group_runner.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/nvrtc.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

bp_error* allocate(void*, bp_device device, size_t nbytes, void** out) {
  return guarded([&] { *out = device_at(device).allocator().allocate(nbytes); });
}

void deallocate(void*, bp_device device, void* ptr) {
  // The host frees memory it got from us; a failure here has no one to report to.
  bp_error* error = guarded([&] {
    CudaDevice& d = device_at(device);
    // Another stream may still use the block the allocator would hand out again (device.h).
    if (d.has_streams()) d.synchronize_all();
    d.allocator().deallocate(ptr);
  });
  if (error != nullptr) api()->error_destroy(error);
}

bp_error* to_host(void*, void* dst, const void* src, bp_device device, size_t n) {
  return guarded([&] { device_at(device).copy_to_host(dst, src, n); });
}

bp_error* from_host(void*, void* dst, bp_device device, const void* src, size_t n) {
  return guarded([&] { device_at(device).copy_from_host(dst, src, n); });
}

bp_error* within_device(void*, void* dst, bp_device dst_device, const void* src,
                        bp_device src_device, size_t n) {
  return guarded([&] {
    CudaDevice& to = device_at(dst_device);
    CudaDevice& from = device_at(src_device);
    if (&from != &to) from.synchronize();  // the source is complete before the other stream reads
    to.copy_within(dst, src, n);
  });
}

bp_error* synchronize(void*, bp_device device) {
  return guarded([&] { device_at(device).synchronize(); });
}

// Stream hooks: a stream of the backend is a CUstream of its device (nullptr: the default one).
bp_error* stream_create(void*, bp_device device, void** out) {
  return guarded([&] { *out = device_at(device).create_stream(); });
}

bp_error* stream_destroy(void*, bp_device device, void* stream) {
  return guarded([&] { device_at(device).destroy_stream(static_cast<CUstream>(stream)); });
}

bp_error* stream_synchronize(void*, bp_device device, void* stream) {
  return guarded([&] { device_at(device).synchronize_stream(static_cast<CUstream>(stream)); });
}

bp_error* stream_wait(void*, bp_device device, void* waiter, void* waitee) {
  return guarded([&] {
    device_at(device).stream_wait(static_cast<CUstream>(waiter), static_cast<CUstream>(waitee));
  });
}

bp_error* stream_query(void*, bp_device device, void* stream, bool* idle) {
  return guarded([&] { *idle = device_at(device).stream_idle(static_cast<CUstream>(stream)); });
}

// The calling thread's current stream of `device` as the host keeps it (nullptr: the default
// stream, also if the host cannot say).
CUstream host_current_stream(bp_device device) {
  bp_stream* stream = nullptr;
  bp_error* error = api()->stream_current(device, &stream);
  void* native = nullptr;
  bp_device on{};
  if (error == nullptr) error = api()->stream_native(stream, &on, &native);
  if (error != nullptr) {
    api()->error_destroy(error);
    return nullptr;
  }
  return static_cast<CUstream>(native);
}

// The backend's memory may outlive the backend (tensors released after the plugin's unload):
// the devices and their allocators go only when the host says the last of it was freed.
void release_devices(void*) { set_state(nullptr); }

void unload(void*) {
  PluginState* s = state();
  if (s == nullptr) return;
  for (bp_registration* r : s->registrations) api()->registration_destroy(r);
  s->registrations.clear();
  for (auto& device : s->devices) device->synchronize();
  // May run release_devices at once (no memory left): `s` is not used after this.
  if (s->backend != nullptr) api()->error_destroy(api()->backend_unregister(s->backend));
}

const bp_allocator kAllocator = [] {
  bp_allocator a{};
  a.struct_size = sizeof a;
  a.alignment = 256;  // cuMemAlloc's
  a.allocate = &allocate;
  a.deallocate = &deallocate;
  return a;
}();

const bp_stream_fns kStreams = [] {
  bp_stream_fns f{};
  f.struct_size = sizeof f;
  f.create = &stream_create;
  f.destroy = &stream_destroy;
  f.synchronize = &stream_synchronize;
  f.wait = &stream_wait;
  f.query = &stream_query;
  return f;
}();

const bp_copy_fns kCopies = [] {
  bp_copy_fns c{};
  c.struct_size = sizeof c;
  c.to_host = &to_host;
  c.from_host = &from_host;
  c.within_device = &within_device;
  c.synchronize = &synchronize;
  return c;
}();

// cuBLAS for the matrix products when it loads and a handle is created on every device; else
// they stay jitted (not an error), and the plugin's name says why.
void load_cublas(PluginState& s) {
  std::string why_not;
  s.cublas = Cublas::load(&why_not);
  if (s.cublas != nullptr) {
    for (const auto& device : s.devices) {
      std::unique_ptr<CublasHandle> h = CublasHandle::create(*s.cublas, *device, &why_not);
      if (h == nullptr) break;
      s.cublas_handles.push_back(std::move(h));
    }
    if (s.cublas_handles.size() == s.devices.size()) {
      s.cublas_status = "cuBLAS " + s.cublas->path();
      return;
    }
    s.cublas_handles.clear();
  }
  s.cublas_status = "no cuBLAS: " + why_not;
}

void initialize(bp_plugin_desc* desc) {
  auto s = std::make_unique<PluginState>();
  std::string why_not;
  s->driver = Driver::load(&why_not);
  if (s->driver == nullptr) throw Error(BP_ERROR_UNAVAILABLE, why_not);
  try {
    Nvrtc::get();
  } catch (const Error& e) {
    throw Error(BP_ERROR_UNAVAILABLE, std::string("CUDA unavailable: ") + e.what());
  }
  for (int i = 0; i < s->driver->device_count(); ++i) {
    s->devices.push_back(std::make_unique<CudaDevice>(*s->driver, i, &s->disk));
  }
  load_cublas(*s);

  PluginState* st = s.get();
  set_state(std::move(s));

  bp_backend_desc backend{};
  backend.struct_size = sizeof backend;
  backend.name = "cuda";
  backend.device_count = static_cast<int32_t>(st->devices.size());
  backend.allocator = &kAllocator;
  backend.copies = &kCopies;
  backend.on_released = &release_devices;
  backend.streams = &kStreams;
  // Lazy mode's fused groups: one jitted kernel per group (fused_group_runner.h).
  backend.fusion = &fusion_fns();
  check(api()->backend_register(&backend, &st->backend));
  check(api()->backend_device_type(st->backend, &st->device_type));
  for (auto& device : st->devices) {
    const bp_device d{st->device_type, device->index()};
    device->set_stream_source([d] { return host_current_stream(d); });
  }

  for (const KernelRegistration& k : plugin_registrations()) {
    bp_registration* r = nullptr;
    bp_error* error = api()->kernel_register(st->backend, k.op.c_str(), k.kernel, k.user_data, &r);
    if (error != nullptr) {  // an op this host does not define
      api()->error_destroy(error);
      continue;
    }
    st->registrations.push_back(r);
  }
  bp_registration* fallback = nullptr;
  check(api()->fallback_register(st->backend, api()->cpu_fallback, nullptr, &fallback));
  st->registrations.push_back(fallback);
  desc->unload = &unload;
  // The load record names the devices the plugin drives ("cuda (NVIDIA H100 80GB HBM3)", or "cuda
  // (emulated CUDA device (host))" under the emulated driver) and whether matrix products use
  // cuBLAS ("; cuBLAS libcublas.so.13" or "; no cuBLAS: <why>"), and so does the conformance
  // report. Set after backend_register, whose backend keeps the plain name "cuda" for messages.
  // Static storage, as bp_plugin_desc asks.
  static std::string name;
  name = "cuda (";
  for (size_t i = 0; i < st->devices.size(); ++i) name += (i ? ", " : "") + st->devices[i]->name();
  name += "; " + st->cublas_status + ")";
  desc->name = name.c_str();
}

}  // namespace

std::vector<KernelRegistration> plugin_registrations() {
  std::vector<KernelRegistration> kernels = pointwise_registrations();
  for (auto& list : {copy_registrations(), factory_registrations(), reduction_registrations(),
                     along_dim_registrations(), gemm_registrations(), indexing_registrations()}) {
    kernels.insert(kernels.end(), list.begin(), list.end());
  }
  return kernels;
}

}  // namespace bp::cuda

extern "C" BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* api, bp_plugin_desc* desc) {
  // Another version may lay the table out differently: the host reports the mismatch.
  if (!bp_plugin_begin(api, desc, "cuda")) return nullptr;
  bp::cuda::set_api(api);
  bp_error* error = bp::cuda::guarded([&] { bp::cuda::initialize(desc); });
  // The host undoes a registered backend (which ends in release_devices); without one, no
  // memory was handed out.
  if (error != nullptr && bp::cuda::state() != nullptr && bp::cuda::state()->backend == nullptr) {
    bp::cuda::set_state(nullptr);
  }
  return error;
}
