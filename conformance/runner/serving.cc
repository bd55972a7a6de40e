#include "conformance/runner/serving.h"

#include <sstream>

#include "sdk/dispatch/dispatcher.h"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

// The dispatcher's one-line reason for `key` ("kernel [name]", "backend fallback [name]",
// "CompositeExplicit kernel [name]", "missing"): dump_dispatch_table prints one line per key as
// "<Key>[ ('backend')]: <reason>".
std::string reason_for(const OperatorHandle& op, DispatchKey key) {
  std::istringstream lines(Dispatcher::singleton().dump_dispatch_table(op));
  const std::string name(dispatch_key_name(key));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name, 0) != 0) continue;
    const char next = line.size() > name.size() ? line[name.size()] : '\0';
    if (next != ':' && next != ' ') continue;  // "Plugin1" must not match "Plugin10"
    const size_t colon = line.find(": ");
    std::string reason = colon == std::string::npos ? line : line.substr(colon + 2);
    // The serving path is reported separately (Serving::via_common): keep the reason alone.
    const std::string_view via = " (after Common's generated variant)";
    if (reason.ends_with(via)) reason.resize(reason.size() - via.size());
    return reason;
  }
  return "missing";
}

}  // namespace

Serving serving_of(std::string_view op_name, DispatchKey key) {
  Serving s;
  std::optional<OperatorHandle> op = Dispatcher::singleton().find_op(op_name);
  if (!op) {
    s.path = "not declared";
    s.missing = true;
    return s;
  }
  // Tensors of plugin devices (and CUDA) carry the Common key; CPU and Meta tensors do not.
  const bool carries_common = is_plugin_key(key) || key == DispatchKey::kCUDA;
  if (carries_common && op->has_own_kernel(DispatchKey::kCommon) && !op->has_own_kernel(key)) {
    const OpInfo* info = find_op_info(op_name);
    const std::string out = info != nullptr ? std::string(info->structured_group) : "";
    std::optional<OperatorHandle> out_op =
        out.empty() ? std::nullopt : Dispatcher::singleton().find_op(out);
    if (out_op) {
      s.path = "Common -> " + out + ": " + reason_for(*out_op, key);
      s.via_common = true;
      s.via_fallback = s.path.find("backend fallback") != std::string::npos;
      s.missing = s.path.find("missing") != std::string::npos;
      return s;
    }
  }
  s.path = reason_for(*op, key);
  s.via_fallback = s.path.find("backend fallback") != std::string::npos;
  s.missing = s.path == "missing";
  return s;
}

}  // namespace bp::conformance
