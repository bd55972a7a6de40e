// api->lazy_scope_begin / lazy_scope_end / lazy_materialize: fusion::LazyScope through the C ABI.
#include <memory>
#include <vector>

#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/fusion/lazy.h"

struct bp_lazy_scope {
  bp::fusion::LazyScope scope;
};

namespace bp::c_api {
namespace {

// This thread's open scopes, innermost last (a scope must end on its thread, innermost first).
std::vector<bp_lazy_scope*>& open_scopes() {
  thread_local std::vector<bp_lazy_scope*> scopes;
  return scopes;
}

bp_error* lazy_scope_begin(bp_lazy_scope** out) {
  return guarded([&] {
    require(out, "lazy_scope_begin", "out");
    auto scope = std::make_unique<bp_lazy_scope>();
    open_scopes().push_back(scope.get());
    *out = scope.release();
  });
}

bp_error* lazy_scope_end(bp_lazy_scope* scope) {
  return guarded([&] {
    require(scope, "lazy_scope_end", "scope");
    std::vector<bp_lazy_scope*>& open = open_scopes();
    BP_CHECK(!open.empty() && open.back() == scope,
             "bp_api.lazy_scope_end: the scope is not the innermost lazy scope of this thread "
             "(scopes end on the thread that began them, innermost first)");
    open.pop_back();
    std::unique_ptr<bp_lazy_scope> owned(scope);
    // The outermost scope runs the recording; run it here so that an error reaches the caller
    // (the scope's destructor could only warn).
    if (open.empty()) owned->scope.materialize();
  });
}

bp_error* lazy_materialize() {
  return guarded([] { fusion::materialize(); });
}

}  // namespace

void install_lazy_functions(bp_api& api) {
  api.lazy_scope_begin = &lazy_scope_begin;
  api.lazy_scope_end = &lazy_scope_end;
  api.lazy_materialize = &lazy_materialize;
}

}  // namespace bp::c_api
