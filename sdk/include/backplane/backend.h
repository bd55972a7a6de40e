/* Backplane C ABI: what a device backend (a plugin) gives the host.
 *
 *   static bp_error* my_alloc(void* self, bp_device device, size_t nbytes, void** out) {...}
 *   bp_backend_desc desc = {sizeof desc};
 *   desc.name = "npu";
 *   desc.allocator.struct_size = sizeof desc.allocator;
 *   desc.allocator.allocate = my_alloc;
 *   desc.allocator.deallocate = my_free;
 *   desc.copies.struct_size = sizeof desc.copies;
 *   desc.copies.to_host = my_to_host;  ...
 *   bp_backend* backend;
 *   bp_error* err = api->backend_register(&desc, &backend);
 *   err = api->kernel_register(backend, "add.out", my_add_out, NULL, &registration);
 *
 * A backend that registers only an op's out= kernel gets the functional and in-place variants
 * from the host's Common key, which runs the op's meta function (shape and dtype checks) and
 * allocates outputs on the device first (docs/writing_a_backend.md).
 *
 * Every function pointer here is called by the host from any thread; implementations must be
 * thread-safe. A function returns NULL on success or an error created with api->error_create.
 */
#ifndef BACKPLANE_BACKEND_H_
#define BACKPLANE_BACKEND_H_

#include "backplane/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A boxed kernel: reads `nargs` arguments (borrowed; the op's schema order) and writes the op's
 * `nresults` results (tensors as new references: an out= kernel returns its `out` argument
 * after api->tensor_retain). `user_data` is what was given at registration. */
typedef bp_error* (*bp_kernel_fn)(void* user_data, const bp_op* op, const bp_value* args,
                                  size_t nargs, bp_value* results, size_t nresults);

/* Device memory. allocate: `nbytes` bytes (0 is allowed: return NULL or any pointer) aligned to
 * `alignment` on `device`. deallocate: frees what allocate returned. */
typedef struct bp_allocator {
  size_t struct_size;
  void* user_data;  /* passed back to every call */
  size_t alignment; /* of every pointer allocate returns; 0 means 16 */
  bp_error* (*allocate)(void* user_data, bp_device device, size_t nbytes, void** out);
  void (*deallocate)(void* user_data, bp_device device, void* ptr);
} bp_allocator;

/* Byte copies. Each copies `nbytes` contiguous bytes. within_device copies between two
 * allocations of this backend (src_device and dst_device may differ in id). synchronize waits
 * until work queued on `device` is done (optional: NULL when copies and kernels are
 * synchronous). */
typedef struct bp_copy_fns {
  size_t struct_size;
  void* user_data;
  bp_error* (*to_host)(void* user_data, void* dst_host, const void* src, bp_device src_device,
                       size_t nbytes);
  bp_error* (*from_host)(void* user_data, void* dst, bp_device dst_device, const void* src_host,
                         size_t nbytes);
  bp_error* (*within_device)(void* user_data, void* dst, bp_device dst_device, const void* src,
                             bp_device src_device, size_t nbytes);
  bp_error* (*synchronize)(void* user_data, bp_device device);
} bp_copy_fns;

typedef struct bp_backend_desc {
  size_t struct_size;
  const char* name; /* [a-z0-9_]+, e.g. "npu": the device type's name ("npu:0") */
  int32_t device_count;
  bp_allocator allocator;
  bp_copy_fns copies;
} bp_backend_desc;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_BACKEND_H_ */
