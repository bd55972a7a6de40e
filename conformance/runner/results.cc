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

// A record's failures (or unsupported reason) on one line.
std::string joined_failures(const CaseRecord& r) {
  std::string message;
  for (const std::string& f : r.failures) message += (message.empty() ? "" : "; ") + f;
  return message;
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
  staging.to_device += r.staging.to_device;
  staging.to_host += r.staging.to_host;
  handles += r.handles;
  if (!r.error) ++calls;
  if (r.fallback_calls > 0) ++calls_via_fallback;
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
        c.failures.push_back(FailureRecord{r.check, r.sample, joined_failures(r), r.repro});
      }
      return;
  }
}

void OpResult::merge(const OpResult& o) {
  dtypes = dtypes | o.dtypes;
  selected = selected | o.selected;
  for (const auto& [dtype, theirs] : o.cells) {
    Cell& c = cells[dtype];
    c.passed += theirs.passed;
    c.passed_errors += theirs.passed_errors;
    c.failed += theirs.failed;
    c.unsupported += theirs.unsupported;
    for (const FailureRecord& f : theirs.failures) {
      if (c.failures.size() < kFailuresKeptPerCell) c.failures.push_back(f);
    }
    if (c.unsupported_reason.empty()) c.unsupported_reason = theirs.unsupported_reason;
    c.expected_to_fail = c.expected_to_fail || theirs.expected_to_fail;
  }
  transfers.to_device += o.transfers.to_device;
  transfers.to_host += o.transfers.to_host;
  staging.to_device += o.staging.to_device;
  staging.to_host += o.staging.to_host;
  handles += o.handles;
  calls += o.calls;
  calls_via_fallback += o.calls_via_fallback;
}

std::string OpResult::served_by() const {
  // A path through a backend fallback already names it; a kernel's hand-offs do not show in the
  // dispatcher's table.
  if (serving.via_fallback || calls_via_fallback == 0) return serving.path;
  return serving.path + " + cpu_fallback (" + std::to_string(calls_via_fallback) + " of " +
         std::to_string(calls) + " calls)";
}

std::string_view case_results_level_name(CaseResultsLevel level) {
  switch (level) {
    case CaseResultsLevel::kAll:
      return "all";
    case CaseResultsLevel::kFailures:
      return "failures";
    case CaseResultsLevel::kNone:
      return "none";
  }
  return "?";
}

void RunResults::add(OpResult& op, const CaseRecord& r) {
  op.add(r);
  if (case_results_level == CaseResultsLevel::kNone) return;
  if (case_results_level == CaseResultsLevel::kFailures && r.verdict == Verdict::kPass) return;
  // Records that are no case's (a crash outside any case, a broken entry) get an id too.
  std::string id =
      r.id.empty() ? r.op + "/" + std::string(scalar_type_name(r.dtype)) + "/" + r.check : r.id;
  case_results.push_back(CaseResult{std::move(id), r.op, r.dtype, r.check, r.verdict, r.error,
                                    joined_failures(r), r.repro});
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
