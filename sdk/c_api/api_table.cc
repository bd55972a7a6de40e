// The function table and bp_get_api, the one symbol libbackplane exports.
#include <mutex>
#include <string>

#include "backplane/backplane.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/plugins.h"
#include "sdk/ops/define_ops.h"
#include "sdk/version.h"

namespace bp::c_api {
namespace {

const char* version_string() {
  static const std::string* text =
      new std::string(bp::version_string() + " (C ABI " + std::to_string(BP_API_MAJOR) + "." +
                      std::to_string(BP_API_MINOR) + ")");
  return text->c_str();
}

bp_api build_table() {
  bp_api api{};
  api.struct_size = sizeof(bp_api);
  api.major_version = BP_API_MAJOR;
  api.minor_version = BP_API_MINOR;
  api.version_string = &version_string;
  install_error_functions(api);
  install_tensor_functions(api);
  install_op_functions(api);
  install_op_define_functions(api);
  install_backend_functions(api);
  install_kernel_functions(api);
  install_iter_functions(api);
  install_cache_functions(api);
  install_plugin_functions(api);
  install_diagnostic_functions(api);
  install_stream_functions(api);
  install_wrapper_functions(api);
  install_lazy_functions(api);
  return api;
}

}  // namespace
}  // namespace bp::c_api

extern "C" const bp_api* bp_get_api(void) {
  static const bp_api* const api = [] {
    bp::define_ops();
    static const bp_api table = bp::c_api::build_table();
    bp::c_api::set_host_api(&table);
    return &table;
  }();
  static std::once_flag plugins_loaded;
  std::call_once(plugins_loaded, &bp::c_api::load_plugins_from_environment);
  return api;
}
