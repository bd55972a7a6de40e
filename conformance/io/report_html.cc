#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/io/report.h"

namespace bp::conformance {

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

std::string escape(const std::string& s) { return html_escape(s); }

// CSS class of a status (colours in kStyle).
std::string css(CellStatus s) {
  switch (s) {
    case CellStatus::kPass:
      return "pass";
    case CellStatus::kFail:
      return "fail";
    case CellStatus::kUnsupported:
      return "unsup";
    case CellStatus::kPartial:
      return "partial";
    case CellStatus::kNotDeclared:
      return "undecl";
    case CellStatus::kNotApplicable:
      return "na";
    case CellStatus::kNotRun:
      return "notrun";
    case CellStatus::kExpectedFail:
      return "xfail";
    case CellStatus::kUnexpectedPass:
      return "xpass";
  }
  return "";
}

// Two characters per cell: the matrix stays readable at a glance and without colour.
std::string mark(CellStatus s) {
  switch (s) {
    case CellStatus::kPass:
      return "&#10003;";
    case CellStatus::kFail:
      return "&#10007;";
    case CellStatus::kUnsupported:
      return "U";
    case CellStatus::kPartial:
      return "P";
    case CellStatus::kNotDeclared:
      return "&middot;";
    case CellStatus::kNotApplicable:
      return "";
    case CellStatus::kNotRun:
      return "?";
    case CellStatus::kExpectedFail:
      return "xf";
    case CellStatus::kUnexpectedPass:
      return "xp";
  }
  return "";
}

// The CSS class of a case's status (case_statuses).
std::string case_css(const std::string& status) {
  if (status == "pass") return "pass";
  if (status == "unsupported") return "unsup";
  if (status == "xfail") return "xfail";
  return "fail";  // fail, error
}

// Above this many kept cases, the page lists only those that did not pass: a row per case of the
// whole op database (167,652) would make a page of tens of megabytes; report.json has them all.
constexpr size_t kMaxCaseRows = 2000;

// The per-case results (--case-results) as a table, or "" when the run kept none.
std::string cases_section(const RunResults& results) {
  if (results.case_results.empty()) return "";
  const std::vector<std::string> statuses = case_statuses(results);
  const bool every_case = results.case_results.size() <= kMaxCaseRows;
  std::ostringstream h;
  size_t passing_left_out = 0;
  h << "<h2>Cases</h2>\n<table class=\"cases\"><tr><th>case</th><th>status</th><th>message</th>"
       "<th>repro</th></tr>\n";
  for (size_t i = 0; i < results.case_results.size(); ++i) {
    const CaseResult& c = results.case_results[i];
    const std::string& status = statuses[i];
    if (!every_case && status == "pass") {
      ++passing_left_out;
      continue;
    }
    h << "<tr><td class=\"op\">" << escape(c.id)
      << (case_id_names_op(c) ? ""
                              : " <span class=\"route\">(" + escape(c.op) + " " +
                                    std::string(scalar_type_name(c.dtype)) + ")</span>")
      << "</td><td class=\"" << case_css(status) << "\">" << status
      << (c.error && status == "xfail" ? " (error)" : "") << "</td><td>" << escape(c.message)
      << "</td><td class=\"op\">" << escape(c.repro) << "</td></tr>\n";
  }
  h << "</table>\n";
  if (passing_left_out > 0) {
    h << "<p>" << passing_left_out << " passing cases are left out of this page (more than "
      << kMaxCaseRows << " cases were kept); the JSON report lists every case.</p>\n";
  }
  return h.str();
}

constexpr char kStyle[] = R"css(
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; }
.meta { color: #555; font-size: 13px; margin-bottom: 12px; }
.verdict { padding: 10px 14px; border-radius: 6px; font-weight: 600; margin: 12px 0; }
.verdict.ok { background: #d9f2dc; border: 1px solid #3c9a48; }
.verdict.bad { background: #fadbd8; border: 1px solid #c0392b; }
.verdict ul { margin: 6px 0 0 0; font-weight: normal; }
table.matrix { border-collapse: collapse; font-size: 12px; }
table.matrix th, table.matrix td { border: 1px solid #ddd; padding: 2px 6px; }
table.matrix th.dt { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; }
table.matrix td.c { text-align: center; min-width: 22px; }
td.op { font-family: monospace; white-space: nowrap; }
table.cases { border-collapse: collapse; font-size: 12px; }
table.cases th, table.cases td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
tr.family td { background: #eef; font-weight: 600; }
.pass { background: #4caf50; color: white; } .fail { background: #e53935; color: white; }
.unsup { background: #ff9800; color: white; } .partial { background: #ffd54f; }
.undecl { background: #cfcfcf; color: #555; } .na { background: #fafafa; }
.notrun { background: #9e9e9e; color: white; } .xfail { background: #8e24aa; color: white; }
.xpass { background: #1e88e5; color: white; }
.legend span { display: inline-block; padding: 2px 8px; margin-right: 6px; border-radius: 3px; font-size: 12px; }
.route { color: #555; font-size: 11px; }
details { margin: 4px 0; } summary { cursor: pointer; font-family: monospace; }
pre { background: #f6f6f6; padding: 6px; white-space: pre-wrap; font-size: 12px; }
)css";

}  // namespace

std::string report_html(const RunResults& results, const RunVerdict& verdict,
                        const Profile* profile, const std::string& more_sections) {
  std::ostringstream h;
  const std::vector<ScalarType> dtypes = kAllDtypes.list();
  h << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Backplane conformance: "
    << escape(results.backend) << "</title><style>" << kStyle << "</style></head><body>\n";
  h << "<h1>Backplane conformance: backend <code>" << escape(results.backend) << "</code></h1>\n";
  h << "<div class=\"meta\">" << escape(results.backend_description) << " &middot; profile "
    << (profile != nullptr ? escape(profile->name) : std::string("none")) << " &middot; "
    << std::fixed << std::setprecision(1) << results.seconds << " s"
    << (results.isolated ? " &middot; crash isolation" : "")
    << (results.shard.count > 1 ? " &middot; shard " + std::to_string(results.shard.index) + "/" +
                                      std::to_string(results.shard.count)
                                : std::string())
    << " &middot; cases: " << results.cases(Verdict::kPass) << " passed, "
    << results.cases(Verdict::kFail) << " failed, " << results.cases(Verdict::kUnsupported)
    << " unsupported</div>\n";
  h << "<div class=\"verdict " << (verdict.passed ? "ok" : "bad")
    << "\">Verdict: " << (verdict.passed ? "PASS" : "FAIL");
  if (!verdict.reasons.empty()) {
    h << "<ul>";
    for (const std::string& r : verdict.reasons) h << "<li>" << escape(r) << "</li>";
    h << "</ul>";
  }
  h << "</div>\n<div class=\"legend\">";
  for (CellStatus s :
       {CellStatus::kPass, CellStatus::kFail, CellStatus::kUnsupported, CellStatus::kPartial,
        CellStatus::kNotDeclared, CellStatus::kNotRun, CellStatus::kExpectedFail,
        CellStatus::kUnexpectedPass, CellStatus::kNotApplicable}) {
    h << "<span class=\"" << css(s) << "\">" << cell_status_name(s) << "</span>";
  }
  h << "</div>\n<h2>Ops &times; dtypes</h2>\n<table class=\"matrix\"><tr><th>op</th><th>tier</th>";
  for (ScalarType t : dtypes) h << "<th class=\"dt\">" << scalar_type_name(t) << "</th>";
  h << "<th>served by</th></tr>\n";
  std::string family;
  for (const OpResult& op : results.ops) {
    if (op.family != family) {
      family = op.family;
      h << "<tr class=\"family\"><td colspan=\"" << dtypes.size() + 3 << "\">" << escape(family)
        << "</td></tr>\n";
    }
    h << "<tr><td class=\"op\">" << escape(op.op) << "</td><td>" << op.tier << "</td>";
    for (ScalarType t : dtypes) {
      const CellStatus s = op.status(t);
      std::ostringstream title;
      title << op.op << " " << scalar_type_name(t) << ": " << cell_status_name(s);
      if (auto it = op.cells.find(t); it != op.cells.end()) {
        title << " (" << it->second.passed << " passed, " << it->second.failed << " failed, "
              << it->second.unsupported << " unsupported)";
        if (!it->second.failures.empty())
          title << "\n" << it->second.failures[0].message;
        else if (!it->second.unsupported_reason.empty())
          title << "\n" << it->second.unsupported_reason;
      }
      h << "<td class=\"c " << css(s) << "\" title=\"" << escape(title.str()) << "\">" << mark(s)
        << "</td>";
    }
    h << "<td class=\"route\">" << escape(op.served_by());
    if (op.transfers.total() > 0) h << "; " << op.transfers.total() << " bytes moved by its calls";
    if (op.handles.leaked > 0) h << "; " << op.handles.leaked << " tensor references leaked";
    if (op.handles.over_released > 0)
      h << "; " << op.handles.over_released << " tensor references over-released";
    h << "</td></tr>\n";
  }
  h << "</table>\n<h2>Failures</h2>\n";
  bool any = false;
  for (const OpResult& op : results.ops) {
    for (const auto& [dtype, cell] : op.cells) {
      for (const FailureRecord& f : cell.failures) {
        any = true;
        h << "<details><summary>" << escape(op.op) << " " << scalar_type_name(dtype) << " ["
          << escape(f.check) << "]</summary><pre>" << escape(f.message)
          << "\nsample: " << escape(f.sample);
        if (!f.repro.empty()) h << "\nrepro:  " << escape(f.repro);
        h << "</pre></details>\n";
      }
    }
  }
  if (!any) h << "<p>None.</p>\n";
  h << cases_section(results);
  h << "<h2>Tolerances</h2><ul>";
  for (const std::string& s : results.tolerance_sources) h << "<li>" << escape(s) << "</li>";
  for (const std::string& s : results.tolerance_overrides) {
    h << "<li>vendor override: " << escape(s) << "</li>";
  }
  h << "</ul>\n";
  for (const std::string& n : results.notes) h << "<p>Note: " << escape(n) << "</p>\n";
  h << more_sections;
  h << "</body></html>\n";
  return h.str();
}

}  // namespace bp::conformance
