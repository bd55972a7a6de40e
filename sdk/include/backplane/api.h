/* Backplane C ABI: the function table, the one entry point to everything Backplane offers.
 *
 *   // A client program (linked with libbackplane):
 *   const bp_api* bp = bp_get_api();
 *   const bp_op* add;
 *   bp_error* err = bp->op_find("add.Tensor", &add);
 *   bp_value args[2] = {{BP_VALUE_TENSOR}, {BP_VALUE_TENSOR}};
 *   args[0].u.tensor = a;
 *   args[1].u.tensor = b;
 *   bp_value result;
 *   size_t nresults;
 *   if (!err) err = bp->op_call(add, args, 2, &result, 1, &nresults);
 *   if (err) { fprintf(stderr, "%s\n", bp->error_message(err)); bp->error_destroy(err); }
 *   ...
 *   bp->tensor_release(result.u.tensor);
 *
 *   // A plugin (built from these headers alone) gets the same table in bp_plugin_init
 *   // (plugin.h). The C++ wrapper backplane.hpp shortens all of this.
 *
 * Compatibility (docs/abi.md): the table only grows; a field is never removed, reordered or
 * retyped within a major version, and the first three fields (struct_size, major_version,
 * minor_version) never change in any version, so code can always read the version first.
 * `struct_size` is sizeof(bp_api) as the host compiled it: code built against newer headers
 * checks BP_API_HAS(api, field) before calling a function added after the minor version it
 * requires (fields marked "(0.1)" were added in 0.1, "(0.2)" in 0.2, "(0.3)" in 0.3, "(0.4)" in
 * 0.4). A plugin
 * reports the API version it was built against and the host refuses a different major version or a
 * newer minor version than its own.
 *
 * Structs passed in (descs, configs) may come from code built against older or newer headers:
 * fields past the caller's struct_size read as zero; a larger struct is accepted when every byte
 * past what the host knows is zero, and refused with BP_ERROR_INVALID_ARGUMENT naming the struct
 * otherwise (the caller asked for something this host cannot do). Structs filled by the host
 * (infos, records) are written only up to the smaller of the two sizes.
 *
 * Thread safety: every function may be called from any thread at once, except where noted.
 * Registrations and calls may run concurrently (the dispatcher's guarantees).
 */
#ifndef BACKPLANE_API_H_
#define BACKPLANE_API_H_

#include "backplane/backend.h"
#include "backplane/iter.h"
#include "backplane/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BP_API_MAJOR 0
#define BP_API_MINOR 5

/* Whether the table `api` has the function `field` (it was built with headers that have it). */
#define BP_API_HAS(api, field) \
  ((api)->struct_size >= offsetof(bp_api, field) + sizeof(((bp_api*)0)->field))

/* Where a tensor's metadata can be read in one call. */
typedef struct bp_tensor_info {
  size_t struct_size;
  size_t ndim;
  const int64_t* sizes;   /* borrowed: valid until the tensor is resized or released */
  const int64_t* strides; /* in elements; same lifetime as sizes */
  int64_t storage_offset; /* in elements */
  int64_t numel;
  int32_t dtype; /* a bp_dtype */
  bp_device device;
  void* data; /* the first element (storage data + offset); NULL for Meta / empty storage */
} bp_tensor_info;

/* (0.1) A registered backend as backend_list reports it. */
typedef struct bp_backend_info {
  size_t struct_size;
  const char* name;    /* borrowed: valid during the visit */
  int32_t device_type; /* its bp_device_type code */
  int32_t device_count;
  const char* dispatch_key; /* "Plugin0", "CUDA": borrowed, valid during the visit */
  const char* plugin_name;  /* the plugin that registered it, "" for none */
} bp_backend_info;

/* Log levels of messages the host reports (warnings from ops, plugin load notes). */
typedef enum bp_log_level { BP_LOG_WARNING = 1, BP_LOG_INFO = 2 } bp_log_level;
typedef void (*bp_log_fn)(void* user_data, int32_t level, const char* message);

/* A plugin load attempt, successful or not, as plugin_load_records reports it. */
typedef struct bp_plugin_load_record {
  size_t struct_size;
  const char* path;        /* borrowed: valid during the visit */
  const char* plugin_name; /* "" when the plugin never said */
  bool loaded;
  int32_t error_code;                 /* a bp_error_code when !loaded, else 0 */
  const char* error;                  /* "" when loaded */
  int32_t plugin_major, plugin_minor; /* the API version the plugin was built against, or -1 */
  int32_t host_major, host_minor;
} bp_plugin_load_record;

/* (0.4) How the host computes the output of an op defined from C (bp_op_def.meta_kind). */
typedef enum bp_op_meta_kind {
  /* The plugin's bp_op_def.meta callback: called like a kernel of the functional op, with Meta
   * tensors in place of the tensor arguments (api->tensor_info gives their sizes, strides and
   * dtypes), it writes its result as a new Meta tensor (api->tensor_empty_strided on
   * {BP_DEVICE_META, 0}) whose sizes, strides and dtype the output takes. */
  BP_OP_META_CALLBACK = 1,
  /* Binary pointwise ops' meta function (mul's): the first two arguments, which must be
   * Tensors, broadcast and promote to their common dtype, which the output has. The out= kernel
   * then finds the plan in api->kernel_call_iter, as add.out's does. */
  BP_OP_META_BINARY_POINTWISE = 2
} bp_op_meta_kind;

/* (0.4) An op a plugin defines (api->op_define): a functional op and its out= overload in a
 * namespace of the plugin's own, how their output is computed, and an optional CPU reference
 * kernel. Strings are borrowed for the call (the host copies them). */
typedef struct bp_op_def {
  size_t struct_size;
  /* Required. "npu::fused_add_relu(Tensor self, Tensor other) -> Tensor": one Tensor result. */
  const char* schema;
  /* Required. The out= overload: the same name, the functional op's arguments, then
   * `*, Tensor(a!) out`, returning `Tensor(a!)`:
   * "npu::fused_add_relu.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)". */
  const char* out_schema;
  int32_t meta_kind; /* a bp_op_meta_kind */
  /* BP_OP_META_CALLBACK: the meta callback and what it gets back as user_data (borrowed; both
   * must stay valid while the op is defined). NULL otherwise. */
  bp_kernel_fn meta;
  void* meta_user_data;
  /* Optional: the out= overload's kernel for CPU tensors (a reference implementation), called
   * after the host ran the meta step and allocated or resized `out`, as a plugin device's out=
   * kernel is. NULL: the op has no CPU kernel. */
  bp_kernel_fn cpu_kernel;
  void* cpu_user_data;
} bp_op_def;

/* (0.4) A wrapper key a plugin registered (wrapper_key_register): a dispatch key of its own that
 * ranks above Common and below Tracing. A checked id: using one after wrapper_key_unregister gives
 * an error, not a crash. */
typedef struct bp_wrapper_key bp_wrapper_key;

/* (0.4) Where wrapper_key_set_enabled switches a wrapper key on or off. */
typedef enum bp_wrapper_scope {
  BP_WRAPPER_SCOPE_THREAD = 1, /* calls made on the calling thread */
  BP_WRAPPER_SCOPE_GLOBAL = 2  /* calls made on every thread */
} bp_wrapper_scope;

typedef struct bp_api {
  size_t struct_size;
  int32_t major_version; /* the host's BP_API_MAJOR */
  int32_t minor_version; /* the host's BP_API_MINOR */

  /* ---- Errors ------------------------------------------------------------------------------
   * error_create: a new error (caller owns it; plugins return it from kernels). Never fails: an
   * unknown code becomes BP_ERROR_INTERNAL, a NULL message "". error_code / error_message:
   * borrowed, valid while the error lives; a NULL error gives 0 and "". error_destroy: NULL is
   * fine. */
  bp_error* (*error_create)(int32_t code, const char* message);
  int32_t (*error_code)(const bp_error* error);
  const char* (*error_message)(const bp_error* error);
  void (*error_destroy)(bp_error* error);

  /* "0.1.0 (C ABI 0.5)": static, never freed. */
  const char* (*version_string)(void);

  /* ---- Tensors ---------------------------------------------------------------------------
   * Every creation returns a new reference in *out (release it with tensor_release). Errors:
   * NULL pointers, negative sizes or strides, sizes and strides that overflow int64, an unknown
   * dtype or device, no allocator for the device, out of memory. */

  /* Uninitialised, contiguous (row-major). `sizes` may be NULL when ndim is 0. */
  bp_error* (*tensor_empty)(const int64_t* sizes, size_t ndim, int32_t dtype, bp_device device,
                            bp_tensor** out);
  /* Uninitialised, with these strides (elements). */
  bp_error* (*tensor_empty_strided)(const int64_t* sizes, const int64_t* strides, size_t ndim,
                                    int32_t dtype, bp_device device, bp_tensor** out);
  /* A contiguous tensor on `device` holding a copy of `nbytes` bytes of host memory laid out
   * row-major (nbytes must be numel * itemsize). */
  bp_error* (*tensor_from_host)(const void* data, size_t nbytes, const int64_t* sizes, size_t ndim,
                                int32_t dtype, bp_device device, bp_tensor** out);
  /* A tensor over caller memory `data` (on `device`, with these strides; NULL strides:
   * contiguous). `deleter(deleter_context)` runs when the last reference goes (deleter may be
   * NULL: the caller keeps the memory alive longer than the tensor). Not resizable. On error
   * the deleter is not called (the caller still owns the memory). */
  bp_error* (*tensor_wrap)(void* data, const int64_t* sizes, const int64_t* strides, size_t ndim,
                           int32_t dtype, bp_device device, void (*deleter)(void* context),
                           void* deleter_context, bp_tensor** out);
  /* Copies the tensor's elements, in row-major order, into `nbytes` bytes of host memory
   * (nbytes must be numel * itemsize). Works for every device with copy functions. */
  bp_error* (*tensor_to_host)(const bp_tensor* tensor, void* data, size_t nbytes);
  /* Reference counting. tensor_release(NULL) does nothing. */
  void (*tensor_retain)(bp_tensor* tensor);
  void (*tensor_release)(bp_tensor* tensor);
  /* Metadata (see bp_tensor_info). out->struct_size must be set by the caller. */
  bp_error* (*tensor_info)(const bp_tensor* tensor, bp_tensor_info* out);
  /* Whether the strides are dense in `memory_format` (a bp_memory_format). */
  bp_error* (*tensor_is_contiguous)(const bp_tensor* tensor, int32_t memory_format, bool* out);

  /* ---- Ops -------------------------------------------------------------------------------
   * op_find: the op named "name.overload" ("add.Tensor"; "bp::" optional). Errors:
   * BP_ERROR_INVALID_ARGUMENT "operator 'bp::x' is not defined". */
  bp_error* (*op_find)(const char* name, const bp_op** out);
  /* Borrowed strings, valid while the op is defined: "bp::add.Tensor" and its schema text. */
  bp_error* (*op_name)(const bp_op* op, const char** out);
  bp_error* (*op_schema)(const bp_op* op, const char** out);
  /* Calls `visit` once per defined op, in name order, with its name (borrowed for the visit). */
  bp_error* (*op_list)(void (*visit)(void* user_data, const char* name), void* user_data);
  /* Calls `op` with `nargs` arguments (borrowed; the schema's arguments in order, defaults may
   * be left out at the end) and writes its results into `results` (room for `max_results`;
   * *nresults gets the count). Tensor results are new references; an out= or in-place op
   * returns (a new reference to) the tensor it wrote. List and string results are stored in
   * host memory: release each result with value_release (tensor_release also does for a
   * tensor). A `Tensor[]` result (split, chunk, unbind, broadcast_tensors) is one TENSOR_LIST
   * value: the caller owns its array and one reference to each entry, and value_release drops
   * both (never free() the array); to keep an entry longer, tensor_retain it before the release.
   * An empty list has size 0 (and an array value_release still frees). A ScalarType result
   * (result_type) is a DTYPE value, which holds nothing to release. An op returning `()` (an
   * out= op writing a `Tensor(a!)[] out`: unsafe_split.Tensor_out) has no result (*nresults is
   * 0): the tensors of its TENSOR_LIST argument hold what it wrote. Argument values follow the
   * schema: a Tensor? or optional argument takes NONE (or a NULL tensor), Tensor?[] a TENSOR_LIST
   * with NULL entries, Scalar a BOOL, INT, DOUBLE or COMPLEX, float an INT or DOUBLE, int[N] an
   * INT_LIST or one INT for all N, Tensor[] a TENSOR_LIST. Errors name the op ("[add.Tensor]
   * ..."): wrong arity, a missing argument without default or a wrong argument type
   * (BP_ERROR_TYPE, naming the argument and its position), every error of the op itself (shape
   * mismatch...), too little room for the results (nothing is returned then). */
  bp_error* (*op_call)(const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                       size_t max_results, size_t* nresults);
  /* As op_call, but every tensor argument is replaced by a Meta tensor of the same sizes,
   * strides and dtype first (and every Device argument becomes Meta): runs the op's meta
   * function only, and returns Meta tensors giving the outputs' sizes, strides and dtypes
   * (nothing is computed, allocated or written). */
  bp_error* (*op_call_meta)(const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                            size_t max_results, size_t* nresults);

  /* ---- Backends (plugins) ------------------------------------------------------------------
   * backend_register: a new backend named desc->name, with a device type and a dispatch key of
   * its own; registers its allocator and copy functions (backend.h). *out is owned by the caller
   * (the plugin) until backend_unregister (or the plugin's unload). Errors: a name already
   * registered, no free dispatch key, a malformed desc (missing functions, unknown non-zero
   * fields past what this host knows). Handles of backends and registrations are checked: a
   * handle that was already unregistered gives an error, not a crash. */
  bp_error* (*backend_register)(const bp_backend_desc* desc, bp_backend** out);
  /* Unregisters the backend: its kernels, fallback, device type and key (its registrations'
   * handles become invalid). Tensors still alive on its device keep their memory until
   * released (the allocator stays usable; see bp_backend_desc.on_released). Must not run while
   * calls of the backend's kernels are in flight. */
  bp_error* (*backend_unregister)(bp_backend* backend);
  /* The device type code tensors of this backend have (>= BP_DEVICE_FIRST_PLUGIN; BP_DEVICE_CUDA
   * for the "cuda" backend). */
  bp_error* (*backend_device_type)(const bp_backend* backend, int32_t* out);
  /* Registers `kernel` for `op_name` ("add.out", "bp::add.out") on the backend's key; the newest
   * registration for an op serves. `user_data` is borrowed (must outlive the registration). The
   * registration is undone by registration_destroy (or when the backend is unregistered).
   * Errors: an undefined op, an unknown backend handle. */
  bp_error* (*kernel_register)(bp_backend* backend, const char* op_name, bp_kernel_fn kernel,
                               void* user_data, bp_registration** out);
  /* Registers `kernel` for every op the backend has no kernel for (`op` tells which). */
  bp_error* (*fallback_register)(bp_backend* backend, bp_kernel_fn kernel, void* user_data,
                                 bp_registration** out);
  /* Undoes a registration. NULL, or a registration already undone, does nothing. */
  void (*registration_destroy)(bp_registration* registration);
  /* A host kernel that runs any op on the CPU: copies tensor arguments to the CPU, runs the
   * op's CPU kernel, copies written arguments back and moves results to the argument's device.
   * Register it as a fallback, or call it from a kernel for cases the device cannot do (it
   * returns the op's results as the kernel must). `user_data` is ignored. */
  bp_kernel_fn cpu_fallback;

  /* ---- Iteration plans (iter.h) ------------------------------------------------------------
   * iter_build: builds a TensorIterator over the config's tensors (broadcasting, type
   * promotion, overlap checks, output allocation for NULL outputs, dimension coalescing).
   * Errors: PyTorch's (shape mismatch, overlap, dtype). *out: iter_destroy. */
  bp_error* (*iter_build)(const bp_iter_config* config, bp_iter** out);
  /* The plan's geometry. out->struct_size must be set by the caller. */
  bp_error* (*iter_info)(const bp_iter* iter, bp_iter_info* out);
  /* Operand `index` (outputs first). out->struct_size must be set. Errors: index out of range. */
  bp_error* (*iter_operand)(const bp_iter* iter, size_t index, bp_iter_operand* out);
  /* The tensor of operand `index` (e.g. an output the plan allocated): a new reference. */
  bp_error* (*iter_tensor)(const bp_iter* iter, size_t index, bp_tensor** out);
  /* Calls `visit` with each sub-plan that fits 32-bit offsets (the plan itself when it does);
   * each sub-plan is borrowed for the visit. An error `visit` returns stops the walk and is
   * returned as is. */
  bp_error* (*iter_split_32bit)(const bp_iter* iter,
                                bp_error* (*visit)(void* user_data, const bp_iter* sub),
                                void* user_data);
  /* NULL is fine. */
  void (*iter_destroy)(bp_iter* iter);

  /* ---- Kernel cache ------------------------------------------------------------------------
   * A disk cache of compiled kernels (e.g. CUBINs) shared by plugins and processes, in
   * $BP_KERNEL_CACHE_DIR (default $XDG_CACHE_HOME/backplane/kernels, else
   * ~/.cache/backplane/kernels), bounded in size (least recently used entries
   * go first), safe under concurrent processes; a corrupted entry is detected, dropped and
   * reported as a miss. The key should name everything the blob depends on (source hash,
   * specialisation, device architecture, compiler version). The size bound is
   * $BP_KERNEL_CACHE_MAX_BYTES (default 1 GiB); an entry larger than the bound is not stored.
   * Errors: a NULL or empty key, the folder cannot be created or written (BP_ERROR_UNAVAILABLE,
   * naming it). */
  /* *data: a host-allocated copy freed with kernel_cache_free, or NULL on a miss. */
  bp_error* (*kernel_cache_get)(const char* key, void** data, size_t* size);
  bp_error* (*kernel_cache_put)(const char* key, const void* data, size_t size);
  void (*kernel_cache_free)(void* data);

  /* ---- Plugins (plugin.h) ------------------------------------------------------------------
   * plugin_load: dlopens `path`, calls its bp_plugin_init with this table. Errors: file
   * missing, no bp_plugin_init symbol, incompatible API version, the plugin's init failing,
   * a duplicate backend name. Every attempt is also kept as a load record. */
  bp_error* (*plugin_load)(const char* path, bp_plugin** out);
  /* Calls the plugin's unload hook, drops its registrations and backends, and dlcloses it
   * (once the last tensor memory of its backends is freed). Errors: an unknown handle. */
  bp_error* (*plugin_unload)(bp_plugin* plugin);
  /* Calls `visit` with each load attempt since start (including BP_PLUGINS at start). */
  bp_error* (*plugin_load_records)(void (*visit)(void* user_data,
                                                 const bp_plugin_load_record* record),
                                   void* user_data);

  /* ---- Diagnostics -------------------------------------------------------------------------
   * set_log_handler: where warnings (BP_LOG_WARNING: from ops, from plugins loaded through
   * BP_PLUGINS) and notes (BP_LOG_INFO: plugin loads, dropped cache entries) go. NULL handler:
   * warnings to stderr, notes dropped. `user_data` is borrowed. The handler may be called from
   * any thread, one call at a time. */
  void (*set_log_handler)(bp_log_fn handler, void* user_data);
  /* Debug mode: the host checks every plugin kernel's outputs against the op's meta function
   * (sizes, strides, dtype; out= and in-place results aliasing their argument) and reports the
   * first mismatch as an error naming the op and the plugin. Off by default; costs a meta call
   * per plugin kernel call. */
  void (*set_debug_checks)(bool enabled);

  /* ---- (0.1) ----------------------------------------------------------------------------- */
  /* Calls `visit` once per registered backend, in dispatch key order ("cuda" first, then the
   * plugin keys), with its description (borrowed for the visit). */
  bp_error* (*backend_list)(void (*visit)(void* user_data, const bp_backend_info* backend),
                            void* user_data);
  /* Releases what a result value of op_call (or iter) holds: tensor references, host-allocated
   * lists and strings. Sets the value to NONE. NULL is fine. */
  void (*value_release)(bp_value* value);
  /* Waits for the work queued on `device` (the backend's synchronize hook; CPU and Meta: at
   * once). Errors: an unknown device, those of the hook. */
  bp_error* (*device_synchronize)(bp_device device);
  /* Copies outputs a CPU plan computed into common-dtype temporaries into the real outputs (see
   * iter.h); nothing to do for other plans. */
  bp_error* (*iter_cast_outputs)(bp_iter* iter);
  /* Makes the host's Common key fall through for `backend`: calls on its tensors go straight to
   * its kernels and fallback, functional, in-place and out= variants alike, with no meta
   * function, output allocation or out= resizing by the host (the backend's kernels do them).
   * Meta (shape-only) calls are unaffected. Undone by registration_destroy on *out (or when the
   * backend is unregistered); registrations nest. Errors: a NULL or unknown backend. */
  bp_error* (*common_fallthrough_register)(bp_backend* backend, bp_registration** out);

  /* ---- (0.1) Streams -----------------------------------------------------------------------
   * A stream is an ordered queue of work on one device (bp_stream_fns in backend.h). Each thread
   * has a current stream per device, the device's default stream until stream_set_current; a
   * plugin kernel enqueues its work where stream_current and stream_native say:
   *
   *   bp_stream* s;  bp_device d;  void* native;
   *   err = api->stream_current(device, &s);             // borrowed
   *   if (!err) err = api->stream_native(s, &d, &native); // NULL: the default stream
   *
   * Device ids of -1 name the thread's current device of that type. CPU and Meta streams exist
   * and do nothing (CPU work is synchronous). Errors of the backend's hooks are returned as
   * "[npu] stream synchronize: <message>" with their code. A bp_stream handle that was destroyed
   * gives an error. Calls on one stream may run from several threads at once, but not alongside
   * its stream_destroy.
   *
   * stream_create: a new stream on `device`; *out: destroy it with stream_destroy. It keeps the
   * backend's hooks (and its plugin's library) alive until destroyed, also after the backend is
   * unregistered. Errors: an unknown device, BP_ERROR_NOT_IMPLEMENTED "backend 'npu' has no
   * streams" (no bp_backend_desc.streams), those of the create hook. */
  bp_error* (*stream_create)(bp_device device, bp_stream** out);
  /* Synchronizes the stream, then destroys it (also when synchronizing fails; the error is
   * returned then). NULL and default streams: nothing to do. Errors: a destroyed handle, the
   * hooks'. */
  bp_error* (*stream_destroy)(bp_stream* stream);
  /* This thread's current stream for `device` (borrowed: valid until destroyed); the device's
   * default stream (owned by the host, never destroyed) when none is set, or when the one set was
   * destroyed. Errors: an unknown device. */
  bp_error* (*stream_current)(bp_device device, bp_stream** out);
  /* Makes `stream` the current stream of its device on the calling thread only; *previous (when
   * `previous` is not NULL) gets the stream it replaces (borrowed). Errors: a NULL or destroyed
   * stream, a stream whose backend was unregistered. */
  bp_error* (*stream_set_current)(bp_stream* stream, bp_stream** previous);
  /* Blocks until the work queued on the stream so far is done (a default stream without stream
   * hooks: as device_synchronize). */
  bp_error* (*stream_synchronize)(bp_stream* stream);
  /* Work queued on `waiter` from now on waits for the work queued on `waitee` so far, without
   * blocking the host (nothing to do when both are the same stream). Errors: streams on
   * different devices (or of different backends). */
  bp_error* (*stream_wait)(bp_stream* waiter, bp_stream* waitee);
  /* *idle: whether all work queued on the stream is done (the query hook; without one, the host
   * synchronizes the stream and reports true). */
  bp_error* (*stream_query)(bp_stream* stream, bool* idle);
  /* The stream's device (with its id resolved) and the backend's handle for it (what create
   * returned; NULL for default, CPU and Meta streams). Either out pointer may be NULL. */
  bp_error* (*stream_native)(const bp_stream* stream, bp_device* device, void** native);

  /* ---- (0.1) List results ------------------------------------------------------------------
   * Sets *out to a TENSOR_LIST of `size` tensors whose array is host memory, a copy of
   * `tensors`: the way a plugin kernel returns a list result (`Tensor[]`, `Tensor?[]`):
   *
   *   bp_tensor* halves[2] = {first, second};  // new references, e.g. from tensor_empty
   *   err = api->value_set_tensor_list(&results[0], halves, 2);
   *   if (err) { api->tensor_release(first); api->tensor_release(second); return err; }
   *
   * Ownership: on success the value takes over the references: each non-NULL entry is a new
   * reference the caller gives up (as a TENSOR result holds one); a NULL entry is an undefined
   * tensor. `tensors` itself is borrowed (only copied). Release the value with value_release,
   * as a TENSOR_LIST result of op_call; a plugin kernel leaves that to the host, which also
   * releases it when the kernel returns an error. A list whose array is not from this function
   * (or from op_call / cpu_fallback results) is refused as a kernel result. On error nothing is
   * taken and *out is unchanged. Thread safety: any thread. Errors (BP_ERROR_INVALID_ARGUMENT):
   * "bp_api.value_set_tensor_list: `out` is NULL", "bp_api.value_set_tensor_list: `tensors` is
   * NULL but size is 2"; BP_ERROR_OUT_OF_MEMORY. */
  bp_error* (*value_set_tensor_list)(bp_value* out, bp_tensor* const* tensors, size_t size);

  /* ---- (0.2) The Common key's iteration plan ------------------------------------------------
   * The iteration plan the host built for the kernel call that received `args`. When the Common
   * key serves a call on a backend's tensors it runs the op's meta function, which for an
   * element-wise op builds a TensorIterator (broadcasting, type promotion, output allocation on
   * the backend's device, dimension coalescing), and then calls the backend's out= kernel: that
   * kernel reads the same plan here instead of building a second one with iter_build.
   *
   *   static bp_error* npu_add_out(void* user_data, const bp_op* op, const bp_value* args,
   *                                size_t nargs, bp_value* results, size_t nresults) {
   *     const bp_iter* plan;                                // borrowed: do not destroy it
   *     bp_error* err = api->kernel_call_iter(args, &plan);
   *     if (err) return err;
   *     bp_iter_info info = {sizeof info};
   *     err = api->iter_info(plan, &info);                  // shape, common dtype, ...
   *     ...                                                 // iter_operand, iter_split_32bit
   *
   * The plan's operands are the kernel's out= tensor (operand 0, the very tensor in `args`),
   * then the op's tensor inputs in its meta function's order (add: self, other). Its common
   * dtype is the dtype the op computes in, as the meta function decided it (float32 for
   * exp(int_tensor) or pow(int_tensor, 2.5), the promoted dtype for add(int32, float64)); each
   * operand keeps its own dtype and the kernel casts while loading and storing. A zero-dim CPU
   * input is marked is_cpu_scalar. Use it with iter_info, iter_operand, iter_tensor and
   * iter_split_32bit.
   *
   * `args`: the argument array the kernel received (the pointer identifies the call). Ownership:
   * *out is borrowed from the host and valid until the kernel returns (iter_destroy leaves it
   * alone). Thread safety: call it on the thread the host runs the kernel on; the plan is then
   * read by one thread at a time, as any plan. Errors (nothing is written to *out):
   * BP_ERROR_NOT_IMPLEMENTED "bp_api.kernel_call_iter: the host built no iteration plan for this
   * call of copy_ ...": the call did not come through the Common key (the backend registered the
   * functional or in-place variant itself, or made Common fall through with
   * common_fallthrough_register), or the op's meta function builds no TensorIterator
   * (reductions, copies, views, factories): build a plan with iter_build then;
   * BP_ERROR_INVALID_ARGUMENT when `args` is not the argument array of a kernel call running on
   * this thread (another thread, or after the kernel returned) or a pointer is NULL. */
  bp_error* (*kernel_call_iter)(const bp_value* args, const bp_iter** out);

  /* ---- (0.3) Views ---------------------------------------------------------------------------
   * A view of `self` (any device) with `ndim` sizes and strides (in elements) starting
   * `storage_offset` elements into self's storage: it shares self's memory, as PyTorch's
   * as_strided. Reductions use it to drop reduced dimensions from a keepdim-shaped plan output
   * (iter.h, "Reductions"); any other reshaping of an output a kernel writes works the same way.
   * `sizes` and `strides` are borrowed (may be NULL when ndim is 0); pass self's storage_offset
   * (bp_tensor_info) to keep it. *out is a new reference (tensor_release); it keeps the memory
   * alive, self may be released first. Thread safety: any thread. Errors (nothing is written to
   * *out): BP_ERROR_INVALID_ARGUMENT for NULL pointers, a negative offset and the geometry
   * checks of as_strided ("bp_api.tensor_as_strided: as_strided: Negative strides are not
   * supported at the moment, got strides: [-1]"; "... requiring a storage size of 48 are out of
   * bounds for storage of size 24"). */
  bp_error* (*tensor_as_strided)(const bp_tensor* self, const int64_t* sizes,
                                 const int64_t* strides, size_t ndim, int64_t storage_offset,
                                 bp_tensor** out);

  /* ---- (0.4) Ops defined from C ----------------------------------------------------------------
   * Defines the functional op def->schema and its out= overload def->out_schema, and registers
   * for both the host's kernels of the Common key (so that a backend registering only the out=
   * kernel, api->kernel_register(npu, "npu::fused_add_relu.out", ...), serves functional and
   * out= calls: the host runs the meta step, allocates the output on the device or checks and
   * resizes `out`, then calls that kernel), of the Meta key (shapes only; op_call_meta), and of
   * the CPU key when def->cpu_kernel is given. The meta step is def->meta_kind's.
   *
   * Ownership: `def` and its strings are borrowed for the call. *out is a registration: undone
   * by registration_destroy (the op is then no longer defined: op_find fails, and calls through
   * a bp_op found before fail with "operator 'npu::x' is no longer defined"). An op defined
   * during a plugin's bp_plugin_init belongs to the plugin and is undefined when it unloads (or
   * fails to initialise). Thread safety: any thread; not while the op's calls are running on
   * another thread when it is undone. Errors (BP_ERROR_INVALID_ARGUMENT, naming the field): a
   * NULL pointer, a schema that does not parse (the parser's message, with the column), a
   * schema without a namespace or in Backplane's own `bp::`, an out_schema that is not the
   * functional op's out= overload, an unknown meta_kind or one whose requirements the schema
   * does not meet, an op already defined ("operator 'npu::fused_add_relu' is already
   * defined"), and the struct size rules. */
  bp_error* (*op_define)(const bp_op_def* def, bp_registration** out);

  /* ---- (0.4) The dispatcher from C: fallthrough, wrapper keys, dispatch tables --------------
   * fallthrough_register: makes `key` fall through for the op `op_name` ("add.Tensor"): calls
   * of that op skip the key and go on to the next key of the call. `key` is a dispatch key name
   * as backend_list and op_dispatch_table print it ("Common", "Tracing", "Wrapper0", "Plugin3",
   * "CPU") or a wrapper key's registered name ("npu_profiler"). For Common this sends the op's
   * calls on every backend that carries Common straight to the backend's kernel (no meta
   * function, no output allocation; common_fallthrough_register does that for one backend and
   * every op); for a backend key the op then has no kernel on that backend (nothing runs below a
   * backend). The newest registration for an (op, key) serves, as for kernels. Ownership: *out is
   * the caller's, undone by registration_destroy, or when the plugin whose bp_plugin_init made it
   * unloads. Thread safety: any thread. Errors (BP_ERROR_INVALID_ARGUMENT, nothing registered):
   * NULL pointers, "operator 'bp::x' is not defined", "bp_api.fallthrough_register: unknown
   * dispatch key 'Foo' (a key name such as 'Common' or 'Plugin0', or a wrapper key's name)", an
   * alias key ("CompositeExplicit"). */
  bp_error* (*fallthrough_register)(const char* op_name, const char* key, bp_registration** out);
  /* wrapper_key_register: a new wrapper key named `name` ([A-Za-z0-9_]+), for a plugin's own
   * profiling, tracing or autocast-like casting. Its kernels (wrapper_kernel_register) run before
   * Common and the backend while the key is enabled (wrapper_key_set_enabled; off at first), and
   * pass the call on with kernel_redispatch. Ops without a kernel under the key skip it. Keys are
   * recycled: at most 46 exist at once. Ownership: *out is the caller's until
   * wrapper_key_unregister, or until the plugin whose bp_plugin_init made it unloads. Errors
   * (BP_ERROR_INVALID_ARGUMENT): NULL pointers, a bad name, a name already registered, all wrapper
   * keys in use. */
  bp_error* (*wrapper_key_register)(const char* name, bp_wrapper_key** out);
  /* Undoes the key's kernel registrations, switches it off globally and frees it. Threads that
   * enabled it for themselves must switch it off first (a freed key may be handed out again).
   * Must not run while its kernels are in flight. Errors: a NULL or unregistered handle. */
  bp_error* (*wrapper_key_unregister)(bp_wrapper_key* key);
  /* Registers `kernel` under the wrapper key for the op `op_name`, or, with op_name NULL, as a
   * boxed fallback for every op without a kernel of its own under the key (`op` tells which).
   * The kernel sees the call's arguments as a backend kernel does and normally ends with
   * kernel_redispatch. `user_data` is borrowed (must outlive the registration). Ownership: *out
   * as for fallthrough_register; also undone by wrapper_key_unregister. Errors: a NULL or
   * unregistered key, an undefined op, NULL kernel or out. */
  bp_error* (*wrapper_kernel_register)(bp_wrapper_key* key, const char* op_name,
                                       bp_kernel_fn kernel, void* user_data, bp_registration** out);
  /* Switches the wrapper key on or off for calls on the calling thread
   * (BP_WRAPPER_SCOPE_THREAD) or on every thread (BP_WRAPPER_SCOPE_GLOBAL), as tracing is. The
   * two scopes are independent: a call runs the key's kernels when either has it on. Errors: a
   * NULL or unregistered key, an unknown scope. */
  bp_error* (*wrapper_key_set_enabled)(bp_wrapper_key* key, int32_t scope, bool enabled);
  /* From inside a wrapper kernel: calls the op the kernel is running with the keys below the
   * kernel's wrapper key (the next wrapper key, Common, the backend), and stores its results as
   * op_call does (release them with value_release, or hand them on as the kernel's own results).
   * `call_args` is the argument array the kernel received (it identifies the call); `args` the
   * arguments to pass down: `call_args` itself, or cast copies (autocast-like wrappers).
   * Thread safety: on the thread running the kernel. Errors: those of op_call; and
   * BP_ERROR_INVALID_ARGUMENT when `call_args` is not the argument array of a kernel call
   * running on this thread, or that kernel is a backend's ("... runs under Plugin0, a backend
   * key: nothing runs below a backend"). */
  bp_error* (*kernel_redispatch)(const bp_value* call_args, const bp_value* args, size_t nargs,
                                 bp_value* results, size_t max_results, size_t* nresults);
  /* The op's dispatch table as text: its schema, then one line per key, highest priority
   * first, naming what serves the key and why, and the registration it comes from:
   *
   *   Plugin0 ('npu'): kernel [npu kernel (C ABI)] (after Common's generated variant)
   *   CPU: kernel [<file:line of its registration>]
   *
   * Reasons: "kernel", "CompositeExplicit kernel", "CompositeImplicit kernel", "backend
   * fallback", "fallthrough", "fallthrough backend fallback", "fallthrough (nothing
   * registered)", "missing". *out is a STRING value in host memory: release it with
   * value_release. Thread safety: any thread (a snapshot). Errors: NULL pointers. */
  bp_error* (*op_dispatch_table)(const bp_op* op, bp_value* out);

  /* ---- (0.5) Lazy mode: fused pointwise and reduction chains (docs/fusion.md) ---------------
   * lazy_scope_begin: puts the calling thread in lazy mode until lazy_scope_end. In lazy mode,
   * op_call records pointwise and reduction ops instead of running them: each call still runs
   * its op's meta function at once (so a bad call fails where it is made, with eager's error)
   * and returns a tensor of the right sizes, strides and dtype whose contents are pending. What
   * was recorded runs, fused into as few passes over memory as the scheduler finds, when a
   * pending tensor's memory is read (tensor_data, a copy to the host, any kernel), when a call
   * that is not recorded reads it or writes any tensor, on lazy_materialize, and when the
   * outermost scope ends. On a plugin backend with bp_fusion_fns (backend.h) each fused group is
   * offered to the plugin. Scopes nest. Ownership: *out is the caller's until lazy_scope_end.
   * Thread safety: a scope belongs to the thread that began it. Errors: a NULL out. */
  bp_error* (*lazy_scope_begin)(bp_lazy_scope** out);
  /* Runs what the thread recorded if this is its outermost scope, then ends and frees the scope
   * (also on error). Errors: NULL; a scope that is not this thread's innermost
   * (BP_ERROR_INVALID_ARGUMENT, nothing changes); the first error of the run. */
  bp_error* (*lazy_scope_end)(bp_lazy_scope* scope);
  /* Runs what the calling thread recorded so far (nothing outside lazy mode). Errors: the first
   * error of the run. */
  bp_error* (*lazy_materialize)(void);
} bp_api;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_API_H_ */
