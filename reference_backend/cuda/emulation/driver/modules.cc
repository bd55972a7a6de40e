#include "reference_backend/cuda/emulation/driver/modules.h"

#include <elf.h>

#include <cstring>

#include "reference_backend/cuda/emulation/driver/state.h"

namespace bp::emulated_cuda {

std::unique_ptr<Module> Module::load(const void* image, CUresult* result) {
  *result = CUDA_SUCCESS;
  if (image == nullptr) {
    *result = fail(CUDA_ERROR_INVALID_VALUE, "cuModuleLoadData: image is NULL");
    return nullptr;
  }
  std::unique_ptr<Module> module(new Module());
  const char* bytes = static_cast<const char*>(image);
  if (std::memcmp(bytes, ELFMAG, SELFMAG) == 0) {
    // A CUBIN: its size from the ELF header (the section headers come last).
    Elf64_Ehdr header;
    std::memcpy(&header, bytes, sizeof header);
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_machine != EM_CUDA) {
      *result = fail(CUDA_ERROR_INVALID_IMAGE, "cuModuleLoadData: an ELF image, but not a CUBIN");
      return nullptr;
    }
    module->format_ = Format::kCubin;
    module->image_.assign(bytes, header.e_shoff + size_t{header.e_shnum} * header.e_shentsize);
  } else {
    module->image_ = bytes;
    if (module->image_.rfind(kEmulatedImageMagic, 0) == 0) {
      module->format_ = Format::kEmulated;
    } else if (module->image_.find(".version") != std::string::npos &&
               module->image_.find(".target") != std::string::npos) {
      module->format_ = Format::kPtx;
    } else {
      *result = fail(CUDA_ERROR_INVALID_IMAGE,
                     "cuModuleLoadData: the image is neither PTX, a CUBIN nor an emulated module");
      return nullptr;
    }
  }
  shared_counters().modules_loaded.fetch_add(1);
  return module;
}

Module::~Module() = default;

bool Module::defines(const std::string& name) const {
  switch (format_) {
    case Format::kEmulated:
      return image_.find("\n" + std::string(kEmulatedImageEntry) + name + "\n") !=
             std::string::npos;
    case Format::kPtx:
      return image_.find(".entry " + name + "(") != std::string::npos;
    case Format::kCubin:
      // The symbol table's string table holds the entry's name, NUL-terminated.
      return image_.find(std::string(1, '\0') + name + std::string(1, '\0')) != std::string::npos;
  }
  return false;
}

CUresult Module::function(const char* name, Function** out) {
  if (name == nullptr || out == nullptr) {
    return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleGetFunction: name or hfunc is NULL");
  }
  if (!defines(name)) {
    return fail(CUDA_ERROR_NOT_FOUND,
                std::string("cuModuleGetFunction: the module does not define ") + name);
  }
  Function f{name, emulation::find_emulated_kernel(name), std::nullopt};
  if (!f.kernel) {
    f.substitute = find_substitute(name);
    if (!f.substitute) {
      return fail(CUDA_ERROR_NOT_FOUND,
                  std::string("cuModuleGetFunction: kernel ") + name +
                      " has no host emulation (emulation/emulated_kernels.cc lists the kernels "
                      "compiled for the host)");
    }
    f.kernel = f.substitute->kernel;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  functions_.push_back(std::make_unique<Function>(std::move(f)));
  *out = functions_.back().get();
  return CUDA_SUCCESS;
}

}  // namespace bp::emulated_cuda
