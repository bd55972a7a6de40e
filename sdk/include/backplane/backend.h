/* Backplane C ABI: what a device backend (a plugin) gives the host.
 *
 *   static bp_error* my_alloc(void* self, bp_device device, size_t nbytes, void** out) {...}
 *   static bp_allocator allocator = {sizeof allocator};     // allocate, deallocate, alignment
 *   static bp_copy_fns copies = {sizeof copies};            // to_host, from_host, within_device
 *   allocator.allocate = my_alloc; allocator.deallocate = my_free; ...
 *   bp_backend_desc desc = {sizeof desc};
 *   desc.name = "npu";
 *   desc.device_count = 1;
 *   desc.allocator = &allocator;
 *   desc.copies = &copies;
 *   bp_backend* backend;
 *   bp_error* err = api->backend_register(&desc, &backend);
 *   err = api->kernel_register(backend, "add.out", my_add_out, NULL, &registration);
 *   err = api->fallback_register(backend, api->cpu_fallback, NULL, &fallback);
 *
 * A backend that registers only an op's out= kernel gets the functional and in-place variants
 * from the host's Common key, which runs the op's meta function (shape and dtype checks) and
 * allocates outputs on the device first. A backend that wants to do all of an op itself (to fuse
 * the steps, or to pick its own output layout) registers a kernel for that very op ("add.Tensor",
 * "add_.Tensor"): Common passes calls straight to a backend's own kernel for the functional and
 * in-place variants. The out= variant always goes through Common (out= resizing rules), then to
 * the backend's out= kernel. Ops without a kernel of the backend go to its fallback, if any.
 * A backend that does every op's checks and allocation itself makes Common fall through
 * (api->common_fallthrough_register): every call then goes straight to its kernels.
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

/* A boxed kernel: reads `nargs` arguments (borrowed; the op's schema order, every argument
 * present, defaults filled in) and writes the op's `nresults` results, which the host sets to
 * BP_VALUE_NONE before the call. Tensor results are new references: an out= or in-place kernel
 * returns its written argument after api->tensor_retain. A list result (`Tensor[]`) is filled
 * with api->value_set_tensor_list, never by pointing into the plugin's memory (an error naming
 * the result). The host releases every result after the call, also when the kernel returns an
 * error. `user_data` is what was given at registration.
 * An error returned here reaches the caller as "[backend] op.overload: <message>" with its
 * code; the host destroys it. */
typedef bp_error* (*bp_kernel_fn)(void* user_data, const bp_op* op, const bp_value* args,
                                  size_t nargs, bp_value* results, size_t nresults);

/* Device memory. allocate: `nbytes` bytes (0 is allowed: return NULL or any pointer) aligned to
 * `alignment` on `device` (an error with BP_ERROR_OUT_OF_MEMORY when it cannot). deallocate:
 * frees what allocate returned (never called with NULL). The host checks the alignment of
 * every non-NULL pointer. */
typedef struct bp_allocator {
  size_t struct_size;
  void* user_data;  /* passed back to every call */
  size_t alignment; /* of every pointer allocate returns; 0 means 16 */
  bp_error* (*allocate)(void* user_data, bp_device device, size_t nbytes, void** out);
  void (*deallocate)(void* user_data, bp_device device, void* ptr);
} bp_allocator;

/* Byte copies. Each copies `nbytes` contiguous bytes and has finished with the host memory when
 * it returns. within_device copies between two allocations of this backend (src_device and
 * dst_device may differ in id). synchronize waits until work queued on `device` is done
 * (optional: NULL when copies and kernels are synchronous); api->device_synchronize calls it. */
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

/* (0.1) Streams: ordered queues of work on a device (CUDA's streams), for backends whose work
 * runs asynchronously. The host calls these for api->stream_* (api.h); `stream` is a handle that
 * create returned, or NULL for the device's default stream (where work goes when no stream was
 * made current). Every function is called from any thread, also after the backend was
 * unregistered or its plugin unloaded while streams made by create are still alive (the plugin's
 * library stays loaded and on_released waits until the last one is destroyed). Callers of the
 * API must not use a stream while destroying it, so no call on a stream overlaps its destroy. */
typedef struct bp_stream_fns {
  size_t struct_size;
  void* user_data; /* passed back to every call */
  /* Required. A new stream on `device`; *out: the backend's handle (never NULL), owned by the
   * host until it passes it to destroy. */
  bp_error* (*create)(void* user_data, bp_device device, void** out);
  /* Required. Frees a stream create made: called once per stream, after the host synchronized
   * it (also when that failed). The stream is gone even when this returns an error. */
  bp_error* (*destroy)(void* user_data, bp_device device, void* stream);
  /* Required. Blocks until the work queued on `stream` so far is done. */
  bp_error* (*synchronize)(void* user_data, bp_device device, void* stream);
  /* Required. Work queued on `waiter` from now on waits for the work queued on `waitee` so far
   * (an event recorded on waitee that waiter waits on); must not block the host. Never called
   * with waiter == waitee. */
  bp_error* (*wait)(void* user_data, bp_device device, void* waiter, void* waitee);
  /* Optional (NULL: the host synchronizes the stream and reports it idle). *idle: whether all
   * the work queued on `stream` is done, without blocking. */
  bp_error* (*query)(void* user_data, bp_device device, void* stream, bool* idle);
} bp_stream_fns;

/* (0.5) Fused groups: a backend that compiles a whole chain of pointwise and reduction ops into
 * one kernel (lazy mode, docs/fusion.md). */
typedef struct bp_fusion_fns {
  size_t struct_size;
  void* user_data; /* passed to run_group */
  /* Called when lazy mode runs a fused group on one of the backend's devices. `group_json` is the
   * group's IR (format "backplane.fused_group/1", docs/fusion.md): its nodes (op, kind, scalar
   * math, index ranges, loads) and its buffers, which are buffers[0..nbuffers) in order: the
   * tensors the group reads, then the result it must write (last). Set *accepted to true when
   * the plugin ran the group (the result written, or queued on the device's current stream);
   * false makes the host run the group op by op through the backend's kernels. Everything is
   * borrowed for the call. Thread safety: any thread. An error fails the run that offered it. */
  bp_error* (*run_group)(void* user_data, const char* group_json, bp_tensor* const* buffers,
                         size_t nbuffers, bool* accepted);
} bp_fusion_fns;

/* A backend's description. `allocator`, `copies` and `streams` are pointers (not nested structs)
 * so that each struct can grow on its own; the host copies them during backend_register. */
typedef struct bp_backend_desc {
  size_t struct_size;
  /* [a-z0-9_]+, e.g. "npu": the device type's name ("npu:0"). "cuda" is special: the backend
   * takes the built-in CUDA device type (BP_DEVICE_CUDA) and dispatch key. */
  const char* name;
  int32_t device_count;          /* devices ids 0..device_count-1; 0 means 1 */
  const bp_allocator* allocator; /* required (allocate and deallocate) */
  const bp_copy_fns* copies;     /* required (to_host, from_host, within_device) */
  /* (0.1) Optional: called once, from any thread, when the backend is unregistered and the last
   * memory its allocator handed out has been freed, so the plugin can tear down allocator state
   * that tensors outliving the backend still needed. The plugin's library stays loaded until
   * then. */
  void* user_data;
  void (*on_released)(void* user_data);
  /* (0.1) Optional: stream hooks. NULL: only the default stream, synchronous from the host's
   * view (api->stream_create fails with BP_ERROR_NOT_IMPLEMENTED). */
  const bp_stream_fns* streams;
  /* (0.5) Optional: takes fused groups. NULL: lazy mode runs them op by op. */
  const bp_fusion_fns* fusion;
} bp_backend_desc;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_BACKEND_H_ */
