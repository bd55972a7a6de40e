/* A deliberately broken C-ABI plugin, for the tests of runs that must never end green or silent
 * (broken_runs_test.cc). Built from the public headers and the test device memory of
 * sdk/c_api/testing/host_memory_device.h, once per defect (conformance/testing/BUILD.bazel), each
 * a device "broken" whose ops all run through the CPU fallback, except what the defect breaks:
 *   BROKEN_INIT_CRASH     bp_plugin_init dereferences NULL (SIGSEGV);
 *   BROKEN_INIT_HANG      bp_plugin_init never returns;
 *   BROKEN_UNLOAD_CRASH   the unload hook dereferences NULL;
 *   BROKEN_KERNEL_EXIT    add.out calls exit(0);
 *   BROKEN_KERNEL_HANG    add.out never returns;
 *   BROKEN_KERNEL_CRASH   add.out dereferences NULL;
 *   BROKEN_KERNEL_SLOW    add.out is right but sleeps 20 ms first: a slowdown of hundreds of
 *                         times on small inputs, for the perf mode's baseline gate, which a
 *                         loaded machine's noise cannot hide (perf_cli_test.cc).
 * Without a define it is a correct plugin.
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backplane/plugin.h"
#include "sdk/c_api/testing/host_memory_device.h"

static bp_backend* backend;

/* Where the crashing variants write: volatile, so the compiler keeps the store. */
static int* volatile nowhere;

/* Unused in some variants. */
__attribute__((unused)) static void crash(void) { *nowhere = 1; }

__attribute__((unused)) static void hang(void) {
  for (;;) sleep(1);
}

#if defined(BROKEN_KERNEL_EXIT) || defined(BROKEN_KERNEL_HANG) || defined(BROKEN_KERNEL_CRASH)
static bp_error* broken_add_out(void* user_data, const bp_op* op, const bp_value* args,
                                size_t nargs, bp_value* results, size_t nresults) {
  (void)user_data;
  (void)op;
  (void)args;
  (void)nargs;
  (void)results;
  (void)nresults;
#if defined(BROKEN_KERNEL_EXIT)
  exit(0);
#elif defined(BROKEN_KERNEL_HANG)
  hang();
#else
  crash();
#endif
  return NULL;
}
#endif

#ifdef BROKEN_KERNEL_SLOW
static const bp_api* slow_host;

static bp_error* slow_add_out(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                              bp_value* results, size_t nresults) {
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  return slow_host->cpu_fallback(user_data, op, args, nargs, results, nresults);
}
#endif

static void unload(void* user_data) {
  (void)user_data;
#ifdef BROKEN_UNLOAD_CRASH
  crash();
#endif
  backend = NULL;
}

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* host, bp_plugin_desc* desc) {
  static bp_allocator allocator;
  static bp_copy_fns copies;
  bp_backend_desc backend_desc;
  bp_registration* registration;
  bp_error* err;
  if (!bp_plugin_begin(host, desc, "broken")) return NULL;
#ifdef BROKEN_INIT_CRASH
  crash();
#endif
#ifdef BROKEN_INIT_HANG
  hang();
#endif
  desc->unload = unload;
  host_memory_device_init(host, "broken", &allocator, &copies);
  memset(&backend_desc, 0, sizeof backend_desc);
  backend_desc.struct_size = sizeof backend_desc;
  backend_desc.name = "broken";
  backend_desc.device_count = 1;
  backend_desc.allocator = &allocator;
  backend_desc.copies = &copies;
  err = host->backend_register(&backend_desc, &backend);
  if (err) return err;
  err = host->fallback_register(backend, host->cpu_fallback, NULL, &registration);
#if defined(BROKEN_KERNEL_EXIT) || defined(BROKEN_KERNEL_HANG) || defined(BROKEN_KERNEL_CRASH)
  if (!err) err = host->kernel_register(backend, "add.out", broken_add_out, NULL, &registration);
#endif
#ifdef BROKEN_KERNEL_SLOW
  slow_host = host;
  if (!err) err = host->kernel_register(backend, "add.out", slow_add_out, NULL, &registration);
#endif
  return err;
}
