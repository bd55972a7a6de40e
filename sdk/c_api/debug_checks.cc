#include "sdk/c_api/debug_checks.h"

#include <optional>
#include <vector>

#include "sdk/c_api/install.h"
#include "sdk/c_api/meta_values.h"
#include "sdk/core/error.h"

namespace bp::c_api {
namespace {

[[noreturn]] void report(const bp_op& op, const std::string& label, const std::string& what) {
  detail::throw_error(ErrorCode::kInternal,
                      detail::str_cat("[", label, "] ", op.label, ": debug check: ", what));
}

// The argument whose alias set `set` is written, or null.
const Value* written_argument(const bp_op& op, const Stack& args, const std::string& set) {
  const auto& params = op.handle.schema().arguments;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    if (params[i].alias && params[i].alias->is_write && params[i].alias->set == set) {
      return &args[i];
    }
  }
  return nullptr;
}

// `what` names the tensor in messages: "result 0", "result 0[2]" (an element of a list result).
void check_tensor(const bp_op& op, const std::string& label, const std::string& what,
                  const Tensor& got, const Tensor& want) {
  if (!want.defined()) return;
  if (!got.defined()) report(op, label, detail::str_cat(what, " is undefined"));
  if (got.dtype() != want.dtype()) {
    report(op, label,
           detail::str_cat(what, " has dtype ", got.dtype(), " but the op's meta function gives ",
                           want.dtype()));
  }
  if (got.sizes() != want.sizes()) {
    report(op, label,
           detail::str_cat(what, " has sizes ", int_list_string(got.sizes()),
                           " but the op's meta function gives ", int_list_string(want.sizes())));
  }
  if (got.strides() != want.strides()) {
    report(op, label,
           detail::str_cat(what, " has strides ", int_list_string(got.strides()),
                           " but the op's meta function gives ", int_list_string(want.strides())));
  }
}

// The tensors of a Tensor[] or Tensor?[] value (None entries as undefined tensors); nullopt for
// any other value.
std::optional<std::vector<Tensor>> tensor_list_of(const Value& v) {
  if (v.tag() == Value::Tag::kTensorList) return v.ref<std::vector<Tensor>>();
  if (v.tag() != Value::Tag::kOptionalTensorList) return std::nullopt;
  std::vector<Tensor> tensors;
  for (const std::optional<Tensor>& t : v.ref<std::vector<std::optional<Tensor>>>()) {
    tensors.push_back(t ? *t : Tensor());
  }
  return tensors;
}

// A list result: its length, then each tensor as check_tensor does.
void check_tensor_list(const bp_op& op, const std::string& label, size_t index,
                       const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  if (got.size() != want.size()) {
    report(op, label,
           detail::str_cat("result ", index, " has ", got.size(),
                           " tensors but the op's meta function gives ", want.size()));
  }
  for (size_t j = 0; j < got.size(); ++j) {
    check_tensor(op, label, detail::str_cat("result ", index, "[", j, "]"), got[j], want[j]);
  }
}

}  // namespace

MetaExpectation expect_results(const bp_op& op, absl::Span<const Value> args) {
  MetaExpectation expected;
  expected.args.assign(args.begin(), args.end());
  MetaConverter meta;
  expected.results = meta.convert(args, op.handle.schema(), /*devices_to_meta=*/true);
  try {
    op.handle.redispatch_boxed(DispatchKeySet(DispatchKey::kMeta), &expected.results);
  } catch (const Error& e) {
    expected.results.clear();
    if (e.code() == ErrorCode::kNotImplemented &&
        e.message().find("Could not run") != std::string::npos) {
      expected.has_meta_kernel = false;
    } else {
      expected.meta_error = e.message();
    }
  }
  return expected;
}

void check_results(const MetaExpectation& expected, const bp_op& op, const std::string& label,
                   absl::Span<const Value> results) {
  if (!expected.has_meta_kernel) return;
  if (!expected.meta_error.empty()) {
    report(op, label,
           detail::str_cat("the kernel accepted arguments that the op's meta function rejects (",
                           expected.meta_error, ")"));
  }
  const auto& returns = op.handle.schema().returns;
  if (results.size() != expected.results.size()) {
    report(op, label,
           detail::str_cat("the kernel returned ", results.size(),
                           " results but the op's meta function gives ", expected.results.size()));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].is_tensor() || !expected.results[i].is_tensor()) {
      const auto got = tensor_list_of(results[i]);
      const auto want = tensor_list_of(expected.results[i]);
      if (got && want) check_tensor_list(op, label, i, *got, *want);
      continue;  // other values (numbers, None) are not checked
    }
    const Tensor& got = results[i].ref<Tensor>();
    if (i < returns.size() && returns[i].alias && returns[i].alias->is_write) {
      const Value* arg = written_argument(op, expected.args, returns[i].alias->set);
      if (arg != nullptr && arg->is_tensor() && !got.is_same(arg->ref<Tensor>())) {
        report(op, label,
               detail::str_cat("result ", i, " must be the argument it writes (alias set '",
                               returns[i].alias->set,
                               "': out= and in-place ops return that tensor itself), but the "
                               "kernel returned another tensor"));
      }
    }
    check_tensor(op, label, detail::str_cat("result ", i), got, expected.results[i].ref<Tensor>());
  }
}

}  // namespace bp::c_api
