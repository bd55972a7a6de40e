/* See host_memory_device.h. */
#include "sdk/c_api/testing/host_memory_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bp_api* api;
static char out_of_memory[128]; /* "<name>: out of host memory" */
static int64_t live_blocks;

/* malloc's pointer is kept just in front of the aligned one the host sees. */
static bp_error* allocate(void* user_data, bp_device device, size_t nbytes, void** out) {
  unsigned char* raw = malloc(nbytes + HOST_MEMORY_DEVICE_ALIGNMENT + sizeof(void*));
  uintptr_t aligned;
  (void)user_data;
  (void)device;
  if (raw == NULL) return api->error_create(BP_ERROR_OUT_OF_MEMORY, out_of_memory);
  aligned = ((uintptr_t)(raw + sizeof(void*)) + HOST_MEMORY_DEVICE_ALIGNMENT - 1) &
            ~(uintptr_t)(HOST_MEMORY_DEVICE_ALIGNMENT - 1);
  ((void**)aligned)[-1] = raw;
  __atomic_add_fetch(&live_blocks, 1, __ATOMIC_SEQ_CST);
  *out = (void*)aligned;
  return NULL;
}

static void deallocate(void* user_data, bp_device device, void* ptr) {
  (void)user_data;
  (void)device;
  free(((void**)ptr)[-1]);
  __atomic_sub_fetch(&live_blocks, 1, __ATOMIC_SEQ_CST);
}

static bp_error* to_host(void* user_data, void* dst_host, const void* src, bp_device src_device,
                         size_t nbytes) {
  (void)user_data;
  (void)src_device;
  memcpy(dst_host, src, nbytes);
  return NULL;
}

static bp_error* from_host(void* user_data, void* dst, bp_device dst_device, const void* src_host,
                           size_t nbytes) {
  (void)user_data;
  (void)dst_device;
  memcpy(dst, src_host, nbytes);
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

void host_memory_device_init(const bp_api* host, const char* name, bp_allocator* allocator,
                             bp_copy_fns* copies) {
  api = host;
  snprintf(out_of_memory, sizeof out_of_memory, "%s: out of host memory", name);
  memset(allocator, 0, sizeof *allocator);
  allocator->struct_size = sizeof *allocator;
  allocator->alignment = HOST_MEMORY_DEVICE_ALIGNMENT;
  allocator->allocate = allocate;
  allocator->deallocate = deallocate;
  memset(copies, 0, sizeof *copies);
  copies->struct_size = sizeof *copies;
  copies->to_host = to_host;
  copies->from_host = from_host;
  copies->within_device = within_device;
}

int64_t host_memory_device_live_blocks(void) {
  return __atomic_load_n(&live_blocks, __ATOMIC_SEQ_CST);
}
