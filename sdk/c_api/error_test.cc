// Errors a backend returns get the host's context once: "[npu] add.out: <message>", without the
// backend's name repeated by the plugin ("npu: ...") or by a host error it passed on ("[npu] ...").
#include "sdk/c_api/error.h"

#include <string>

#include "gtest/gtest.h"

namespace bp::c_api {
namespace {

// What throw_backend_error throws, as code and message.
std::string thrown(int32_t code, const std::string& message, const std::string& label,
                   const std::string& context) {
  try {
    throw_backend_error(make_error(code, message), label, context);
  } catch (const Error& e) {
    return std::to_string(static_cast<int>(e.code())) + " " + e.message();
  }
  return "(nothing thrown)";
}

TEST(BackendErrors, TheHostNamesTheBackendAndTheOpOnce) {
  EXPECT_EQ(thrown(BP_ERROR_NOT_IMPLEMENTED, "only contiguous float32", "npu0", "add.out"),
            std::to_string(BP_ERROR_NOT_IMPLEMENTED) + " [npu0] add.out: only contiguous float32");
}

TEST(BackendErrors, APluginNamingItselfIsNotRepeated) {
  EXPECT_EQ(thrown(BP_ERROR_INVALID_ARGUMENT, "npu0: bad strides", "npu0", "add.out"),
            std::to_string(BP_ERROR_INVALID_ARGUMENT) + " [npu0] add.out: bad strides");
  // Another name, or the name inside the message, is the plugin's text: kept.
  EXPECT_EQ(thrown(BP_ERROR_INVALID_ARGUMENT, "npu1: bad strides", "npu0", "add.out"),
            std::to_string(BP_ERROR_INVALID_ARGUMENT) + " [npu0] add.out: npu1: bad strides");
  EXPECT_EQ(thrown(BP_ERROR_INVALID_ARGUMENT, "npu0 says no", "npu0", "add.out"),
            std::to_string(BP_ERROR_INVALID_ARGUMENT) + " [npu0] add.out: npu0 says no");
}

TEST(BackendErrors, AHostErrorAKernelPassesOnKeepsItsContextButNotTheBackendTwice) {
  // The kernel's allocation failed in the host ("[npu0] allocate 64 bytes: ...") and the kernel
  // returned that error.
  EXPECT_EQ(thrown(BP_ERROR_OUT_OF_MEMORY, "[npu0] allocate 64 bytes: out of device memory", "npu0",
                   "add.out"),
            std::to_string(BP_ERROR_OUT_OF_MEMORY) +
                " [npu0] add.out: allocate 64 bytes: out of device memory");
  EXPECT_EQ(without_backend_name("npu0: [npu0] x", "npu0"), "[npu0] x");
  EXPECT_EQ(without_backend_name("npu0: x", ""), "npu0: x");
}

}  // namespace
}  // namespace bp::c_api
