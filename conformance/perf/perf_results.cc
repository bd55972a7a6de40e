#include "conformance/perf/perf_results.h"

#include <map>
#include <stdexcept>
#include <utility>

namespace bp::conformance {
namespace {

using json = nlohmann::json;

json timing_json(const Timing& t) {
  return {{"median_us", t.median_us},
          {"min_us", t.min_us},
          {"max_us", t.max_us},
          {"spread", t.spread},
          {"repeats", t.repeats}};
}

// Reading back: each field named in errors.
const json& need(const json& j, const std::string& where, const char* key) {
  if (!j.is_object() || !j.contains(key)) {
    throw std::runtime_error(where + ": missing \"" + key + "\"");
  }
  return j.at(key);
}

template <typename T>
T get(const json& j, const std::string& where, const char* key) {
  const json& v = need(j, where, key);
  try {
    return v.get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(where + ": \"" + key + "\" has the wrong type");
  }
}

std::optional<Timing> timing_from_json(const json& j, const std::string& where) {
  if (j.is_null()) return std::nullopt;
  Timing t;
  t.median_us = get<double>(j, where, "median_us");
  t.min_us = get<double>(j, where, "min_us");
  t.max_us = get<double>(j, where, "max_us");
  t.spread = get<double>(j, where, "spread");
  t.repeats = get<int>(j, where, "repeats");
  return t;
}

double roof_fraction(const PerfRecord& r, const MemoryRoof& roof) {
  return roof.gbps > 0 ? r.gbps() / roof.gbps : 0;
}

}  // namespace

double PerfRecord::gbps() const {
  if (!time || time->median_us <= 0) return 0;
  return static_cast<double>(bytes) / (time->median_us * 1e3);
}

std::optional<double> PerfRecord::speedup() const {
  if (!time || !reference || time->median_us <= 0 || reference->median_us <= 0) {
    return std::nullopt;
  }
  return reference->median_us / time->median_us;
}

std::vector<PerfCell> perf_cells(const PerfResults& perf) {
  std::vector<PerfCell> cells;
  std::map<std::pair<std::string, ScalarType>, size_t> index;
  std::vector<std::vector<double>> speedups;
  std::vector<int64_t> largest;  // per cell: the bytes of its largest call
  for (const PerfRecord& r : perf.records) {
    auto [it, added] = index.try_emplace({r.op, r.dtype}, cells.size());
    if (added) {
      cells.push_back(PerfCell{r.op, r.dtype});
      speedups.emplace_back();
      largest.push_back(-1);
    }
    PerfCell& cell = cells[it->second];
    ++cell.shapes;
    cell.correct = cell.correct && r.correct;
    cell.via_fallback = cell.via_fallback || r.fallback_calls > 0;
    if (const std::optional<double> s = r.speedup()) speedups[it->second].push_back(*s);
    if (r.bytes > largest[it->second]) {
      largest[it->second] = r.bytes;
      cell.roof = roof_fraction(r, perf.roof);
    }
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    // A wrong kernel scores nothing: no gain, whatever it measured.
    cells[i].speedup = cells[i].correct ? geometric_mean(speedups[i]) : 1;
    if (!cells[i].correct) cells[i].roof = 0;
  }
  return cells;
}

PerfScores perf_scores(const PerfResults& perf) {
  PerfScores s;
  std::vector<double> speedups;
  int faster = 0, at_roof = 0;
  for (const PerfCell& c : perf_cells(perf)) {
    ++s.cells;
    if (!c.correct) ++s.wrong_cells;
    speedups.push_back(c.speedup);
    if (c.correct && c.speedup > 1) ++faster;
    if (c.correct && c.roof >= kAtRoofFraction) ++at_roof;
  }
  s.geomean_speedup = geometric_mean(speedups);
  if (s.cells > 0) {
    s.share_faster = static_cast<double>(faster) / s.cells;
    s.share_at_roof = static_cast<double>(at_roof) / s.cells;
  }
  return s;
}

json perf_json(const PerfResults& perf, const RunResults* run) {
  const PerfScores scores = perf_scores(perf);
  json j;
  j["backend"] = perf.backend;
  j["warmup"] = perf.timing.warmup;
  j["repeats"] = perf.timing.repeats;
  j["shapes"] = perf.shapes;
  j["reference"] = perf.reference_is_backend ? "the backend itself (it is the CPU reference)"
                                             : "the CPU reference backend, same arguments";
  j["roof"] = {{"bytes", perf.roof.nbytes},
               {"gbps", perf.roof.gbps},
               {"problem", perf.roof.problem},
               {"time", timing_json(perf.roof.timing)},
               {"how", "a copy within the device through its copy functions; read + written"}};
  j["scores"] = {{"cells", scores.cells},
                 {"wrong_cells", scores.wrong_cells},
                 {"geomean_speedup", scores.geomean_speedup},
                 {"share_faster", scores.share_faster},
                 {"share_at_roof", scores.share_at_roof},
                 {"at_roof_fraction", kAtRoofFraction}};
  json cells = json::array();
  for (const PerfCell& c : perf_cells(perf)) {
    cells.push_back({{"op", c.op},
                     {"dtype", scalar_type_name(c.dtype)},
                     {"shapes", c.shapes},
                     {"correct", c.correct},
                     {"speedup", c.speedup},
                     {"roof_fraction", c.roof},
                     {"via_fallback", c.via_fallback}});
  }
  j["cells"] = std::move(cells);
  json records = json::array();
  for (const PerfRecord& r : perf.records) {
    const OpResult* op = run != nullptr ? run->find(r.op) : nullptr;
    json rec = {{"op", r.op},
                {"entry", r.entry},
                {"dtype", scalar_type_name(r.dtype)},
                {"shape", r.shape},
                {"call", r.call},
                {"correct", r.correct},
                {"problem", r.problem},
                {"time", r.time ? timing_json(*r.time) : json()},
                {"reference_time", r.reference ? timing_json(*r.reference) : json()},
                {"bytes", r.bytes},
                {"gbps", r.gbps()},
                {"roof_fraction", roof_fraction(r, perf.roof)},
                {"speedup", r.speedup() ? json(*r.speedup()) : json()},
                {"fallback_calls", r.fallback_calls},
                {"via_fallback", r.fallback_calls > 0}};
    if (op != nullptr) rec["served_by"] = op->served_by();
    records.push_back(std::move(rec));
  }
  j["records"] = std::move(records);
  return j;
}

PerfResults perf_from_json(const json& j) {
  PerfResults perf;
  perf.backend = get<std::string>(j, "perf", "backend");
  const json& roof = need(j, "perf", "roof");
  perf.roof.nbytes = get<size_t>(roof, "perf.roof", "bytes");
  perf.roof.gbps = get<double>(roof, "perf.roof", "gbps");
  const json& records = need(j, "perf", "records");
  if (!records.is_array()) throw std::runtime_error("perf: \"records\" is not an array");
  for (size_t i = 0; i < records.size(); ++i) {
    const json& rj = records[i];
    const std::string where = "perf.records[" + std::to_string(i) + "]";
    PerfRecord r;
    r.op = get<std::string>(rj, where, "op");
    r.entry = get<std::string>(rj, where, "entry");
    const std::string dtype = get<std::string>(rj, where, "dtype");
    const std::optional<ScalarType> t = scalar_type_from_name(dtype);
    if (!t) throw std::runtime_error(where + ": unknown dtype '" + dtype + "'");
    r.dtype = *t;
    r.shape = get<std::string>(rj, where, "shape");
    r.call = get<std::string>(rj, where, "call");
    r.correct = get<bool>(rj, where, "correct");
    r.problem = get<std::string>(rj, where, "problem");
    r.time = timing_from_json(need(rj, where, "time"), where + ".time");
    r.reference = timing_from_json(need(rj, where, "reference_time"), where + ".reference_time");
    r.bytes = get<int64_t>(rj, where, "bytes");
    r.fallback_calls = get<int64_t>(rj, where, "fallback_calls");
    perf.records.push_back(std::move(r));
  }
  return perf;
}

}  // namespace bp::conformance
