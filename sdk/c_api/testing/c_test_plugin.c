/* A test plugin written in plain C99 and built only against the public headers: a device whose
 * memory is host RAM behind its own allocator (host_memory_device.h), with kernels for add.out and
 * mul.out only. Common gives it add, add_, mul and mul_; every other op falls back to the CPU
 * through api->cpu_fallback, and so do the dtypes its kernels do not handle (half, bfloat16,
 * complex). Its kernels run over the iteration plan the Common key hands them
 * (api->kernel_call_iter), or, when there is none (Common fell through), over one they build with
 * api->iter_build.
 *
 * Built several times (c_api/BUILD.bazel):
 *   BP_TEST_PLUGIN_NAME        the plugin's and its backend's name, unquoted (default cplug);
 *   BP_TEST_PLUGIN_OLD_MINOR   built as against API 0.0: reports minor 0, passes the 0.0
 *                              prefixes of the structs that grew in 0.1, with garbage after them
 *                              (the host must not read past struct_size), and always builds its
 *                              own plans (kernel_call_iter came in 0.2);
 *   BP_TEST_PLUGIN_FAIL_INIT   init returns an error after registering its backend and kernels.
 *
 * Exported for tests besides bp_plugin_init: bp_test_plugin_live_allocations (the allocator's
 * count of live blocks), bp_test_plugin_kernel_calls (add.out and mul.out calls),
 * bp_test_plugin_handed_plans and bp_test_plugin_built_plans (how many of those calls ran over
 * the Common key's plan, and over one they built) and bp_test_plugin_released (whether
 * on_released ran).
 *
 * Streams (not in the OLD_MINOR variant): stream hooks that log their calls, with streams named
 * by number (1, 2, ... in creation order; 0 is the default stream), e.g. "create d1 3",
 * "wait d0 2<-0", "destroy d0 1". bp_test_plugin_stream_log returns the log (one call a line),
 * bp_test_plugin_stream_reset clears it and sets the mode (0 normal, 1 query reports busy,
 * 2 synchronize fails), bp_test_plugin_live_streams counts streams not destroyed, and
 * bp_test_plugin_kernel_stream is the stream that was current (api->stream_current and
 * stream_native) on the output's device when add.out or mul.out last ran (-1: never).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backplane/plugin.h"
#include "sdk/c_api/testing/host_memory_device.h"

#define STRINGIFY(x) #x
#define NAME_OF(x) STRINGIFY(x)
#ifdef BP_TEST_PLUGIN_NAME
#define PLUGIN_NAME NAME_OF(BP_TEST_PLUGIN_NAME)
#else
#define PLUGIN_NAME "cplug"
#endif

#define MAX_DIMS 16

static const bp_api* api;
static bp_backend* backend;
static bp_registration* registrations[3];
static int64_t kernel_calls;
static int64_t handed_plans;
static int64_t built_plans;
static int released;
static int64_t kernel_stream = -1;

BP_PLUGIN_EXPORT int64_t bp_test_plugin_live_allocations(void) {
  return host_memory_device_live_blocks();
}

BP_PLUGIN_EXPORT int64_t bp_test_plugin_kernel_calls(void) {
  return __atomic_load_n(&kernel_calls, __ATOMIC_SEQ_CST);
}

BP_PLUGIN_EXPORT int64_t bp_test_plugin_handed_plans(void) {
  return __atomic_load_n(&handed_plans, __ATOMIC_SEQ_CST);
}

BP_PLUGIN_EXPORT int64_t bp_test_plugin_built_plans(void) {
  return __atomic_load_n(&built_plans, __ATOMIC_SEQ_CST);
}

BP_PLUGIN_EXPORT int64_t bp_test_plugin_released(void) {
  return __atomic_load_n(&released, __ATOMIC_SEQ_CST);
}

static bp_error* fail(int32_t code, const char* message) {
  return api->error_create(code, message);
}

/* ---- Memory: host RAM, 64-byte aligned, counted (host_memory_device.h) ------------------- */

#ifndef BP_TEST_PLUGIN_OLD_MINOR /* on_released came in 0.1 */
static void on_released(void* user_data) {
  (void)user_data;
  __atomic_store_n(&released, 1, __ATOMIC_SEQ_CST);
}
#endif

/* ---- Streams: numbered, every call logged ------------------------------------------------ */

#ifndef BP_TEST_PLUGIN_OLD_MINOR /* streams came in 0.1 */
#define STREAM_LOG_SIZE 8192

typedef struct {
  int64_t id;
} test_stream;

static int stream_lock;
static char stream_log[STREAM_LOG_SIZE];
static size_t stream_log_size;
static int64_t next_stream_id = 1;
static int64_t live_streams;
static int stream_mode;

static void lock_streams(void) {
  while (__atomic_exchange_n(&stream_lock, 1, __ATOMIC_ACQUIRE)) {
  }
}

static void unlock_streams(void) { __atomic_store_n(&stream_lock, 0, __ATOMIC_RELEASE); }

static int64_t stream_id(const void* stream) {
  return stream == NULL ? 0 : ((const test_stream*)stream)->id;
}

/* Appends one line to the log (lock held). */
static void log_line(const char* line) {
  const size_t n = strlen(line);
  if (stream_log_size + n + 2 > STREAM_LOG_SIZE) return;
  memcpy(stream_log + stream_log_size, line, n);
  stream_log_size += n;
  stream_log[stream_log_size++] = '\n';
  stream_log[stream_log_size] = '\0';
}

static void log_call(const char* what, bp_device device, const void* a, const void* b, int two) {
  char line[96];
  if (two) {
    sprintf(line, "%s d%d %ld<-%ld", what, (int)device.device_id, (long)stream_id(a),
            (long)stream_id(b));
  } else {
    sprintf(line, "%s d%d %ld", what, (int)device.device_id, (long)stream_id(a));
  }
  lock_streams();
  log_line(line);
  unlock_streams();
}

BP_PLUGIN_EXPORT const char* bp_test_plugin_stream_log(void) { return stream_log; }

BP_PLUGIN_EXPORT int64_t bp_test_plugin_live_streams(void) {
  return __atomic_load_n(&live_streams, __ATOMIC_SEQ_CST);
}

BP_PLUGIN_EXPORT void bp_test_plugin_stream_reset(int mode) {
  lock_streams();
  stream_log_size = 0;
  stream_log[0] = '\0';
  stream_mode = mode;
  unlock_streams();
  __atomic_store_n(&kernel_stream, -1, __ATOMIC_SEQ_CST);
}

static bp_error* stream_create(void* user_data, bp_device device, void** out) {
  test_stream* s = malloc(sizeof *s);
  (void)user_data;
  if (s == NULL) return fail(BP_ERROR_OUT_OF_MEMORY, "no memory for a stream");
  s->id = __atomic_fetch_add(&next_stream_id, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&live_streams, 1, __ATOMIC_SEQ_CST);
  log_call("create", device, s, NULL, 0);
  *out = s;
  return NULL;
}

static bp_error* stream_destroy(void* user_data, bp_device device, void* stream) {
  (void)user_data;
  log_call("destroy", device, stream, NULL, 0);
  free(stream);
  __atomic_sub_fetch(&live_streams, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static bp_error* stream_synchronize(void* user_data, bp_device device, void* stream) {
  char message[64];
  (void)user_data;
  log_call("synchronize", device, stream, NULL, 0);
  if (__atomic_load_n(&stream_mode, __ATOMIC_SEQ_CST) != 2) return NULL;
  sprintf(message, "stream %ld is broken", (long)stream_id(stream));
  return fail(BP_ERROR_UNAVAILABLE, message);
}

static bp_error* stream_wait(void* user_data, bp_device device, void* waiter, void* waitee) {
  (void)user_data;
  log_call("wait", device, waiter, waitee, 1);
  return NULL;
}

static bp_error* stream_query(void* user_data, bp_device device, void* stream, bool* idle) {
  (void)user_data;
  log_call("query", device, stream, NULL, 0);
  *idle = __atomic_load_n(&stream_mode, __ATOMIC_SEQ_CST) != 1;
  return NULL;
}

/* Records which stream is current on `out`'s device, as a kernel finds where to enqueue. */
static bp_error* record_kernel_stream(bp_tensor* out) {
  bp_tensor_info info;
  bp_stream* stream = NULL;
  bp_device device;
  void* native = NULL;
  bp_error* err;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  err = api->tensor_info(out, &info);
  if (!err) err = api->stream_current(info.device, &stream);
  if (!err) err = api->stream_native(stream, &device, &native);
  if (!err && (device.device_type != info.device.device_type ||
               device.device_id != info.device.device_id)) {
    err = fail(BP_ERROR_INTERNAL, "the current stream is on another device");
  }
  if (!err) __atomic_store_n(&kernel_stream, stream_id(native), __ATOMIC_SEQ_CST);
  return err;
}
#endif

BP_PLUGIN_EXPORT int64_t bp_test_plugin_kernel_stream(void) {
  return __atomic_load_n(&kernel_stream, __ATOMIC_SEQ_CST);
}

/* ---- Element access ---------------------------------------------------------------------- */

static int is_handled(int32_t dtype) {
  switch (dtype) {
    case BP_DTYPE_BOOL:
    case BP_DTYPE_UINT8:
    case BP_DTYPE_INT8:
    case BP_DTYPE_INT16:
    case BP_DTYPE_INT32:
    case BP_DTYPE_INT64:
    case BP_DTYPE_FLOAT32:
    case BP_DTYPE_FLOAT64:
      return 1;
    default:
      return 0;
  }
}

static double load_double(const char* p, int32_t dtype) {
  switch (dtype) {
    case BP_DTYPE_FLOAT32: {
      float v;
      memcpy(&v, p, sizeof v);
      return v;
    }
    case BP_DTYPE_FLOAT64: {
      double v;
      memcpy(&v, p, sizeof v);
      return v;
    }
    case BP_DTYPE_BOOL:
      return *(const unsigned char*)p != 0;
    case BP_DTYPE_UINT8:
      return *(const uint8_t*)p;
    case BP_DTYPE_INT8:
      return *(const int8_t*)p;
    case BP_DTYPE_INT16: {
      int16_t v;
      memcpy(&v, p, sizeof v);
      return v;
    }
    case BP_DTYPE_INT32: {
      int32_t v;
      memcpy(&v, p, sizeof v);
      return v;
    }
    default: {
      int64_t v;
      memcpy(&v, p, sizeof v);
      return (double)v;
    }
  }
}

/* Integers as two's complement bits in a uint64_t, so arithmetic wraps as on the CPU. */
static uint64_t load_bits(const char* p, int32_t dtype) {
  switch (dtype) {
    case BP_DTYPE_FLOAT32:
    case BP_DTYPE_FLOAT64:
      return (uint64_t)(int64_t)load_double(p, dtype);
    case BP_DTYPE_BOOL:
      return *(const unsigned char*)p != 0;
    case BP_DTYPE_UINT8:
      return *(const uint8_t*)p;
    case BP_DTYPE_INT8:
      return (uint64_t)(int64_t) * (const int8_t*)p;
    case BP_DTYPE_INT16: {
      int16_t v;
      memcpy(&v, p, sizeof v);
      return (uint64_t)(int64_t)v;
    }
    case BP_DTYPE_INT32: {
      int32_t v;
      memcpy(&v, p, sizeof v);
      return (uint64_t)(int64_t)v;
    }
    default: {
      uint64_t v;
      memcpy(&v, p, sizeof v);
      return v;
    }
  }
}

static void store_double(char* p, int32_t dtype, double v) {
  switch (dtype) {
    case BP_DTYPE_FLOAT32: {
      float f = (float)v;
      memcpy(p, &f, sizeof f);
      break;
    }
    case BP_DTYPE_FLOAT64:
      memcpy(p, &v, sizeof v);
      break;
    case BP_DTYPE_BOOL:
      *(unsigned char*)p = v != 0;
      break;
    case BP_DTYPE_UINT8:
      *(uint8_t*)p = (uint8_t)(int64_t)v;
      break;
    case BP_DTYPE_INT8:
      *(int8_t*)p = (int8_t)(int64_t)v;
      break;
    case BP_DTYPE_INT16: {
      int16_t x = (int16_t)(int64_t)v;
      memcpy(p, &x, sizeof x);
      break;
    }
    case BP_DTYPE_INT32: {
      int32_t x = (int32_t)(int64_t)v;
      memcpy(p, &x, sizeof x);
      break;
    }
    default: {
      int64_t x = (int64_t)v;
      memcpy(p, &x, sizeof x);
      break;
    }
  }
}

static void store_bits(char* p, int32_t dtype, uint64_t v) {
  switch (dtype) {
    case BP_DTYPE_FLOAT32:
    case BP_DTYPE_FLOAT64:
      store_double(p, dtype, (double)(int64_t)v);
      break;
    case BP_DTYPE_BOOL:
      *(unsigned char*)p = v != 0;
      break;
    case BP_DTYPE_UINT8:
    case BP_DTYPE_INT8:
      *(uint8_t*)p = (uint8_t)v;
      break;
    case BP_DTYPE_INT16: {
      uint16_t x = (uint16_t)v;
      memcpy(p, &x, sizeof x);
      break;
    }
    case BP_DTYPE_INT32: {
      uint32_t x = (uint32_t)v;
      memcpy(p, &x, sizeof x);
      break;
    }
    default:
      memcpy(p, &v, sizeof v);
      break;
  }
}

/* ---- add.out and mul.out over an iteration plan ----------------------------------------- */

typedef enum { OP_ADD, OP_MUL } binary_op;

typedef struct {
  bp_iter_operand out, a, b;
  int32_t common;
  double alpha_d;
  uint64_t alpha_i;
  binary_op op;
} binary_call;

static void compute_element(const binary_call* c, char* out, const char* a, const char* b) {
  if (c->common == BP_DTYPE_FLOAT32) {
    const float x = (float)load_double(a, c->a.dtype), y = (float)load_double(b, c->b.dtype);
    const float r = c->op == OP_ADD ? x + (float)c->alpha_d * y : x * y;
    store_double(out, c->out.dtype, r);
  } else if (c->common == BP_DTYPE_FLOAT64) {
    const double x = load_double(a, c->a.dtype), y = load_double(b, c->b.dtype);
    store_double(out, c->out.dtype, c->op == OP_ADD ? x + c->alpha_d * y : x * y);
  } else if (c->common == BP_DTYPE_BOOL) {
    const int x = load_bits(a, c->a.dtype) != 0, y = load_bits(b, c->b.dtype) != 0;
    store_bits(out, c->out.dtype, c->op == OP_ADD ? (x || (c->alpha_i != 0 && y)) : (x && y));
  } else {
    /* Integers wrap around in the common dtype (uint8: 200 * 2 is 144), then convert to out's. */
    const uint64_t x = load_bits(a, c->a.dtype), y = load_bits(b, c->b.dtype);
    char wrapped[8];
    store_bits(wrapped, c->common, c->op == OP_ADD ? x + c->alpha_i * y : x * y);
    store_bits(out, c->out.dtype, load_bits(wrapped, c->common));
  }
}

/* The plan of a call: the Common key's (borrowed, *owned = NULL) or, when the call did not come
 * through Common, one built over out, self and other (*owned = the plan, to destroy). */
static bp_error* plan_of_call(const bp_value* args, bp_tensor* out, const bp_iter** plan,
                              bp_iter** owned) {
  bp_iter_config config;
  bp_tensor* outputs[1];
  bp_tensor* inputs[2];
  bp_error* err;
  *owned = NULL;
#ifndef BP_TEST_PLUGIN_OLD_MINOR
  err = api->kernel_call_iter(args, plan);
  if (!err) {
    __atomic_add_fetch(&handed_plans, 1, __ATOMIC_SEQ_CST);
    return NULL;
  }
  if (api->error_code(err) != BP_ERROR_NOT_IMPLEMENTED) return err;
  api->error_destroy(err);
#endif
  outputs[0] = out;
  inputs[0] = args[0].u.tensor;
  inputs[1] = args[1].u.tensor;
  memset(&config, 0, sizeof config);
  config.struct_size = sizeof config;
  config.outputs = outputs;
  config.noutputs = 1;
  config.inputs = inputs;
  config.ninputs = 2;
  config.flags = BP_ITER_BINARY_OP;
  err = api->iter_build(&config, owned);
  if (err) return err;
  __atomic_add_fetch(&built_plans, 1, __ATOMIC_SEQ_CST);
  *plan = *owned;
  return NULL;
}

static bp_error* run_binary(binary_op op, const bp_op* bop, const bp_value* args, size_t nargs,
                            bp_value* results, size_t nresults) {
  binary_call c;
  const bp_iter* plan = NULL;
  bp_iter* owned = NULL; /* the plan, when this kernel built it */
  bp_iter_info info;
  bp_tensor* out;
  bp_error* err;
  int64_t index[MAX_DIMS] = {0};
  int64_t n;
  size_t d;
  const size_t expected = op == OP_ADD ? 4 : 3;
  __atomic_add_fetch(&kernel_calls, 1, __ATOMIC_SEQ_CST);
  if (nargs != expected || nresults != 1) return fail(BP_ERROR_INTERNAL, "unexpected arity");
  out = args[nargs - 1].u.tensor;
#ifndef BP_TEST_PLUGIN_OLD_MINOR
  err = record_kernel_stream(out);
  if (err) return err;
#endif
  err = plan_of_call(args, out, &plan, &owned);
  if (err) return err;

  memset(&info, 0, sizeof info);
#ifdef BP_TEST_PLUGIN_OLD_MINOR
  /* API 0.0's bp_iter_info ends at is_reduction; poison what follows. */
  memset(&info, 0xAB, sizeof info);
  info.struct_size = offsetof(bp_iter_info, is_reduction) + sizeof info.is_reduction;
#else
  info.struct_size = sizeof info;
#endif
  err = api->iter_info(plan, &info);
#ifdef BP_TEST_PLUGIN_OLD_MINOR
  if (!err && info.num_reduce_dims != (int32_t)0xABABABAB) {
    err = fail(BP_ERROR_INTERNAL, "the host wrote past the old bp_iter_info's struct_size");
  }
#endif
  memset(&c, 0, sizeof c);
  c.out.struct_size = c.a.struct_size = c.b.struct_size = sizeof c.out;
  if (!err) err = api->iter_operand(plan, 0, &c.out);
  if (!err) err = api->iter_operand(plan, 1, &c.a);
  if (!err) err = api->iter_operand(plan, 2, &c.b);
  if (err) {
    api->iter_destroy(owned);
    return err;
  }
  c.common = info.common_dtype;
  c.op = op;
  if (!is_handled(c.common) || !is_handled(c.out.dtype) || !is_handled(c.a.dtype) ||
      !is_handled(c.b.dtype) || info.ndim > MAX_DIMS) {
    api->iter_destroy(owned);
    return api->cpu_fallback(NULL, bop, args, nargs, results, nresults);
  }
  if (op == OP_ADD) {
    const bp_value* alpha = &args[2];
    switch (alpha->tag) {
      case BP_VALUE_BOOL:
        c.alpha_d = alpha->u.b;
        c.alpha_i = alpha->u.b;
        break;
      case BP_VALUE_INT:
        c.alpha_d = (double)alpha->u.i;
        c.alpha_i = (uint64_t)alpha->u.i;
        break;
      case BP_VALUE_DOUBLE:
        c.alpha_d = alpha->u.d;
        c.alpha_i = (uint64_t)(int64_t)alpha->u.d;
        break;
      default:
        api->iter_destroy(owned);
        return api->cpu_fallback(NULL, bop, args, nargs, results, nresults);
    }
  }
  for (n = 0; n < info.numel; ++n) {
    int64_t off_out = 0, off_a = 0, off_b = 0;
    for (d = 0; d < info.ndim; ++d) {
      off_out += index[d] * c.out.strides[d];
      off_a += index[d] * c.a.strides[d];
      off_b += index[d] * c.b.strides[d];
    }
    compute_element(&c, (char*)c.out.data + off_out, (const char*)c.a.data + off_a,
                    (const char*)c.b.data + off_b);
    for (d = 0; d < info.ndim; ++d) {
      if (++index[d] < info.shape[d]) break;
      index[d] = 0;
    }
  }
  api->iter_destroy(owned);
  api->tensor_retain(out);
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = out;
  return NULL;
}

static bp_error* add_out(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                         bp_value* results, size_t nresults) {
  (void)user_data;
  return run_binary(OP_ADD, op, args, nargs, results, nresults);
}

static bp_error* mul_out(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                         bp_value* results, size_t nresults) {
  (void)user_data;
  return run_binary(OP_MUL, op, args, nargs, results, nresults);
}

/* ---- Entry point ----------------------------------------------------------------------- */

static void unload(void* user_data) {
  (void)user_data;
  backend = NULL; /* the host drops the backend and its registrations after this */
}

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  static bp_allocator allocator;
  static bp_copy_fns copies;
#ifndef BP_TEST_PLUGIN_OLD_MINOR
  static bp_stream_fns streams;
#endif
  bp_backend_desc backend_desc;
  bp_error* err;
  if (!bp_plugin_begin(host, desc, PLUGIN_NAME)) return NULL;
#ifdef BP_TEST_PLUGIN_OLD_MINOR
  desc->api_minor = 0;
#endif
  api = host;
  desc->unload = unload;

  host_memory_device_init(host, PLUGIN_NAME, &allocator, &copies);

  memset(&backend_desc, 0, sizeof backend_desc);
#ifdef BP_TEST_PLUGIN_OLD_MINOR
  /* API 0.0's bp_backend_desc ends at `copies`; poison the fields 0.1 added. */
  memset(&backend_desc, 0xCD, sizeof backend_desc);
  backend_desc.struct_size = offsetof(bp_backend_desc, copies) + sizeof backend_desc.copies;
#else
  backend_desc.struct_size = sizeof backend_desc;
  backend_desc.on_released = on_released;
  memset(&streams, 0, sizeof streams);
  streams.struct_size = sizeof streams;
  streams.create = stream_create;
  streams.destroy = stream_destroy;
  streams.synchronize = stream_synchronize;
  streams.wait = stream_wait;
  streams.query = stream_query;
  backend_desc.streams = &streams;
#endif
  backend_desc.name = PLUGIN_NAME;
  backend_desc.device_count = 2;
  backend_desc.allocator = &allocator;
  backend_desc.copies = &copies;
  err = host->backend_register(&backend_desc, &backend);
  if (err) return err;

  err = host->kernel_register(backend, "add.out", add_out, NULL, &registrations[0]);
  if (!err) err = host->kernel_register(backend, "mul.out", mul_out, NULL, &registrations[1]);
  if (!err) err = host->fallback_register(backend, host->cpu_fallback, NULL, &registrations[2]);
#ifdef BP_TEST_PLUGIN_FAIL_INIT
  if (!err) err = host->error_create(BP_ERROR_UNAVAILABLE, "the test device is switched off");
#endif
  return err;
}
