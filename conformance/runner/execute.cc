#include "conformance/runner/execute.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "conformance/runner/allocation_guards.h"
#include "conformance/runner/compare.h"
#include "conformance/runner/stack.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/cpu_fallback.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);

// The result of one boxed call.
struct CallResult {
  bool raised = false;
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  // The results in order, each element of a `Tensor[]` result as an output of its own (so each
  // is checked as any tensor output). A result of another type (result_type's ScalarType) is an
  // undefined tensor here and its value in `plain`, at the same index (None for tensors).
  std::vector<Tensor> outputs;
  std::vector<Value> plain;
  std::string problem;  // a non-Backplane exception, or results of a type the suite cannot check
};

std::string joined(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& t : texts) out += (out.empty() ? "" : ", ") + t;
  return out;
}

std::string printed(const Value& v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// The results of an op that returns nothing (`-> ()`, PyTorch's out= ops writing a `Tensor(a!)[]
// out`): its written arguments, which hold the same tensors after the call. Empty for other ops.
Stack written_arguments(const FunctionSchema& schema, const Stack& stack) {
  Stack written;
  if (!schema.returns.empty() || stack.size() < schema.arguments.size()) return written;
  const size_t base = stack.size() - schema.arguments.size();
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    if (a.alias && a.alias->is_write) written.push_back(stack[base + i]);
  }
  return written;
}

CallResult call(const OperatorHandle& op, Stack& stack) {
  CallResult r;
  const Stack written = written_arguments(op.schema(), stack);
  try {
    WarningCapture quiet;  // out= resize warnings and the like are PyTorch's, not failures
    op.call_boxed(&stack);
  } catch (const Error& e) {
    r.raised = true;
    r.code = e.code();
    r.message = e.message();
    return r;
  } catch (const std::exception& e) {
    r.problem = std::string("threw a non-Backplane exception: ") + e.what();
    return r;
  } catch (...) {
    r.problem = "threw something that is not an exception";
    return r;
  }
  for (const Value& v : op.schema().returns.empty() ? written : stack) {
    switch (v.tag()) {
      case Value::Tag::kTensor:
        r.outputs.push_back(v.ref<Tensor>());
        r.plain.emplace_back();
        break;
      case Value::Tag::kTensorList:
        for (const Tensor& t : v.ref<std::vector<Tensor>>()) {
          r.outputs.push_back(t);
          r.plain.emplace_back();
        }
        break;
      // The values of plain_result_checked's types.
      case Value::Tag::kBool:
      case Value::Tag::kInt:
      case Value::Tag::kDouble:
      case Value::Tag::kScalarType:
        r.outputs.emplace_back();
        r.plain.push_back(v);
        break;
      default:
        r.problem = "returned a value of type " + std::string(Value::tag_name(v.tag())) +
                    ", which the suite does not check";
        return r;
    }
  }
  return r;
}

std::string sizes_of(const Tensor& t) { return int_list_string(t.sizes()); }
std::string strides_of(const Tensor& t) { return int_list_string(t.strides()); }
Sizes vec(IntArrayRef r) { return Sizes(r.begin(), r.end()); }

// Strides as PyTorch defines them: dims of size 1 may have any stride, and so may every dim of a
// tensor without elements.
bool same_strides(const Tensor& t, const Sizes& expected) {
  if (t.numel() == 0) return true;
  if (static_cast<size_t>(t.dim()) != expected.size()) return false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] != 1 && t.strides()[d] != expected[d]) return false;
  }
  return true;
}

// The tensor a case gives as argument `name`, or element i of a list argument as "name[i]".
const Tensor* original(const Case& c, const std::string& name) {
  for (const SampleArg& a : c.args) {
    if (a.name == name) {
      if (const auto* t = std::get_if<TensorArg>(&a.value)) return &t->host;
    }
    if (const auto* list = std::get_if<TensorListArg>(&a.value)) {
      for (size_t i = 0; i < list->host.size(); ++i) {
        if (list_element_name(a.name, i) == name) return &list->host[i];
      }
    }
  }
  return nullptr;
}

void check_outputs(const Case& c, const CallResult& r, const PreparedCall& prepared, Device device,
                   CaseOutcome& o) {
  const Expectation& e = c.expect;
  if (r.outputs.size() != e.outputs.size()) {
    o.fail("returned " + std::to_string(r.outputs.size()) + " values, expected " +
           std::to_string(e.outputs.size()));
    return;
  }
  for (size_t i = 0; i < e.outputs.size(); ++i) {
    const ExpectedOutput& want = e.outputs[i];
    const Tensor& got = r.outputs[i];
    const std::string which = e.outputs.size() > 1 ? "output " + std::to_string(i) + ": " : "";
    if (want.plain || !r.plain[i].is_none()) {
      const std::string value = printed(r.plain[i]);
      if (!want.plain) {
        o.fail(which + "returned " + value + ", expected a tensor");
      } else if (r.plain[i].is_none()) {
        o.fail(which + "returned a tensor, expected " + printed(*want.plain));
      } else if (r.plain[i].tag() != want.plain->tag() || value != printed(*want.plain)) {
        o.fail(which + "returned " + value + ", expected " + printed(*want.plain));
      }
      o.actual_plain.push_back(value);
      continue;
    }
    if (!got.defined()) {
      o.fail(which + "returned an undefined tensor");
      continue;
    }
    const std::string& must_be = i < e.returns_args.size() ? e.returns_args[i] : std::string();
    if (!must_be.empty()) {
      auto it = prepared.tensors.find(must_be);
      if (it != prepared.tensors.end() && !got.is_same(it->second)) {
        o.fail(which + "returned a new tensor instead of its argument '" + must_be + "'");
      }
    }
    if (must_be.empty() && got.device().type != device.type) {
      o.fail(which + "is on device " + std::string(device_type_name(got.device().type)) +
             ", expected " + std::string(device_type_name(device.type)));
    }
    const Tensor host = copy_to_device(got, kCpu);
    RefTensor value = read_tensor(host);
    if (want.values_unspecified) {
      if (value.dtype != want.value.dtype || value.sizes != want.value.sizes) {
        RefTensor shape_only = want.value;
        shape_only.values.clear();
        value.values.clear();
        o.fail(which + compare_values(value, shape_only, Tolerance{}));
      }
    } else {
      const Tolerance tol = i < e.tolerances.size() ? e.tolerances[i] : Tolerance{};
      if (std::string why = compare_values(value, want.value, tol); !why.empty()) {
        o.fail(which + why);
      }
    }
    if (want.storage && value.dtype == want.value.dtype) {
      // The whole buffer, elements outside the view included.
      const RefTensor storage = storage_elements(host);
      const Tolerance tol = i < e.tolerances.size() ? e.tolerances[i] : Tolerance{};
      if (storage.values.size() != want.storage->size()) {
        o.fail(which + "its storage holds " + std::to_string(storage.values.size()) +
               " elements, expected " + std::to_string(want.storage->size()));
      } else if (std::string why = compare_values(
                     storage, RefTensor{want.value.dtype, storage.sizes, *want.storage}, tol);
                 !why.empty()) {
        o.fail(which + "storage: " + why);
      }
    }
    if (want.strides && !same_strides(got, *want.strides)) {
      o.fail(which + "strides " + strides_of(got) + ", expected " + sizes_string(*want.strides));
    }
    if (want.storage_offset && got.storage_offset() != *want.storage_offset) {
      o.fail(which + "storage offset " + std::to_string(got.storage_offset()) + ", expected " +
             std::to_string(*want.storage_offset));
    }
    if (!want.aliases.empty()) {
      auto it = prepared.tensors.find(want.aliases);
      if (it != prepared.tensors.end() && !got.is_alias_of(it->second)) {
        o.fail(which + "is not a view of '" + want.aliases + "' (it has storage of its own)");
      }
    } else if (!want.may_alias && must_be.empty()) {
      for (const auto& [name, arg] : prepared.tensors) {
        if (got.is_alias_of(arg) && arg.storage().nbytes() > 0) {
          o.fail(which + "shares storage with argument '" + name + "'; expected a new tensor");
        }
      }
    }
    o.actual.push_back(std::move(value));
    o.actual_strides.push_back(vec(got.strides()));
  }
}

void check_storage(const Case& c, const PreparedCall& prepared, CaseOutcome& o) {
  for (const std::string& name : c.expect.unmodified) {
    const Tensor* before = original(c, name);
    auto it = prepared.tensors.find(name);
    if (before == nullptr || it == prepared.tensors.end()) continue;
    const std::string why =
        compare_bytes(storage_bytes(*before), storage_bytes(copy_to_device(it->second, kCpu)));
    if (!why.empty()) o.fail("modified its input '" + name + "': " + why);
  }
  for (const std::string& name : c.expect.written) {
    const Tensor* before = original(c, name);
    auto it = prepared.tensors.find(name);
    if (before == nullptr || it == prepared.tensors.end()) continue;
    const Tensor after = copy_to_device(it->second, kCpu);
    const std::string why = compare_outside(after, storage_bytes(*before), storage_bytes(after));
    if (!why.empty()) o.fail("'" + name + "' " + why);
  }
}

// The same call on Meta: sizes, strides and dtype must match the real outputs.
void check_meta(const Case& c, const OperatorHandle& op, const CallResult& real, CaseOutcome& o) {
  PreparedCall meta = prepare_call(op.schema(), c.args, kMeta);
  CallResult r = call(op, meta.stack);
  if (r.raised || !r.problem.empty()) {
    o.fail("[meta] raised: " + (r.raised ? r.message : r.problem));
    return;
  }
  if (r.outputs.size() != real.outputs.size()) {
    o.fail("[meta] returned " + std::to_string(r.outputs.size()) + " values");
    return;
  }
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    if (!r.plain[i].is_none() && printed(r.plain[i]) != printed(real.plain[i])) {
      o.fail("[meta] returned " + printed(r.plain[i]) + ", but the backend gave " +
             printed(real.plain[i]));
    }
    const Tensor& m = r.outputs[i];
    const Tensor& t = real.outputs[i];
    if (!m.defined() || !t.defined()) continue;
    if (m.dtype() != t.dtype() || m.sizes() != t.sizes() ||
        (t.numel() > 1 && m.strides() != t.strides())) {
      o.fail("[meta] " + std::string(scalar_type_name(m.dtype())) + sizes_of(m) + " strides " +
             strides_of(m) + ", but the backend gave " + std::string(scalar_type_name(t.dtype())) +
             sizes_of(t) + " strides " + strides_of(t));
    }
  }
}

void compare_with(const Case& c, const Backend& other, CaseOutcome& o) {
  Case plain = c;
  plain.expect.check_meta = false;
  const CaseOutcome ref = execute(plain, other);
  if (!ref.raised.empty() || o.actual.size() != ref.actual.size()) {
    if (ref.raised != o.raised) {
      o.fail("[vs " + other.name() + "] the " + other.name() + " backend " +
             (ref.raised.empty() ? "succeeded" : "raised '" + ref.raised + "'"));
    }
    return;
  }
  if (o.actual_plain != ref.actual_plain) {
    o.fail("[vs " + other.name() + "] returned " + joined(o.actual_plain) + ", the " +
           other.name() + " backend " + joined(ref.actual_plain));
  }
  for (size_t i = 0; i < ref.actual.size(); ++i) {
    const Tolerance tol = i < c.expect.tolerances.size() ? c.expect.tolerances[i] : Tolerance{};
    const bool unspecified = i < c.expect.outputs.size() && c.expect.outputs[i].values_unspecified;
    if (!unspecified) {
      if (std::string why = compare_values(o.actual[i], ref.actual[i], tol); !why.empty()) {
        o.fail("[vs " + other.name() + "] " + why);
      }
    }
    if (o.actual[i].numel() > 1 && o.actual_strides[i] != ref.actual_strides[i]) {
      o.fail("[vs " + other.name() + "] strides " + sizes_string(o.actual_strides[i]) + ", the " +
             other.name() + " backend gave " + sizes_string(ref.actual_strides[i]));
    }
  }
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kUnsupported:
      return "unsupported";
  }
  return "?";
}

void CaseOutcome::fail(std::string why) {
  verdict = Verdict::kFail;
  failures.push_back(std::move(why));
}

namespace {

// execute() inside the guards' scope: every tensor of the case is freed before it returns.
CaseOutcome execute_guarded(const Case& c, const Backend& backend, const ExecuteOptions& options,
                            AllocationGuards& guards) {
  CaseOutcome o;
  std::optional<OperatorHandle> op = Dispatcher::singleton().find_op(c.op);
  if (!op) {
    o.fail("op '" + c.op + "' is not declared");
    return o;
  }
  PreparedCall prepared;
  try {
    prepared = prepare_call(op->schema(), c.args, backend.device());
  } catch (const std::exception& e) {
    o.fail(std::string("bad case: ") + e.what());
    return o;
  }
  for (std::string& p : backend.take_handle_problems()) o.fail("[handles] before the call: " + p);
  const Transfers before = backend.transfers();
  const HandleCounts handles_before = backend.handles();
  const int64_t fallback_before = cpu_fallback_calls();
  const CallResult r = call(*op, prepared.stack);
  o.fallback_calls = cpu_fallback_calls() - fallback_before;
  const Transfers after = backend.transfers();
  o.transfers = Transfers{after.to_device - before.to_device, after.to_host - before.to_host};
  o.handles = backend.handles() - handles_before;
  for (std::string& p : backend.take_handle_problems()) o.fail("[handles] " + p);
  for (std::string& p : guards.check()) o.fail("[guards] " + p);
  if (!r.problem.empty()) {
    o.fail(r.problem);
    return o;
  }
  const Expectation& e = c.expect;
  if (r.raised) {
    o.raised = r.message;
    if (e.error && r.message.find(*e.error) != std::string::npos) return o;
    if (r.code == ErrorCode::kNotImplemented) {
      // Unsupported, unless a guard or the handle ledger already failed the case.
      if (o.verdict != Verdict::kFail) o.verdict = Verdict::kUnsupported;
      o.failures.push_back("unsupported: " + r.message);
      return o;
    }
    // The code says which kind of error the kernel returned (a C kernel's bp_error code).
    const std::string code = " (" + std::string(error_code_name(r.code)) + ", error code " +
                             std::to_string(static_cast<int>(r.code)) + ")";
    o.fail(e.error ? "raised '" + r.message + "'" + code + ", expected an error containing '" +
                         *e.error + "'"
                   : "raised '" + r.message + "'" + code);
    return o;
  }
  if (e.error) {
    o.fail("succeeded, expected an error containing '" + *e.error + "'");
  } else {
    check_outputs(c, r, prepared, backend.device(), o);
  }
  check_storage(c, prepared, o);
  if (e.check_meta && !e.error) check_meta(c, *op, r, o);
  if (options.compare_with != nullptr && !e.error) compare_with(c, *options.compare_with, o);
  return o;
}

}  // namespace

CaseOutcome execute(const Case& c, const Backend& backend, const ExecuteOptions& options) {
  const Transfers before = backend.transfers();
  AllocationGuards guards(backend.device(), c.op);
  CaseOutcome o = execute_guarded(c, backend, options, guards);
  for (std::string& p : guards.finish()) o.fail("[guards] " + p);
  // The suite's own staging: everything the counters saw during the case but the op's call
  // (guard bytes go through uncounted copy functions).
  const Transfers after = backend.transfers();
  o.staging = Transfers{after.to_device - before.to_device - o.transfers.to_device,
                        after.to_host - before.to_host - o.transfers.to_host};
  return o;
}

}  // namespace bp::conformance
