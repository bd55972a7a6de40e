/* Backplane C ABI: basic types shared by every part of the API.
 *
 *   bp_dtype f32 = BP_DTYPE_FLOAT32;        DLPack's DLDataType, packed
 *   bp_device cpu = {BP_DEVICE_CPU, -1};    DLPack's DLDevice
 *   bp_value two = {BP_VALUE_DOUBLE};       a boxed argument
 *   two.u.d = 2.0;
 *
 * Conventions of the whole ABI (docs/abi.md has the full policy):
 * - Every function that can fail returns a `bp_error*`: NULL on success, else a new error object
 *   that the caller owns and frees with `api->error_destroy`. No function aborts, and no C++
 *   exception crosses the boundary.
 * - Handles are opaque. Who owns a pointer is written next to it: "new reference" (release it),
 *   "borrowed" (valid while the named owner lives), "out" (written by the callee).
 * - Strings are NUL-terminated UTF-8 everywhere.
 * - Every struct that crosses the boundary, except the fixed-layout values below, starts with
 *   `size_t struct_size` set by whoever fills it (sizeof as that side compiled it): the other
 *   side reads only the fields the size covers, so structs can grow. Fields are only appended.
 * - Every enumerator has an explicit number that is never reused; dtype and device codes are
 *   DLPack's.
 *
 * This header is C99 and C++ compatible and declares no functions.
 */
#ifndef BACKPLANE_TYPES_H_
#define BACKPLANE_TYPES_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ------------------------------------------------------------------------------ */

/* An error: a code and a message. Created by the host (or by a plugin through
 * api->error_create), destroyed by whoever received it with api->error_destroy. */
typedef struct bp_error bp_error;

/* What kind of mistake an error reports (numbers match PyTorch's exception classes as
 * sdk/core/error.h maps them). */
typedef enum bp_error_code {
  BP_ERROR_INVALID_ARGUMENT = 1, /* bad value, shape or combination (RuntimeError) */
  BP_ERROR_INDEX = 2,            /* dimension or index out of range (IndexError) */
  BP_ERROR_TYPE = 3,             /* wrong dtype or argument type (TypeError) */
  BP_ERROR_NOT_IMPLEMENTED = 4,  /* no kernel for this op / dtype / device */
  BP_ERROR_OUT_OF_MEMORY = 5,    /* an allocator could not provide memory */
  BP_ERROR_UNAVAILABLE = 6,      /* a device or library is absent (e.g. no CUDA driver) */
  BP_ERROR_INTERNAL = 7          /* a bug in Backplane or a plugin: an invariant did not hold */
} bp_error_code;

/* ---- Element types and devices (DLPack's encodings) -------------------------------------- */

/* Element types. Each value is DLPack's DLDataType {code, bits, lanes = 1} packed as
 * code | bits << 8 | lanes << 16 (its memory layout on little-endian machines), so a DLPack
 * dtype converts with one cast. DLPack codes: 0 int, 1 uint, 2 float, 4 bfloat, 5 complex,
 * 6 bool. */
typedef enum bp_dtype {
  BP_DTYPE_BOOL = 6 | 8 << 8 | 1 << 16,
  BP_DTYPE_UINT8 = 1 | 8 << 8 | 1 << 16,
  BP_DTYPE_INT8 = 0 | 8 << 8 | 1 << 16,
  BP_DTYPE_INT16 = 0 | 16 << 8 | 1 << 16,
  BP_DTYPE_INT32 = 0 | 32 << 8 | 1 << 16,
  BP_DTYPE_INT64 = 0 | 64 << 8 | 1 << 16,
  BP_DTYPE_FLOAT16 = 2 | 16 << 8 | 1 << 16,
  BP_DTYPE_BFLOAT16 = 4 | 16 << 8 | 1 << 16,
  BP_DTYPE_FLOAT32 = 2 | 32 << 8 | 1 << 16,
  BP_DTYPE_FLOAT64 = 2 | 64 << 8 | 1 << 16,
  BP_DTYPE_COMPLEX64 = 5 | 64 << 8 | 1 << 16,
  BP_DTYPE_COMPLEX128 = 5 | 128 << 8 | 1 << 16
} bp_dtype;

/* DLPack's DLDeviceType codes, plus Meta (shapes without data) and the codes the host hands to
 * plugin backends at registration (>= BP_DEVICE_FIRST_PLUGIN). */
typedef enum bp_device_type {
  BP_DEVICE_CPU = 1,
  BP_DEVICE_CUDA = 2,
  BP_DEVICE_META = 64,
  BP_DEVICE_FIRST_PLUGIN = 128
} bp_device_type;

/* DLPack's DLDevice. device_id is -1 for "the current device" (CPU tensors report -1). */
typedef struct bp_device {
  int32_t device_type;
  int32_t device_id;
} bp_device;

/* Memory layouts (PyTorch's torch.memory_format). */
typedef enum bp_memory_format {
  BP_MEMORY_FORMAT_CONTIGUOUS = 0,
  BP_MEMORY_FORMAT_CHANNELS_LAST = 1,
  BP_MEMORY_FORMAT_CHANNELS_LAST_3D = 2,
  BP_MEMORY_FORMAT_PRESERVE = 3
} bp_memory_format;

/* ---- Handles ------------------------------------------------------------------------------ */

/* A tensor: reference-counted; api->tensor_retain / api->tensor_release. */
typedef struct bp_tensor bp_tensor;
/* An operator (e.g. "add.Tensor"): borrowed from the host, valid while the op stays defined. */
typedef struct bp_op bp_op;
/* A plugin backend registered with api->backend_register; destroyed by backend_unregister. */
typedef struct bp_backend bp_backend;
/* One kernel or fallback registration; api->registration_destroy unregisters it. */
typedef struct bp_registration bp_registration;
/* A built iteration plan (iter.h); api->iter_destroy. */
typedef struct bp_iter bp_iter;
/* A loaded plugin (plugin.h); api->plugin_unload. */
typedef struct bp_plugin bp_plugin;
/* (0.1) A stream, an ordered queue of work on one device: created with api->stream_create and
 * destroyed with api->stream_destroy, or a device's default stream (owned by the host, never
 * destroyed). A checked id: using one after it was destroyed gives an error, not a crash. */
typedef struct bp_stream bp_stream;
/* (0.5) A lazy-mode scope of one thread (api->lazy_scope_begin / lazy_scope_end). */
typedef struct bp_lazy_scope bp_lazy_scope;

/* ---- Boxed values ---------------------------------------------------------------------------
 * One argument or result of an op call. A fixed layout (no struct_size): tags are only added.
 * Pointers inside an argument are borrowed from whoever filled it, for the duration of the call.
 * In results, tensors are new references, and lists and strings of op_call's results are host
 * memory: the receiver releases a result with api->value_release (or a tensor with
 * api->tensor_release). A plugin kernel returns a list result through api->value_set_tensor_list,
 * which makes such host memory. A NULL tensor (in TENSOR or in a TENSOR_LIST) is an undefined
 * tensor, i.e. None for `Tensor?` arguments and the entries of `Tensor?[]`. */

typedef enum bp_value_tag {
  BP_VALUE_NONE = 0,
  BP_VALUE_BOOL = 1,
  BP_VALUE_INT = 2,
  BP_VALUE_DOUBLE = 3,
  BP_VALUE_COMPLEX = 4,
  BP_VALUE_STRING = 5,
  BP_VALUE_DTYPE = 6,
  BP_VALUE_DEVICE = 7,
  BP_VALUE_MEMORY_FORMAT = 8,
  BP_VALUE_INT_LIST = 9,
  BP_VALUE_TENSOR = 10,
  BP_VALUE_TENSOR_LIST = 11,
  BP_VALUE_DOUBLE_LIST = 12,
  BP_VALUE_BOOL_LIST = 13
} bp_value_tag;

typedef struct bp_value {
  int32_t tag; /* a bp_value_tag */
  union {
    bool b;
    int64_t i;
    double d;
    struct {
      double re, im;
    } c;
    const char* s; /* NUL-terminated */
    int32_t dtype; /* a bp_dtype */
    bp_device device;
    int32_t memory_format; /* a bp_memory_format */
    struct {
      const int64_t* data;
      size_t size;
    } ints;
    bp_tensor* tensor; /* NULL means an undefined tensor */
    struct {
      bp_tensor* const* data;
      size_t size;
    } tensors;
    struct {
      const double* data;
      size_t size;
    } doubles;
    struct {
      const bool* data;
      size_t size;
    } bools;
  } u;
} bp_value;

/* Scalars (an op's `Scalar` arguments) are passed as BOOL, INT, DOUBLE or COMPLEX values. */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_TYPES_H_ */
