#include "reference_backend/cpu/zero_division.h"

#include <atomic>
#include <cstdint>

#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::cpu {
namespace {

// Whether any lane of `mask` (a comparison's result) is set.
template <typename Vec>
[[gnu::always_inline]] inline bool any_lane_set(Vec mask) {
  typedef uint64_t Piece __attribute__((vector_size(16)));
  const auto raw = mask.raw();
  Piece folded;
  copy_bytes(&folded, &raw, 16);
  for (int piece = 1; piece < static_cast<int>(sizeof(raw)) / 16; ++piece) {
    Piece next;
    copy_bytes(&next, reinterpret_cast<const char*>(&raw) + 16 * piece, 16);
    folded |= next;
  }
  return (folded[0] | folded[1]) != 0;
}

// Whether one of the n contiguous values of T at `p` is 0: vectors of the CPU's best ISA, four
// per step (a pass at about memory speed), the tail one by one.
template <typename T>
bool contiguous_contains_zero(const char* p, int64_t n) {
  bool found = false;
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    using Vec = Vectorized<T, width, decltype(width)::isa>;
    constexpr int64_t kLanes = Vec::size();
    const Vec zero(T(0));
    const auto at = [&](int64_t i) __attribute__((always_inline)) {
      return Vec::loadu(p + i * static_cast<int64_t>(sizeof(T))) == zero;
    };
    int64_t i = 0;
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
      if (any_lane_set(at(i) | at(i + kLanes) | at(i + 2 * kLanes) | at(i + 3 * kLanes))) {
        found = true;
        return;
      }
    }
    for (; i < n; ++i) {
      T value;
      copy_bytes(&value, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
      if (value == 0) {
        found = true;
        return;
      }
    }
  });
  return found;
}

}  // namespace

void check_no_zero_divisor(const TensorIteratorBase& iter, int input) {
  const ScalarType dtype = *iter.common_dtype();
  if (!is_integral(dtype, /*include_bool=*/false)) return;
  const int arg = iter.noutputs() + input;
  const int ntensors = iter.ntensors();
  BP_INTERNAL_ASSERT(iter.dtype(arg) == dtype, "the divisor is not in the common dtype");
  std::atomic<bool> found_zero{false};
  visit_dtype<scalar_type_mask(ScalarCategory::kIntegral)>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
      for (int64_t j = 0; j < size1; ++j) {
        if (found_zero.load(std::memory_order_relaxed)) return;
        const char* row = data[arg] + j * strides[ntensors + arg];
        if (strides[arg] == static_cast<int64_t>(sizeof(T))) {
          if (contiguous_contains_zero<T>(row, size0)) {
            found_zero.store(true, std::memory_order_relaxed);
            return;
          }
          continue;
        }
        for (int64_t i = 0; i < size0; ++i) {
          T value;
          copy_bytes(&value, row + i * strides[arg], sizeof(T));
          if (value == 0) {
            found_zero.store(true, std::memory_order_relaxed);
            return;
          }
        }
      }
    });
  });
  BP_CHECK(!found_zero.load(), "ZeroDivisionError");
}

}  // namespace bp::cpu
