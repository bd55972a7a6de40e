#include "conformance/runner/compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace bp::conformance {
namespace {

bool real_close(double a, double e, Tolerance tol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return a == e;
  if (tol.signed_zeros && a == 0 && e == 0) return std::signbit(a) == std::signbit(e);
  return std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
}

bool close(const Wide& a, const Wide& e, ScalarType dtype, Tolerance tol) {
  switch (kind_of(dtype)) {
    case Kind::kInt:
      return a.i == e.i;
    case Kind::kReal:
      return real_close(a.z.real(), e.z.real(), tol);
    case Kind::kComplex: {
      const bool special = std::isnan(a.z.real()) || std::isnan(a.z.imag()) ||
                           std::isinf(a.z.real()) || std::isinf(a.z.imag()) ||
                           std::isnan(e.z.real()) || std::isnan(e.z.imag()) ||
                           std::isinf(e.z.real()) || std::isinf(e.z.imag());
      if (special || (a.z == cd(0, 0) && e.z == cd(0, 0))) {
        return real_close(a.z.real(), e.z.real(), tol) && real_close(a.z.imag(), e.z.imag(), tol);
      }
      return std::abs(a.z - e.z) <= tol.atol + tol.rtol * std::abs(e.z);
    }
  }
  return false;
}

std::string index_string(const Sizes& sizes, size_t linear) {
  Index index(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    index[d] = static_cast<int64_t>(linear) % sizes[d];
    linear /= static_cast<size_t>(sizes[d]);
  }
  return sizes_string(index);
}

std::string header_mismatch(const RefTensor& a, const RefTensor& e) {
  if (a.dtype != e.dtype) {
    return std::string("dtype ") + std::string(scalar_type_name(a.dtype)) + ", expected " +
           std::string(scalar_type_name(e.dtype));
  }
  if (a.sizes != e.sizes) {
    return "sizes " + sizes_string(a.sizes) + ", expected " + sizes_string(e.sizes);
  }
  return "";
}

template <typename Same>
std::string compare_elements(const RefTensor& a, const RefTensor& e, const Same& same,
                             const char* rule) {
  if (std::string h = header_mismatch(a, e); !h.empty()) return h;
  std::ostringstream out;
  size_t bad = 0;
  for (size_t i = 0; i < e.values.size(); ++i) {
    if (same(a.values[i], e.values[i])) continue;
    if (bad < 3) {
      out << (bad ? "; " : ": ") << "at " << index_string(e.sizes, i) << " got "
          << to_string(a.values[i], a.dtype) << ", expected " << to_string(e.values[i], e.dtype);
    }
    ++bad;
  }
  if (bad == 0) return "";
  std::ostringstream head;
  head << bad << " of " << e.values.size() << " elements differ" << rule;
  return head.str() + out.str();
}

}  // namespace

std::string compare_values(const RefTensor& actual, const RefTensor& expected, Tolerance tol) {
  std::ostringstream rule;
  if (kind_of(expected.dtype) != Kind::kInt) {
    rule << " (atol " << tol.atol << ", rtol " << tol.rtol << ")";
  }
  const std::string r = rule.str();
  return compare_elements(
      actual, expected,
      [&](const Wide& a, const Wide& e) { return close(a, e, expected.dtype, tol); }, r.c_str());
}

std::string compare_identical(const RefTensor& a, const RefTensor& b) {
  return compare_elements(
      a, b, [&](const Wide& x, const Wide& y) { return identical(x, y, b.dtype); }, " bit for bit");
}

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

std::vector<uint8_t> storage_bytes(const Tensor& host) {
  const size_t n = host.storage().nbytes();
  std::vector<uint8_t> bytes(n);
  if (n != 0 && host.storage().data() != nullptr)
    std::memcpy(bytes.data(), host.storage().data(), n);
  return bytes;
}

std::vector<bool> footprint(const Tensor& t) {
  const size_t elements = t.storage().nbytes() / t.itemsize();
  std::vector<bool> covered(elements, false);
  const Sizes sizes(t.sizes().begin(), t.sizes().end());
  for_each_index(sizes, [&](const Index& index) {
    int64_t offset = t.storage_offset();
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.strides()[d];
    if (offset >= 0 && static_cast<size_t>(offset) < elements) covered[offset] = true;
  });
  return covered;
}

std::string compare_outside(const Tensor& t, const std::vector<uint8_t>& before,
                            const std::vector<uint8_t>& after) {
  if (before.size() != after.size()) return "";
  const std::vector<bool> covered = footprint(t);
  const size_t itemsize = t.itemsize();
  size_t changed = 0, first = 0;
  for (size_t b = 0; b < before.size(); ++b) {
    const size_t element = b / itemsize;
    if (element < covered.size() && covered[element]) continue;
    if (before[b] != after[b]) {
      if (changed++ == 0) first = b;
    }
  }
  if (changed == 0) return "";
  std::ostringstream out;
  out << "wrote outside its elements: " << changed << " bytes changed, the first at storage byte "
      << first << " (element " << first / itemsize << "; its elements start at element "
      << t.storage_offset() << ")";
  return out.str();
}

std::string compare_bytes(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after) {
  if (before.size() != after.size()) {
    return "its storage changed size from " + std::to_string(before.size()) + " to " +
           std::to_string(after.size()) + " bytes";
  }
  size_t changed = 0, first = 0;
  for (size_t b = 0; b < before.size(); ++b) {
    if (before[b] != after[b] && changed++ == 0) first = b;
  }
  if (changed == 0) return "";
  return "its storage changed: " + std::to_string(changed) + " bytes, the first at byte " +
         std::to_string(first);
}

}  // namespace bp::conformance
