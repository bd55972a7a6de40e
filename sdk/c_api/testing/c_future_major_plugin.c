/* A plugin built against a future major version of the C ABI: it sees a table of another
 * major, so it only reports its version (as bp_plugin_begin would) and returns; the host must
 * refuse it with both versions in the error and the load record. */
#include "backplane/plugin.h"

BP_PLUGIN_EXPORT bp_error* bp_plugin_init(const bp_api* api, bp_plugin_desc* desc) {
  desc->name = "future";
  desc->api_major = BP_API_MAJOR + 1;
  desc->api_minor = 0;
  (void)api;
  return NULL;
}
