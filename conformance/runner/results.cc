#include "conformance/runner/results.h"

namespace bp::conformance {
namespace {

constexpr size_t kFailuresKeptPerCell = 5;

// Higher is worse, for overall().
int severity(CellStatus s) {
  switch (s) {
    case CellStatus::kNotApplicable:
      return 0;
    case CellStatus::kPass:
      return 1;
    case CellStatus::kUnexpectedPass:
      return 2;
    case CellStatus::kExpectedFail:
      return 3;
    case CellStatus::kPartial:
      return 4;
    case CellStatus::kUnsupported:
      return 5;
    case CellStatus::kNotDeclared:
      return 6;
    case CellStatus::kNotRun:
      return 7;
    case CellStatus::kFail:
      return 8;
  }
  return 8;
}

}  // namespace

std::string_view cell_status_name(CellStatus s) {
  switch (s) {
    case CellStatus::kPass:
      return "pass";
    case CellStatus::kFail:
      return "fail";
    case CellStatus::kUnsupported:
      return "unsupported";
    case CellStatus::kPartial:
      return "partial";
    case CellStatus::kNotDeclared:
      return "not declared";
    case CellStatus::kNotApplicable:
      return "n/a";
    case CellStatus::kNotRun:
      return "not run";
    case CellStatus::kExpectedFail:
      return "xfail";
    case CellStatus::kUnexpectedPass:
      return "xpass";
  }
  return "?";
}

CellStatus OpResult::status(ScalarType dtype) const {
  if (!dtypes.has(dtype)) return CellStatus::kNotApplicable;
  if (!declared) return CellStatus::kNotDeclared;
  auto it = cells.find(dtype);
  if (!selected.has(dtype) || it == cells.end()) return CellStatus::kNotRun;
  const Cell& c = it->second;
  CellStatus s;
  if (c.failed > 0) {
    s = CellStatus::kFail;
  } else if (c.unsupported > 0) {
    s = c.passed > c.passed_errors ? CellStatus::kPartial : CellStatus::kUnsupported;
  } else if (c.passed > 0) {
    s = CellStatus::kPass;
  } else {
    return CellStatus::kNotRun;
  }
  if (c.expected_to_fail) {
    if (s == CellStatus::kFail) return CellStatus::kExpectedFail;
    if (s == CellStatus::kPass) return CellStatus::kUnexpectedPass;
  }
  return s;
}

CellStatus OpResult::overall() const {
  CellStatus worst = CellStatus::kNotApplicable;
  for (ScalarType t : (dtypes & selected).list()) {
    const CellStatus s = status(t);
    if (severity(s) > severity(worst)) worst = s;
  }
  if (!declared) return CellStatus::kNotDeclared;
  return worst;
}

void OpResult::add(const CaseRecord& r) {
  Cell& c = cells[r.dtype];
  transfers.to_device += r.transfers.to_device;
  transfers.to_host += r.transfers.to_host;
  handles += r.handles;
  switch (r.verdict) {
    case Verdict::kPass:
      ++c.passed;
      if (r.expects_error) ++c.passed_errors;
      return;
    case Verdict::kUnsupported:
      ++c.unsupported;
      if (c.unsupported_reason.empty() && !r.failures.empty()) c.unsupported_reason = r.failures[0];
      return;
    case Verdict::kFail:
      ++c.failed;
      if (c.failures.size() < kFailuresKeptPerCell) {
        std::string message;
        for (const std::string& f : r.failures) message += (message.empty() ? "" : "; ") + f;
        c.failures.push_back(FailureRecord{r.check, r.sample, message, r.repro});
      }
      return;
  }
}

int64_t RunResults::cases(Verdict v) const {
  int64_t n = 0;
  for (const OpResult& op : ops) {
    for (const auto& [dtype, c] : op.cells) {
      n += v == Verdict::kPass ? c.passed : v == Verdict::kFail ? c.failed : c.unsupported;
    }
  }
  return n;
}

int64_t RunResults::cases_with_results() const {
  int64_t n = 0;
  for (const OpResult& op : ops) {
    for (const auto& [dtype, c] : op.cells) n += c.passed - c.passed_errors + c.failed;
  }
  return n;
}

OpResult* RunResults::find(std::string_view op) {
  for (OpResult& r : ops) {
    if (r.op == op) return &r;
  }
  return nullptr;
}

const OpResult* RunResults::find(std::string_view op) const {
  return const_cast<RunResults*>(this)->find(op);
}

}  // namespace bp::conformance
