// Every meta function, for the generated structured classes (sdk/ops/*_structured.cc) whose
// declarations name them (`meta: binary_op(self, other)`). A new shared meta function goes in
// the header of its family and is listed here.
#ifndef BACKPLANE_SDK_STRUCTURED_META_FUNCTIONS_H_
#define BACKPLANE_SDK_STRUCTURED_META_FUNCTIONS_H_

#include "sdk/structured/along_dim_meta.h"  // IWYU pragma: export
#include "sdk/structured/indexing_meta.h"   // IWYU pragma: export
#include "sdk/structured/matmul_meta.h"     // IWYU pragma: export
#include "sdk/structured/pointwise_meta.h"  // IWYU pragma: export
#include "sdk/structured/reduction_meta.h"  // IWYU pragma: export
#include "sdk/structured/ternary_meta.h"    // IWYU pragma: export

#endif  // BACKPLANE_SDK_STRUCTURED_META_FUNCTIONS_H_
