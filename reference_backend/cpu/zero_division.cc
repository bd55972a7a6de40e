#include "reference_backend/cpu/zero_division.h"

#include <atomic>
#include <cstring>

#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"

namespace bp::cpu {

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
        const char* row = data[arg] + j * strides[ntensors + arg];
        for (int64_t i = 0; i < size0; ++i) {
          T value;
          std::memcpy(&value, row + i * strides[arg], sizeof(T));
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
