#include "python/cc/op_bindings.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/cc/values.h"
#include "sdk/c_api/backends.h"
#include "sdk/c_api/values.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::python {
namespace {

constexpr PyOpRow kRows[] = {
#include "python/op_bindings.inc"
};

// One op as Python calls it: its schema's arguments with their defaults converted once.
struct Overload {
  OperatorHandle op;
  std::vector<c_api::ArgSpec> args;
  std::vector<size_t> positional;  // indices of the arguments Python may pass by position
  std::vector<size_t> outs;        // indices of the out= arguments (out= overloads only)
  bool returns_self = false;       // in-place: returns `self` (Tensor(a!) self -> Tensor(a!))

  Overload(OperatorHandle handle, bool is_out) : op(std::move(handle)) {
    const FunctionSchema& schema = op.schema();
    for (size_t i = 0; i < schema.arguments.size(); ++i) {
      const Argument& a = schema.arguments[i];
      args.push_back(c_api::make_arg_spec(a));
      const bool written = a.alias && a.alias->is_write;
      if (is_out && a.kwarg_only && written) {
        outs.push_back(i);
      } else if (!a.kwarg_only) {
        positional.push_back(i);
      }
    }
    returns_self = !schema.arguments.empty() && schema.arguments[0].name == "self" &&
                   schema.arguments[0].alias && schema.arguments[0].alias->is_write &&
                   schema.returns.size() == 1 && !outs.size();
  }

  // PyTorch's spelling of the signature: "(Tensor input, Number other, *, Tensor out)".
  std::string signature(bool method) const {
    std::string text = "(";
    bool first = true, kw = false;
    for (size_t i = 0; i < args.size(); ++i) {
      if (method && i == 0 && args[i].name == "self") continue;
      const bool kwarg_only = op.schema().arguments[i].kwarg_only;
      if (!first) text += ", ";
      if (kwarg_only && !kw) {
        text += "*, ";
        kw = true;
      }
      first = false;
      const bool is_out = std::find(outs.begin(), outs.end(), i) != outs.end();
      text += schema_type_name(args[i].type) + " " +
              (is_out                   ? std::string("out")
               : args[i].name == "self" ? "input"
                                        : args[i].name);
      if (args[i].type.optional && !is_out) text += "=None";
    }
    return text + ")";
  }
};

// Why the arguments did not fit one overload (for the single-overload message).
struct Mismatch {
  std::string message;
  std::string argument;  // the argument whose value did not fit, or "" (arity, keywords)
};

// Fills `stack` with the op's arguments from Python, or returns why they do not fit.
std::optional<Mismatch> bind(const Overload& o, const std::string& name, py::handle self,
                             const py::args& args, const py::kwargs& kwargs, Stack& stack) {
  const size_t n = o.args.size();
  std::vector<py::handle> given(n);
  size_t next = 0;
  std::vector<size_t> positional = o.positional;
  if (self) {
    // A method binds the argument named self, wherever it is (where.self's is the second).
    auto it = std::find_if(positional.begin(), positional.end(),
                           [&](size_t i) { return o.args[i].name == "self"; });
    if (it == positional.end()) return Mismatch{name + "() has no argument 'self'"};
    given[*it] = self;
    positional.erase(it);
  }
  // `zeros(2, 3)`, `x.view(2, 3)`: an int[] first argument may be given as varargs.
  const bool varargs =
      args.size() > 1 && !positional.empty() && o.args[positional[0]].type.is_list &&
      o.args[positional[0]].type.kind == TypeKind::kInt &&
      std::all_of(args.begin(), args.end(),
                  [](py::handle a) { return PyLong_Check(a.ptr()) && !PyBool_Check(a.ptr()); });
  py::tuple packed;
  if (varargs) {
    packed = py::reinterpret_borrow<py::tuple>(args);
    given[positional[0]] = packed;
  } else {
    if (args.size() > positional.size()) {
      return Mismatch{name + "() takes " + std::to_string(positional.size()) +
                      " positional argument" + (positional.size() == 1 ? "" : "s") + " but " +
                      std::to_string(args.size()) + " were given"};
    }
    for (py::handle a : args) given[positional[next++]] = a;
  }
  for (auto [key_obj, value] : kwargs) {
    const std::string key = py::str(key_obj);
    if (key == "out") {
      if (o.outs.empty()) {
        if (value.is_none()) continue;
        return Mismatch{name + "() got an unexpected keyword argument 'out'"};
      }
      if (o.outs.size() == 1) {
        given[o.outs[0]] = value;
      } else {
        if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr())) {
          return Mismatch{"argument 'out' must be tuple of Tensors, not " +
                          python_type_name(value)};
        }
        py::sequence outs = py::reinterpret_borrow<py::sequence>(value);
        if (outs.size() != o.outs.size()) {
          return Mismatch{"expected " + std::to_string(o.outs.size()) + " out tensors, got " +
                          std::to_string(outs.size())};
        }
        for (size_t i = 0; i < o.outs.size(); ++i) given[o.outs[i]] = outs[i];
      }
      continue;
    }
    const std::string& arg_name = (key == "input" && !self) ? std::string("self") : key;
    size_t index = n;
    for (size_t i = 0; i < n; ++i) {
      if (o.args[i].name == arg_name &&
          std::find(o.outs.begin(), o.outs.end(), i) == o.outs.end()) {
        index = i;
      }
    }
    if (index == n || (self && o.args[index].name == "self")) {
      return Mismatch{name + "() got an unexpected keyword argument '" + key + "'"};
    }
    if (given[index]) {
      return Mismatch{name + "() got multiple values for argument '" + key + "'"};
    }
    given[index] = value;
  }
  stack.clear();
  for (size_t i = 0; i < n; ++i) {
    const c_api::ArgSpec& spec = o.args[i];
    const std::string shown = spec.name == "self" ? "input" : spec.name;
    if (!given[i]) {
      if (!spec.default_value) {
        if (std::find(o.outs.begin(), o.outs.end(), i) != o.outs.end()) {
          return Mismatch{name + "() missing required argument 'out'"};
        }
        return Mismatch{name + "() missing required argument '" + shown + "' (pos " +
                        std::to_string(i + 1) + ")"};
      }
      stack.push_back(*spec.default_value);
      continue;
    }
    std::optional<Value> v = to_value(given[i], spec.type);
    if (!v) {
      const bool is_out = std::find(o.outs.begin(), o.outs.end(), i) != o.outs.end();
      const bool by_position =
          !is_out && !spec.type.optional && !o.op.schema().arguments[i].kwarg_only;
      std::string where = is_out ? "'out'" : "'" + shown + "'";
      if (by_position) where += " (position " + std::to_string(i + 1) + ")";
      return Mismatch{name + "(): argument " + where + " must be " + schema_type_name(spec.type) +
                          ", not " + python_type_name(given[i]),
                      spec.name};
    }
    stack.push_back(std::move(*v));
  }
  return std::nullopt;
}

// One Python name: its overloads, and its out= overloads.
struct OpGroup {
  std::string name;
  bool method = false;
  std::vector<Overload> overloads;
  std::vector<Overload> outs;

  py::object call(py::handle self, const py::args& args, const py::kwargs& kwargs) const {
    const bool out_given = kwargs.contains("out") && !kwargs["out"].is_none();
    const std::vector<Overload>& candidates = out_given ? outs : overloads;
    Stack stack;
    std::vector<Mismatch> reasons;
    for (const Overload& o : candidates) {
      std::optional<Mismatch> why = bind(o, name, self, args, kwargs, stack);
      if (!why) return run(o, self, kwargs, stack);
      reasons.push_back(std::move(*why));
    }
    throw py::type_error(no_match_message(candidates, reasons, self, args, kwargs));
  }

  py::object run(const Overload& o, py::handle self, const py::kwargs& kwargs, Stack& stack) const {
    {
      c_api::CurrentDeviceGuard device(c_api::device_of_arguments(stack));
      o.op.call_boxed(&stack);
    }
    // In-place and out= ops return the tensor they wrote: hand back the same Python object.
    if (o.returns_self && self) return py::reinterpret_borrow<py::object>(self);
    if (!o.outs.empty()) return kwargs["out"];
    if (stack.size() == 1) return to_python(std::move(stack[0]));
    py::tuple results(stack.size());
    for (size_t i = 0; i < stack.size(); ++i) results[i] = to_python(std::move(stack[i]));
    return std::move(results);
  }

  std::string no_match_message(const std::vector<Overload>& candidates,
                               const std::vector<Mismatch>& reasons, py::handle self,
                               const py::args& args, const py::kwargs& kwargs) const {
    // One overload, or every overload refusing the same argument (add(t, "x"): neither
    // Tensor nor Number): PyTorch's message about that argument, from the first overload.
    const bool same_argument = !reasons.empty() && !reasons[0].argument.empty() &&
                               std::all_of(reasons.begin(), reasons.end(), [&](const Mismatch& m) {
                                 return m.argument == reasons[0].argument;
                               });
    if (candidates.size() == 1 || same_argument) return reasons[0].message;
    if (candidates.empty()) return name + "() got an unexpected keyword argument 'out'";
    std::string got;
    auto add = [&](const std::string& s) { got += (got.empty() ? "" : ", ") + s; };
    if (self) add("Tensor");
    for (py::handle a : args) add(python_type_name(a));
    for (auto [k, v] : kwargs) add(std::string(py::str(k)) + "=" + python_type_name(v));
    std::string text = name + "() received an invalid combination of arguments - got (" + got +
                       "), but expected one of:\n";
    for (const Overload& o : candidates) text += " * " + o.signature(method) + "\n";
    return text;
  }

  std::string doc() const {
    std::string text;
    for (const Overload& o : overloads) text += to_string(o.op.schema()) + "\n";
    for (const Overload& o : outs) text += to_string(o.op.schema()) + "\n";
    return text;
  }
};

OperatorHandle handle_of(const char* op) {
  std::optional<OperatorHandle> handle = Dispatcher::singleton().find_op(op);
  BP_INTERNAL_ASSERT(handle.has_value(), "the generated row names op '", op,
                     "', which the dispatcher does not know");
  return *handle;
}

const char* role_name(PyRole role) {
  switch (role) {
    case PyRole::kFunction:
      return "function";
    case PyRole::kOut:
      return "out";
    case PyRole::kMethod:
      return "method";
    case PyRole::kCallOpOnly:
      return "call_op";
  }
  return "?";
}

}  // namespace

absl::Span<const PyOpRow> op_rows() { return kRows; }

void bind_ops(py::module_& module, py::class_<Tensor>& tensor_class) {
  std::map<std::string, std::shared_ptr<OpGroup>> functions, methods;
  std::vector<std::string> function_order, method_order;
  auto group = [](auto& groups, auto& order, const std::string& name, bool method) {
    auto& g = groups[name];
    if (!g) {
      g = std::make_shared<OpGroup>();
      g->name = name;
      g->method = method;
      order.push_back(name);
    }
    return g;
  };
  auto by_op = std::make_shared<std::map<std::string, std::shared_ptr<OpGroup>>>();
  for (const PyOpRow& row : kRows) {
    const OperatorHandle handle = handle_of(row.op);
    const bool is_out =
        row.role == PyRole::kOut ||
        (row.role == PyRole::kCallOpOnly && !handle.schema().returns.empty() &&
         handle.schema().returns[0].alias && !handle.schema().arguments.empty() &&
         handle.schema().arguments.back().kwarg_only && handle.schema().arguments.back().alias &&
         handle.schema().arguments.back().alias->is_write);
    switch (row.role) {
      case PyRole::kFunction:
        group(functions, function_order, row.python_name, false)
            ->overloads.emplace_back(handle, false);
        break;
      case PyRole::kOut:
        group(functions, function_order, row.python_name, false)->outs.emplace_back(handle, true);
        break;
      case PyRole::kMethod:
        group(methods, method_order, row.python_name, true)->overloads.emplace_back(handle, false);
        break;
      case PyRole::kCallOpOnly:
        break;
    }
    // call_op: every op on its own, by its full name.
    auto single = std::make_shared<OpGroup>();
    single->name = row.op;
    (is_out ? single->outs : single->overloads).emplace_back(handle, is_out);
    (*by_op)[row.op] = single;
  }
  for (const std::string& name : function_order) {
    std::shared_ptr<OpGroup> g = functions[name];
    module.def(
        name.c_str(),
        [g](const py::args& args, const py::kwargs& kwargs) {
          return g->call(py::handle(), args, kwargs);
        },
        g->doc().c_str());
  }
  for (const std::string& name : method_order) {
    std::shared_ptr<OpGroup> g = methods[name];
    tensor_class.def(
        name.c_str(),
        [g](py::object self, const py::args& args, const py::kwargs& kwargs) {
          return g->call(self, args, kwargs);
        },
        g->doc().c_str());
  }
  module.def(
      "call_op",
      [by_op](const std::string& op, const py::args& args, const py::kwargs& kwargs) {
        auto it = by_op->find(op);
        if (it == by_op->end()) {
          throw py::value_error("call_op: no declared op named '" + op + "'");
        }
        return it->second->call(py::handle(), args, kwargs);
      },
      "call_op(name, *args, **kwargs): runs the op named 'name.overload' (out= ops take out=).");
  module.def(
      "op_rows",
      []() {
        py::list rows;
        for (const PyOpRow& row : kRows) {
          rows.append(py::make_tuple(row.python_name, row.op, role_name(row.role),
                                     to_string(handle_of(row.op).schema())));
        }
        return rows;
      },
      "The generated rows: (python name, op, role, schema) per way Python reaches an op.");
}

}  // namespace bp::python
