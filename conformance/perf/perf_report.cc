#include "conformance/perf/perf_report.h"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "conformance/io/report.h"

namespace bp::conformance {
namespace {

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string percent(double share) { return fixed(share * 100, 0) + "%"; }

std::string scores_line(const PerfResults& perf) {
  const PerfScores s = perf_scores(perf);
  return "Perf scores over " + std::to_string(s.cells) + " op x dtype cells: geomean speedup " +
         fixed(s.geomean_speedup, 2) + "x over the CPU reference; " + percent(s.share_faster) +
         " faster than the reference; " + percent(s.share_at_roof) +
         " at >= " + fixed(kAtRoofFraction, 1) + " of the memory roof; " +
         std::to_string(s.wrong_cells) +
         " with wrong or unsupported calls (scored 1.0x, never faster or at the roof)";
}

std::string roof_line(const PerfResults& perf) {
  if (!perf.roof.problem.empty()) return "memory roof: not measured (" + perf.roof.problem + ")";
  return "memory roof: " + fixed(perf.roof.gbps, 2) + " GB/s (a copy of " +
         std::to_string(perf.roof.nbytes >> 20) + " MiB within the device, median of " +
         std::to_string(perf.roof.timing.repeats) + ")";
}

}  // namespace

void print_perf_summary(const PerfResults& perf, const BaselineComparison* baseline,
                        std::ostream& out) {
  out << "\nPerf on backend " << perf.backend << " (" << perf.records.size()
      << " calls timed; warm-up " << perf.timing.warmup << ", " << perf.timing.repeats
      << " repeats each; " << roof_line(perf) << ")\n";
  out << std::left << std::setw(26) << "op" << std::setw(10) << "dtype" << std::setw(8) << "shapes"
      << std::setw(10) << "speedup" << std::setw(10) << "roof"
      << "notes\n";
  for (const PerfCell& c : perf_cells(perf)) {
    out << std::left << std::setw(26) << c.op << std::setw(10) << scalar_type_name(c.dtype)
        << std::setw(8) << c.shapes << std::setw(10) << (fixed(c.speedup, 2) + "x") << std::setw(10)
        << percent(c.roof) << (c.correct ? "" : "WRONG (not timed) ")
        << (c.via_fallback ? "cpu_fallback" : "") << "\n";
  }
  out << scores_line(perf) << "\n";
  if (baseline != nullptr) {
    out << "Perf baseline: " << baseline->compared << " calls compared, "
        << baseline->regressions.size() << " regressions\n";
    for (const std::string& r : baseline->regressions) out << "  " << r << "\n";
  }
}

std::string perf_html(const PerfResults& perf, const RunResults* run,
                      const BaselineComparison* baseline) {
  std::ostringstream h;
  h << "<h2>Perf</h2>\n<p>" << html_escape(scores_line(perf)) << "</p>\n<p>"
    << html_escape(roof_line(perf)) << "; warm-up " << perf.timing.warmup << ", "
    << perf.timing.repeats << " repeats per call; reference times: "
    << (perf.reference_is_backend ? "the backend's own (it is the CPU reference)"
                                  : "the CPU reference backend on the same arguments")
    << "</p>\n";
  if (baseline != nullptr) {
    h << "<p>Baseline: " << baseline->compared << " calls compared, "
      << baseline->regressions.size() << " regressions</p><ul>";
    for (const std::string& r : baseline->regressions) h << "<li>" << html_escape(r) << "</li>";
    h << "</ul>\n";
  }
  h << "<table><tr><th>op</th><th>dtype</th><th>shape</th><th>median us</th><th>spread</th>"
       "<th>min / max us</th><th>GB/s</th><th>roof</th><th>cpu us</th><th>speedup</th>"
       "<th>fallback</th><th>correct</th><th>served by</th></tr>\n";
  for (const PerfRecord& r : perf.records) {
    const OpResult* op = run != nullptr ? run->find(r.op) : nullptr;
    h << "<tr><td class=\"op\">" << html_escape(r.op) << "</td><td>" << scalar_type_name(r.dtype)
      << "</td><td title=\"" << html_escape(r.call) << "\">" << html_escape(r.shape) << "</td>";
    if (r.time) {
      const double roof = perf.roof.gbps > 0 ? r.gbps() / perf.roof.gbps : 0;
      h << "<td>" << fixed(r.time->median_us, 1) << "</td><td>" << percent(r.time->spread)
        << "</td><td>" << fixed(r.time->min_us, 1) << " / " << fixed(r.time->max_us, 1)
        << "</td><td>" << fixed(r.gbps(), 2) << "</td><td>" << percent(roof) << "</td><td>"
        << (r.reference ? fixed(r.reference->median_us, 1) : "") << "</td><td>"
        << (r.speedup() ? fixed(*r.speedup(), 2) + "x" : "") << "</td>";
    } else {
      h << "<td colspan=\"7\">not timed</td>";
    }
    h << "<td>" << (r.fallback_calls > 0 ? "yes" : "no") << "</td><td class=\"c "
      << (r.correct ? "pass\">yes" : "fail\">no: " + html_escape(r.problem))
      << "</td><td class=\"route\">" << (op != nullptr ? html_escape(op->served_by()) : "")
      << "</td></tr>\n";
  }
  h << "</table>\n";
  return h.str();
}

}  // namespace bp::conformance
