#include "reference_backend/cpu/libtorch_bench/support.h"

#include <sys/resource.h>

#include "sdk/core/empty.h"

namespace bp_bench {

int64_t minor_faults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

void held_to(benchmark::State& state, const char* limit) {
  if (*limit != 0) state.SetLabel(limit);
}

float value(int64_t i, bool positive) {
  const float t = static_cast<float>((i * 7919) % kN) / static_cast<float>(kN);
  return positive ? 0.1f + 9.9f * t : -3.0f + 6.0f * t;
}

bp::Tensor bp_input(bool positive) {
  bp::Tensor t = bp::native::empty({kN}, bp::ScalarType::kFloat32, kCpu);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

at::Tensor torch_input(bool positive) {
  at::Tensor t = at::empty({kN}, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

float spread_value(int64_t i) {
  return -3.0f + 6.0f * static_cast<float>((i * 7919) % 100003) / 100003.0f;
}

bp::Tensor bp_values(std::vector<int64_t> sizes) {
  bp::Tensor t = bp::native::empty(sizes, bp::ScalarType::kFloat32, kCpu);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = spread_value(i);
  return t;
}

at::Tensor torch_values(std::vector<int64_t> sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = spread_value(i);
  return t;
}

}  // namespace bp_bench
