#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "conformance/io/report.h"

namespace bp::conformance {

using json = nlohmann::json;

void write_text_file(const std::string& path, const std::string& text) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<std::string> case_statuses(const RunResults& results) {
  std::map<std::string_view, const OpResult*> ops;
  for (const OpResult& op : results.ops) ops[op.op] = &op;
  std::vector<std::string> statuses;
  statuses.reserve(results.case_results.size());
  for (const CaseResult& c : results.case_results) {
    bool expected_to_fail = false;
    if (const auto op = ops.find(c.op); op != ops.end()) {
      const auto cell = op->second->cells.find(c.dtype);
      expected_to_fail = cell != op->second->cells.end() && cell->second.expected_to_fail;
    }
    statuses.push_back(c.verdict == Verdict::kPass          ? "pass"
                       : c.verdict == Verdict::kUnsupported ? "unsupported"
                       : expected_to_fail                   ? "xfail"
                       : c.error                            ? "error"
                                                            : "fail");
  }
  return statuses;
}

bool case_id_names_op(const CaseResult& c) {
  return c.id.starts_with(c.op + "/" + std::string(scalar_type_name(c.dtype)) + "/");
}

namespace {

json dtype_names(DtypeSet dtypes) {
  json names = json::array();
  for (ScalarType t : dtypes.list()) names.push_back(std::string(scalar_type_name(t)));
  return names;
}

// The per-case results, compact: "op" and "dtype" only where the id does not start with them
// (case files' own ids), "message" and "repro" only when there is one.
json case_results_json(const RunResults& results) {
  const std::vector<std::string> statuses = case_statuses(results);
  json cases = json::array();
  for (size_t i = 0; i < results.case_results.size(); ++i) {
    const CaseResult& c = results.case_results[i];
    json j{{"id", c.id}, {"status", statuses[i]}};
    if (!case_id_names_op(c)) {
      j["op"] = c.op;
      j["dtype"] = std::string(scalar_type_name(c.dtype));
    }
    if (c.error && j["status"] == "xfail") j["error"] = true;  // an expected error
    if (!c.message.empty()) j["message"] = c.message;
    if (!c.repro.empty()) j["repro"] = c.repro;
    cases.push_back(std::move(j));
  }
  return cases;
}

}  // namespace

json report_json(const RunResults& results, const RunVerdict& verdict, const Profile* profile) {
  json ops = json::array();
  for (const OpResult& op : results.ops) {
    json dtypes = json::object();
    for (ScalarType t : kAllDtypes.list()) {
      json cell{{"status", std::string(cell_status_name(op.status(t)))}};
      if (auto it = op.cells.find(t); it != op.cells.end()) {
        const Cell& c = it->second;
        cell["passed"] = c.passed;
        cell["passed_errors"] = c.passed_errors;
        cell["failed"] = c.failed;
        cell["unsupported"] = c.unsupported;
        if (!c.unsupported_reason.empty()) cell["unsupported_reason"] = c.unsupported_reason;
        json failures = json::array();
        for (const FailureRecord& f : c.failures) {
          failures.push_back(json{{"check", f.check},
                                  {"sample", f.sample},
                                  {"message", f.message},
                                  {"repro", f.repro}});
        }
        if (!failures.empty()) cell["failures"] = std::move(failures);
      }
      dtypes[std::string(scalar_type_name(t))] = std::move(cell);
    }
    ops.push_back(json{{"op", op.op},
                       {"entry", op.entry},
                       {"family", op.family},
                       {"tier", op.tier},
                       {"kind", std::string(variant_kind_name(op.kind))},
                       {"declared", op.declared},
                       {"status", std::string(cell_status_name(op.overall()))},
                       {"served_by", op.served_by()},
                       {"dispatch_table", op.serving.path},
                       {"via_common", op.serving.via_common},
                       {"via_fallback", op.via_fallback()},
                       {"calls", {{"total", op.calls}, {"cpu_fallback", op.calls_via_fallback}}},
                       {"bytes_to_device", op.transfers.to_device},
                       {"bytes_to_host", op.transfers.to_host},
                       {"staging_bytes_to_device", op.staging.to_device},
                       {"staging_bytes_to_host", op.staging.to_host},
                       {"handles",
                        {{"created", op.handles.created},
                         {"released", op.handles.released},
                         {"returned", op.handles.returned},
                         {"leaked", op.handles.leaked},
                         {"over_released", op.handles.over_released}}},
                       {"op_dtypes", dtype_names(op.dtypes)},
                       {"selected_dtypes", dtype_names(op.selected)},
                       {"dtypes", std::move(dtypes)}});
  }
  int declared = 0;
  for (const OpResult& op : results.ops) declared += op.declared;
  json report{
      {"format", "backplane-conformance-report"},
      {"version", 1},
      {"backend", {{"name", results.backend}, {"description", results.backend_description}}},
      {"profile", profile != nullptr ? json(profile->name) : json(nullptr)},
      {"selection",
       {{"ops", results.ops_names},
        {"ops_regex", results.ops_regex},
        {"dtypes", dtype_names(results.dtypes)},
        {"cases", results.cases_file.empty() ? json(nullptr) : json(results.cases_file)},
        {"shard", {{"index", results.shard.index}, {"count", results.shard.count}}},
        {"case_results", std::string(case_results_level_name(results.case_results_level))}}},
      {"expected_failures", results.expected_failures_file.empty()
                                ? json(nullptr)
                                : json{{"file", results.expected_failures_file},
                                       {"text", results.expected_failures_text}}},
      {"verdict",
       {{"passed", verdict.passed},
        {"reasons", verdict.reasons},
        {"unexpected_failures", verdict.unexpected_failures},
        {"expected_failures", verdict.expected_failures},
        {"unexpected_passes", verdict.unexpected_passes},
        {"profile_gaps", verdict.profile_gaps}}},
      {"totals",
       {{"cases",
         {{"passed", results.cases(Verdict::kPass)},
          {"failed", results.cases(Verdict::kFail)},
          {"unsupported", results.cases(Verdict::kUnsupported)}}},
        {"ops", results.ops.size()},
        {"ops_declared", declared},
        {"seconds", results.seconds}}},
      {"isolated", results.isolated},
      {"tolerances",
       {{"sources", results.tolerance_sources}, {"vendor_overrides", results.tolerance_overrides}}},
      {"notes", results.notes},
      {"ops_without_entry", results.ops_without_entry},
      {"ops", std::move(ops)}};
  if (results.case_results_level != CaseResultsLevel::kNone) {
    report["cases"] = case_results_json(results);
  }
  return report;
}

}  // namespace bp::conformance
