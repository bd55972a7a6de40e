/* A deliberately broken C-ABI plugin, for the tests of runs that must never end green or silent
 * (broken_runs_test.cc). Built from the public headers alone, once per defect
 * (conformance/testing/BUILD.bazel), each a device "broken" whose memory is host RAM and whose
 * ops all run through the CPU fallback, except what the defect breaks:
 *   BROKEN_INIT_CRASH     bp_plugin_init dereferences NULL (SIGSEGV);
 *   BROKEN_INIT_HANG      bp_plugin_init never returns;
 *   BROKEN_UNLOAD_CRASH   the unload hook dereferences NULL;
 *   BROKEN_KERNEL_EXIT    add.out calls exit(0);
 *   BROKEN_KERNEL_HANG    add.out never returns;
 *   BROKEN_KERNEL_CRASH   add.out dereferences NULL.
 * Without a define it is a correct plugin.
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backplane/plugin.h"

#define ALIGNMENT 64

static const bp_api* api;
static bp_backend* backend;

/* Where the crashing variants write: volatile, so the compiler keeps the store. */
static int* volatile nowhere;

/* Unused in some variants. */
__attribute__((unused)) static void crash(void) { *nowhere = 1; }

__attribute__((unused)) static void hang(void) {
  for (;;) sleep(1);
}

static bp_error* allocate(void* user_data, bp_device device, size_t nbytes, void** out) {
  unsigned char* raw = malloc(nbytes + ALIGNMENT + sizeof(void*));
  uintptr_t aligned;
  (void)user_data;
  (void)device;
  if (raw == NULL) return api->error_create(BP_ERROR_OUT_OF_MEMORY, "broken: out of memory");
  aligned = ((uintptr_t)(raw + sizeof(void*)) + ALIGNMENT - 1) & ~(uintptr_t)(ALIGNMENT - 1);
  ((void**)aligned)[-1] = raw;
  *out = (void*)aligned;
  return NULL;
}

static void deallocate(void* user_data, bp_device device, void* ptr) {
  (void)user_data;
  (void)device;
  free(((void**)ptr)[-1]);
}

static bp_error* to_host(void* user_data, void* dst, const void* src, bp_device device,
                         size_t nbytes) {
  (void)user_data;
  (void)device;
  memcpy(dst, src, nbytes);
  return NULL;
}

static bp_error* from_host(void* user_data, void* dst, bp_device device, const void* src,
                           size_t nbytes) {
  (void)user_data;
  (void)device;
  memcpy(dst, src, nbytes);
  return NULL;
}

static bp_error* within_device(void* user_data, void* dst, bp_device dst_device, const void* src,
                               bp_device src_device, size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  (void)src_device;
  memmove(dst, src, nbytes);
  return NULL;
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
  api = host;
  desc->unload = unload;
  memset(&allocator, 0, sizeof allocator);
  allocator.struct_size = sizeof allocator;
  allocator.alignment = ALIGNMENT;
  allocator.allocate = allocate;
  allocator.deallocate = deallocate;
  memset(&copies, 0, sizeof copies);
  copies.struct_size = sizeof copies;
  copies.to_host = to_host;
  copies.from_host = from_host;
  copies.within_device = within_device;
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
  return err;
}
