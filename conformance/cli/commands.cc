#include "conformance/cli/commands.h"

#include <functional>
#include <iomanip>
#include <sstream>

#include "conformance/io/case_file.h"
#include "conformance/io/report.h"
#include "conformance/ops/database.h"
#include "conformance/runner/in_flight.h"
#include "conformance/runner/isolate.h"
#include "conformance/runner/merge_results.h"
#include "conformance/runner/planner.h"
#include "conformance/runner/run.h"

namespace bp::conformance {

void list_ops(const CliOptions& o, std::ostream& out) {
  const std::vector<const OpEntry*> selected = select_entries(op_database(), o.ops);
  out << std::left << std::setw(24) << "entry" << std::setw(11) << "family" << std::setw(6)
      << "tier" << std::setw(8) << "dtypes"
      << "variants (* = not declared)\n";
  for (const OpEntry* entry : selected) {
    const OpEntry& e = *entry;
    out << std::left << std::setw(24) << e.name << std::setw(11) << e.family << std::setw(6)
        << e.tier << std::setw(8) << e.dtypes.list().size();
    for (const OpVariant& v : e.variants) out << " " << v.op << (is_declared(v.op) ? "" : "*");
    out << "\n";
  }
}

namespace {

// A case file case's id: its "id", else "case <index>" (from its JSON alone: it may not parse).
std::string case_id_of(const json& j, size_t index) {
  if (j.is_object() && j.contains("id") && j.at("id").is_string()) {
    return j.at("id").get<std::string>();
  }
  return "case " + std::to_string(index);
}

// A case file case's name for isolation and crash messages, from its JSON alone (it may not
// parse as a case).
CaseRecord label_of(const json& j, size_t index) {
  CaseRecord label;
  label.id = case_id_of(j, index);
  label.op = case_op_name(j);
  label.check = "case";
  label.sample = "case " + std::to_string(index);
  if (j.is_object() && j.contains("dtype") && j.at("dtype").is_string()) {
    label.dtype = scalar_type_from_name(j.at("dtype").get<std::string>()).value_or(label.dtype);
  }
  if (j.is_object() && j.contains("check") && j.at("check").is_string()) {
    label.check = j.at("check").get<std::string>();
  }
  return label;
}

// Runs `run(index, case, output)` for each case of the case file at `path` (streamed: one case in
// memory at a time) that is in `shard`, in this process or, isolated, in child processes with a
// per-case timeout (a child after a crash reads the file again and skips the cases already run);
// `sink` receives each record and what the case printed.
void for_each_case(const CliOptions& o, const std::string& path, const Shard& shard,
                   const std::function<CaseRecord(size_t, const json&, std::ostream&)>& run,
                   const IsolatedSink& sink) {
  if (!o.isolate.value_or(false)) {
    read_case_file(path, [&](size_t i, const json& c) {
      if (!shard.has(i)) return;
      std::ostringstream output;
      const CaseRecord r = run(i, c, output);
      sink(r, output.str());
    });
    return;
  }
  Isolation how;
  how.timeout_seconds = o.timeout_seconds;
  how.timeout_per_case = true;
  how.skip_cell_after_crash = false;  // a case file's cases are independent
  how.outside.op = "?";
  run_isolated(
      how,
      [&](const ChildHooks& hooks) {
        read_case_file(path, [&](size_t i, const json& c) {
          if (!shard.has(i)) return;
          const CaseRecord label = label_of(c, i);
          if (hooks.skip(i, label)) return;
          hooks.begin(i, label);
          std::ostringstream output;
          const CaseRecord r = run(i, c, output);
          hooks.emit(r, output.str());
        });
      },
      sink);
}

}  // namespace

RunResults run_case_file(const CliOptions& o, const Backend& backend, const Backend* compare_with,
                         const Tolerances& tolerances, std::ostream& err) {
  RunResults results;
  results.backend = backend.name();
  results.backend_description = backend.description();
  results.isolated = o.isolate.value_or(false);
  results.tolerance_sources = tolerances.sources();
  results.tolerance_overrides = tolerances.vendor_overrides();
  results.cases_file = o.cases;
  results.shard = o.shard;
  results.case_results_level = o.case_results.value_or(CaseResultsLevel::kAll);
  auto run_case = [&](size_t i, const json& json_case, std::ostream& messages) {
    const std::string op_name = case_op_name(json_case);
    CaseRecord record;
    record.op = op_name;
    record.id = case_id_of(json_case, i);
    try {
      Case c = case_from_json(json_case, tolerances);
      if (c.id.empty()) c.id = record.id;
      set_in_flight(
          case_in_flight(c.op, scalar_type_name(c.dtype), c.check,
                         c.description.empty() ? "case " + std::to_string(i) : c.description));
      const CaseOutcome outcome = execute(c, backend, ExecuteOptions{compare_with});
      record.op = c.op;
      record.dtype = c.dtype;
      record.check = c.check;
      record.verdict = outcome.verdict;
      record.failures = outcome.failures;
      record.sample = c.description.empty() ? "case " + std::to_string(i) : c.description;
      record.transfers = outcome.transfers;
      record.handles = outcome.handles;
      record.id = c.id;
      record.staging = outcome.staging;
      record.fallback_calls = outcome.fallback_calls;
      if (outcome.verdict == Verdict::kFail && o.repros) {
        record.repro = write_repro(o.repro_dir, c, outcome, backend.name());
      }
    } catch (const std::exception& e) {
      messages << o.cases << ": case " << i << " (" << op_name << "): " << e.what() << "\n";
      record.check = "case";
      record.verdict = Verdict::kFail;
      record.failures = {std::string("cannot run the case: ") + e.what()};
      record.sample = "case " + std::to_string(i);
      record.error = true;
    }
    return record;
  };
  auto add = [&](const CaseRecord& record, const std::string& messages) {
    err << messages;
    OpResult* op = results.find(record.op);
    if (op == nullptr) {
      OpResult r;
      r.op = record.op;
      r.entry = record.op;
      r.family = "cases from " + o.cases;
      r.declared = is_declared(record.op);
      results.ops.push_back(std::move(r));
      op = &results.ops.back();
    }
    // The dtype columns of a case file are the dtypes its cases count for.
    op->dtypes = op->dtypes | DtypeSet(record.dtype);
    op->selected = op->dtypes;
    results.add(*op, record);
  };
  for_each_case(o, o.cases, o.shard, run_case, add);
  return results;
}

int replay(const CliOptions& o, const Backend& backend, const Backend* compare_with,
           const Tolerances& tolerances, std::ostream& out) {
  auto replay_case = [&](size_t, const json& json_case, std::ostream& text) {
    const Case c = case_from_json(json_case, tolerances);
    text << "op:       " << c.op << " [" << c.check << "] " << scalar_type_name(c.dtype) << "\n";
    if (!c.description.empty()) text << "sample:   " << c.description << "\n";
    if (c.expect.error) {
      text << "expected: an error containing '" << *c.expect.error << "'\n";
    } else {
      for (const ExpectedOutput& e : c.expect.outputs) {
        text << "expected: " << expected_output_to_json(e).dump() << "\n";
      }
    }
    set_in_flight(case_in_flight(c.op, scalar_type_name(c.dtype), c.check, c.description));
    const CaseOutcome outcome = execute(c, backend, ExecuteOptions{compare_with});
    if (!outcome.raised.empty()) text << "raised:   " << outcome.raised << "\n";
    for (const RefTensor& a : outcome.actual)
      text << "actual:   " << ref_tensor_to_json(a).dump() << "\n";
    for (const std::string& f : outcome.failures) text << "failure:  " << f << "\n";
    text << "verdict:  " << verdict_name(outcome.verdict) << " on backend '" << backend.name()
         << "'\n";
    CaseRecord r;
    r.op = c.op;
    r.verdict = outcome.verdict;
    return r;
  };
  int status = 0;
  for_each_case(o, o.replay, Shard{}, replay_case,
                [&](const CaseRecord& r, const std::string& text) {
                  out << text;
                  if (text.empty()) {  // the child crashed, hung or exited in the case
                    out << "op:       " << r.op << " [" << r.check << "] "
                        << scalar_type_name(r.dtype) << "\n";
                    for (const std::string& f : r.failures) out << "failure:  " << f << "\n";
                    out << "verdict:  fail on backend '" << backend.name() << "'\n";
                  }
                  if (r.verdict != Verdict::kPass) status = 1;
                });
  return status;
}

MergedRun merge_reports(const CliOptions& o) {
  std::vector<RunResults> shards;
  std::string profile;
  for (const std::string& path : o.merge_reports) {
    ReportFile file = read_report_json(path);
    if (!shards.empty() && file.profile != profile) {
      throw std::invalid_argument("cannot merge: " + o.merge_reports[0] + " and " + path +
                                  " differ in --profile ('" + profile + "' and '" + file.profile +
                                  "'): they are not shards of one run");
    }
    profile = file.profile;
    shards.push_back(std::move(file.results));
  }
  MergedRun merged;
  merged.results = merge_results(std::move(shards), o.merge_reports, op_database());
  if (!profile.empty()) {
    merged.profile = find_profile(profile);
    if (merged.profile == nullptr) {
      throw std::runtime_error("report " + o.merge_reports[0] + ": unknown profile '" + profile +
                               "'");
    }
  }
  return merged;
}

size_t write_cases(const CliOptions& o, const Tolerances& tolerances) {
  std::vector<Case> all;
  for (const OpEntry* e : select_entries(op_database(), o.ops)) {
    for (ScalarType t : (e->dtypes & o.dtypes).list()) {
      Plan plan = plan_cases(*e, t, tolerances);
      for (Case& c : plan.cases) all.push_back(std::move(c));
    }
  }
  write_case_file(o.write_cases, all);
  return all.size();
}

}  // namespace bp::conformance
