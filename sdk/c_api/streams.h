// Streams of the C ABI (api->stream_*): ordered queues of work on a device, made by a backend's
// bp_stream_fns, and each thread's current stream per device.
//
//   bp_stream* s;  api->stream_create(device, &s);      // the backend's create hook
//   api->stream_set_current(s, &previous);                // this thread, s's device only
//   ... kernels call api->stream_current(device) and api->stream_native to find s
//   api->stream_destroy(s);                               // synchronize, then destroy hooks
//
// Handles are ids, never reused, so a destroyed stream gives an error instead of touching freed
// memory; a thread whose current stream was destroyed sees the default stream again. A created
// stream holds its backend's functions (BackendStreams::owner), so its hooks stay callable (the
// plugin's library loaded) until it is destroyed, also after the backend is unregistered. Default
// streams are one host record per device, never freed; they look the backend up at each call.
//
// Thread safety: every function may be called from any thread; the stream table takes one mutex,
// never held while a hook runs.
#ifndef BACKPLANE_SDK_C_API_STREAMS_H_
#define BACKPLANE_SDK_C_API_STREAMS_H_

#include "backplane/api.h"

namespace bp::c_api {

// Fills api.stream_* (also declared in install.h, with the other areas).
void install_stream_functions(bp_api& api);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_STREAMS_H_
