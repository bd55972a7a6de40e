// FloatVector: the vectors of floats that the inline float functions (vec_erf.h, vec_exp.h) take.
#ifndef BACKPLANE_SDK_ITER_VEC_FLOAT_VECTOR_H_
#define BACKPLANE_SDK_ITER_VEC_FLOAT_VECTOR_H_

#include <concepts>

#include "sdk/iter/vec/vectorized.h"

namespace bp::vec_math {

// A vector of floats with Vectorized's raw access (Vectorized<float, W> of any width W): the inline
// functions compute on the raw vector, floats and their bits.
template <typename V>
concept FloatVector = std::same_as<typename V::value_type, float> &&
    requires(V v, typename V::Raw raw) {
  { raw[0] } -> std::convertible_to<float>;
  requires sizeof(raw) == sizeof(v);
  { V::from_raw(raw) } -> std::same_as<V>;
  v.store(&raw);
};

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_FLOAT_VECTOR_H_
