#include "conformance/perf/baseline.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace bp::conformance {
namespace {

using Key = std::tuple<std::string, ScalarType, std::string>;

Key key_of(const PerfRecord& r) { return {r.op, r.dtype, r.shape}; }

// "add.Tensor float32 sample 3 (self=float32[5, 7]{T} other=float32[5, 7]{T})": the sample's
// index alone would not say which call it is.
std::string name_of(const PerfRecord& r) {
  std::string name = r.op + " " + std::string(scalar_type_name(r.dtype)) + " " + r.shape;
  const std::string call = r.call.substr(0, r.call.find("  ("));  // without the sample's note
  return call.empty() ? name : name + " (" + call + ")";
}

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

}  // namespace

BaselineComparison compare_with_baseline(const PerfResults& now, const PerfResults& baseline,
                                         double threshold) {
  BaselineComparison cmp;
  std::map<Key, const PerfRecord*> old;
  for (const PerfRecord& r : baseline.records) {
    if (r.time) old[key_of(r)] = &r;
  }
  const std::string limit = "threshold +" + fixed(threshold * 100, 0) + "% and " +
                            fixed(kBaselineNoiseFloorUs, 0) + " us";
  for (const PerfRecord& r : now.records) {
    auto it = old.find(key_of(r));
    if (it == old.end()) {
      if (r.time) cmp.notes.push_back(name_of(r) + ": not timed in the baseline");
      continue;
    }
    const PerfRecord& before = *it->second;
    old.erase(it);
    if (!r.time) {
      cmp.notes.push_back(name_of(r) + ": timed in the baseline, not now (" + r.problem + ")");
      continue;
    }
    ++cmp.compared;
    const double was = before.time->min_us;
    const double is = r.time->min_us;
    if (is > was * (1 + threshold) && is - was > kBaselineNoiseFloorUs) {
      cmp.regressions.push_back("perf regression: " + name_of(r) + ": fastest of " +
                                std::to_string(r.time->repeats) + " repeats " + fixed(was, 1) +
                                " us in the baseline, " + fixed(is, 1) + " us now (" +
                                fixed(was > 0 ? is / was : 0, 2) + "x; " + limit + ")");
    }
  }
  for (const auto& [key, r] : old) {
    cmp.notes.push_back(name_of(*r) + ": in the baseline, not timed in this run");
  }
  return cmp;
}

PerfResults read_perf_baseline(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--perf-baseline: cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw std::runtime_error("--perf-baseline: " + path + " is not JSON");
  if (!j.is_object() || !j.contains("perf")) {
    throw std::runtime_error("--perf-baseline: " + path +
                             " has no \"perf\" section: give the JSON report of a run with --perf");
  }
  try {
    return perf_from_json(j.at("perf"));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("--perf-baseline: " + path + ": " + e.what());
  }
}

}  // namespace bp::conformance
