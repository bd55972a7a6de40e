#include "conformance/cli/commands.h"

#include <iomanip>

#include "conformance/io/case_file.h"
#include "conformance/ops/database.h"
#include "conformance/runner/planner.h"
#include "conformance/runner/run.h"

namespace bp::conformance {

void list_ops(const CliOptions& o, std::ostream& out) {
  out << std::left << std::setw(24) << "entry" << std::setw(11) << "family" << std::setw(6)
      << "tier" << std::setw(8) << "dtypes"
      << "variants (* = not declared)\n";
  for (const OpEntry& e : op_database().entries()) {
    if (!entry_selected(e, o.ops_regex)) continue;
    out << std::left << std::setw(24) << e.name << std::setw(11) << e.family << std::setw(6)
        << e.tier << std::setw(8) << e.dtypes.list().size();
    for (const OpVariant& v : e.variants) out << " " << v.op << (is_declared(v.op) ? "" : "*");
    out << "\n";
  }
}

RunResults run_case_file(const CliOptions& o, const Backend& backend, const Backend* compare_with,
                         const Tolerances& tolerances, std::ostream& err) {
  RunResults results;
  results.backend = backend.name();
  results.backend_description = backend.description();
  results.tolerance_sources = tolerances.sources();
  results.tolerance_overrides = tolerances.vendor_overrides();
  read_case_file(o.cases, [&](size_t i, const json& json_case) {
    const std::string op_name = case_op_name(json_case);
    OpResult* op = results.find(op_name);
    if (op == nullptr) {
      OpResult r;
      r.op = op_name;
      r.entry = op_name;
      r.family = "cases from " + o.cases;
      r.declared = is_declared(op_name);
      results.ops.push_back(std::move(r));
      op = &results.ops.back();
    }
    CaseRecord record;
    record.op = op_name;
    try {
      const Case c = case_from_json(json_case, tolerances);
      const CaseOutcome outcome = execute(c, backend, ExecuteOptions{compare_with});
      record = CaseRecord{c.op,
                          c.dtype,
                          c.check,
                          outcome.verdict,
                          outcome.failures,
                          c.description.empty() ? "case " + std::to_string(i) : c.description,
                          "",
                          outcome.transfers};
      if (outcome.verdict == Verdict::kFail && o.repros) {
        record.repro = write_repro(o.repro_dir, c, outcome, backend.name());
      }
    } catch (const std::exception& e) {
      err << o.cases << ": case " << i << " (" << op_name << "): " << e.what() << "\n";
      record.check = "case";
      record.verdict = Verdict::kFail;
      record.failures = {std::string("cannot run the case: ") + e.what()};
      record.sample = "case " + std::to_string(i);
    }
    // The dtype columns of a case file are the dtypes its cases count for.
    op->dtypes = op->dtypes | DtypeSet(record.dtype);
    op->selected = op->dtypes;
    op->add(record);
  });
  return results;
}

int replay(const CliOptions& o, const Backend& backend, const Backend* compare_with,
           const Tolerances& tolerances, std::ostream& out) {
  int status = 0;
  read_case_file(o.replay, [&](size_t, const json& j) {
    const Case c = case_from_json(j, tolerances);
    out << "op:       " << c.op << " [" << c.check << "] " << scalar_type_name(c.dtype) << "\n";
    if (!c.description.empty()) out << "sample:   " << c.description << "\n";
    if (c.expect.error) {
      out << "expected: an error containing '" << *c.expect.error << "'\n";
    } else {
      for (const ExpectedOutput& e : c.expect.outputs) {
        out << "expected: " << expected_output_to_json(e).dump() << "\n";
      }
    }
    const CaseOutcome outcome = execute(c, backend, ExecuteOptions{compare_with});
    if (!outcome.raised.empty()) out << "raised:   " << outcome.raised << "\n";
    for (const RefTensor& a : outcome.actual)
      out << "actual:   " << ref_tensor_to_json(a).dump() << "\n";
    for (const std::string& f : outcome.failures) out << "failure:  " << f << "\n";
    out << "verdict:  " << verdict_name(outcome.verdict) << " on backend '" << backend.name()
        << "'\n";
    if (outcome.verdict != Verdict::kPass) status = 1;
  });
  return status;
}

size_t write_cases(const CliOptions& o, const Tolerances& tolerances) {
  std::vector<Case> all;
  for (const OpEntry& e : op_database().entries()) {
    if (!entry_selected(e, o.ops_regex)) continue;
    for (ScalarType t : (e.dtypes & o.dtypes).list()) {
      Plan plan = plan_cases(e, t, tolerances);
      for (Case& c : plan.cases) all.push_back(std::move(c));
    }
  }
  write_case_file(o.write_cases, all);
  return all.size();
}

}  // namespace bp::conformance
