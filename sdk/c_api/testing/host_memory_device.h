/* The memory of a test device that is host RAM, for the C test plugins built from the public
 * headers alone (c_test_plugin.c here, conformance/testing/broken_plugin.c):
 *
 *   static bp_allocator allocator;
 *   static bp_copy_fns copies;
 *   host_memory_device_init(api, "cplug", &allocator, &copies);
 *   backend_desc.allocator = &allocator;
 *   backend_desc.copies = &copies;
 *
 * The allocator hands out malloc's blocks aligned to HOST_MEMORY_DEVICE_ALIGNMENT bytes (its
 * `alignment`) and counts those alive; the copies are memcpy and memmove. The sample plugins keep
 * their own versions of this so that each stays one self-contained file a vendor can copy.
 *
 * Thread safety: call host_memory_device_init once, before the host uses the structs; then the
 * allocator, the copies and host_memory_device_live_blocks may run on any threads at once.
 * Built with hidden visibility: nothing here is exported from a plugin.
 */
#ifndef BACKPLANE_SDK_C_API_TESTING_HOST_MEMORY_DEVICE_H_
#define BACKPLANE_SDK_C_API_TESTING_HOST_MEMORY_DEVICE_H_

#include <stdint.h>

#include "backplane/api.h"

#define HOST_MEMORY_DEVICE_ALIGNMENT 64

/* Zeroes `allocator` and `copies` (out), then sets their struct_size and functions (and the
 * allocator's alignment). `api` (borrowed: must outlive the device's last block) creates the
 * allocator's error when malloc fails: BP_ERROR_OUT_OF_MEMORY "<name>: out of host memory"
 * (`name`: borrowed, static storage). */
void host_memory_device_init(const bp_api* api, const char* name, bp_allocator* allocator,
                             bp_copy_fns* copies);

/* Blocks the allocator handed out and the host has not yet freed. */
int64_t host_memory_device_live_blocks(void);

#endif /* BACKPLANE_SDK_C_API_TESTING_HOST_MEMORY_DEVICE_H_ */
