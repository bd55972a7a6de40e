// Helpers of the reduction kernel tests (reductions_*_test.cc): tensors of any dtype from values,
// elements read back as complex<double>, and the naive reference every test compares with: the
// groups of input elements each output element reduces, collected with plain index loops.
//
//   Tensor x = random_tensor({3, 4}, ScalarType::kInt16);
//   auto groups = reduction_groups(x, {1});   // groups[i]: x[i, 0], x[i, 1], x[i, 2], x[i, 3]
//
// Thread safety: test code, one thread.
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_TEST_UTIL_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_TEST_UTIL_H_

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sdk/core/element_cast.h"
#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp::reductions_test {

using Complex = std::complex<double>;
using Groups = std::vector<std::vector<Complex>>;

inline const Device kCpu(DeviceType::kCPU);
inline const Device kMeta(DeviceType::kMeta);

inline const std::vector<ScalarType> kAllDtypes = {
    ScalarType::kBool,    ScalarType::kUInt8,   ScalarType::kInt8,      ScalarType::kInt16,
    ScalarType::kInt32,   ScalarType::kInt64,   ScalarType::kFloat16,   ScalarType::kBFloat16,
    ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kComplex64, ScalarType::kComplex128};

// A tensor whose elements (C order) are `values`, converted to `dtype` as PyTorch's kernels do.
inline Tensor tensor_of(std::vector<int64_t> sizes, ScalarType dtype,
                        const std::vector<Complex>& values) {
  Tensor t = empty(sizes, dtype, kCpu);
  BP_INTERNAL_ASSERT(static_cast<size_t>(t.numel()) == values.size(), "wrong number of values");
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data_ptr());
    for (size_t i = 0; i < values.size(); ++i) {
      p[i] = element_cast<T>(complex<double>(values[i].real(), values[i].imag()));
    }
  });
  return t;
}
inline Tensor tensor_of(std::vector<int64_t> sizes, ScalarType dtype,
                        const std::vector<double>& values) {
  return tensor_of(std::move(sizes), dtype, std::vector<Complex>(values.begin(), values.end()));
}

// Deterministic values every dtype holds exactly: 0 / 1 for bool, 0..9 for uint8, -5..5 for the
// other integers, multiples of 1/4 in [-2, 2] for floating types (both parts for complex).
inline Tensor random_tensor(std::vector<int64_t> sizes, ScalarType dtype, uint64_t seed = 1) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 12345;
  auto next = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>(state >> 33);
  };
  auto draw = [&]() -> double {
    if (dtype == ScalarType::kBool) return static_cast<double>(next() % 2);
    if (dtype == ScalarType::kUInt8) return static_cast<double>(next() % 10);
    if (is_integral(dtype, false)) return static_cast<double>(next() % 11 - 5);
    return static_cast<double>(next() % 17 - 8) / 4;
  };
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<Complex> values;
  for (int64_t i = 0; i < n; ++i) {
    const double re = draw();
    values.emplace_back(re, is_complex(dtype) ? draw() : 0.0);
  }
  return tensor_of(std::move(sizes), dtype, values);
}

// Element `flat` (C order) of `t`, any strides.
inline Complex element(const Tensor& t, int64_t flat) {
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    offset += (flat % t.size(d)) * t.stride(d);
    flat /= t.size(d);
  }
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const complex<double> v =
        element_cast<complex<double>>(static_cast<const T*>(t.data_ptr())[offset]);
    return Complex(v.real(), v.imag());
  });
}

// Every element in C order.
inline std::vector<Complex> elements(const Tensor& t) {
  std::vector<Complex> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(element(t, i));
  return out;
}
inline std::vector<double> real_elements(const Tensor& t) {
  std::vector<double> out;
  for (const Complex& v : elements(t)) out.push_back(v.real());
  return out;
}

// For each output element (C order over the kept dims), the input elements it reduces, in C
// order. `dims` may be negative; empty means every dim.
inline Groups reduction_groups(const Tensor& self, std::vector<int64_t> dims) {
  const int64_t ndim = self.dim();
  std::vector<bool> reduced(static_cast<size_t>(ndim), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + ndim : d)] = true;
  int64_t groups = 1;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!reduced[d]) groups *= self.size(d);
  }
  Groups out(static_cast<size_t>(groups));
  std::vector<int64_t> index(static_cast<size_t>(ndim), 0);
  for (int64_t flat = 0; flat < self.numel(); ++flat) {
    int64_t rest = flat, group = 0, scale = 1;
    for (int64_t d = ndim - 1; d >= 0; --d) {
      index[d] = rest % self.size(d);
      rest /= self.size(d);
      if (!reduced[d]) {
        group += index[d] * scale;
        scale *= self.size(d);
      }
    }
    out[static_cast<size_t>(group)].push_back(element(self, flat));
  }
  return out;
}

// The sizes of reducing `sizes` over `dims` (empty: all).
inline std::vector<int64_t> reduced_sizes(const std::vector<int64_t>& sizes,
                                          std::vector<int64_t> dims, bool keepdim) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  std::vector<bool> reduced(sizes.size(), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + ndim : d)] = true;
  std::vector<int64_t> out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!reduced[d]) {
      out.push_back(sizes[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

inline std::vector<int64_t> sizes_of(const Tensor& t) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}

// The message of the Error `f` throws, or "(no error)".
inline std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}
// The code of the Error `f` throws, if any.
inline std::optional<ErrorCode> error_code(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return std::nullopt;
}

// Runs the test body with `n` threads, restoring the previous count.
class ThreadCount {
 public:
  explicit ThreadCount(int n) : before_(get_num_threads()) { set_num_threads(n); }
  ~ThreadCount() { set_num_threads(before_); }

 private:
  int before_;
};

// The dims lists each reduction test runs over a 3-d input.
inline const std::vector<std::vector<int64_t>> kDimLists = {{0},    {1},     {2},       {-1},
                                                            {0, 2}, {-3, 1}, {2, 0, 1}, {}};

}  // namespace bp::reductions_test

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_TEST_UTIL_H_
