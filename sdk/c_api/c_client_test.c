/* A client program written in C99 against libbackplane: creates tensors, calls ops by name
 * (functional, in-place, out=), reads results, checks the error objects bad input gives, and
 * uses the dispatcher from C (a wrapper key counting calls, a fallthrough, a dispatch table).
 * Every tensor and result is released, so the program is clean under ASan's leak checker and
 * Valgrind (c_client_valgrind_test). Exits non-zero when a check fails. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backplane/backplane.h"

static const bp_api* bp;
static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Expects success; reports and frees an error. */
static void check_ok(bp_error* error, int line) {
  if (error != NULL) {
    fprintf(stderr, "line %d: unexpected error: %s\n", line, bp->error_message(error));
    bp->error_destroy(error);
    ++failures;
  }
}
#define CHECK_OK(expr) check_ok((expr), __LINE__)

/* Expects an error with this code and exactly this message; frees it. */
static void check_error(bp_error* error, int32_t code, const char* message, int line) {
  if (error == NULL) {
    fprintf(stderr, "line %d: expected the error \"%s\" but the call succeeded\n", line, message);
    ++failures;
    return;
  }
  if (bp->error_code(error) != code || strcmp(bp->error_message(error), message) != 0) {
    fprintf(stderr, "line %d: expected error %d \"%s\"\n           but got %d \"%s\"\n", line,
            (int)code, message, (int)bp->error_code(error), bp->error_message(error));
    ++failures;
  }
  bp->error_destroy(error);
}
#define CHECK_ERROR(expr, code, message) check_error((expr), (code), (message), __LINE__)

static bp_value tensor_arg(bp_tensor* t) {
  bp_value v;
  memset(&v, 0, sizeof v);
  v.tag = BP_VALUE_TENSOR;
  v.u.tensor = t;
  return v;
}

static bp_value int_arg(int64_t i) {
  bp_value v;
  memset(&v, 0, sizeof v);
  v.tag = BP_VALUE_INT;
  v.u.i = i;
  return v;
}

static bp_value double_arg(double d) {
  bp_value v;
  memset(&v, 0, sizeof v);
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = d;
  return v;
}

static bp_value ints_arg(const int64_t* data, size_t size) {
  bp_value v;
  memset(&v, 0, sizeof v);
  v.tag = BP_VALUE_INT_LIST;
  v.u.ints.data = data;
  v.u.ints.size = size;
  return v;
}

static const bp_device cpu = {BP_DEVICE_CPU, -1};

static bp_tensor* floats(const int64_t* sizes, size_t ndim, const float* values, size_t n) {
  bp_tensor* t = NULL;
  CHECK_OK(bp->tensor_from_host(values, n * sizeof(float), sizes, ndim, BP_DTYPE_FLOAT32, cpu, &t));
  return t;
}

/* Reads a float32 tensor's n elements in row-major order and compares them with `expected`. */
static void check_floats(bp_tensor* t, const float* expected, size_t n, int line) {
  float got[16];
  size_t i;
  if (t == NULL || n > 16) {
    fprintf(stderr, "line %d: no tensor to read\n", line);
    ++failures;
    return;
  }
  check_ok(bp->tensor_to_host(t, got, n * sizeof(float)), line);
  for (i = 0; i < n; ++i) {
    if (got[i] != expected[i]) {
      fprintf(stderr, "line %d: element %zu is %g, expected %g\n", line, i, got[i], expected[i]);
      ++failures;
      return;
    }
  }
}
#define CHECK_FLOATS(t, ...)                                                        \
  do {                                                                              \
    const float expected_[] = {__VA_ARGS__};                                        \
    check_floats((t), expected_, sizeof expected_ / sizeof expected_[0], __LINE__); \
  } while (0)

/* Calls `name` and returns its one tensor result (a new reference), or NULL after reporting. */
static bp_tensor* call1(const char* name, const bp_value* args, size_t nargs, int line) {
  const bp_op* op = NULL;
  bp_value result;
  size_t nresults = 0;
  bp_error* error = bp->op_find(name, &op);
  if (!error) error = bp->op_call(op, args, nargs, &result, 1, &nresults);
  if (error) {
    fprintf(stderr, "line %d: %s failed: %s\n", line, name, bp->error_message(error));
    bp->error_destroy(error);
    ++failures;
    return NULL;
  }
  if (nresults != 1 || result.tag != BP_VALUE_TENSOR) {
    fprintf(stderr, "line %d: %s did not return one tensor\n", line, name);
    ++failures;
    return NULL;
  }
  return result.u.tensor;
}
#define CALL1(name, ...)                         \
  call1((name), (const bp_value[]){__VA_ARGS__}, \
        sizeof((const bp_value[]){__VA_ARGS__}) / sizeof(bp_value), __LINE__)

/* Calls `name` expecting an error with this code and message. */
static void call_error(const char* name, const bp_value* args, size_t nargs, int32_t code,
                       const char* message, int line) {
  const bp_op* op = NULL;
  bp_value result;
  size_t nresults = 0;
  check_ok(bp->op_find(name, &op), line);
  check_error(bp->op_call(op, args, nargs, &result, 1, &nresults), code, message, line);
}

static void test_version(void) {
  CHECK(bp->struct_size >= sizeof(bp_api));
  CHECK(bp->major_version == BP_API_MAJOR);
  CHECK(bp->minor_version == BP_API_MINOR);
  CHECK(strstr(bp->version_string(), "(C ABI 0.5)") != NULL);
  CHECK(BP_API_HAS(bp, iter_cast_outputs));
  CHECK(BP_API_HAS(bp, kernel_call_iter));
}

static void test_tensor_metadata(void) {
  const int64_t sizes[] = {2, 3};
  const float values[] = {1, 2, 3, 4, 5, 6};
  bp_tensor* t = floats(sizes, 2, values, 6);
  bp_tensor_info info;
  bool contiguous = false;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  CHECK_OK(bp->tensor_info(t, &info));
  CHECK(info.ndim == 2 && info.sizes[0] == 2 && info.sizes[1] == 3);
  CHECK(info.strides[0] == 3 && info.strides[1] == 1);
  CHECK(info.storage_offset == 0 && info.numel == 6);
  CHECK(info.dtype == BP_DTYPE_FLOAT32);
  CHECK(info.device.device_type == BP_DEVICE_CPU && info.device.device_id == -1);
  CHECK(info.data != NULL && ((const float*)info.data)[4] == 5);
  CHECK_OK(bp->tensor_is_contiguous(t, BP_MEMORY_FORMAT_CONTIGUOUS, &contiguous));
  CHECK(contiguous);
  bp->tensor_release(t);
}

static void test_add_and_mul_in_every_variant(void) {
  const int64_t sizes[] = {2, 2};
  const float x[] = {1, 2, 3, 4}, y[] = {10, 20, 30, 40};
  bp_tensor* a = floats(sizes, 2, x, 4);
  bp_tensor* b = floats(sizes, 2, y, 4);
  bp_tensor* out = NULL;
  bp_tensor* r;

  r = CALL1("add.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK_FLOATS(r, 11, 22, 33, 44);
  bp->tensor_release(r);
  r = CALL1("add.Tensor", tensor_arg(a), tensor_arg(b), int_arg(2));
  CHECK_FLOATS(r, 21, 42, 63, 84);
  bp->tensor_release(r);
  r = CALL1("mul.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK_FLOATS(r, 10, 40, 90, 160);
  bp->tensor_release(r);

  CHECK_OK(bp->tensor_empty(sizes, 2, BP_DTYPE_FLOAT32, cpu, &out));
  r = CALL1("add.out", tensor_arg(a), tensor_arg(b), double_arg(0.5), tensor_arg(out));
  CHECK(r == out); /* out= returns a new reference to `out` itself */
  CHECK_FLOATS(out, 6, 12, 18, 24);
  bp->tensor_release(r);
  r = CALL1("mul.out", tensor_arg(a), tensor_arg(b), tensor_arg(out));
  CHECK(r == out);
  CHECK_FLOATS(out, 10, 40, 90, 160);
  bp->tensor_release(r);

  r = CALL1("add_.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK(r == a);
  CHECK_FLOATS(a, 11, 22, 33, 44);
  bp->tensor_release(r);
  r = CALL1("mul_.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK(r == a);
  CHECK_FLOATS(a, 110, 440, 990, 1760);
  bp->tensor_release(r);

  bp->tensor_release(out);
  bp->tensor_release(a);
  bp->tensor_release(b);
}

static void test_other_ops_by_name(void) {
  const int64_t sizes[] = {2, 2}, shape[] = {4}, perm_sizes[] = {2, 2};
  const float x[] = {0, 1, 2, 3};
  bp_tensor* a = floats(sizes, 2, x, 4);
  bp_tensor* r;
  bp_tensor* c;
  bp_tensor* dst = NULL;
  bp_value dtype, format;
  memset(&dtype, 0, sizeof dtype);
  dtype.tag = BP_VALUE_DTYPE;
  dtype.u.dtype = BP_DTYPE_FLOAT32;
  memset(&format, 0, sizeof format);
  format.tag = BP_VALUE_MEMORY_FORMAT;
  format.u.memory_format = BP_MEMORY_FORMAT_CONTIGUOUS;

  r = CALL1("neg", tensor_arg(a));
  CHECK_FLOATS(r, -0.0f, -1, -2, -3);
  bp->tensor_release(r);
  r = CALL1("exp", tensor_arg(a));
  {
    float e[4];
    CHECK_OK(bp->tensor_to_host(r, e, sizeof e));
    CHECK(e[0] == 1.0f && fabsf(e[1] - 2.7182817f) < 1e-6f);
  }
  bp->tensor_release(r);
  r = CALL1("add.Scalar", tensor_arg(a), double_arg(1.5));
  CHECK_FLOATS(r, 1.5f, 2.5f, 3.5f, 4.5f);
  bp->tensor_release(r);

  /* A view, read back through the strided path of tensor_to_host. */
  r = CALL1("transpose.int", tensor_arg(a), int_arg(0), int_arg(1));
  CHECK_FLOATS(r, 0, 2, 1, 3);
  c = CALL1("clone", tensor_arg(r), format);
  CHECK_FLOATS(c, 0, 2, 1, 3);
  bp->tensor_release(c);
  CHECK_OK(bp->tensor_empty(sizes, 2, BP_DTYPE_FLOAT32, cpu, &dst));
  c = CALL1("copy_", tensor_arg(dst), tensor_arg(r));
  CHECK(c == dst);
  CHECK_FLOATS(dst, 0, 2, 1, 3);
  bp->tensor_release(c);
  bp->tensor_release(r);
  /* A view shares memory: writing through it shows in the base. */
  r = CALL1("transpose.int", tensor_arg(a), int_arg(0), int_arg(1));
  c = CALL1("copy_", tensor_arg(r), tensor_arg(dst));
  CHECK_FLOATS(a, 0, 1, 2, 3);
  bp->tensor_release(c);
  bp->tensor_release(r);
  bp->tensor_release(dst);

  r = CALL1("view", tensor_arg(a), ints_arg(shape, 1));
  CHECK_FLOATS(r, 0, 1, 2, 3);
  bp->tensor_release(r);
  r = CALL1("fill_.Scalar", tensor_arg(a), int_arg(7));
  CHECK_FLOATS(a, 7, 7, 7, 7);
  bp->tensor_release(r);
  r = CALL1("zero_", tensor_arg(a));
  CHECK_FLOATS(a, 0, 0, 0, 0);
  bp->tensor_release(r);
  r = CALL1("zeros", ints_arg(perm_sizes, 2), dtype);
  CHECK_FLOATS(r, 0, 0, 0, 0);
  bp->tensor_release(r);
  bp->tensor_release(a);
}

static void test_meta_calls_give_shapes_without_data(void) {
  const int64_t sa[] = {4, 1, 3}, sb[] = {5, 1};
  bp_tensor *a = NULL, *b = NULL;
  const bp_op* add = NULL;
  bp_value args[2], result;
  size_t n = 0;
  bp_tensor_info info;
  CHECK_OK(bp->tensor_empty(sa, 3, BP_DTYPE_INT32, cpu, &a));
  CHECK_OK(bp->tensor_empty(sb, 2, BP_DTYPE_FLOAT32, cpu, &b));
  args[0] = tensor_arg(a);
  args[1] = tensor_arg(b);
  CHECK_OK(bp->op_find("add.Tensor", &add));
  CHECK_OK(bp->op_call_meta(add, args, 2, &result, 1, &n));
  CHECK(n == 1 && result.tag == BP_VALUE_TENSOR);
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  CHECK_OK(bp->tensor_info(result.u.tensor, &info));
  CHECK(info.ndim == 3 && info.sizes[0] == 4 && info.sizes[1] == 5 && info.sizes[2] == 3);
  CHECK(info.strides[0] == 15 && info.strides[1] == 3 && info.strides[2] == 1);
  CHECK(info.dtype == BP_DTYPE_FLOAT32);
  CHECK(info.device.device_type == BP_DEVICE_META && info.data == NULL);
  bp->value_release(&result);
  CHECK(result.tag == BP_VALUE_NONE);
  bp->tensor_release(a);
  bp->tensor_release(b);
}

static void test_bad_input_gives_clear_errors(void) {
  const int64_t s2[] = {2}, s3[] = {3};
  const float x[] = {1, 2, 3};
  bp_tensor* a = floats(s2, 1, x, 2);
  bp_tensor* b = floats(s3, 1, x, 3);
  bp_tensor* ints = NULL;
  bp_tensor* unused = NULL;
  const bp_op* op = NULL;
  bp_value args[4], result;
  size_t n = 0;
  bp_tensor_info info;

  CHECK_ERROR(bp->op_find("bogus.op", &op), BP_ERROR_INVALID_ARGUMENT,
              "operator 'bp::bogus.op' is not defined");
  CHECK_ERROR(bp->op_find(NULL, &op), BP_ERROR_INVALID_ARGUMENT, "bp_api.op_find: `name` is NULL");

  args[0] = tensor_arg(a);
  args[1] = tensor_arg(b);
  call_error("add.Tensor", args, 2, BP_ERROR_INVALID_ARGUMENT,
             "[add.Tensor] The size of tensor a (2) must match the size of tensor b (3) at "
             "non-singleton dimension 0",
             __LINE__);
  args[1] = int_arg(3);
  call_error("add.Tensor", args, 2, BP_ERROR_TYPE,
             "[add.Tensor] argument 'other' (position 2) must be Tensor, not int", __LINE__);
  call_error("add.Tensor", args, 1, BP_ERROR_TYPE,
             "[add.Tensor] missing argument 'other' (position 2), which has no default", __LINE__);
  args[1] = tensor_arg(a);
  args[2] = int_arg(1);
  args[3] = int_arg(1);
  call_error("add.Tensor", args, 4, BP_ERROR_TYPE,
             "[add.Tensor] expected at most 3 arguments (self, other, alpha) but got 4", __LINE__);
  args[0] = tensor_arg(NULL);
  call_error("add.Tensor", args, 2, BP_ERROR_TYPE,
             "[add.Tensor] argument 'self' (position 1) must be Tensor, not a NULL tensor",
             __LINE__);
  CHECK_OK(bp->tensor_empty(s2, 1, BP_DTYPE_INT32, cpu, &ints));
  args[0] = tensor_arg(ints);
  args[1] = int_arg(1);
  args[2] = double_arg(0.5);
  call_error("add.Scalar", args, 3, BP_ERROR_INVALID_ARGUMENT,
             "[add.Scalar] For integral input tensors, argument alpha must not be a floating "
             "point number.",
             __LINE__);
  args[0] = tensor_arg(a);

  CHECK_OK(bp->op_find("add.Tensor", &op));
  args[1] = tensor_arg(a);
  CHECK_ERROR(bp->op_call(NULL, args, 2, &result, 1, &n), BP_ERROR_INVALID_ARGUMENT,
              "bp_api.op_call: `op` is NULL");
  CHECK_ERROR(bp->op_call(op, args, 2, &result, 0, &n), BP_ERROR_INVALID_ARGUMENT,
              "[add.Tensor] the op returns 1 results but `results` has room for 0");
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  CHECK_ERROR(bp->tensor_info(NULL, &info), BP_ERROR_INVALID_ARGUMENT,
              "bp_api.tensor_info: `tensor` is NULL");
  CHECK_ERROR(bp->tensor_empty(s2, 1, 12345, cpu, &unused), BP_ERROR_TYPE,
              "unknown dtype code 0x3039 (dtypes are DLPack's encodings, e.g. BP_DTYPE_FLOAT32)");
  CHECK(bp->error_code(NULL) == 0 && strcmp(bp->error_message(NULL), "") == 0);
  bp->error_destroy(NULL);
  bp->tensor_release(NULL);
  bp->tensor_release(ints);
  bp->tensor_release(a);
  bp->tensor_release(b);
}

static int deleter_calls;
static void count_deleter(void* context) { ++*(int*)context; }

static void test_wrapped_memory_is_freed_by_its_deleter(void) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  const int64_t sizes[] = {3, 2}, strides[] = {1, 3};
  bp_tensor* t = NULL;
  CHECK_OK(bp->tensor_wrap(data, sizes, strides, 2, BP_DTYPE_FLOAT32, cpu, count_deleter,
                           &deleter_calls, &t));
  CHECK_FLOATS(t, 1, 4, 2, 5, 3, 6);
  bp->tensor_retain(t);
  bp->tensor_release(t);
  CHECK(deleter_calls == 0);
  bp->tensor_release(t);
  CHECK(deleter_calls == 1);
}

/* (0.4) A wrapper key's fallback counts every call and passes it on below itself. */
static int wrapped_calls;
static bp_error* count_and_redispatch(void* user_data, const bp_op* op, const bp_value* args,
                                      size_t nargs, bp_value* results, size_t nresults) {
  size_t n = 0;
  (void)op;
  ++*(int*)user_data;
  return bp->kernel_redispatch(args, args, nargs, results, nresults, &n);
}

static void test_wrapper_key_counts_calls_and_redispatches(void) {
  const int64_t sizes[1] = {3};
  const float av[3] = {1, 2, 3}, bv[3] = {10, 20, 30};
  bp_tensor* a = floats(sizes, 1, av, 3);
  bp_tensor* b = floats(sizes, 1, bv, 3);
  bp_tensor* sum;
  bp_tensor* product;
  bp_wrapper_key* counter = NULL;
  bp_registration* fallback = NULL;
  bp_registration* skip_mul = NULL;
  const bp_op* add = NULL;
  bp_value table;
  size_t nresults = 0;
  bp_value result;
  bp_value args[2];

  CHECK(BP_API_HAS(bp, op_dispatch_table));
  CHECK_OK(bp->wrapper_key_register("c_client_counter", &counter));
  CHECK_OK(
      bp->wrapper_kernel_register(counter, NULL, count_and_redispatch, &wrapped_calls, &fallback));
  /* Off until switched on. */
  sum = CALL1("add.Tensor", tensor_arg(a), tensor_arg(b));
  bp->tensor_release(sum);
  CHECK(wrapped_calls == 0);

  CHECK_OK(bp->wrapper_key_set_enabled(counter, BP_WRAPPER_SCOPE_THREAD, true));
  sum = CALL1("add.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK_FLOATS(sum, 11, 22, 33); /* unchanged by the wrapper */
  CHECK(wrapped_calls == 1);
  product = CALL1("mul.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK_FLOATS(product, 10, 40, 90);
  CHECK(wrapped_calls == 2);
  bp->tensor_release(product);

  /* A fallthrough for (mul.Tensor, the wrapper key): mul skips the wrapper, add does not. */
  CHECK_OK(bp->fallthrough_register("mul.Tensor", "c_client_counter", &skip_mul));
  product = CALL1("mul.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK_FLOATS(product, 10, 40, 90);
  CHECK(wrapped_calls == 2);
  bp->tensor_release(product);
  bp->registration_destroy(skip_mul);
  product = CALL1("mul.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK(wrapped_calls == 3);
  bp->tensor_release(product);

  /* The dispatch table names the wrapper key and where its kernel came from. */
  CHECK_OK(bp->op_find("add.Tensor", &add));
  CHECK_OK(bp->op_dispatch_table(add, &table));
  CHECK(table.tag == BP_VALUE_STRING);
  if (table.tag == BP_VALUE_STRING) {
    CHECK(strstr(table.u.s,
                 "('c_client_counter'): backend fallback [c_client_counter fallback "
                 "(C ABI)]\n") != NULL);
    CHECK(strstr(table.u.s, "\nCPU: kernel [") != NULL);
  }
  bp->value_release(&table);

  /* Redispatching from outside a kernel is an error, not a crash. */
  args[0] = tensor_arg(a);
  args[1] = tensor_arg(b);
  CHECK_ERROR(bp->kernel_redispatch(args, args, 2, &result, 1, &nresults),
              BP_ERROR_INVALID_ARGUMENT,
              "bp_api.kernel_redispatch: `call_args` is not the argument array of a kernel call "
              "running on this thread");
  CHECK_ERROR(bp->fallthrough_register("mul.Tensor", "NoSuchKey", &skip_mul),
              BP_ERROR_INVALID_ARGUMENT,
              "bp_api.fallthrough_register: unknown dispatch key 'NoSuchKey' (a key name such as "
              "'Common' or 'Plugin0', or a wrapper key's name)");

  CHECK_OK(bp->wrapper_key_set_enabled(counter, BP_WRAPPER_SCOPE_THREAD, false));
  CHECK_OK(bp->wrapper_key_unregister(counter));
  CHECK_ERROR(bp->wrapper_key_unregister(counter), BP_ERROR_INVALID_ARGUMENT,
              "bp_api.wrapper_key_unregister: unknown wrapper key handle (it was unregistered, "
              "or never registered)");
  bp->tensor_release(sum);
  sum = CALL1("add.Tensor", tensor_arg(a), tensor_arg(b));
  CHECK(wrapped_calls == 3);
  bp->tensor_release(sum);
  bp->tensor_release(a);
  bp->tensor_release(b);
}

int main(void) {
  bp = bp_get_api();
  test_version();
  test_tensor_metadata();
  test_add_and_mul_in_every_variant();
  test_other_ops_by_name();
  test_meta_calls_give_shapes_without_data();
  test_bad_input_gives_clear_errors();
  test_wrapped_memory_is_freed_by_its_deleter();
  test_wrapper_key_counts_calls_and_redispatches();
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("c_client_test: all checks passed\n");
  return 0;
}
