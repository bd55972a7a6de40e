// define_ops: defines every declared op in the dispatcher (once; later calls do nothing).
//
// The generated registration code calls it before registering kernels, and the op handles
// before looking an op up, so static initialisation order across files does not matter.
//
// Thread safety: safe to call from any thread (a function-local static).
#ifndef BACKPLANE_SDK_OPS_DEFINE_OPS_H_
#define BACKPLANE_SDK_OPS_DEFINE_OPS_H_

namespace bp {

void define_ops();

}  // namespace bp

#endif  // BACKPLANE_SDK_OPS_DEFINE_OPS_H_
