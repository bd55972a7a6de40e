/* A sample client in C99: loads a plugin, puts tensors on its device, runs a few ops there and
 * prints the results.
 *
 *   toy_client path/to/libtoy_plugin.so
 *
 * add and mul run on the plugin's kernels (through the host's Common key), exp on the CPU
 * through the plugin's fallback; a shape mismatch comes back as an error object. Every tensor,
 * result and error is released. Exits 0 when everything worked. */
#include <stdio.h>
#include <string.h>

#include "backplane/backplane.h"

static const bp_api* bp;

/* Prints and frees `err`; returns whether there was one. */
static int failed(bp_error* err, const char* what) {
  if (err == NULL) return 0;
  fprintf(stderr, "%s: %s\n", what, bp->error_message(err));
  bp->error_destroy(err);
  return 1;
}

static bp_value tensor_arg(bp_tensor* t) {
  bp_value v;
  memset(&v, 0, sizeof v);
  v.tag = BP_VALUE_TENSOR;
  v.u.tensor = t;
  return v;
}

/* Calls `op_name` with `nargs` arguments; *out: its tensor result (new reference). */
static bp_error* call(const char* op_name, const bp_value* args, size_t nargs, bp_tensor** out) {
  const bp_op* op;
  bp_value result;
  size_t nresults = 0;
  bp_error* err = bp->op_find(op_name, &op);
  if (err) return err;
  err = bp->op_call(op, args, nargs, &result, 1, &nresults);
  if (err) return err;
  *out = result.u.tensor;
  return NULL;
}

/* The backend the plugin registered: backend_list reports it last. */
typedef struct backend {
  char name[64];
  bp_device device;
} backend;

static void last_backend(void* user_data, const bp_backend_info* info) {
  backend* b = user_data;
  snprintf(b->name, sizeof b->name, "%s", info->name); /* info is borrowed for the visit */
  b->device.device_type = info->device_type;
  b->device.device_id = 0;
}

/* Prints "name = [a, b, c, d] on toy:0" for a float32 tensor of 4 elements on b's device. */
static int print(const backend* b, const char* name, const bp_tensor* t) {
  float values[4];
  bp_tensor_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (failed(bp->tensor_info(t, &info), name)) return 1;
  if (failed(bp->tensor_to_host(t, values, sizeof values), name)) return 1;
  printf("%s = [%g, %g, %g, %g] on %s:%d\n", name, values[0], values[1], values[2], values[3],
         info.device.device_type == b->device.device_type ? b->name : "another device",
         (int)info.device.device_id);
  return 0;
}

int main(int argc, char** argv) {
  static const float xs[4] = {1, 2, 3, 4}, ys[4] = {10, 20, 30, 40};
  static const int64_t sizes[2] = {2, 2}, three[1] = {3};
  bp_plugin* plugin = NULL;
  backend toy;
  bp_tensor *x = NULL, *y = NULL, *bad = NULL, *sum = NULL, *product = NULL, *e = NULL;
  bp_value args[3];
  bp_error* err;
  int status = 1;
  if (argc != 2) {
    fprintf(stderr, "usage: %s path/to/plugin.so\n", argv[0]);
    return 2;
  }
  memset(&toy, 0, sizeof toy);
  bp = bp_get_api();
  if (failed(bp->plugin_load(argv[1], &plugin), "cannot load the plugin")) return 1;
  if (failed(bp->backend_list(last_backend, &toy), "cannot list backends")) goto done;
  printf("loaded %s: backend %s\n", argv[1], toy.name);

  /* Two 2x2 float32 tensors on the plugin's device (copied there from host memory). */
  if (failed(bp->tensor_from_host(xs, sizeof xs, sizes, 2, BP_DTYPE_FLOAT32, toy.device, &x),
             "x") ||
      failed(bp->tensor_from_host(ys, sizeof ys, sizes, 2, BP_DTYPE_FLOAT32, toy.device, &y),
             "y")) {
    goto done;
  }

  /* add(x, y, alpha=2): the plugin's add.out kernel, reached through Common. */
  args[0] = tensor_arg(x);
  args[1] = tensor_arg(y);
  memset(&args[2], 0, sizeof args[2]);
  args[2].tag = BP_VALUE_INT;
  args[2].u.i = 2;
  if (failed(call("add.Tensor", args, 3, &sum), "add") || print(&toy, "add(x, y, alpha=2)", sum)) {
    goto done;
  }
  /* mul(sum, x), then exp(x): the plugin has no exp kernel, so its CPU fallback runs it. */
  args[0] = tensor_arg(sum);
  args[1] = tensor_arg(x);
  if (failed(call("mul.Tensor", args, 2, &product), "mul") || print(&toy, "mul(sum, x)", product)) {
    goto done;
  }
  args[0] = tensor_arg(x);
  if (failed(call("exp", args, 1, &e), "exp") || print(&toy, "exp(x)", e)) goto done;

  /* A shape mismatch: the host's meta function rejects it with PyTorch's message. */
  if (failed(bp->tensor_empty(three, 1, BP_DTYPE_FLOAT32, toy.device, &bad), "bad")) goto done;
  args[0] = tensor_arg(x);
  args[1] = tensor_arg(bad);
  err = call("mul.Tensor", args, 2, &product);
  if (err == NULL) {
    fprintf(stderr, "mul of shapes [2, 2] and [3] should have failed\n");
    goto done;
  }
  printf("mul(x, bad) failed as expected: %s\n", bp->error_message(err));
  bp->error_destroy(err);
  status = 0;

done:
  bp->tensor_release(x);
  bp->tensor_release(y);
  bp->tensor_release(bad);
  bp->tensor_release(sum);
  bp->tensor_release(product);
  bp->tensor_release(e);
  if (failed(bp->plugin_unload(plugin), "cannot unload the plugin")) status = 1;
  return status;
}
