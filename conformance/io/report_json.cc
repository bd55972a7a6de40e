#include <filesystem>
#include <fstream>
#include <stdexcept>

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

json report_json(const RunResults& results, const RunVerdict& verdict, const Profile* profile) {
  json ops = json::array();
  for (const OpResult& op : results.ops) {
    json dtypes = json::object();
    for (ScalarType t : kAllDtypes.list()) {
      json cell{{"status", std::string(cell_status_name(op.status(t)))}};
      if (auto it = op.cells.find(t); it != op.cells.end()) {
        const Cell& c = it->second;
        cell["passed"] = c.passed;
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
                       {"served_by", op.serving.path},
                       {"via_common", op.serving.via_common},
                       {"via_fallback", op.serving.via_fallback},
                       {"bytes_to_device", op.transfers.to_device},
                       {"bytes_to_host", op.transfers.to_host},
                       {"handles",
                        {{"created", op.handles.created},
                         {"released", op.handles.released},
                         {"returned", op.handles.returned},
                         {"leaked", op.handles.leaked},
                         {"over_released", op.handles.over_released}}},
                       {"dtypes", std::move(dtypes)}});
  }
  int declared = 0;
  for (const OpResult& op : results.ops) declared += op.declared;
  return json{
      {"format", "backplane-conformance-report"},
      {"version", 1},
      {"backend", {{"name", results.backend}, {"description", results.backend_description}}},
      {"profile", profile != nullptr ? json(profile->name) : json(nullptr)},
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
      {"ops", std::move(ops)}};
}

}  // namespace bp::conformance
