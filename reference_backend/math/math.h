// Every scalar math functor (bp::math::Add, ...), for the generated CPU kernels whose
// declarations name them (`math: Add(alpha)`, `scan: SumOps`, `normalize: Softmax`). A new family
// header is listed here.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_MATH_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_MATH_H_

#include "reference_backend/math/activation.h"     // IWYU pragma: export
#include "reference_backend/math/binary.h"         // IWYU pragma: export
#include "reference_backend/math/factories.h"      // IWYU pragma: export
#include "reference_backend/math/normalization.h"  // IWYU pragma: export
#include "reference_backend/math/reduction.h"      // IWYU pragma: export
#include "reference_backend/math/scan.h"           // IWYU pragma: export
#include "reference_backend/math/special.h"        // IWYU pragma: export
#include "reference_backend/math/ternary.h"        // IWYU pragma: export
#include "reference_backend/math/unary.h"          // IWYU pragma: export

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_MATH_H_
