// The CUDA driver API functions the reference plugin resolves (driver.h's list, plus the stream
// and event calls of its stream hooks), exported under the versioned names cuda.h maps them to.
// One device, "emulated CUDA device (host)", of compute capability 9.0; its memory, streams and
// modules are device_memory.h, streams.h and modules.h. Calls on handles this driver did not make
// return CUDA_ERROR_INVALID_HANDLE; every error is explained (state.h).
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/device_memory.h"
#include "reference_backend/cuda/emulation/driver/modules.h"
#include "reference_backend/cuda/emulation/driver/state.h"
#include "reference_backend/cuda/emulation/driver/streams.h"
#include "reference_backend/cuda/emulation/emulator.h"

namespace bp::emulated_cuda {
namespace {

constexpr const char* kDeviceName = "emulated CUDA device (host)";
constexpr int kComputeMajor = 9, kComputeMinor = 0;

// The primary context: one object, its address is the handle.
struct Context {
  int retained = 0;
};
Context g_context;

// Handles this driver made (a foreign handle is an error, not a crash).
struct Handles {
  std::mutex mutex;
  std::set<const void*> modules, functions, events;
  bool contains(const std::set<const void*>& set, const void* h) {
    std::lock_guard<std::mutex> lock(mutex);
    return set.count(h) != 0;
  }
};
Handles& handles() {
  static auto* h = new Handles();
  return *h;
}

std::atomic<bool> g_initialised{false};

// The legacy default stream (handle 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD).
Stream& default_stream() {
  static auto* s = [] {
    auto* stream = new Stream();
    register_stream(stream);
    return stream;
  }();
  return *s;
}

CUresult not_initialised(const char* what) {
  return fail(CUDA_ERROR_NOT_INITIALIZED, std::string(what) + " before cuInit");
}

// The stream of a handle, or nullptr with the error explained.
Stream* stream_of(CUstream h, const char* what, CUresult* result) {
  if (should_fail(Fault::kHandle)) {
    *result = fail(CUDA_ERROR_INVALID_HANDLE,
                   std::string("injected fault: ") + what + " is given an invalid stream handle");
    return nullptr;
  }
  if (h == nullptr || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) return &default_stream();
  if (!is_stream(h)) {
    *result = fail(CUDA_ERROR_INVALID_HANDLE, std::string(what) + ": not a stream of this driver");
    return nullptr;
  }
  return reinterpret_cast<Stream*>(h);
}

CUresult check_handle(const std::set<const void*>& set, const void* h, const char* what,
                      const char* kind) {
  if (should_fail(Fault::kHandle)) {
    return fail(CUDA_ERROR_INVALID_HANDLE, std::string("injected fault: ") + what +
                                               " is given an invalid " + kind + " handle");
  }
  if (h == nullptr || !handles().contains(set, h)) {
    return fail(CUDA_ERROR_INVALID_HANDLE,
                std::string(what) + ": not a " + kind + " of this driver");
  }
  return CUDA_SUCCESS;
}

// Synchronisation points check every live allocation's guard zones (kernels write host memory).
CUresult synchronized(Stream& stream, const char* what) {
  stream.synchronize();
  return device_memory().check_guards(what);
}

CUresult copy(CUdeviceptr dst, const void* src, size_t n, CUstream h, bool dst_device,
              bool src_device, const char* what) {
  if (!g_initialised) return not_initialised(what);
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of(h, what, &result);
  if (stream == nullptr) return result;
  if (dst_device) {
    result = device_memory().check_range(dst, n, (std::string(what) + " destination").c_str());
    if (result != CUDA_SUCCESS) return result;
  }
  if (src_device) {
    result = device_memory().check_range(reinterpret_cast<CUdeviceptr>(src), n,
                                         (std::string(what) + " source").c_str());
    if (result != CUDA_SUCCESS) return result;
  }
  if (n == 0) return CUDA_SUCCESS;
  std::atomic<int64_t>& bytes = dst_device && src_device ? shared_counters().bytes_device_to_device
                                : dst_device             ? shared_counters().bytes_host_to_device
                                                         : shared_counters().bytes_device_to_host;
  bytes.fetch_add(static_cast<int64_t>(n));
  void* to = reinterpret_cast<void*>(dst);
  stream->enqueue([to, src, n] { std::memmove(to, src, n); });
  return CUDA_SUCCESS;
}

// The error names and descriptions of the codes this driver returns (others: "unknown").
struct ErrorText {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
};

const ErrorText* error_text(CUresult code) {
  for (const ErrorText& e : kErrors) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

// The counters of the process that loaded the driver, at its exit, on stderr and appended to
// $BP_EMULATED_CUDA_REPORT (one line per process) when set: a run's record that it ran here.
// The work counters include what fork()ed children did (an isolated conformance run does all its
// work in children, which end with _exit): they are mapped shared at load, before any fork.
pid_t g_loading_process = getpid();
const bool kCountersMapped = (shared_counters(), true);
struct ExitReport {
  ~ExitReport() {
    // Only the process that loaded the driver, and only if it or its children did something
    // (the host first tries a plugin's load in a child process).
    if (getpid() != g_loading_process) return;
    if (shared_counters().allocations.load() == 0) return;
    bp_emulated_cuda_counters c;
    bp_emulated_cuda_get_counters(&c);
    char line[512];
    std::snprintf(
        line, sizeof line,
        "{\"driver\": \"%s\", \"launches\": %lld, \"bytes_host_to_device\": %lld, "
        "\"bytes_device_to_host\": %lld, \"bytes_device_to_device\": %lld, "
        "\"allocations\": %lld, \"modules_loaded\": %lld, \"faults_fired\": %lld, "
        "\"substituted_launches\": %lld, \"cublas_gemms\": %lld, "
        "\"live_allocations_at_exit\": %lld, \"peak_bytes\": %lld}\n",
        kDeviceName, static_cast<long long>(c.launches),
        static_cast<long long>(c.bytes_host_to_device),
        static_cast<long long>(c.bytes_device_to_host),
        static_cast<long long>(c.bytes_device_to_device), static_cast<long long>(c.allocations),
        static_cast<long long>(c.modules_loaded), static_cast<long long>(c.faults_fired),
        static_cast<long long>(c.substituted_launches), static_cast<long long>(c.cublas_gemms),
        static_cast<long long>(c.live_allocations), static_cast<long long>(c.peak_bytes));
    std::fprintf(stderr, "emulated CUDA driver counters: %s", line);
    const char* path = std::getenv("BP_EMULATED_CUDA_REPORT");
    if (path != nullptr && *path != '\0') {
      if (FILE* f = std::fopen(path, "a")) {
        std::fputs(line, f);
        std::fclose(f);
      }
    }
  }
} g_exit_report;

}  // namespace

Stream* stream_of_handle(CUstream h, const char* what, CUresult* result) {
  return stream_of(h, what, result);
}

}  // namespace bp::emulated_cuda

using namespace bp::emulated_cuda;  // NOLINT: the C API below is the driver's surface

extern "C" {

void bp_emulated_cuda_get_counters(bp_emulated_cuda_counters* out) {
  if (out == nullptr) return;
  SharedCounters& s = shared_counters();
  out->launches = s.launches.load();
  out->bytes_host_to_device = s.bytes_host_to_device.load();
  out->bytes_device_to_host = s.bytes_device_to_host.load();
  out->bytes_device_to_device = s.bytes_device_to_device.load();
  out->allocations = s.allocations.load();
  out->modules_loaded = s.modules_loaded.load();
  out->faults_fired = s.faults_fired.load();
  out->substituted_launches = s.substituted_launches.load();
  out->cublas_gemms = s.cublas_gemms.load();
  out->live_allocations = device_memory().live_allocations();
  out->live_bytes = device_memory().live_bytes();
  out->peak_bytes = device_memory().peak_bytes();
}

int bp_emulated_cuda_inject(const char* fault, int64_t n) {
  if (fault == nullptr) return -1;
  const std::string name = fault;
  if (name == "alloc") {
    arm(Fault::kAlloc, n);
  } else if (name == "launch") {
    arm(Fault::kLaunch, n);
  } else if (name == "handle") {
    arm(Fault::kHandle, n);
  } else if (name == "cublas") {
    arm(Fault::kCublas, n);
  } else {
    return -1;
  }
  return 0;
}

const char* bp_emulated_cuda_last_error(void) { return last_explanation().c_str(); }

CUresult cuInit(unsigned int flags) {
  if (flags != 0) return fail(CUDA_ERROR_INVALID_VALUE, "cuInit: flags must be 0");
  g_initialised = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int* version) {
  if (version == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuDriverGetVersion: NULL");
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** out) {
  const ErrorText* e = error_text(error);
  if (out == nullptr || e == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *out = e->name;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** out) {
  const ErrorText* e = error_text(error);
  if (out == nullptr || e == nullptr) return CUDA_ERROR_INVALID_VALUE;
  // The standard text, and what this driver found wrong when it returned the error last.
  thread_local std::string text;
  const std::string& why = explanation_for(error);
  text = why.empty() ? e->text : std::string(e->text) + " (emulated driver: " + why + ")";
  *out = text.c_str();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (!g_initialised) return not_initialised("cuDeviceGetCount");
  if (count == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetCount: NULL");
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!g_initialised) return not_initialised("cuDeviceGet");
  if (device == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGet: NULL");
  if (ordinal != 0) {
    return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGet: device " + std::to_string(ordinal) +
                                               " does not exist (one emulated device)");
  }
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (device != 0) return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetName: no such device");
  if (name == nullptr || length <= 0) return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetName");
  std::snprintf(name, static_cast<size_t>(length), "%s", kDeviceName);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (device != 0) return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetAttribute: no such device");
  if (value == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: NULL");
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = kComputeMajor;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = kComputeMinor;
      break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
      *value = 32;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 4;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
      *value = 0x7fffffff;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
      *value = 65535;
      break;
    default:
      return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: attribute " +
                                                std::to_string(static_cast<int>(attribute)) +
                                                " is not emulated");
  }
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  if (!g_initialised) return not_initialised("cuDevicePrimaryCtxRetain");
  if (device != 0)
    return fail(CUDA_ERROR_INVALID_DEVICE, "cuDevicePrimaryCtxRetain: no such device");
  if (context == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxRetain: NULL");
  ++g_context.retained;
  *context = reinterpret_cast<CUcontext>(&g_context);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  if (device != 0)
    return fail(CUDA_ERROR_INVALID_DEVICE, "cuDevicePrimaryCtxRelease: no such device");
  if (g_context.retained == 0) {
    return fail(CUDA_ERROR_INVALID_CONTEXT,
                "cuDevicePrimaryCtxRelease: the context is not retained");
  }
  --g_context.retained;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  if (context != nullptr && context != reinterpret_cast<CUcontext>(&g_context)) {
    return fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxSetCurrent: not a context of this driver");
  }
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr* ptr, size_t bytes) {
  if (!g_initialised) return not_initialised("cuMemAlloc");
  return device_memory().allocate(bytes, ptr);
}

CUresult cuMemFree(CUdeviceptr ptr) {
  if (!g_initialised) return not_initialised("cuMemFree");
  // cuMemFree synchronises the device: queued work may still use the memory.
  default_stream();  // registered, so synchronised too
  synchronize_all_streams();
  return device_memory().release(ptr);
}

CUresult cuMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuMemGetInfo");
  *total = DeviceMemory::kCapacity;
  *free = DeviceMemory::kCapacity - static_cast<size_t>(device_memory().live_bytes());
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t n, CUstream stream) {
  return copy(dst, src, n, stream, true, false, "cuMemcpyHtoDAsync");
}

CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t n, CUstream stream) {
  return copy(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<const void*>(src), n, stream,
              false, true, "cuMemcpyDtoHAsync");
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream) {
  return copy(dst, reinterpret_cast<const void*>(src), n, stream, true, true, "cuMemcpyDtoDAsync");
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream h) {
  if (!g_initialised) return not_initialised("cuMemsetD8Async");
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of(h, "cuMemsetD8Async", &result);
  if (stream == nullptr) return result;
  result = device_memory().check_range(dst, n, "cuMemsetD8Async destination");
  if (result != CUDA_SUCCESS) return result;
  void* to = reinterpret_cast<void*>(dst);
  stream->enqueue([to, value, n] { std::memset(to, value, n); });
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* out, unsigned int) {
  if (!g_initialised) return not_initialised("cuStreamCreate");
  if (out == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuStreamCreate: NULL");
  auto* stream = new Stream();
  register_stream(stream);
  *out = reinterpret_cast<CUstream>(stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream h) {
  if (h == nullptr || !is_stream(h)) {
    return fail(CUDA_ERROR_INVALID_HANDLE, "cuStreamDestroy: not a stream of this driver");
  }
  auto* stream = reinterpret_cast<Stream*>(h);
  unregister_stream(stream);
  delete stream;  // waits for its work
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream h) {
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of(h, "cuStreamSynchronize", &result);
  if (stream == nullptr) return result;
  return synchronized(*stream, "cuStreamSynchronize");
}

CUresult cuStreamQuery(CUstream h) {
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of(h, "cuStreamQuery", &result);
  if (stream == nullptr) return result;
  return stream->idle() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult cuStreamWaitEvent(CUstream h, CUevent event, unsigned int) {
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of(h, "cuStreamWaitEvent", &result);
  if (stream == nullptr) return result;
  result = check_handle(handles().events, event, "cuStreamWaitEvent", "event");
  if (result != CUDA_SUCCESS) return result;
  stream->enqueue(reinterpret_cast<Event*>(event)->waiter());
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule* out, const void* image) {
  if (!g_initialised) return not_initialised("cuModuleLoadData");
  if (out == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleLoadData: NULL");
  CUresult result = CUDA_SUCCESS;
  std::unique_ptr<Module> module = Module::load(image, &result);
  if (module == nullptr) return result;
  std::lock_guard<std::mutex> lock(handles().mutex);
  handles().modules.insert(module.get());
  *out = reinterpret_cast<CUmodule>(module.release());
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule h) {
  {
    std::lock_guard<std::mutex> lock(handles().mutex);
    if (handles().modules.erase(h) == 0) {
      return fail(CUDA_ERROR_INVALID_HANDLE, "cuModuleUnload: not a module of this driver");
    }
  }
  // Functions stay valid handles of nothing: launching one is an error.
  delete reinterpret_cast<Module*>(h);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* out, CUmodule h, const char* name) {
  const CUresult valid = check_handle(handles().modules, h, "cuModuleGetFunction", "module");
  if (valid != CUDA_SUCCESS) return valid;
  Function* function = nullptr;
  const CUresult result = reinterpret_cast<Module*>(h)->function(name, &function);
  if (result != CUDA_SUCCESS) return result;
  if (out == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleGetFunction: NULL");
  std::lock_guard<std::mutex> lock(handles().mutex);
  handles().functions.insert(function);
  *out = reinterpret_cast<CUfunction>(function);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                        CUstream h, void** params, void** extra) {
  if (!g_initialised) return not_initialised("cuLaunchKernel");
  CUresult result = check_handle(handles().functions, f, "cuLaunchKernel", "function");
  if (result != CUDA_SUCCESS) return result;
  const Function& function = *reinterpret_cast<const Function*>(f);
  Stream* stream = stream_of(h, "cuLaunchKernel", &result);
  if (stream == nullptr) return result;
  if (params == nullptr || params[0] == nullptr || extra != nullptr || shared != 0) {
    return fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel of " + function.name +
                                              ": expected one parameter block, no extra "
                                              "options and no dynamic shared memory");
  }
  if (gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024) {
    return fail(CUDA_ERROR_INVALID_VALUE,
                "cuLaunchKernel of " + function.name + ": invalid grid or block dimensions");
  }
  if (should_fail(Fault::kLaunch)) {
    return fail(CUDA_ERROR_LAUNCH_FAILED,
                "injected fault: the launch of " + function.name + " fails");
  }
  // The parameter block is copied now, as cuLaunchKernel does; a pointer in it into freed
  // device memory is a use after free (integers that happen to look like one are unlikely).
  std::vector<char> block =
      function.substitute
          ? substitute_params(*function.substitute, params[0])
          : std::vector<char>(static_cast<const char*>(params[0]),
                              static_cast<const char*>(params[0]) + function.kernel.params_size);
  for (size_t offset = 0; offset + sizeof(uintptr_t) <= block.size(); offset += sizeof(uintptr_t)) {
    uintptr_t word;
    std::memcpy(&word, block.data() + offset, sizeof word);
    std::string why;
    if (word != 0 && device_memory().points_into_freed(word, &why)) {
      return fail(CUDA_ERROR_ILLEGAL_ADDRESS,
                  "cuLaunchKernel of " + function.name + ": parameter " + "bytes " +
                      std::to_string(offset) + ".." + std::to_string(offset + 8) + ": " + why);
    }
  }
  shared_counters().launches.fetch_add(1);
  if (function.substitute) shared_counters().substituted_launches.fetch_add(1);
  const bp::emulation::EmulatedKernel kernel = function.kernel;
  stream->enqueue([kernel, gx, gy, gz, bx, by, bz, block = std::move(block)] {
    bp::emulation::emulate_launch(kernel, {gx, gy, gz}, {bx, by, bz}, block.data());
  });
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* out, unsigned int) {
  if (!g_initialised) return not_initialised("cuEventCreate");
  if (out == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuEventCreate: NULL");
  auto* event = new Event();
  std::lock_guard<std::mutex> lock(handles().mutex);
  handles().events.insert(event);
  *out = reinterpret_cast<CUevent>(event);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream h) {
  CUresult result = check_handle(handles().events, event, "cuEventRecord", "event");
  if (result != CUDA_SUCCESS) return result;
  Stream* stream = stream_of(h, "cuEventRecord", &result);
  if (stream == nullptr) return result;
  reinterpret_cast<Event*>(event)->record(*stream);
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent event) {
  const CUresult result = check_handle(handles().events, event, "cuEventQuery", "event");
  if (result != CUDA_SUCCESS) return result;
  return reinterpret_cast<Event*>(event)->done() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult cuEventSynchronize(CUevent event) {
  const CUresult result = check_handle(handles().events, event, "cuEventSynchronize", "event");
  if (result != CUDA_SUCCESS) return result;
  reinterpret_cast<Event*>(event)->synchronize();
  return device_memory().check_guards("cuEventSynchronize");
}

CUresult cuEventElapsedTime(float* ms, CUevent start, CUevent end) {
  CUresult result = check_handle(handles().events, start, "cuEventElapsedTime", "event");
  if (result == CUDA_SUCCESS)
    result = check_handle(handles().events, end, "cuEventElapsedTime", "event");
  if (result != CUDA_SUCCESS) return result;
  if (ms == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuEventElapsedTime: NULL");
  auto* a = reinterpret_cast<Event*>(start);
  auto* b = reinterpret_cast<Event*>(end);
  if (!a->done() || !b->done()) return CUDA_ERROR_NOT_READY;
  *ms = Event::elapsed_ms(*a, *b);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  {
    std::lock_guard<std::mutex> lock(handles().mutex);
    if (handles().events.erase(event) == 0) {
      return fail(CUDA_ERROR_INVALID_HANDLE, "cuEventDestroy: not an event of this driver");
    }
  }
  delete reinterpret_cast<Event*>(event);  // work waiting for it keeps its state alive
  return CUDA_SUCCESS;
}

}  // extern "C"
