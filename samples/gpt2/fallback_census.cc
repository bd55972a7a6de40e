#include "samples/gpt2/fallback_census.h"

#include <stdexcept>
#include <vector>

#include "backplane/backplane.h"
#include "sdk/dispatch/cpu_fallback.h"

namespace gpt2 {
namespace {

// Fallback calls of the ops each running call of this thread called (one entry per call the
// census is inside of, innermost last).
thread_local std::vector<int64_t> nested_fallback_calls;

void check(const bp_api* api, bp_error* error, const char* what) {
  if (error == nullptr) return;
  const std::string message = std::string(what) + ": " + api->error_message(error);
  api->error_destroy(error);
  throw std::runtime_error(message);
}

// The wrapper key's kernel for every op: passes the call on and counts.
bp_error* count_call(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                     bp_value* results, size_t nresults) {
  const bp_api* api = bp_get_api();
  const int64_t before = bp::cpu_fallback_calls();
  nested_fallback_calls.push_back(0);
  size_t written = 0;
  bp_error* error = api->kernel_redispatch(args, args, nargs, results, nresults, &written);
  const int64_t during = bp::cpu_fallback_calls() - before;
  const int64_t nested = nested_fallback_calls.back();
  nested_fallback_calls.pop_back();
  if (!nested_fallback_calls.empty()) nested_fallback_calls.back() += during;
  const char* name = "?";
  api->error_destroy(api->op_name(op, &name));
  OpCalls& counts = (*static_cast<std::map<std::string, OpCalls>*>(user_data))[name];
  ++counts.calls;
  counts.fallback_calls += during - nested;
  return error;
}

}  // namespace

FallbackCensus::FallbackCensus() : fallback_calls_at_start_(bp::cpu_fallback_calls()) {
  const bp_api* api = bp_get_api();
  check(api, api->wrapper_key_register("gpt2_fallback_census", &key_), "fallback census");
  bp_registration* every_op = nullptr;  // undone with the key
  try {
    check(api, api->wrapper_kernel_register(key_, nullptr, &count_call, &by_op_, &every_op),
          "fallback census");
    check(api, api->wrapper_key_set_enabled(key_, BP_WRAPPER_SCOPE_THREAD, true),
          "fallback census");
  } catch (...) {
    api->error_destroy(api->wrapper_key_unregister(key_));
    throw;
  }
}

FallbackCensus::~FallbackCensus() {
  const bp_api* api = bp_get_api();
  api->error_destroy(api->wrapper_key_set_enabled(key_, BP_WRAPPER_SCOPE_THREAD, false));
  api->error_destroy(api->wrapper_key_unregister(key_));
}

int64_t FallbackCensus::fallback_calls() const {
  return bp::cpu_fallback_calls() - fallback_calls_at_start_;
}

}  // namespace gpt2
