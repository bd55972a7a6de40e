#include "conformance/runner/planner.h"

#include <exception>
#include <map>

#include "conformance/runner/guards.h"
#include "sdk/core/promotion.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

std::string name_of(ScalarType t) { return std::string(scalar_type_name(t)); }

// Names of the schema's written arguments (out= outputs), in order.
std::vector<std::string> written_arguments(const std::string& op) {
  std::vector<std::string> names;
  for (const Argument& a : Dispatcher::singleton().find_op(op)->schema().arguments) {
    if (a.alias && a.alias->is_write) names.push_back(a.name);
  }
  return names;
}

// The op's written Tensor list (`Tensor(a!)[] out`: one out per result), or "".
std::string written_list(const std::string& op) {
  for (const Argument& a : Dispatcher::singleton().find_op(op)->schema().arguments) {
    if (a.alias && a.alias->is_write && a.type.is_list) return a.name;
  }
  return "";
}

// Factories' out= overloads take no tensor options: the out tensor carries its dtype and device.
bool is_tensor_option_missing_from(const std::string& op, const std::string& name) {
  if (name != "dtype" && name != "layout" && name != "device" && name != "pin_memory") {
    return false;
  }
  for (const Argument& a : Dispatcher::singleton().find_op(op)->schema().arguments) {
    if (a.name == name) return false;
  }
  return true;
}

std::vector<std::string> tensor_names(const Sample& s, const std::string& except = "") {
  std::vector<std::string> names;
  for (const SampleArg& a : s.args) {
    if (std::holds_alternative<TensorArg>(a.value) && a.name != except) names.push_back(a.name);
  }
  return names;
}

bool has_internal_overlap(const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] == 0) return true;
  }
  return false;
}

class Planner {
 public:
  Planner(const OpEntry& entry, ScalarType dtype, const Tolerances& tolerances, uint64_t seed)
      : entry_(entry), dtype_(dtype), tolerances_(tolerances), seed_(seed) {}

  void plan_sample(const Sample& sample, int index) {
    const RefArgs args(sample);
    std::optional<RefError> error;
    Expected expected;
    try {
      expected = entry_.reference(args);
    } catch (const RefError& e) {
      error = e;
    }
    const OpVariant* functional = declared(VariantKind::kFunctional);
    if (functional != nullptr) {
      Case c = base(*functional, "functional", sample, index);
      expect(c, error, expected.outputs);
      c.expect.unmodified = tensor_names(sample);
      c.expect.check_meta = !entry_.data_dependent_sizes;
      cases.push_back(std::move(c));
    }
    if (const OpVariant* inplace = declared(VariantKind::kInplace)) {
      plan_inplace(*inplace, sample, index, error, expected);
    }
    if (const OpVariant* out = declared(VariantKind::kOut)) {
      plan_out(*out, sample, index, error, expected);
    }
  }

  std::vector<Case> cases;

 private:
  const OpVariant* declared(VariantKind kind) const {
    const OpVariant* v = entry_.variant(kind);
    return v != nullptr && is_declared(v->op) ? v : nullptr;
  }

  Case base(const OpVariant& v, std::string check, const Sample& sample, int index) const {
    Case c;
    c.op = v.op;
    c.entry = entry_.name;
    c.check = std::move(check);
    c.dtype = dtype_;
    c.args = sample.args;
    c.description = describe(sample) + (sample.note.empty() ? "" : "  (" + sample.note + ")");
    c.seed = seed_;
    c.sample_index = index;
    return c;
  }

  Tolerance tolerance(ScalarType t) const { return tolerances_.get(entry_.tolerance_name(), t); }

  void expect(Case& c, const std::optional<RefError>& error,
              const std::vector<ExpectedOutput>& outputs) const {
    if (error) {
      c.expect.error = error->message;
      return;
    }
    c.expect.outputs = outputs;
    for (const ExpectedOutput& o : outputs) c.expect.tolerances.push_back(tolerance(o.value.dtype));
  }

  void plan_inplace(const OpVariant& v, const Sample& sample, int index,
                    const std::optional<RefError>& error, const Expected& expected) {
    const SampleArg* self_arg = sample.find("self");
    if (self_arg == nullptr || !std::holds_alternative<TensorArg>(self_arg->value)) return;
    const Tensor& self = std::get<TensorArg>(self_arg->value).host;
    if (self.is_wrapped_number()) return;
    Case c = base(v, "inplace", sample, index);
    c.args = sample.args;
    for (SampleArg& a : c.args) {
      if (a.name == "self") a.value = TensorArg{guarded_copy(self)};
    }
    c.expect.returns_args = {"self"};
    c.expect.written = {"self"};
    c.expect.unmodified = tensor_names(sample, "self");
    if (entry_.inplace_rejected.has(self.dtype())) {
      c.expect.error = entry_.inplace_rejected_message;
      cases.push_back(std::move(c));
      return;
    }
    if (entry_.inplace_error_first) {
      if (std::optional<std::string> first = entry_.inplace_error_first(RefArgs(sample))) {
        c.expect.error = *first;
        cases.push_back(std::move(c));
        return;
      }
    }
    if (entry_.variant(VariantKind::kFunctional) == nullptr) {
      // An in-place-only op: the reference gives the new self, computed from the guarded copy
      // (whose storage offset an in-place view such as squeeze_ keeps).
      Sample guarded = sample;
      guarded.args = c.args;
      Expected from_guarded;
      if (!error) from_guarded = entry_.reference(RefArgs(guarded));
      expect(c, error, from_guarded.outputs);
      c.expect.check_meta = !error.has_value() && !entry_.data_dependent_sizes;
      cases.push_back(std::move(c));
      return;
    }
    const SampleArg* dtype_arg = sample.find("dtype");
    const bool dtype_given = dtype_arg != nullptr &&
                             std::holds_alternative<Value>(dtype_arg->value) &&
                             !std::get<Value>(dtype_arg->value).is_none();
    if (entry_.inplace_in_self_dtype && !dtype_given && !error && expected.outputs.size() == 1 &&
        expected.outputs[0].value.dtype != self.dtype()) {
      Sample in_self_dtype = sample;
      in_self_dtype.set("dtype", Value(self.dtype()));
      // The reference may reject self's dtype as the result's (cumsum_ on bool).
      std::optional<RefError> in_self_error;
      Expected in_self_expected;
      try {
        in_self_expected = entry_.reference(RefArgs(in_self_dtype));
      } catch (const RefError& e) {
        in_self_error = e;
      }
      plan_inplace(v, sample, index, in_self_error, in_self_expected);
      return;
    }
    if (!error && expected.outputs.size() != 1) return;
    // The output checks of an in-place call come before errors PyTorch raises later (after
    // building the output), but not before the ones it raises first.
    const bool checks_first = !error || error->result_sizes.has_value();
    std::optional<std::string> inplace_error;
    if (error) inplace_error = error->message;
    ExpectedOutput result;
    if (checks_first) {
      const Sizes sizes = error ? *error->result_sizes : expected.outputs[0].value.sizes;
      const ScalarType dtype = error ? *error->result_dtype : expected.outputs[0].value.dtype;
      const Sizes self_sizes(self.sizes().begin(), self.sizes().end());
      if (has_internal_overlap(self) && !entry_.inplace_allows_overlap) {
        inplace_error =
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location";
      } else if (sizes != self_sizes) {
        inplace_error = "output with shape " + sizes_string(self_sizes) +
                        " doesn't match the broadcast shape " + sizes_string(sizes);
      } else if (entry_.inplace_dtype_error && dtype != self.dtype()) {
        inplace_error = entry_.inplace_dtype_error(dtype, self.dtype());
      } else if (!can_cast(dtype, self.dtype())) {
        inplace_error = "can't be cast to the desired output type " + name_of(self.dtype());
      } else if (!error) {
        result = expected.outputs[0];
        result.value = cast(result.value, self.dtype());
        result.aliases.clear();
        result.strides.reset();
        result.storage_offset.reset();
      }
    }
    if (inplace_error) {
      c.expect.error = inplace_error;
    } else {
      c.expect.outputs = {result};
      c.expect.tolerances = {tolerance(expected.outputs[0].value.dtype)};
    }
    cases.push_back(std::move(c));
  }

  Case out_case(const OpVariant& v, const char* check, const Sample& sample, int index,
                const std::vector<Tensor>& outs) const {
    Case c = base(v, check, sample, index);
    std::erase_if(c.args,
                  [&](const SampleArg& a) { return is_tensor_option_missing_from(v.op, a.name); });
    if (const std::string list = written_list(v.op); !list.empty()) {
      // Every out goes into the list; the op's results are its elements ("out[0]", ...).
      c.args.push_back({list, TensorListArg{outs}});
      for (size_t i = 0; i < outs.size(); ++i) {
        c.expect.returns_args.push_back(list_element_name(list, i));
      }
    } else {
      const std::vector<std::string> names = written_arguments(v.op);
      for (size_t i = 0; i < names.size() && i < outs.size(); ++i) {
        c.args.push_back({names[i], TensorArg{outs[i]}});
      }
      c.expect.returns_args = names;
    }
    c.expect.unmodified = tensor_names(sample);
    return c;
  }

  void plan_out(const OpVariant& v, const Sample& sample, int index,
                const std::optional<RefError>& error, const Expected& expected) {
    // A written list takes one out per result, however many there are.
    const bool list = !written_list(v.op).empty();
    const size_t n_outs = list ? expected.outputs.size() : written_arguments(v.op).size();
    if (error) {
      // Outputs that pass the output checks when the error comes after them.
      std::vector<Tensor> outs(list ? 1 : n_outs,
                               guarded_output(error->result_dtype.value_or(dtype_), {0}));
      Case c = out_case(v, "out", sample, index, outs);
      c.expect.error = error->message;
      cases.push_back(std::move(c));
      return;
    }
    if (expected.outputs.size() != n_outs) return;
    auto outputs_without_view_rules = [&] {
      std::vector<ExpectedOutput> outs = expected.outputs;
      for (ExpectedOutput& o : outs) {
        o.aliases.clear();
        o.may_alias = false;
        o.strides.reset();
        o.storage_offset.reset();
      }
      return outs;
    };
    auto make_outs = [&](Layout layout) {
      std::vector<Tensor> outs;
      for (const ExpectedOutput& o : expected.outputs) {
        outs.push_back(guarded_output(o.value.dtype, o.value.sizes, layout));
      }
      return outs;
    };
    {
      Case c = out_case(v, "out", sample, index, make_outs(Layout::kContiguous));
      expect(c, std::nullopt, outputs_without_view_rules());
      c.expect.written = c.expect.returns_args;
      cases.push_back(std::move(c));
    }
    if (list && entry_.out_count_error && !count_checked_) {
      // One out more than there are results.
      count_checked_ = true;
      std::vector<Tensor> outs = make_outs(Layout::kContiguous);
      outs.push_back(guarded_output(dtype_, {0}));
      Case c = out_case(v, "out_count", sample, index, outs);
      c.expect.returns_args.clear();
      c.expect.error = entry_.out_count_error(expected.outputs.size(), outs.size());
      cases.push_back(std::move(c));
    }
    if (expected.outputs.empty()) return;
    const RefTensor& first = expected.outputs[0].value;
    const bool single = n_outs == 1 && !list;
    if (single && first.dim() >= 2 && first.numel() > 1 && !strided_done_) {
      strided_done_ = true;
      Case c = out_case(v, "out_strided", sample, index, make_outs(Layout::kTransposed));
      expect(c, std::nullopt, outputs_without_view_rules());
      c.expect.written = c.expect.returns_args;
      cases.push_back(std::move(c));
    }
    if (first.numel() > 0 && resize_done_ < 2) {
      ++resize_done_;
      for (int64_t n : {int64_t{0}, int64_t{3}}) {
        std::vector<Tensor> outs;
        for (const ExpectedOutput& o : expected.outputs) {
          outs.push_back(guarded_output(o.value.dtype, {n}));
        }
        Case c = out_case(v, "out_resize", sample, index, outs);
        expect(c, std::nullopt, outputs_without_view_rules());
        cases.push_back(std::move(c));
      }
    }
    if (dtype_checks_done_) return;
    dtype_checks_done_ = true;
    if (entry_.out_dtype != OutDtypeRule::kFromOut && entry_.out_dtype != OutDtypeRule::kAny) {
      plan_out_dtype(v, sample, index, expected);
    }
    if ((entry_.out_dtype == OutDtypeRule::kSafeCast && single) ||
        entry_.out_dtype == OutDtypeRule::kAny) {
      // Outs of the widest dtype of the result's kind: every result cast into them.
      const ScalarType wide =
          is_complex(first.dtype) ? ScalarType::kComplex128 : ScalarType::kFloat64;
      if (first.dtype != wide) {
        std::vector<ExpectedOutput> outs = outputs_without_view_rules();
        std::vector<Tensor> wide_outs;
        for (ExpectedOutput& o : outs) {
          o.value = cast(o.value, wide);
          wide_outs.push_back(guarded_output(wide, o.value.sizes));
        }
        Case c = out_case(v, "out_widen", sample, index, wide_outs);
        c.expect.outputs = outs;
        c.expect.tolerances.assign(outs.size(), tolerance(first.dtype));
        c.expect.written = c.expect.returns_args;
        cases.push_back(std::move(c));
      }
    }
  }

  void plan_out_dtype(const OpVariant& v, const Sample& sample, int index,
                      const Expected& expected) {
    const ScalarType result = expected.outputs[0].value.dtype;
    ScalarType bad;
    std::string message;
    if (entry_.out_dtype == OutDtypeRule::kSafeCast) {
      if (result == ScalarType::kBool) return;  // bool casts to every dtype
      bad = is_complex(result)          ? ScalarType::kFloat32
            : is_floating_point(result) ? ScalarType::kInt64
                                        : ScalarType::kBool;
      message = "can't be cast to the desired output type " + name_of(bad);
    } else {
      bad = result == ScalarType::kFloat64 ? ScalarType::kFloat32 : ScalarType::kFloat64;
      message = entry_.out_dtype_error ? entry_.out_dtype_error(result, bad)
                                       : "Expected out tensor to have dtype " + name_of(result) +
                                             ", but got " + name_of(bad) + " instead";
    }
    std::vector<Tensor> outs;
    for (size_t i = 0; i < expected.outputs.size(); ++i) {
      const RefTensor& o = expected.outputs[i].value;
      outs.push_back(guarded_output(i == 0 ? bad : o.dtype, o.sizes));
    }
    Case c = out_case(v, "out_dtype", sample, index, outs);
    c.expect.error = message;
    cases.push_back(std::move(c));
  }

  const OpEntry& entry_;
  ScalarType dtype_;
  const Tolerances& tolerances_;
  uint64_t seed_;
  bool strided_done_ = false;
  int resize_done_ = 0;
  bool dtype_checks_done_ = false;
  bool count_checked_ = false;
};

}  // namespace

bool is_declared(const std::string& op) { return Dispatcher::singleton().find_op(op).has_value(); }

Plan plan_cases(const OpEntry& entry, ScalarType dtype, const Tolerances& tolerances) {
  const uint64_t seed = sample_seed(entry.name, dtype);
  std::vector<Sample> samples;
  try {
    samples = entry.samples(dtype, seed);
  } catch (const std::exception& e) {
    Plan plan;
    plan.entry_error = std::string("the conformance entry failed: ") + e.what();
    return plan;
  }
  return plan_samples(entry, dtype, samples, tolerances);
}

Plan plan_samples(const OpEntry& entry, ScalarType dtype, const std::vector<Sample>& samples,
                  const Tolerances& tolerances) {
  Plan plan;
  const uint64_t seed = sample_seed(entry.name, dtype);
  Planner planner(entry, dtype, tolerances, seed);
  try {
    for (size_t i = 0; i < samples.size(); ++i) {
      planner.plan_sample(samples[i], static_cast<int>(i));
    }
  } catch (const std::exception& e) {
    plan.entry_error = std::string("the conformance entry failed: ") + e.what();
  }
  plan.cases = std::move(planner.cases);
  // Ids for per-case results, stable across runs and shards (a plan is deterministic); a second
  // case of the same op, sample and check gets "#2".
  std::map<std::string, int> seen;
  for (Case& c : plan.cases) {
    std::string id = c.op + "/" + std::string(scalar_type_name(c.dtype)) + "/" +
                     std::to_string(c.sample_index) + "/" + c.check;
    if (const int n = ++seen[id]; n > 1) id += "#" + std::to_string(n);
    c.id = std::move(id);
  }
  return plan;
}

}  // namespace bp::conformance
