// An NVRTC stand-in for runs under the emulated CUDA driver (libbackplane_emulated_nvrtc.so,
// loaded by the plugin only when $BP_CUDA_NVRTC names it). "Compiling" a program finds its
// `__global__` entry points and returns an image the emulated driver loads (modules.h): the magic
// line, the target and one "entry <name>" line per kernel. The kernels themselves run as the
// host-compiled emulation of the same generated source, so no device code is needed; real NVRTC
// stays covered by nvrtc_compile_test (and the emulated driver also loads real NVRTC output).
// This keeps a conformance run free of minutes of NVRTC time, and lets tests make a compile fail
// (control.h).
//
// Thread safety: programs are independent; the fault counter is atomic.
#include <nvrtc.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "reference_backend/cuda/emulation/driver/image_format.h"
#include "reference_backend/cuda/emulation/nvrtc/control.h"

struct _nvrtcProgram {
  std::string source;
  std::string name;
  std::string log;
  std::string image;
};

namespace {

std::atomic<int64_t> g_fail_in{[] {
  const char* env = std::getenv("BP_EMULATED_NVRTC_FAIL");
  return env == nullptr ? int64_t{0} : static_cast<int64_t>(std::atoll(env));
}()};
std::atomic<int64_t> g_compiles{0};

// Fires on the n-th call after arming and every call after it, until disarmed.
bool compile_should_fail() {
  int64_t n = g_fail_in.load();
  while (n > 1) {
    if (g_fail_in.compare_exchange_weak(n, n - 1)) return false;
  }
  return n == 1;
}

// The names of the program's `__global__ void [__launch_bounds__(...)] name(` entry points.
std::vector<std::string> entry_points(const std::string& source) {
  std::vector<std::string> names;
  const std::string marker = "__global__ void";
  for (size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
    size_t i = at + marker.size();
    auto skip_space = [&] {
      while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i]))) ++i;
    };
    skip_space();
    if (source.compare(i, 17, "__launch_bounds__") == 0) {
      i = source.find('(', i);
      int depth = 0;
      for (; i < source.size(); ++i) {
        if (source[i] == '(') ++depth;
        if (source[i] == ')' && --depth == 0) break;
      }
      ++i;
      skip_space();
    }
    const size_t start = i;
    while (i < source.size() &&
           (std::isalnum(static_cast<unsigned char>(source[i])) || source[i] == '_')) {
      ++i;
    }
    if (i > start) names.push_back(source.substr(start, i - start));
  }
  return names;
}

}  // namespace

extern "C" {

void bp_emulated_nvrtc_fail_compile(int64_t n) { g_fail_in.store(n); }
int64_t bp_emulated_nvrtc_compiles(void) { return g_compiles.load(); }

const char* nvrtcGetErrorString(nvrtcResult result) {
  switch (result) {
    case NVRTC_SUCCESS:
      return "NVRTC_SUCCESS";
    case NVRTC_ERROR_INVALID_INPUT:
      return "NVRTC_ERROR_INVALID_INPUT";
    case NVRTC_ERROR_INVALID_PROGRAM:
      return "NVRTC_ERROR_INVALID_PROGRAM";
    case NVRTC_ERROR_COMPILATION:
      return "NVRTC_ERROR_COMPILATION";
    default:
      return "NVRTC_ERROR (emulated NVRTC)";
  }
}

nvrtcResult nvrtcVersion(int* major, int* minor) {
  if (major == nullptr || minor == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  *major = 13;
  *minor = 0;
  return NVRTC_SUCCESS;
}

// The architectures of NVRTC 13.0.
constexpr int kArchs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};

nvrtcResult nvrtcGetNumSupportedArchs(int* count) {
  if (count == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  *count = static_cast<int>(sizeof kArchs / sizeof kArchs[0]);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetSupportedArchs(int* archs) {
  if (archs == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(archs, kArchs, sizeof kArchs);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram* program, const char* source, const char* name,
                               int num_headers, const char* const*, const char* const*) {
  if (program == nullptr || source == nullptr || num_headers != 0) return NVRTC_ERROR_INVALID_INPUT;
  *program = new _nvrtcProgram{source, name == nullptr ? "default_program" : name, "", ""};
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram* program) {
  if (program == nullptr || *program == nullptr) return NVRTC_ERROR_INVALID_PROGRAM;
  delete *program;
  *program = nullptr;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram program, int num_options, const char* const* options) {
  if (program == nullptr) return NVRTC_ERROR_INVALID_PROGRAM;
  g_compiles.fetch_add(1);
  std::string target = "unknown";
  for (int i = 0; i < num_options; ++i) {
    const std::string option = options[i];
    if (option.rfind("--gpu-architecture=", 0) == 0) target = option.substr(19);
  }
  if (compile_should_fail()) {
    program->log =
        program->name + "(1): error: injected fault: the emulated NVRTC fails this compile";
    return NVRTC_ERROR_COMPILATION;
  }
  const std::vector<std::string> entries = entry_points(program->source);
  if (entries.empty()) {
    program->log = program->name + ": error: the program defines no __global__ entry point";
    return NVRTC_ERROR_COMPILATION;
  }
  program->image =
      std::string(bp::emulated_cuda::kEmulatedImageMagic) + "// target " + target + "\n";
  for (const std::string& e : entries)
    program->image += bp::emulated_cuda::kEmulatedImageEntry + e + "\n";
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram program, size_t* size) {
  if (program == nullptr || size == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  *size = program->log.size() + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram program, char* log) {
  if (program == nullptr || log == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(log, program->log.c_str(), program->log.size() + 1);
  return NVRTC_SUCCESS;
}

// PTX and CUBIN are the same image (text, NUL-terminated like PTX).
nvrtcResult nvrtcGetPTXSize(nvrtcProgram program, size_t* size) {
  if (program == nullptr || size == nullptr || program->image.empty())
    return NVRTC_ERROR_INVALID_INPUT;
  *size = program->image.size() + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram program, char* out) {
  if (program == nullptr || out == nullptr || program->image.empty())
    return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(out, program->image.c_str(), program->image.size() + 1);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram program, size_t* size) {
  return nvrtcGetPTXSize(program, size);
}
nvrtcResult nvrtcGetCUBIN(nvrtcProgram program, char* out) { return nvrtcGetPTX(program, out); }

}  // extern "C"
