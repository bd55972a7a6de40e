#include "conformance/framework/ref_tensor.h"

#include <cstring>
#include <sstream>

#include "sdk/core/empty.h"

namespace bp::conformance {

int64_t numel_of(const Sizes& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

Sizes contiguous_strides_of(const Sizes& sizes) {
  Sizes strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

void for_each_index(const Sizes& sizes, const std::function<void(const Index&)>& f) {
  if (numel_of(sizes) == 0) return;
  Index index(sizes.size(), 0);
  while (true) {
    f(index);
    size_t d = sizes.size();
    while (d > 0) {
      --d;
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
      if (d == 0) return;
    }
    if (sizes.empty()) return;
  }
}

bool broadcast_sizes(const Sizes& a, const Sizes& b, Sizes* out) {
  const size_t n = std::max(a.size(), b.size());
  Sizes result(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return false;
    result[i] = x == 1 ? y : x;
  }
  *out = std::move(result);
  return true;
}

std::string sizes_string(const Sizes& sizes) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < sizes.size(); ++i) out << (i ? ", " : "") << sizes[i];
  out << "]";
  return out.str();
}

int64_t RefTensor::numel() const { return numel_of(sizes); }

const Wide& RefTensor::at(const Index& index) const {
  int64_t linear = 0;
  for (size_t d = 0; d < sizes.size(); ++d) linear = linear * sizes[d] + index[d];
  return values[static_cast<size_t>(linear)];
}

const Wide& RefTensor::at_broadcast(const Index& index) const {
  const size_t skip = index.size() - sizes.size();
  int64_t linear = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    linear = linear * sizes[d] + (sizes[d] == 1 ? 0 : index[skip + d]);
  }
  return values[static_cast<size_t>(linear)];
}

RefTensor filled(ScalarType dtype, Sizes sizes, Wide fill) {
  RefTensor t{dtype, std::move(sizes), {}};
  t.values.assign(static_cast<size_t>(t.numel()), fill);
  return t;
}

RefTensor cast(const RefTensor& t, ScalarType dtype) {
  RefTensor out{dtype, t.sizes, {}};
  out.values.reserve(t.values.size());
  for (const Wide& w : t.values) out.values.push_back(cast(w, t.dtype, dtype));
  return out;
}

Wide read_element(const void* p, ScalarType dtype) {
  return visit_dtype(dtype, [&](auto tag) -> Wide {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      // Read the byte, not a bool: a backend that writes 2 into a bool gets a mismatch, not UB.
      uint8_t byte;
      std::memcpy(&byte, p, 1);
      return from_int(Int(byte));
    } else {
      T v;
      std::memcpy(&v, p, sizeof(T));
      if constexpr (std::is_same_v<T, complex<float>> || std::is_same_v<T, complex<double>>) {
        return from_complex(cd(v.real(), v.imag()));
      } else if constexpr (std::is_integral_v<T>) {
        return from_int(Int(v));
      } else {
        return from_real(
            static_cast<double>(static_cast<std::conditional_t<sizeof(T) == 2, float, T>>(v)));
      }
    }
  });
}

void write_element(void* p, ScalarType dtype, const Wide& w) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if constexpr (std::is_same_v<T, complex<float>>) {
      v = T(static_cast<float>(w.z.real()), static_cast<float>(w.z.imag()));
    } else if constexpr (std::is_same_v<T, complex<double>>) {
      v = T(w.z.real(), w.z.imag());
    } else if constexpr (std::is_same_v<T, bool>) {
      v = w.i != 0;
    } else if constexpr (std::is_integral_v<T>) {
      v = static_cast<T>(w.i);
    } else if constexpr (sizeof(T) == 2) {
      v = T(static_cast<float>(w.z.real()));
    } else {
      v = static_cast<T>(w.z.real());
    }
    std::memcpy(p, &v, sizeof(T));
  });
}

namespace {

// Byte offset of the element at `index` of `t`.
int64_t byte_offset(const Tensor& t, const Index& index) {
  int64_t offset = t.storage_offset();
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.strides()[d];
  return offset * static_cast<int64_t>(t.itemsize());
}

}  // namespace

RefTensor storage_elements(const Tensor& host) {
  const size_t n = host.storage().nbytes() / host.itemsize();
  RefTensor r{host.dtype(), {static_cast<int64_t>(n)}, {}};
  r.values.reserve(n);
  const auto* base = static_cast<const char*>(host.storage().data());
  for (size_t i = 0; i < n; ++i) {
    r.values.push_back(read_element(base + i * host.itemsize(), host.dtype()));
  }
  return r;
}

RefTensor read_tensor(const Tensor& t) {
  RefTensor out{t.dtype(), Sizes(t.sizes().begin(), t.sizes().end()), {}};
  out.values.reserve(static_cast<size_t>(t.numel()));
  const auto* base = static_cast<const char*>(t.storage().data());
  for_each_index(out.sizes, [&](const Index& index) {
    out.values.push_back(read_element(base + byte_offset(t, index), t.dtype()));
  });
  return out;
}

void write_tensor(const Tensor& t, const RefTensor& values) {
  auto* base = static_cast<char*>(t.storage().data());
  size_t k = 0;
  for_each_index(values.sizes, [&](const Index& index) {
    write_element(base + byte_offset(t, index), t.dtype(), values.values[k++]);
  });
}

Tensor make_contiguous(const RefTensor& values) {
  Tensor t = native::empty(values.sizes, values.dtype, Device(DeviceType::kCPU));
  write_tensor(t, values);
  return t;
}

}  // namespace bp::conformance
