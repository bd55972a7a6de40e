// Each area of the C ABI fills its own functions into the table (api_table.cc builds it).
#ifndef BACKPLANE_SDK_C_API_INSTALL_H_
#define BACKPLANE_SDK_C_API_INSTALL_H_

#include "backplane/api.h"

namespace bp::c_api {

void install_error_functions(bp_api& api);       // error.cc
void install_tensor_functions(bp_api& api);      // tensors.cc
void install_op_functions(bp_api& api);          // ops.cc
void install_op_define_functions(bp_api& api);   // op_definitions.cc
void install_backend_functions(bp_api& api);     // backends.cc
void install_kernel_functions(bp_api& api);      // kernels.cc
void install_iter_functions(bp_api& api);        // iter.cc
void install_cache_functions(bp_api& api);       // kernel_cache_api.cc
void install_plugin_functions(bp_api& api);      // plugins.cc
void install_diagnostic_functions(bp_api& api);  // logging.cc, debug_checks.cc
void install_stream_functions(bp_api& api);      // streams.cc
void install_wrapper_functions(bp_api& api);     // wrapper_keys.cc
void install_lazy_functions(bp_api& api);        // lazy_scopes.cc

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_INSTALL_H_
