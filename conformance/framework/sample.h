// Sample inputs of an op: the arguments of one call, by schema name, as the op database writes
// them. Tensors are CPU tensors with the exact geometry to test (a transposed view, a slice with
// a step, an expanded tensor...); the runner copies them, geometry and all, to the device under
// test.
//
//   Sample s;
//   s.add("self", tensor).add("other", other).add("alpha", Scalar(2));
//   s.add("device", DeviceUnderTest{});      // factories: the backend's device
//   s.note = "broadcast";
//
// Arguments a sample leaves out take the schema's default.
//
// Thread safety: value types (tensors are shared handles: do not write to a sample's tensors).
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_SAMPLE_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_SAMPLE_H_

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sdk/core/tensor.h"
#include "sdk/dispatch/value.h"

namespace bp::conformance {

// A tensor argument: a CPU tensor holding the values, with the geometry to test.
struct TensorArg {
  Tensor host;
  // Stays on the CPU when the device under test is another one (copy_ from the host).
  bool keep_on_host = false;
};

// A `Tensor[]` argument (broadcast_tensors' tensors): CPU tensors, each copied to the device
// under test as a TensorArg would be. Element i is named "<argument>[i]" in expectations
// (ExpectedOutput::aliases, returns_args).
struct TensorListArg {
  std::vector<Tensor> host;
};

// The name of element `index` of the list argument `name`: "tensors[1]".
std::string list_element_name(const std::string& name, size_t index);

// Stands for the device under test (factories' `device=`, to.device's target).
struct DeviceUnderTest {
  friend bool operator==(const DeviceUnderTest&, const DeviceUnderTest&) = default;
};

using SampleValue = std::variant<TensorArg, Value, DeviceUnderTest, TensorListArg>;

struct SampleArg {
  std::string name;
  SampleValue value;
};

struct Sample {
  std::vector<SampleArg> args;
  std::string note;  // what the sample exercises: "transposed", "broadcast", "0-dim"...

  Sample& add(std::string name, const Tensor& t) {
    args.push_back({std::move(name), TensorArg{t}});
    return *this;
  }
  Sample& add(std::string name, TensorArg t) {
    args.push_back({std::move(name), std::move(t)});
    return *this;
  }
  Sample& add(std::string name, TensorListArg list) {
    args.push_back({std::move(name), std::move(list)});
    return *this;
  }
  Sample& add(std::string name, DeviceUnderTest d) {
    args.push_back({std::move(name), d});
    return *this;
  }
  Sample& add(std::string name, Value v) {
    args.push_back({std::move(name), std::move(v)});
    return *this;
  }
  // Replaces the argument `name` (adds it when absent).
  Sample& set(const std::string& name, SampleValue v);
  // A tensor argument (not a Value holding a tensor, which would not be copied to the device).
  Sample& set(const std::string& name, const Tensor& t) { return set(name, TensorArg{t}); }
  const SampleArg* find(const std::string& name) const;
};

// "self=float32[3, 4]{T} other=float32[4] alpha=2": the sample in one line for reports.
std::string describe(const Sample& sample);
// "float32[3, 4]" plus a layout mark: {T} not dense, {E} expanded (a stride 0), {+3} offset.
std::string describe(const Tensor& t);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_SAMPLE_H_
