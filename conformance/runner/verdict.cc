#include "conformance/runner/verdict.h"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace bp::conformance {

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> kProfiles = {
      {"tier1", "every tier-1 op passes in float32 (int64 or bool where it has no float32)", 1,
       false},
      {"tier1-all-dtypes", "every tier-1 op passes in every dtype PyTorch supports for it", 1,
       true},
  };
  return kProfiles;
}

const Profile* find_profile(const std::string& name) {
  for (const Profile& p : profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

DtypeSet required_dtypes(const Profile& p, DtypeSet dtypes) {
  if (p.all_dtypes) return dtypes;
  for (ScalarType t : {ScalarType::kFloat32, ScalarType::kInt64, ScalarType::kBool}) {
    if (dtypes.has(t)) return DtypeSet(t);
  }
  return dtypes.empty() ? DtypeSet() : DtypeSet(dtypes.list()[0]);
}

ExpectedFailures ExpectedFailures::parse(const std::string& text) {
  ExpectedFailures xf;
  xf.text = text;
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  while (std::getline(in, raw)) {
    ++number;
    const std::string line = raw.substr(0, raw.find('#'));
    std::istringstream words(line);
    std::string op, dtype, extra;
    if (!(words >> op)) continue;
    if (!(words >> dtype) || (words >> extra)) {
      throw std::runtime_error("expected failures, line " + std::to_string(number) +
                               ": expected '<op> <dtype or *>', got '" + raw + "'");
    }
    if (dtype != "*" && !scalar_type_from_name(dtype)) {
      throw std::runtime_error("expected failures, line " + std::to_string(number) +
                               ": unknown dtype '" + dtype + "'");
    }
    xf.lines.push_back(Line{op, dtype, number});
  }
  return xf;
}

ExpectedFailures ExpectedFailures::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read expected failures file " + path);
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str());
}

namespace {
constexpr std::string_view kExpectedFailuresNote = "expected failures, line ";
}  // namespace

bool is_expected_failures_note(std::string_view note) {
  return note.starts_with(kExpectedFailuresNote);
}

void apply_expected_failures(RunResults& results, const ExpectedFailures& xf) {
  for (const ExpectedFailures::Line& line : xf.lines) {
    OpResult* op = results.find(line.op);
    if (op == nullptr) {
      results.notes.push_back(std::string(kExpectedFailuresNote) + std::to_string(line.line) +
                              ": no op '" + line.op + "' in this run");
      continue;
    }
    for (ScalarType t : op->dtypes.list()) {
      if (line.dtype == "*" || line.dtype == scalar_type_name(t)) {
        if (auto it = op->cells.find(t); it != op->cells.end()) it->second.expected_to_fail = true;
      }
    }
  }
}

RunVerdict judge(const RunResults& results, const Profile* profile, const OpDatabase& db) {
  RunVerdict v;
  std::set<std::string> failing_ops;
  for (const OpResult& op : results.ops) {
    for (ScalarType t : op.dtypes.list()) {
      switch (op.status(t)) {
        case CellStatus::kFail:
          ++v.unexpected_failures;
          failing_ops.insert(op.op);
          break;
        case CellStatus::kExpectedFail:
          ++v.expected_failures;
          break;
        case CellStatus::kUnexpectedPass:
          ++v.unexpected_passes;
          break;
        case CellStatus::kNotRun:
          // A selected dtype of a declared op without any case: the suite checked nothing.
          if (op.declared && op.selected.has(t)) {
            ++v.unexpected_failures;
            failing_ops.insert(op.op);
          }
          break;
        default:
          break;
      }
    }
    // A failed case counts wherever it lands: in an undeclared op (a case file naming an op the
    // registry lacks), a dtype the op does not support, or one filtered out (a crash reported
    // outside any case). Only the expected-failures file excuses it.
    for (const auto& [t, cell] : op.cells) {
      if (cell.failed == 0 || cell.expected_to_fail) continue;
      const CellStatus s = op.status(t);
      if (s == CellStatus::kFail || s == CellStatus::kExpectedFail) continue;  // counted above
      ++v.unexpected_failures;
      failing_ops.insert(op.op);
    }
  }
  if (results.cases_with_results() == 0) {
    v.passed = false;
    v.reasons.push_back(
        "no case ran an op to completion: nothing was checked (every op unsupported, "
        "undeclared or filtered out; error inputs alone do not count)");
  }
  if (!results.ops_without_entry.empty()) {
    v.passed = false;
    std::string names;
    for (const std::string& n : results.ops_without_entry) names += (names.empty() ? "" : ", ") + n;
    v.reasons.push_back(
        std::to_string(results.ops_without_entry.size()) +
        " registered ops have no conformance entry, so nothing checks them: " + names);
  }
  if (v.unexpected_failures > 0) {
    v.passed = false;
    std::string names;
    for (const std::string& n : failing_ops) names += (names.empty() ? "" : ", ") + n;
    v.reasons.push_back(std::to_string(v.unexpected_failures) + " failing op x dtype cells (" +
                        names + ")");
  }
  if (profile != nullptr) {
    std::vector<std::string> gaps;
    auto gap = [&](const std::string& what) {
      ++v.profile_gaps;
      if (gaps.size() < 12) gaps.push_back(what);
    };
    for (const OpEntry& entry : db.entries()) {
      if (entry.tier > profile->tier) continue;
      for (const OpVariant& variant : entry.variants) {
        const OpResult* op = results.find(variant.op);
        // A shard sees only its part of the run: the ops it did not run are the other shards'
        // (or filtered out, which the merged verdict reports).
        if (op == nullptr && results.shard.count > 1) continue;
        for (ScalarType t : required_dtypes(*profile, entry.dtypes).list()) {
          const CellStatus s = op == nullptr ? CellStatus::kNotRun : op->status(t);
          if (s != CellStatus::kPass) {
            gap(variant.op + " " + std::string(scalar_type_name(t)) + " (" +
                std::string(cell_status_name(s)) + ")");
          }
        }
      }
    }
    if (v.profile_gaps > 0) {
      v.passed = false;
      std::string list;
      for (const std::string& g : gaps) list += (list.empty() ? "" : ", ") + g;
      v.reasons.push_back("profile '" + profile->name + "': " + std::to_string(v.profile_gaps) +
                          " required op x dtype cells do not pass: " + list +
                          (v.profile_gaps > 12 ? ", ..." : ""));
    }
  }
  return v;
}

}  // namespace bp::conformance
