/* A sample Backplane plugin in plain C99: the backend of "toy", a device whose memory is a heap
 * of its own (host RAM that only this plugin hands out, so copies between it and the CPU are real
 * copies). The extended example: samples/c_plugin_minimal/mini_plugin.c is the smallest start;
 * docs/writing_a_backend.md walks through both.
 *
 * What the plugin does, and what the host does for it:
 *   - registers the backend "toy" with an allocator and copy functions;
 *   - implements the out= variants of add, sub, mul and neg for float32 over the host's iteration
 *     plan (broadcasting, byte strides and the plan's dimension order come from the host);
 *   - gets add, add_, sub, sub_, mul, mul_, neg and neg_ from the host's Common key, which runs
 *     each op's meta function (shape and dtype checks, PyTorch's errors), allocates outputs on
 *     the toy device and then calls the out= kernel, handing it the meta function's plan;
 *   - sends every other op, and the dtypes its kernels do not handle, to the host's CPU fallback
 *     (which copies the tensors to the CPU, runs the op there and copies the results back).
 *
 * Test it with the conformance suite:
 *   backplane-conformance --backend path/to/libtoy_plugin.so --ops add,sub,mul,neg
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backplane/plugin.h"

#define TOY_ALIGNMENT 64
#define TOY_MAX_DIMS 25

static const bp_api* api; /* the host's function table, valid until the plugin is unloaded */

/* ---- Device memory ------------------------------------------------------------------------
 * Blocks of the toy heap, aligned as the allocator promises; malloc's own pointer is kept just in
 * front of the one the host sees. */

static bp_error* toy_allocate(void* user_data, bp_device device, size_t nbytes, void** out) {
  unsigned char* raw;
  uintptr_t aligned;
  (void)user_data;
  (void)device;
  raw = malloc(sizeof(void*) + TOY_ALIGNMENT + nbytes);
  if (raw == NULL) return api->error_create(BP_ERROR_OUT_OF_MEMORY, "out of device memory");
  aligned =
      ((uintptr_t)(raw + sizeof(void*)) + TOY_ALIGNMENT - 1) & ~(uintptr_t)(TOY_ALIGNMENT - 1);
  ((void**)aligned)[-1] = raw;
  *out = (void*)aligned;
  return NULL;
}

static void toy_deallocate(void* user_data, bp_device device, void* ptr) {
  (void)user_data;
  (void)device;
  free(((void**)ptr)[-1]);
}

/* ---- Copies between the toy heap and the host ------------------------------------------- */

static bp_error* toy_to_host(void* user_data, void* dst_host, const void* src, bp_device src_device,
                             size_t nbytes) {
  (void)user_data;
  (void)src_device;
  memcpy(dst_host, src, nbytes);
  return NULL;
}

static bp_error* toy_from_host(void* user_data, void* dst, bp_device dst_device,
                               const void* src_host, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  memcpy(dst, src_host, nbytes);
  return NULL;
}

static bp_error* toy_within_device(void* user_data, void* dst, bp_device dst_device,
                                   const void* src, bp_device src_device, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  (void)src_device;
  memmove(dst, src, nbytes);
  return NULL;
}

/* ---- Kernels ------------------------------------------------------------------------------
 * A kernel gets the op's arguments in schema order (add.out: self, other, alpha, out) and
 * returns its out argument as a new reference. */

typedef enum toy_op { TOY_ADD, TOY_SUB, TOY_MUL, TOY_NEG } toy_op;

static float apply(toy_op kind, float x, float y, float alpha) {
  switch (kind) {
    case TOY_ADD:
      return x + alpha * y;
    case TOY_SUB:
      return x - alpha * y;
    case TOY_MUL:
      return x * y;
    case TOY_NEG:
      return -x;
  }
  return 0;
}

/* Reads the op's Scalar `alpha` into *alpha; returns 0 when it is not a real number. */
static int read_alpha(const bp_value* v, float* alpha) {
  switch (v->tag) {
    case BP_VALUE_BOOL:
      *alpha = v->u.b ? 1.0f : 0.0f;
      return 1;
    case BP_VALUE_INT:
      *alpha = (float)v->u.i;
      return 1;
    case BP_VALUE_DOUBLE:
      *alpha = (float)v->u.d;
      return 1;
    default:
      return 0;
  }
}

/* Runs `kind` over a plan of out and 1 or 2 inputs, all float32. */
static void run_plan(toy_op kind, const bp_iter_info* info, const bp_iter_operand* operands,
                     size_t ntensors, float alpha) {
  int64_t index[TOY_MAX_DIMS] = {0}; /* position in dimensions 1.. (dimension 0 is inner) */
  const int64_t inner = info->ndim > 0 ? info->shape[0] : 1;
  const int64_t outer = inner > 0 ? info->numel / inner : 0;
  int64_t n, i;
  size_t d, k;
  for (n = 0; n < outer; ++n) {
    char* p[3] = {NULL, NULL, NULL};
    int64_t step[3] = {0, 0, 0};
    for (k = 0; k < ntensors; ++k) {
      int64_t offset = 0;
      for (d = 1; d < info->ndim; ++d) offset += index[d] * operands[k].strides[d];
      p[k] = (char*)operands[k].data + offset;
      step[k] = info->ndim > 0 ? operands[k].strides[0] : 0;
    }
    for (i = 0; i < inner; ++i) {
      float x, y = 0, r;
      memcpy(&x, p[1] + i * step[1], sizeof x);
      if (ntensors == 3) memcpy(&y, p[2] + i * step[2], sizeof y);
      r = apply(kind, x, y, alpha);
      memcpy(p[0] + i * step[0], &r, sizeof r);
    }
    for (d = 1; d < info->ndim; ++d) { /* the next outer position */
      if (++index[d] < info->shape[d]) break;
      index[d] = 0;
    }
  }
}

/* The kernel of every op the toy implements: `user_data` (given at registration) says which. */
static bp_error* toy_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                            bp_value* results, size_t nresults) {
  const toy_op kind = *(const toy_op*)user_data;
  bp_tensor* out = args[nargs - 1].u.tensor; /* out= is the last argument */
  const bp_iter* plan = NULL;
  bp_iter_info info;
  bp_iter_operand operands[3];
  bp_error* err;
  float alpha = 1;
  size_t k;
  int handled;

  /* The plan the op's meta function built (broadcasting, type promotion, out's allocation):
   * borrowed from the host until this kernel returns. */
  err = api->kernel_call_iter(args, &plan);
  if (err) return err;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  err = api->iter_info(plan, &info);
  for (k = 0; !err && k < info.ntensors; ++k) {
    memset(&operands[k], 0, sizeof operands[k]);
    operands[k].struct_size = sizeof operands[k];
    err = api->iter_operand(plan, k, &operands[k]);
  }
  if (err) return err;

  /* This device only does float32 with every operand of that dtype (the plan does not convert
   * operands on devices other than the CPU); everything else goes to the CPU. */
  handled = info.common_dtype == BP_DTYPE_FLOAT32 && info.ndim <= TOY_MAX_DIMS;
  for (k = 0; k < info.ntensors; ++k) handled = handled && operands[k].dtype == BP_DTYPE_FLOAT32;
  if (handled && (kind == TOY_ADD || kind == TOY_SUB)) handled = read_alpha(&args[2], &alpha);
  /* The plan is the host's (borrowed): the fallback gets the call as it came. */
  if (!handled) return api->cpu_fallback(NULL, op, args, nargs, results, nresults);

  run_plan(kind, &info, operands, info.ntensors, alpha);
  api->tensor_retain(out); /* the result is a new reference to out */
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = out;
  return NULL;
}

/* ---- Entry point ------------------------------------------------------------------------- */

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  static bp_allocator allocator;
  static bp_copy_fns copies;
  static const struct {
    const char* name;
    toy_op kind;
  } kernels[] = {
      {"add.out", TOY_ADD}, {"sub.out", TOY_SUB}, {"mul.out", TOY_MUL}, {"neg.out", TOY_NEG}};
  bp_backend_desc backend_desc;
  bp_backend* backend;
  bp_registration* registration;
  bp_error* err;
  size_t i;

  /* First: the name and the API version; nothing else of `host` may be used if this fails. */
  if (!bp_plugin_begin(host, desc, "toy")) return NULL;
  api = host;

  memset(&allocator, 0, sizeof allocator);
  allocator.struct_size = sizeof allocator;
  allocator.alignment = TOY_ALIGNMENT;
  allocator.allocate = toy_allocate;
  allocator.deallocate = toy_deallocate;
  memset(&copies, 0, sizeof copies);
  copies.struct_size = sizeof copies;
  copies.to_host = toy_to_host;
  copies.from_host = toy_from_host;
  copies.within_device = toy_within_device;
  memset(&backend_desc, 0, sizeof backend_desc);
  backend_desc.struct_size = sizeof backend_desc;
  backend_desc.name = "toy"; /* tensors on it are on device "toy:0" */
  backend_desc.device_count = 1;
  backend_desc.allocator = &allocator;
  backend_desc.copies = &copies;
  err = host->backend_register(&backend_desc, &backend);

  /* Registrations live until the plugin is unloaded: the host undoes them then (and on error). */
  for (i = 0; !err && i < sizeof kernels / sizeof kernels[0]; ++i) {
    /* user_data: which op the kernel serves, passed back to every call. */
    err = host->kernel_register(backend, kernels[i].name, toy_kernel, (void*)&kernels[i].kind,
                                &registration);
  }
  if (!err) err = host->fallback_register(backend, host->cpu_fallback, NULL, &registration);
  return err;
}
