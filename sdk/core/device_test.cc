#include "sdk/core/device.h"

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

std::string str(const Device& d) {
  std::ostringstream out;
  out << d;
  return out.str();
}

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

TEST(Device, BuiltinTypesUseDlpackCodes) {
  EXPECT_EQ(static_cast<int>(DeviceType::kCPU), 1);
  EXPECT_EQ(static_cast<int>(DeviceType::kCUDA), 2);
  EXPECT_EQ(static_cast<int>(DeviceType::kMeta), 64);
  EXPECT_EQ(dlpack_device_type(DeviceType::kCPU), 1);
  EXPECT_EQ(dlpack_device_type(DeviceType::kCUDA), 2);
  EXPECT_EQ(dlpack_device_type(DeviceType::kMeta), -1);
  EXPECT_EQ(device_type_name(DeviceType::kCUDA), "cuda");
  EXPECT_EQ(device_type_from_name("meta"), DeviceType::kMeta);
  EXPECT_EQ(device_type_from_name("tpu"), std::nullopt);
}

TEST(Device, ParsesAndPrintsTypeAndIndex) {
  EXPECT_EQ(Device::parse("cuda:1"), Device(DeviceType::kCUDA, 1));
  EXPECT_EQ(Device::parse("cpu"), Device(DeviceType::kCPU));
  EXPECT_EQ(Device::parse("cpu:0").index, 0);
  EXPECT_EQ(str(Device::parse("cuda:1")), "cuda:1");
  EXPECT_EQ(str(Device(DeviceType::kCPU)), "cpu");
  EXPECT_EQ(str(Device(DeviceType::kMeta)), "meta");
  EXPECT_NE(Device(DeviceType::kCPU, 0), Device(DeviceType::kCPU));  // As torch.device.
}

TEST(Device, RejectsMalformedStringsWithPyTorchMessages) {
  EXPECT_EQ(error_of([] { Device::parse("cuda:x"); }), "Invalid device string: 'cuda:x'");
  EXPECT_EQ(error_of([] { Device::parse("cuda:-1"); }), "Invalid device string: 'cuda:-1'");
  EXPECT_EQ(error_of([] { Device::parse("cuda:01"); }), "Invalid device string: 'cuda:01'");
  EXPECT_EQ(error_of([] { Device::parse("cuda:"); }), "Invalid device string: 'cuda:'");
  std::string unknown = error_of([] { Device::parse("tpu:0"); });
  EXPECT_EQ(unknown.rfind("Expected one of cpu, cuda, meta", 0), 0u) << unknown;
  EXPECT_NE(unknown.find("device type at start of device string: tpu:0"), std::string::npos)
      << unknown;
}

TEST(Device, CpuIndexMustBeMinusOneOrZero) {
  EXPECT_EQ(error_of([] { Device(DeviceType::kCPU, 1); }),
            "CPU device index must be -1 or zero, got 1");
  EXPECT_EQ(error_of([] { Device(DeviceType::kCUDA, -2); }),
            "Device index must be -1 or non-negative, got -2");
}

TEST(Device, PluginTypesAreRegisteredIdempotentlyByName) {
  DeviceType npu = register_device_type("test_npu");
  EXPECT_GE(static_cast<int>(npu), 128);
  EXPECT_EQ(register_device_type("test_npu"), npu);
  EXPECT_EQ(device_type_name(npu), "test_npu");
  EXPECT_EQ(device_type_from_name("test_npu"), npu);
  EXPECT_EQ(dlpack_device_type(npu), 12);
  EXPECT_EQ(Device::parse("test_npu:3"), Device(npu, 3));
  EXPECT_EQ(str(Device(npu, 3)), "test_npu:3");
  EXPECT_TRUE(is_valid_device_type(npu));

  unregister_device_type(npu);
  EXPECT_FALSE(is_valid_device_type(npu));
  EXPECT_EQ(device_type_from_name("test_npu"), std::nullopt);
  EXPECT_EQ(device_type_name(npu), "test_npu");      // Names stay valid.
  EXPECT_EQ(register_device_type("test_npu"), npu);  // Same code again.
  EXPECT_TRUE(is_valid_device_type(npu));
}

TEST(Device, RejectsBadAndBuiltinPluginNames) {
  EXPECT_EQ(error_of([] { register_device_type("cuda"); }),
            "device type name 'cuda' is reserved for a built-in device type");
  EXPECT_THROW(register_device_type(""), Error);
  EXPECT_THROW(register_device_type("Bad-Name"), Error);
  EXPECT_THROW(unregister_device_type(DeviceType::kCPU), Error);
}

TEST(Device, AtLeastSixteenPluginTypesRegisterConcurrently) {
  std::vector<DeviceType> types(16);
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back(
        [i, &types] { types[i] = register_device_type("many_" + std::to_string(i)); });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(device_type_name(types[i]), "many_" + std::to_string(i));
    for (int j = 0; j < i; ++j) EXPECT_NE(types[i], types[j]);
  }
}

}  // namespace
}  // namespace bp
