/* The smallest useful Backplane plugin (C99): device "mini", memory from malloc, float32 add.out
 * and neg.out; Common adds add.Tensor, add_.Tensor, neg and neg_; the rest runs on the CPU. Walked
 * through in docs/writing_a_backend.md; samples/c_plugin/toy_plugin.c is the extended example. */
#include <stdlib.h>
#include <string.h>

#include "backplane/plugin.h"

static const bp_api* api; /* the host's function table, valid until the plugin is unloaded */

/* Device memory: malloc's blocks, 16-byte aligned on the 64-bit Linux targets. */
static bp_error* mini_allocate(void* user_data, bp_device device, size_t nbytes, void** out) {
  (void)user_data;
  (void)device;
  *out = malloc(nbytes);
  if (*out == NULL && nbytes > 0) return api->error_create(BP_ERROR_OUT_OF_MEMORY, "mini: full");
  return NULL;
}

static void mini_deallocate(void* user_data, bp_device device, void* ptr) {
  (void)user_data;
  (void)device;
  free(ptr);
}

/* Copies between the device and the host: both are host RAM here. */
static bp_error* mini_to_host(void* user_data, void* dst_host, const void* src,
                              bp_device src_device, size_t nbytes) {
  (void)user_data;
  (void)src_device;
  memcpy(dst_host, src, nbytes);
  return NULL;
}

static bp_error* mini_from_host(void* user_data, void* dst, bp_device dst_device,
                                const void* src_host, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  memcpy(dst, src_host, nbytes);
  return NULL;
}

static bp_error* mini_within_device(void* user_data, void* dst, bp_device dst_device,
                                    const void* src, bp_device src_device, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  (void)src_device;
  memmove(dst, src, nbytes);
  return NULL;
}

/* Element `n` of a plan's operand: dimension 0 moves fastest, strides are in bytes. */
static float* element(const bp_iter_info* info, const bp_iter_operand* operand, int64_t n) {
  char* p = operand->data;
  for (size_t d = 0; d < info->ndim; ++d) {
    p += (n % info->shape[d]) * operand->strides[d];
    n /= info->shape[d];
  }
  return (float*)p;
}

/* add.out and neg.out (`user_data`: 1 add, 0 neg) over the plan the op's meta function built. */
static bp_error* mini_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                             bp_value* results, size_t nresults) {
  const int is_add = *(const int*)user_data;
  const bp_iter* plan; /* borrowed from the host until this kernel returns */
  bp_error* err = api->kernel_call_iter(args, &plan);
  bp_iter_info info = {.struct_size = sizeof info};
  bp_iter_operand operands[3]; /* out, then the op's tensor inputs */
  float alpha = 1;
  if (err) return err;
  err = api->iter_info(plan, &info);
  int handled = info.common_dtype == BP_DTYPE_FLOAT32 && info.ntensors == (is_add ? 3u : 2u);
  for (size_t k = 0; !err && handled && k < info.ntensors; ++k) {
    operands[k] = (bp_iter_operand){.struct_size = sizeof operands[k]};
    err = api->iter_operand(plan, k, &operands[k]);
    handled = operands[k].dtype == BP_DTYPE_FLOAT32;
  }
  if (err) return err;
  if (is_add && args[2].tag == BP_VALUE_INT) alpha = (float)args[2].u.i;
  if (is_add && args[2].tag == BP_VALUE_DOUBLE) alpha = (float)args[2].u.d;
  if (is_add && args[2].tag != BP_VALUE_INT && args[2].tag != BP_VALUE_DOUBLE) handled = 0;
  /* Other dtypes, and a bool or complex alpha: the CPU does them, with the same arguments. */
  if (!handled) return api->cpu_fallback(NULL, op, args, nargs, results, nresults);
  for (int64_t n = 0; n < info.numel; ++n) {
    const float x = *element(&info, &operands[1], n);
    *element(&info, &operands[0], n) = is_add ? x + alpha * *element(&info, &operands[2], n) : -x;
  }
  api->tensor_retain(args[nargs - 1].u.tensor); /* the result: out (the last argument), retained */
  results[0] = (bp_value){.tag = BP_VALUE_TENSOR, .u.tensor = args[nargs - 1].u.tensor};
  return NULL;
}

/* Every struct passed to the host starts with struct_size; fields left out here are zero. */
static const bp_allocator allocator = {.struct_size = sizeof(bp_allocator),
                                       .alignment = 16,
                                       .allocate = mini_allocate,
                                       .deallocate = mini_deallocate};
static const bp_copy_fns copies = {.struct_size = sizeof(bp_copy_fns),
                                   .to_host = mini_to_host,
                                   .from_host = mini_from_host,
                                   .within_device = mini_within_device};

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  static const int add = 1, neg = 0;
  const bp_backend_desc backend_desc = {.struct_size = sizeof backend_desc,
                                        .name = "mini", /* its tensors are on device "mini:0" */
                                        .allocator = &allocator,
                                        .copies = &copies};
  bp_backend* backend;
  bp_registration* reg; /* undone by the host when it unloads the plugin */
  /* First: the name and the API version; nothing else of `host` may be used if this fails. */
  if (!bp_plugin_begin(host, desc, "mini")) return NULL;
  api = host;
  bp_error* err = host->backend_register(&backend_desc, &backend);
  if (!err) err = host->kernel_register(backend, "add.out", mini_kernel, (void*)&add, &reg);
  if (!err) err = host->kernel_register(backend, "neg.out", mini_kernel, (void*)&neg, &reg);
  if (!err) err = host->fallback_register(backend, host->cpu_fallback, NULL, &reg);
  return err;
}
