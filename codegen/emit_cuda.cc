// The files the CUDA plugin (reference_backend/cuda) builds: plain data tables it reads at run
// time, so that every op declared with `math:` runs on CUDA with nothing written for it there.
//
//   pointwise_ops.inc   one row per structured op with `math:` (see reference_backend/cuda/
//                       pointwise_ops.h for the row's fields)
//   along_dim_ops.inc   one row per structured op with `scan:` or `normalize:` (see
//                       reference_backend/cuda/along_dim_ops.h)
//   reduction_ops.inc   one row per structured op with `reduce:` (see reference_backend/cuda/
//                       reduction_ops.h for the row's fields)
//   op_arguments.inc    one row per op: its name and argument names in schema order, so that
//                       hand-written plugin kernels (reductions, copies) find their arguments
//                       by name
//
// The plugin is built against the C ABI only, so the rows hold strings and integers, nothing of
// the SDK's C++ types.
#include <algorithm>
#include <sstream>

#include "codegen/cpp.h"
#include "codegen/emit.h"

namespace bp::codegen {
namespace {

// The position of argument `name` in the op's schema (the boxed argument index).
int argument_position(const OpDecl& op, const std::string& name) {
  const std::vector<Argument>& args = op.schema.arguments;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) return static_cast<int>(i);
  }
  throw CodegenError(op.loc.str() + ": '" + name + "' is not an argument of " + op.name());
}

// "{a, b, c}" padded with -1 to `size` entries.
std::string int_array(const std::vector<int>& values, size_t size) {
  std::string out = "{";
  for (size_t i = 0; i < size; ++i) {
    out += (i ? ", " : "") + std::to_string(i < values.size() ? values[i] : -1);
  }
  return out + "}";
}

// The maximum counts a row holds (reference_backend/cuda/pointwise_ops.h).
constexpr size_t kMaxInputs = 4;
constexpr size_t kMaxArgs = 4;
constexpr size_t kMaxWhen = 2;

// "DivTrunc" -> "div_trunc": how a list alternative names itself in dtype errors (PyTorch's
// kernel names: "div_trunc" not implemented for 'ComplexFloat').
std::string snake_case(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

// A row of `op`: its one functor, or alternative `c` of its `math:` list.
std::string pointwise_row(const OpDecl& op, const MathCase* c) {
  const CallSpec& math = c != nullptr ? c->call : *op.math;
  std::vector<int> inputs;
  int divisor = -1;
  for (const std::string& name : math_tensor_inputs(op, math)) {
    if (op.divisor && *op.divisor == name) divisor = static_cast<int>(inputs.size());
    inputs.push_back(argument_position(op, name));
  }
  const uint32_t bool_inputs = math_bool_inputs(op, math);
  std::vector<std::string> numbers;  // the functor's arguments after its inputs
  for (const std::string& name : math.args) {
    if (op.schema.arguments[argument_position(op, name)].type.kind != TypeKind::kTensor) {
      numbers.push_back(name);
    }
  }
  std::vector<int> args;
  // Per argument: its schema type, what None means, and the values of a str ("none|tanh").
  std::string types = "{", if_none = "{", choices = "{";
  for (size_t i = 0; i < kMaxArgs; ++i) {
    const bool given = i < numbers.size();
    const std::string sep = i ? ", " : "";
    if (!given) {
      types += sep + "nullptr";
      if_none += sep + "nullptr";
      choices += sep + "nullptr";
      continue;
    }
    const std::string& name = numbers[i];
    const int pos = argument_position(op, name);
    args.push_back(pos);
    types += sep + quoted(to_string(op.schema.arguments[pos].type));
    const auto none = math.if_none.find(name);
    if_none += sep + (none == math.if_none.end() ? "nullptr" : quoted(none->second));
    const auto values = math.choices.find(name);
    std::string joined;
    if (values != math.choices.end()) {
      for (const std::string& v : values->second) joined += (joined.empty() ? "" : "|") + v;
    }
    choices += sep + (joined.empty() ? "nullptr" : quoted(joined));
  }
  types += "}";
  if_none += "}";
  choices += "}";
  const std::vector<const Argument*> outs = op.out_arguments();
  const size_t num_when = c != nullptr ? c->when.size() : 0;
  if (inputs.size() > kMaxInputs || args.size() > kMaxArgs || outs.size() != 1 ||
      num_when > kMaxWhen) {
    throw CodegenError(op.loc.str() + ": the CUDA plugin's pointwise table holds at most " +
                       std::to_string(kMaxInputs) + " tensor inputs, " + std::to_string(kMaxArgs) +
                       " math arguments, " + std::to_string(kMaxWhen) +
                       " conditions and exactly one output");
  }
  std::vector<int> when_args;
  std::string when_values = "{";
  for (size_t i = 0; i < kMaxWhen; ++i) {
    std::string value = "nullptr";
    if (i < num_when) {
      when_args.push_back(argument_position(op, c->when[i].first));
      if (c->when[i].second) value = quoted(*c->when[i].second);
    }
    when_values += (i ? ", " : "") + value;
  }
  when_values += "}";
  const uint32_t dtypes = c != nullptr && c->dtypes != 0 ? c->dtypes : op.dtypes;
  const std::string error_name = c != nullptr ? snake_case(math.function) : op.schema.name;
  std::ostringstream o;
  o << "{" << quoted(op.name()) << ", " << quoted(op.schema.name) << ", " << quoted(math.function)
    << ", " << quoted(op.meta->function) << ", " << dtypes << "u, " << inputs.size() << ", "
    << int_array(inputs, kMaxInputs) << ", " << args.size() << ", " << int_array(args, kMaxArgs)
    << ", " << types << ", " << if_none << ", " << choices << ", "
    << argument_position(op, outs[0]->name) << ", " << op.schema.arguments.size() << ", "
    << quoted(op.loc.str()) << ", " << quoted(error_name) << ", " << bool_inputs << "u, " << divisor
    << ", " << num_when << ", " << int_array(when_args, kMaxWhen) << ", " << when_values << "},\n";
  return o.str();
}

std::string pointwise_rows(const OpDecl& op) {
  if (op.math_cases.empty()) return pointwise_row(op, nullptr);
  std::string rows;
  for (const MathCase& c : op.math_cases) rows += pointwise_row(op, &c);
  return rows;
}

// ---- reduction_ops.inc ----------------------------------------------------------------------

// The maximum counts a reduction row holds (reference_backend/cuda/reduction_ops.h).
constexpr size_t kMaxReduceArgs = 4;
constexpr size_t kMaxReduceOutputs = 2;

// The position of `name`, or -1 when the op has no such argument.
int optional_position(const OpDecl& op, const std::string& name) {
  const std::vector<Argument>& args = op.schema.arguments;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string reduction_row(const OpDecl& op) {
  const ReductionSpec& r = *op.reduction;
  const std::vector<const Argument*> outs = op.out_arguments();
  if (r.args.size() > kMaxReduceArgs || outs.size() > kMaxReduceOutputs) {
    throw CodegenError(op.loc.str() + ": the CUDA plugin's reduction table holds at most " +
                       std::to_string(kMaxReduceArgs) + " reduce arguments and " +
                       std::to_string(kMaxReduceOutputs) + " outputs");
  }
  std::vector<int> args, outputs, results;
  std::string if_none = "{";
  for (size_t i = 0; i < kMaxReduceArgs; ++i) {
    if (i < r.args.size()) args.push_back(argument_position(op, r.args[i].name));
    const bool given = i < r.args.size() && r.args[i].if_none;
    if_none += std::string(i ? ", " : "") + (given ? quoted(*r.args[i].if_none) : "nullptr");
  }
  if_none += "}";
  for (size_t i = 0; i < outs.size(); ++i) {
    outputs.push_back(argument_position(op, outs[i]->name));
    results.push_back(static_cast<int>(r.outputs[i]));
  }
  // The reduced dims and keepdim are PyTorch's argument names; a reduction without them reduces
  // every dim.
  std::ostringstream o;
  o << "{" << quoted(op.name()) << ", " << quoted(op.schema.name) << ", " << quoted(r.ops) << ", "
    << op.dtypes << "u, " << argument_position(op, "self") << ", " << optional_position(op, "dim")
    << ", " << optional_position(op, "keepdim") << ", " << argument_position(op, r.in) << ", "
    << args.size() << ", " << int_array(args, kMaxReduceArgs) << ", " << if_none << ", "
    << outputs.size() << ", " << int_array(outputs, kMaxReduceOutputs) << ", "
    << int_array(results, kMaxReduceOutputs) << ", " << op.schema.arguments.size() << ", "
    << quoted(op.loc.str()) << "},\n";
  return o.str();
}

std::string along_dim_row(const OpDecl& op) {
  const bool scan = op.scan.has_value();
  std::ostringstream o;
  o << "{" << quoted(op.name()) << ", " << quoted(op.schema.name) << ", "
    << (scan ? "AlongDimFamily::kScan" : "AlongDimFamily::kNormalize") << ", "
    << quoted((scan ? op.scan : op.normalize)->function) << ", " << op.dtypes << "u, "
    << argument_position(op, "self") << ", " << argument_position(op, "dim") << ", "
    << argument_position(op, op.out_arguments()[0]->name) << ", "
    << (op.out_arguments().size() == 2 ? argument_position(op, op.out_arguments()[1]->name) : -1)
    << ", " << op.schema.arguments.size() << ", " << quoted(op.loc.str()) << "},\n";
  return o.str();
}

std::string argument_row(const OpDecl& op) {
  std::string names;
  for (const Argument& a : op.schema.arguments) names += (names.empty() ? "" : ",") + a.name;
  return "{" + quoted(op.name()) + ", " + quoted(names) + "},\n";
}

}  // namespace

Files emit_cuda(const Model& model) {
  std::ostringstream pointwise, reductions, along_dim, arguments;
  const std::string banner = emit_detail::banner();
  pointwise << banner
            << "// Rows of reference_backend/cuda/pointwise_ops.cc: every structured op with "
               "`math:`.\n";
  reductions << banner
             << "// Rows of reference_backend/cuda/reduction_ops.cc: every structured op with "
                "`reduce:`.\n";
  along_dim << banner
            << "// Rows of reference_backend/cuda/along_dim_ops.cc: every structured op with "
               "`scan:` or `normalize:`.\n";
  arguments << banner
            << "// Rows of reference_backend/cuda/op_arguments.cc: every op's argument names.\n";
  for (const OpDecl& op : model.ops()) {
    if (op.structured && op.math) pointwise << pointwise_rows(op);
    if (op.structured && op.reduction) reductions << reduction_row(op);
    if (op.structured && (op.scan || op.normalize)) along_dim << along_dim_row(op);
    arguments << argument_row(op);
  }
  return {{"pointwise_ops.inc", pointwise.str()},
          {"reduction_ops.inc", reductions.str()},
          {"along_dim_ops.inc", along_dim.str()},
          {"op_arguments.inc", arguments.str()}};
}

}  // namespace bp::codegen
