// read_report_json: the inverse of report_json (report_json.cc) for what merging needs.
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "conformance/io/report.h"

namespace bp::conformance {
namespace {

using json = nlohmann::json;

DtypeSet dtypes_of(const json& names) {
  DtypeSet set;
  for (const json& n : names) {
    const std::optional<ScalarType> t = scalar_type_from_name(n.get<std::string>());
    if (!t) throw std::runtime_error("unknown dtype '" + n.get<std::string>() + "'");
    set = set | DtypeSet(*t);
  }
  return set;
}

VariantKind kind_of(const std::string& name) {
  for (VariantKind k : {VariantKind::kFunctional, VariantKind::kInplace, VariantKind::kOut}) {
    if (variant_kind_name(k) == name) return k;
  }
  throw std::runtime_error("unknown kind '" + name + "'");
}

Cell cell_of(const json& j) {
  Cell c;
  c.passed = j.at("passed").get<int>();
  c.passed_errors = j.at("passed_errors").get<int>();
  c.failed = j.at("failed").get<int>();
  c.unsupported = j.at("unsupported").get<int>();
  c.unsupported_reason = j.value("unsupported_reason", std::string());
  for (const json& f : j.value("failures", json::array())) {
    c.failures.push_back(
        FailureRecord{f.at("check").get<std::string>(), f.at("sample").get<std::string>(),
                      f.at("message").get<std::string>(), f.at("repro").get<std::string>()});
  }
  return c;
}

OpResult op_of(const json& j) {
  OpResult op;
  op.op = j.at("op").get<std::string>();
  op.entry = j.at("entry").get<std::string>();
  op.family = j.at("family").get<std::string>();
  op.tier = j.at("tier").get<int>();
  op.kind = kind_of(j.at("kind").get<std::string>());
  op.declared = j.at("declared").get<bool>();
  op.serving.path = j.at("dispatch_table").get<std::string>();
  op.serving.via_common = j.at("via_common").get<bool>();
  op.calls = j.at("calls").at("total").get<int64_t>();
  op.calls_via_fallback = j.at("calls").at("cpu_fallback").get<int64_t>();
  // via_fallback in the report also counts kernels' calls of the fallback; with
  // calls_via_fallback restored, the report's value comes out again either way.
  op.serving.via_fallback = j.at("via_fallback").get<bool>() && op.calls_via_fallback == 0;
  op.transfers =
      Transfers{j.at("bytes_to_device").get<int64_t>(), j.at("bytes_to_host").get<int64_t>()};
  op.staging = Transfers{j.at("staging_bytes_to_device").get<int64_t>(),
                         j.at("staging_bytes_to_host").get<int64_t>()};
  const json& h = j.at("handles");
  op.handles = HandleCounts{h.at("created").get<int64_t>(), h.at("released").get<int64_t>(),
                            h.at("returned").get<int64_t>(), h.at("leaked").get<int64_t>(),
                            h.at("over_released").get<int64_t>()};
  op.dtypes = dtypes_of(j.at("op_dtypes"));
  op.selected = dtypes_of(j.at("selected_dtypes"));
  for (const auto& [name, cell] : j.at("dtypes").items()) {
    if (!cell.contains("passed")) continue;  // no case counted for it
    const std::optional<ScalarType> t = scalar_type_from_name(name);
    if (!t) throw std::runtime_error("unknown dtype '" + name + "'");
    op.cells[*t] = cell_of(cell);
  }
  return op;
}

CaseResult case_of(const json& j) {
  CaseResult c;
  c.id = j.at("id").get<std::string>();
  // Database cases' ids start with "<op>/<dtype>/", and then the report leaves op and dtype out.
  const size_t slash = c.id.find('/');
  const size_t second = slash == std::string::npos ? slash : c.id.find('/', slash + 1);
  c.op = j.contains("op") ? j.at("op").get<std::string>() : c.id.substr(0, slash);
  const std::string dtype = j.contains("dtype") ? j.at("dtype").get<std::string>()
                            : second == std::string::npos
                                ? std::string()
                                : c.id.substr(slash + 1, second - slash - 1);
  const std::optional<ScalarType> t = scalar_type_from_name(dtype);
  if (!t) throw std::runtime_error("case '" + c.id + "': unknown dtype '" + dtype + "'");
  c.dtype = *t;
  const std::string status = j.at("status").get<std::string>();
  c.verdict = status == "pass"          ? Verdict::kPass
              : status == "unsupported" ? Verdict::kUnsupported
                                        : Verdict::kFail;
  c.error = status == "error" || j.value("error", false);
  c.message = j.value("message", std::string());
  c.repro = j.value("repro", std::string());
  return c;
}

CaseResultsLevel level_of(const std::string& name) {
  for (CaseResultsLevel l :
       {CaseResultsLevel::kAll, CaseResultsLevel::kFailures, CaseResultsLevel::kNone}) {
    if (case_results_level_name(l) == name) return l;
  }
  throw std::runtime_error("unknown case_results '" + name + "'");
}

ReportFile report_of(const json& j) {
  if (j.value("format", std::string()) != "backplane-conformance-report") {
    throw std::runtime_error(
        "not a backplane-conformance report (no \"format\": "
        "\"backplane-conformance-report\")");
  }
  if (j.value("incomplete", false)) {
    throw std::runtime_error("the placeholder of a run that did not finish, not a report");
  }
  if (j.at("version").get<int>() != 1) {
    throw std::runtime_error("report version " + j.at("version").dump() + "; this suite reads 1");
  }
  ReportFile file;
  file.profile = j.at("profile").is_null() ? "" : j.at("profile").get<std::string>();
  RunResults& r = file.results;
  r.backend = j.at("backend").at("name").get<std::string>();
  r.backend_description = j.at("backend").at("description").get<std::string>();
  r.isolated = j.at("isolated").get<bool>();
  r.seconds = j.at("totals").at("seconds").get<double>();
  r.tolerance_sources = j.at("tolerances").at("sources").get<std::vector<std::string>>();
  r.tolerance_overrides = j.at("tolerances").at("vendor_overrides").get<std::vector<std::string>>();
  r.notes = j.at("notes").get<std::vector<std::string>>();
  r.ops_without_entry = j.at("ops_without_entry").get<std::vector<std::string>>();
  const json& sel = j.at("selection");
  r.ops_names = sel.at("ops").get<std::string>();
  r.ops_regex = sel.at("ops_regex").get<std::string>();
  r.dtypes = dtypes_of(sel.at("dtypes"));
  r.cases_file = sel.at("cases").is_null() ? "" : sel.at("cases").get<std::string>();
  r.shard = Shard{sel.at("shard").at("index").get<int>(), sel.at("shard").at("count").get<int>()};
  if (r.shard.count < 1 || r.shard.index < 1 || r.shard.index > r.shard.count) {
    throw std::runtime_error("selection.shard " + sel.at("shard").dump() + " is not a shard K/N");
  }
  r.case_results_level = level_of(sel.at("case_results").get<std::string>());
  if (const json& xf = j.at("expected_failures"); !xf.is_null()) {
    r.expected_failures_file = xf.at("file").get<std::string>();
    r.expected_failures_text = xf.at("text").get<std::string>();
  }
  for (const json& op : j.at("ops")) r.ops.push_back(op_of(op));
  for (const json& c : j.value("cases", json::array())) r.case_results.push_back(case_of(c));
  return file;
}

}  // namespace

ReportFile read_report_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the report " + path);
  try {
    return report_of(json::parse(in));
  } catch (const std::exception& e) {
    throw std::runtime_error("report " + path + ": " + e.what());
  }
}

}  // namespace bp::conformance
