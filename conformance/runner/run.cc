#include "conformance/runner/run.h"

#include <chrono>
#include <map>
#include <string_view>
#include <vector>

#include "conformance/runner/compare.h"
#include "conformance/runner/in_flight.h"
#include "conformance/runner/isolate.h"
#include "conformance/runner/op_selection.h"
#include "conformance/runner/planner.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

// Checks that in-place and out= results agree with the functional result of the same sample:
// bit for bit when they have the same layout (the same loops ran), within the op's tolerance
// otherwise (vectorised and scalar loops may round differently).
class AgreementCheck {
 public:
  void record_functional(const Case& c, const CaseOutcome& o) {
    if (c.check == "functional" && o.verdict == Verdict::kPass && o.actual.size() == 1) {
      functional_[c.sample_index] = Result{o.actual[0], o.actual_strides[0]};
    }
  }
  void check(const Case& c, CaseOutcome& o) const {
    if (o.verdict != Verdict::kPass || o.actual.size() != 1) return;
    if (c.check != "inplace" && c.check != "out" && c.check != "out_strided") return;
    auto it = functional_.find(c.sample_index);
    if (it == functional_.end() || it->second.value.dtype != o.actual[0].dtype) return;
    const bool same_layout = it->second.strides == o.actual_strides[0];
    const Tolerance tol = c.expect.tolerances.empty() ? Tolerance{} : c.expect.tolerances[0];
    const std::string why = same_layout ? compare_identical(o.actual[0], it->second.value)
                                        : compare_values(o.actual[0], it->second.value, tol);
    if (!why.empty()) o.fail("differs from the functional result: " + why);
  }

 private:
  struct Result {
    RefTensor value;
    Sizes strides;
  };
  std::map<int, Result> functional_;
};

}  // namespace

CaseRecord record_of(const Case& c, const CaseOutcome& o) {
  CaseRecord r;
  r.op = c.op;
  r.dtype = c.dtype;
  r.check = c.check;
  r.verdict = o.verdict;
  r.failures = o.failures;
  r.sample = c.description;
  r.transfers = o.transfers;
  r.handles = o.handles;
  r.expects_error = c.expect.error.has_value();
  r.id = c.id;
  r.staging = o.staging;
  r.fallback_calls = o.fallback_calls;
  return r;
}

void run_entry(const OpEntry& entry, const Backend& backend, const RunOptions& options,
               const EntryHooks& hooks) {
  const Tolerances& tolerances = options.tolerances ? *options.tolerances : Tolerances::builtin();
  size_t index = 0;
  for (ScalarType dtype : (entry.dtypes & options.dtypes).list()) {
    const Plan plan = plan_cases(entry, dtype, tolerances);
    if (!plan.entry_error.empty()) {
      for (const OpVariant& v : entry.variants) {
        if (!is_declared(v.op)) continue;
        hooks.emit(CaseRecord::failure(v.op, dtype, "entry", plan.entry_error));
      }
    }
    AgreementCheck agreement;
    for (const Case& c : plan.cases) {
      const size_t i = index++;
      if (hooks.skip && hooks.skip(i, c)) continue;
      if (hooks.begin) hooks.begin(i, c);
      set_in_flight(case_in_flight(c.op, scalar_type_name(dtype), c.check, c.description));
      CaseOutcome o = execute(c, backend, ExecuteOptions{options.compare_with});
      agreement.record_functional(c, o);
      if (!entry.nondeterministic) agreement.check(c, o);
      CaseRecord r = record_of(c, o);
      if (o.verdict == Verdict::kFail && options.on_failure) r.repro = options.on_failure(c, o);
      hooks.emit(r);
    }
  }
}

std::vector<std::string> ops_without_entry(const OpDatabase& db) {
  std::vector<std::string> missing;
  for (const OpSummary& op : Dispatcher::singleton().list_ops()) {
    if (!op.name.starts_with("bp::")) continue;
    const std::string name = op.name.substr(4);
    if (db.entry_for_op(name) == nullptr) missing.push_back(name);
  }
  return missing;
}

RunResults run_suite(const OpDatabase& db, const Backend& backend, const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Tolerances& tolerances = options.tolerances ? *options.tolerances : Tolerances::builtin();
  RunResults results;
  results.backend = backend.name();
  results.backend_description = backend.description();
  results.isolated = options.isolate;
  results.tolerance_sources = tolerances.sources();
  results.tolerance_overrides = tolerances.vendor_overrides();
  results.ops_without_entry = ops_without_entry(db);
  results.ops_names = join_op_names(options.ops.names);
  results.ops_regex = options.ops.regex;
  results.dtypes = options.dtypes;
  results.shard = options.shard;
  results.case_results_level = options.case_results;
  // The shard's part of the selection: the selected entries dealt out in turn.
  std::vector<const OpEntry*> selected;
  size_t matching = 0;
  for (const OpEntry* e : select_entries(db, options.ops)) {
    if (options.shard.has(matching++)) selected.push_back(e);
  }
  Progress progress{0, selected.size(), "", 0};
  for (const OpEntry* e : selected) {
    const size_t first = results.ops.size();
    for (const OpVariant& v : e->variants) {
      OpResult r;
      r.op = v.op;
      r.entry = e->name;
      r.family = e->family;
      r.tier = e->tier;
      r.kind = v.kind;
      r.declared = is_declared(v.op);
      r.dtypes = e->dtypes;
      r.selected = options.dtypes;
      r.serving = serving_of(v.op, backend.key());
      results.ops.push_back(std::move(r));
    }
    auto sink = [&](const CaseRecord& record) {
      for (size_t i = first; i < results.ops.size(); ++i) {
        if (results.ops[i].op == record.op) results.add(results.ops[i], record);
      }
      if (record.verdict == Verdict::kFail) ++progress.failed;
    };
    progress.entry = e->name;
    if (options.progress) options.progress(progress);
    if (options.isolate) {
      run_entry_isolated(*e, backend, options, sink);
    } else {
      run_entry(*e, backend, options, EntryHooks{nullptr, nullptr, sink});
    }
    ++progress.done;
    if (options.progress) options.progress(progress);
  }
  results.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return results;
}

}  // namespace bp::conformance
