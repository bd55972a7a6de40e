/* A vendor op from C (C99): the plugin defines npu::fused_add_relu(self, other) = relu(self +
 * other) with api->op_define (C ABI 0.4), its Meta shapes from a meta callback, a CPU reference
 * kernel, and the kernel of its own device "npu" (memory from malloc). Only the out= overload has
 * kernels: the host's Common key runs the meta callback, allocates the output on the device (or
 * checks and resizes `out`) and then calls them. Walked through in docs/abi.md ("Ops defined from
 * C"); tested by //sdk/c_api:op_define_test and //samples:op_plugin_conformance_test.
 *
 * Exported for tests besides bp_plugin_init: npu_op_plugin_device_calls and
 * npu_op_plugin_cpu_calls, how many times each kernel ran. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backplane/plugin.h"

#define MAX_DIMS 16

static const bp_api* api; /* the host's function table, valid until the plugin is unloaded */
static int64_t device_calls, cpu_calls;

BP_PLUGIN_EXPORT int64_t npu_op_plugin_device_calls(void) {
  return __atomic_load_n(&device_calls, __ATOMIC_SEQ_CST);
}
BP_PLUGIN_EXPORT int64_t npu_op_plugin_cpu_calls(void) {
  return __atomic_load_n(&cpu_calls, __ATOMIC_SEQ_CST);
}

/* ---- The device: host RAM from malloc (16-byte aligned on the 64-bit Linux targets) ---------- */

static bp_error* npu_allocate(void* user_data, bp_device device, size_t nbytes, void** out) {
  (void)user_data;
  (void)device;
  *out = malloc(nbytes);
  if (*out == NULL && nbytes > 0) return api->error_create(BP_ERROR_OUT_OF_MEMORY, "full");
  return NULL;
}

static void npu_deallocate(void* user_data, bp_device device, void* ptr) {
  (void)user_data;
  (void)device;
  free(ptr);
}

static bp_error* npu_to_host(void* user_data, void* dst_host, const void* src, bp_device device,
                             size_t nbytes) {
  (void)user_data;
  (void)device;
  memcpy(dst_host, src, nbytes);
  return NULL;
}

static bp_error* npu_from_host(void* user_data, void* dst, bp_device device, const void* src_host,
                               size_t nbytes) {
  (void)user_data;
  (void)device;
  memcpy(dst, src_host, nbytes);
  return NULL;
}

static bp_error* npu_within_device(void* user_data, void* dst, bp_device dst_device,
                                   const void* src, bp_device src_device, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  (void)src_device;
  memmove(dst, src, nbytes);
  return NULL;
}

/* ---- The op ---------------------------------------------------------------------------------- */

static bp_error* error(const char* what, const bp_tensor_info* a, const bp_tensor_info* b) {
  char message[512];
  int n = snprintf(message, sizeof message, "%s: self has sizes [", what);
  for (size_t d = 0; d < a->ndim && n < 400; ++d) {
    n += snprintf(message + n, sizeof message - n, "%s%lld", d ? ", " : "", (long long)a->sizes[d]);
  }
  n += snprintf(message + n, sizeof message - n, "], other [");
  for (size_t d = 0; d < b->ndim && n < 480; ++d) {
    n += snprintf(message + n, sizeof message - n, "%s%lld", d ? ", " : "", (long long)b->sizes[d]);
  }
  snprintf(message + n, sizeof message - n, "]");
  return api->error_create(BP_ERROR_INVALID_ARGUMENT, message);
}

/* The meta callback: self and other are Meta tensors of one float32 shape; the result is a
 * contiguous Meta tensor of that shape (the host allocates the real output from it). */
static bp_error* fused_add_relu_meta(void* user_data, const bp_op* op, const bp_value* args,
                                     size_t nargs, bp_value* results, size_t nresults) {
  bp_tensor_info a = {.struct_size = sizeof a}, b = {.struct_size = sizeof b};
  const bp_device meta = {BP_DEVICE_META, 0};
  bp_error* err = api->tensor_info(args[0].u.tensor, &a);
  (void)user_data;
  (void)op;
  (void)nargs;
  (void)nresults;
  if (!err) err = api->tensor_info(args[1].u.tensor, &b);
  if (err) return err;
  if (a.dtype != BP_DTYPE_FLOAT32 || b.dtype != BP_DTYPE_FLOAT32) {
    return error("expected float32 tensors", &a, &b);
  }
  if (a.ndim != b.ndim || memcmp(a.sizes, b.sizes, a.ndim * sizeof(int64_t)) != 0) {
    return error("expected tensors of one shape", &a, &b);
  }
  results[0].tag = BP_VALUE_TENSOR;
  return api->tensor_empty(a.sizes, a.ndim, BP_DTYPE_FLOAT32, meta, &results[0].u.tensor);
}

/* Element `n` (row-major) of a strided float32 tensor. */
static float* element(const bp_tensor_info* t, int64_t n) {
  float* p = (float*)t->data;
  for (size_t d = t->ndim; d-- > 0;) {
    p += (n % t->sizes[d]) * t->strides[d];
    n /= t->sizes[d];
  }
  return p;
}

/* out = relu(self + other), for any strides: the host has checked the shapes (the meta
 * callback) and sized `out`. The device's memory is host RAM, so the device kernel and the CPU
 * reference are the same loop; a real device would launch its own kernel here. */
static bp_error* fused_add_relu_out(int64_t* calls, const bp_value* args, size_t nargs,
                                    bp_value* results) {
  bp_tensor_info a = {.struct_size = sizeof a}, b = {.struct_size = sizeof b},
                 out = {.struct_size = sizeof out};
  bp_error* err = api->tensor_info(args[0].u.tensor, &a);
  if (!err) err = api->tensor_info(args[1].u.tensor, &b);
  if (!err) err = api->tensor_info(args[nargs - 1].u.tensor, &out);
  if (err) return err;
  for (int64_t n = 0; n < out.numel; ++n) {
    const float sum = *element(&a, n) + *element(&b, n);
    *element(&out, n) = sum > 0 ? sum : (sum == sum ? 0.0f : sum); /* relu keeps NaN */
  }
  __atomic_add_fetch(calls, 1, __ATOMIC_SEQ_CST);
  api->tensor_retain(args[nargs - 1].u.tensor); /* the result: out, retained */
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = args[nargs - 1].u.tensor;
  return NULL;
}

static bp_error* npu_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                            bp_value* results, size_t nresults) {
  (void)user_data;
  (void)op;
  (void)nresults;
  return fused_add_relu_out(&device_calls, args, nargs, results);
}

static bp_error* cpu_reference(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                               bp_value* results, size_t nresults) {
  (void)user_data;
  (void)op;
  (void)nresults;
  return fused_add_relu_out(&cpu_calls, args, nargs, results);
}

static const bp_allocator allocator = {.struct_size = sizeof(bp_allocator),
                                       .alignment = 16,
                                       .allocate = npu_allocate,
                                       .deallocate = npu_deallocate};
static const bp_copy_fns copies = {.struct_size = sizeof(bp_copy_fns),
                                   .to_host = npu_to_host,
                                   .from_host = npu_from_host,
                                   .within_device = npu_within_device};

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  const bp_backend_desc backend_desc = {.struct_size = sizeof backend_desc,
                                        .name = "npu",
                                        .allocator = &allocator,
                                        .copies = &copies};
  const bp_op_def op = {
      .struct_size = sizeof op,
      .schema = "npu::fused_add_relu(Tensor self, Tensor other) -> Tensor",
      .out_schema =
          "npu::fused_add_relu.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      .meta_kind = BP_OP_META_CALLBACK,
      .meta = fused_add_relu_meta,
      .cpu_kernel = cpu_reference};
  bp_backend* backend;
  bp_registration* reg; /* undone by the host when it unloads the plugin (the op too) */
  if (!bp_plugin_begin(host, desc, "npu")) return NULL; /* needs a 0.4 host: op_define */
  api = host;
  bp_error* err = host->op_define(&op, &reg); /* the op first: kernels are registered for it */
  if (!err) err = host->backend_register(&backend_desc, &backend);
  if (!err) err = host->kernel_register(backend, "npu::fused_add_relu.out", npu_kernel, NULL, &reg);
  if (!err) err = host->fallback_register(backend, host->cpu_fallback, NULL, &reg);
  return err;
}
