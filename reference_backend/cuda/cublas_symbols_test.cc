// The toolkit's libcublas exports every function the plugin's cuBLAS table binds (cublas.h), so
// Cublas::load succeeds wherever that library is found. No GPU is needed: only dlopen and dlsym.
// The library must be there ($CUDA_HOME/lib64, default /usr/local/cuda): its absence fails the
// test rather than skipping it.
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "reference_backend/cuda/cublas.h"

namespace bp::cuda {
namespace {

std::string toolkit_cublas() {
  const char* home = std::getenv("CUDA_HOME");
  const std::string root = home != nullptr && *home != '\0' ? home : "/usr/local/cuda";
  for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    const std::string path = root + "/lib64/" + name;
    if (void* h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(h);
      return path;
    }
  }
  return "";
}

TEST(CublasSymbols, EveryBoundFunctionResolvesInTheToolkitsLibrary) {
  const std::string path = toolkit_cublas();
  ASSERT_FALSE(path.empty()) << "no libcublas.so.{13,12,} under $CUDA_HOME/lib64 "
                                "(/usr/local/cuda): the CUDA toolkit's cuBLAS is required here";
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  ASSERT_EQ(kNumCublasFunctions, 6);
  for (int i = 0; i < kNumCublasFunctions; ++i) {
    EXPECT_NE(dlsym(h, kCublasFunctions[i]), nullptr) << path << " lacks " << kCublasFunctions[i];
  }
}

TEST(CublasSymbols, LoadBindsTheTableFromBpCudaCublas) {
  const std::string path = toolkit_cublas();
  ASSERT_FALSE(path.empty());
  setenv("BP_CUDA_CUBLAS", path.c_str(), 1);
  std::string why;
  std::unique_ptr<Cublas> cublas = Cublas::load(&why);
  ASSERT_NE(cublas, nullptr) << why;
  EXPECT_EQ(cublas->path(), path);
  // Needs no device: the library's own status text.
  EXPECT_EQ(cublas->describe(CUBLAS_STATUS_NOT_SUPPORTED),
            "the requested functionality is not supported (15)");
}

TEST(CublasSymbols, AMissingLibraryOrAnotherDriverIsNoCublasWithAReason) {
  setenv("BP_CUDA_CUBLAS", "/nonexistent/libcublas.so", 1);
  std::string why;
  EXPECT_EQ(Cublas::load(&why), nullptr);
  EXPECT_NE(why.find("/nonexistent/libcublas.so"), std::string::npos) << why;
  unsetenv("BP_CUDA_CUBLAS");
  setenv("BP_CUDA_DRIVER", "/somewhere/libcuda.so", 1);
  why.clear();
  EXPECT_EQ(Cublas::load(&why), nullptr);
  EXPECT_NE(why.find("BP_CUDA_DRIVER"), std::string::npos) << why;
  unsetenv("BP_CUDA_DRIVER");
}

}  // namespace
}  // namespace bp::cuda
