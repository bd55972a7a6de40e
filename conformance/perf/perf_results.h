// What a perf run measured: per timed call (op x dtype x shape), the backend's time, the CPU
// reference backend's time on the same arguments, bytes read and written, whether the call was
// correct and whether it went through the CPU fallback; the run's memory roof; and the scores
// BackendBench reports, over cells (op x dtype):
//   geomean_speedup   geometric mean over cells of the cell's speedup (the geometric mean of
//                     reference time / backend time over its shapes); a cell with a wrong or
//                     unsupported call counts 1.0: no gain, whatever its time
//   share_faster      cells whose speedup is above 1 and whose calls were all correct
//   share_at_roof     correct cells whose largest call (the most bytes: the one least helped
//                     by caches) reaches >= 0.8 of the memory roof's GB/s
//
//   PerfScores s = perf_scores(perf);
//   nlohmann::json j = perf_json(perf, run_results);   // the report's "perf" section
//
// docs/conformance.md describes the JSON. Thread safety: value types and pure functions.
#ifndef BACKPLANE_CONFORMANCE_PERF_PERF_RESULTS_H_
#define BACKPLANE_CONFORMANCE_PERF_PERF_RESULTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/perf/timing.h"
#include "conformance/runner/results.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {

// The fraction of the memory roof a cell must reach to count as "at the roof".
inline constexpr double kAtRoofFraction = 0.8;

struct PerfRecord {
  std::string op;     // the op timed: "add.Tensor"
  std::string entry;  // its database entry
  ScalarType dtype = ScalarType::kFloat32;
  std::string shape;  // "sample 2" or a catalogue shape's name
  std::string call;   // the arguments in one line: "self=float32[1, 1024, 768] other=..."
  bool correct = false;
  std::string problem;              // why not correct: the first failure, or "unsupported: ..."
  std::optional<Timing> time;       // the backend's; unset when the call was not correct
  std::optional<Timing> reference;  // the CPU reference backend's on the same arguments
  int64_t bytes = 0;                // read + written by one call
  // CPU fallback calls during the timed calls: > 0 when this call went through the fallback
  // (its op's served_by, from the correctness run, says how over all of its calls).
  int64_t fallback_calls = 0;

  // bytes / median time, in 1e9 bytes per second (0 without a time).
  double gbps() const;
  // reference median / backend median (nullopt without both).
  std::optional<double> speedup() const;
};

struct PerfResults {
  std::string backend;
  TimingOptions timing;
  MemoryRoof roof;
  std::vector<std::string> shapes;  // the catalogue shapes selected (--perf-shapes)
  // Whether the reference times are the backend's own (the backend is the CPU reference).
  bool reference_is_backend = false;
  std::vector<PerfRecord> records;
};

// One op x dtype over its shapes.
struct PerfCell {
  std::string op;
  ScalarType dtype = ScalarType::kFloat32;
  int shapes = 0;
  bool correct = true;  // every call correct
  double speedup = 1;   // geometric mean over its shapes (1 when not correct)
  double roof = 0;      // the fraction of the roof its largest call reached (0 when wrong)
  bool via_fallback = false;
};

struct PerfScores {
  int cells = 0;
  int wrong_cells = 0;
  double geomean_speedup = 1;
  double share_faster = 0;
  double share_at_roof = 0;
};

std::vector<PerfCell> perf_cells(const PerfResults& perf);
PerfScores perf_scores(const PerfResults& perf);

// The report's "perf" section: roof, options, scores, cells and records. `run` (may be null)
// adds each op's served_by and via_fallback from the correctness run.
nlohmann::json perf_json(const PerfResults& perf, const RunResults* run);
// A "perf" section read back (for --perf-baseline): backend, roof and records. Errors:
// std::runtime_error naming the field that is missing or of the wrong type.
PerfResults perf_from_json(const nlohmann::json& j);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_PERF_RESULTS_H_
