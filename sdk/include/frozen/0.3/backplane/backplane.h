/* Backplane C ABI: the umbrella header. Client programs link libbackplane and call
 * bp_get_api(); plugins include only these headers and receive the same table in
 * bp_plugin_init (plugin.h).
 *
 *   #include "backplane/backplane.h"
 *   const bp_api* bp = bp_get_api();
 *
 * The ABI reference is docs/abi.md; the C++ wrapper is backplane.hpp.
 */
#ifndef BACKPLANE_BACKPLANE_H_
#define BACKPLANE_BACKPLANE_H_

#include "backplane/api.h"
#include "backplane/backend.h"
#include "backplane/iter.h"
#include "backplane/plugin.h"
#include "backplane/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define BP_API_IMPORT __declspec(dllimport)
#else
#define BP_API_IMPORT __attribute__((visibility("default")))
#endif

/* The host's function table: static, valid for the life of the process; the only symbol
 * libbackplane exports. The first call also loads the plugins listed in $BP_PLUGINS. Thread-safe.
 */
BP_API_IMPORT const bp_api* bp_get_api(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_BACKPLANE_H_ */
