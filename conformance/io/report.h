// Reports of a run: the summary table printed at the end, the JSON report (everything, for
// machines), and the self-contained HTML report (an op x dtype matrix in colours, the
// failures with their repro files, the per-case results, the tolerances used, and for plugin
// backends which ops ran through the Common key or a CPU fallback and how many bytes they moved).
//
//   print_summary(results, verdict, profile, std::cout);
//   write_text_file("report.json", report_json(results, verdict, profile).dump(2));
//   write_text_file("report.html", report_html(results, verdict, profile));
//
// docs/conformance.md describes the JSON report's fields.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_IO_REPORT_H_
#define BACKPLANE_CONFORMANCE_IO_REPORT_H_

#include <ostream>
#include <string>
#include <vector>

#include "conformance/runner/results.h"
#include "conformance/runner/verdict.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {

// `profile` may be null.
void print_summary(const RunResults& results, const RunVerdict& verdict, const Profile* profile,
                   std::ostream& out);
nlohmann::json report_json(const RunResults& results, const RunVerdict& verdict,
                           const Profile* profile);
// `more_sections`: HTML appended to the body (the perf mode's tables), "" for none.
std::string report_html(const RunResults& results, const RunVerdict& verdict,
                        const Profile* profile, const std::string& more_sections = "");
// `s` with &, <, > and " escaped for HTML text and attribute values.
std::string html_escape(const std::string& s);
// The statuses of results.case_results, in order, as the reports give them: "pass", "fail",
// "error", "unsupported", or "xfail" (a failure or error in a cell the expected-failures file
// lists).
std::vector<std::string> case_statuses(const RunResults& results);
// Whether a case's id starts with "<op>/<dtype>/" (the op database's ids): the reports then do not
// name its op and dtype again.
bool case_id_names_op(const CaseResult& c);

// A JSON report read back, for `backplane-conformance merge`: the run's results as far as the
// report holds them (ops, cells with their counts and first failures, per-case results, the
// selection, shard and expected-failures file; not the per-cell expected-failure marks, which
// merging applies again from the file's text) and its profile's name ("" for none).
struct ReportFile {
  RunResults results;
  std::string profile;
};
// Errors: std::runtime_error naming `path`: unreadable, not JSON, not a report of this format or
// version, the placeholder of a run that did not finish, or a field missing or of the wrong type.
ReportFile read_report_json(const std::string& path);

// Writes `text` to `path`, creating its directory. Errors: std::runtime_error.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_IO_REPORT_H_
