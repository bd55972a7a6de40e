#include "conformance/runner/backend.h"

#include "sdk/core/storage_copies.h"

namespace bp::conformance {

Tensor copy_to_device(const Tensor& t, Device device) { return StorageCopies(device).copy(t); }

}  // namespace bp::conformance
