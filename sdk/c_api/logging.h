// Where the host's messages go: api->set_log_handler, routed from sdk/core/warning.h.
//
//   set_log_handler(my_handler, my_state);   // warnings from ops and notes reach my_handler
//   log_info("loaded plugin 'npu' from /opt/npu/libnpu.so (C ABI 0.5)");
//   bp::warn("...");                         // reaches my_handler as BP_LOG_WARNING
//
// Without a handler, warnings go to stderr (warning.h's default) and notes are dropped.
//
// Thread safety: may be called from any thread; the handler is called one call at a time and
// must not call back into Backplane.
#ifndef BACKPLANE_SDK_C_API_LOGGING_H_
#define BACKPLANE_SDK_C_API_LOGGING_H_

#include <string_view>

#include "backplane/api.h"

namespace bp::c_api {

void set_log_handler(bp_log_fn handler, void* user_data);
// A BP_LOG_INFO note to the handler, if one is set.
void log_info(std::string_view message);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_LOGGING_H_
