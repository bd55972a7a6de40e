// The bytes a device type's copy functions move between host and device, for the report's
// "bytes copied" column: the counters wrap whatever copy functions the backend registered.
//
//   count_transfers(type);        // wraps the registered functions of `type`
//   ... run ops ...
//   transfers_of(type);           // {to_device, to_host} since count_transfers
//   stop_counting_transfers(type);  // the backend's own functions again
//
// Thread safety: the counters are atomic; counting starts and stops on one thread, while no copy
// of that device type is in flight.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_TRANSFER_COUNTERS_H_
#define BACKPLANE_CONFORMANCE_RUNNER_TRANSFER_COUNTERS_H_

#include <cstdint>

#include "sdk/core/allocator.h"
#include "sdk/core/device.h"

namespace bp::conformance {

// Bytes moved by a device's copy functions.
struct Transfers {
  int64_t to_device = 0;
  int64_t to_host = 0;
  int64_t total() const { return to_device + to_host; }
};

// Replaces the copy functions registered for `type` (device_copy_fns) by counting wrappers that
// call them, and zeroes its counters. Errors: bp::Error when `type` is CPU or Meta.
void count_transfers(DeviceType type);
// Registers the wrapped functions again. Does nothing when `type` is not being counted.
void stop_counting_transfers(DeviceType type);
Transfers transfers_of(DeviceType type);
// The copy functions of `type` without the counters (device_copy_fns when it is not counted):
// for the suite's own traffic, such as guard bytes, which no op moved.
DeviceCopyFns uncounted_copy_fns(DeviceType type);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_TRANSFER_COUNTERS_H_
