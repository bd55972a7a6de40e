#include <iomanip>
#include <sstream>

#include "conformance/io/report.h"

namespace bp::conformance {
namespace {

constexpr size_t kFailuresShown = 20;

// An op's cells (its PyTorch dtypes) by status, as the summary's columns count them.
struct Counts {
  int pass = 0, fail = 0, unsupported = 0, xfail = 0, not_run = 0;
};

Counts count_cells(const OpResult& op) {
  Counts c;
  for (ScalarType t : op.dtypes.list()) {
    switch (op.status(t)) {
      case CellStatus::kPass:
      case CellStatus::kUnexpectedPass:
        ++c.pass;
        break;
      case CellStatus::kFail:
        ++c.fail;
        break;
      case CellStatus::kUnsupported:
      case CellStatus::kPartial:
        ++c.unsupported;
        break;
      case CellStatus::kExpectedFail:
        ++c.xfail;
        break;
      case CellStatus::kNotRun:
      case CellStatus::kNotDeclared:  // undeclared ops are listed apart, not in the table
      case CellStatus::kNotApplicable:
        ++c.not_run;
    }
  }
  return c;
}

}  // namespace

void print_summary(const RunResults& results, const RunVerdict& verdict, const Profile* profile,
                   std::ostream& out) {
  out << "\nBackplane conformance on backend '" << results.backend << "' ("
      << results.backend_description << ")" << (results.isolated ? ", isolated" : "");
  if (results.shard.count > 1) {
    out << ", shard " << results.shard.index << "/" << results.shard.count;
  }
  out << ", " << std::fixed << std::setprecision(1) << results.seconds << " s\n\n";
  out << "Columns count an op's op x dtype cells (its PyTorch dtypes): pass (unexpected passes\n"
         "included), fail, unsup (unsupported or partial), xfail (expected failures), not run\n"
         "(dtype filtered out, or no case made).\n\n";
  out << std::left << std::setw(26) << "op" << std::setw(6) << "tier" << std::setw(12) << "variant"
      << std::right << std::setw(6) << "pass" << std::setw(6) << "fail" << std::setw(7) << "unsup"
      << std::setw(7) << "xfail" << std::setw(9) << "not run"
      << "  status\n";
  std::vector<std::string> undeclared;
  for (const OpResult& op : results.ops) {
    if (!op.declared) {
      undeclared.push_back(op.op);
      continue;
    }
    const Counts c = count_cells(op);
    out << std::left << std::setw(26) << op.op << std::setw(6) << op.tier << std::setw(12)
        << variant_kind_name(op.kind) << std::right << std::setw(6) << c.pass << std::setw(6)
        << c.fail << std::setw(7) << c.unsupported << std::setw(7) << c.xfail << std::setw(9)
        << c.not_run << "  " << cell_status_name(op.overall()) << "\n";
  }
  if (!undeclared.empty()) {
    out << "\nNot declared yet (" << undeclared.size() << " ops, reported as 'not declared'):";
    for (size_t i = 0; i < undeclared.size(); ++i) {
      out << (i % 8 == 0 ? "\n  " : " ") << undeclared[i];
    }
    out << "\n";
  }
  size_t shown = 0;
  for (const OpResult& op : results.ops) {
    for (const auto& [dtype, cell] : op.cells) {
      for (const FailureRecord& f : cell.failures) {
        if (shown == 0) out << "\nFailures:\n";
        if (shown++ >= kFailuresShown) continue;
        out << "  " << op.op << " " << scalar_type_name(dtype) << " [" << f.check << "] "
            << f.message << "\n      sample: " << f.sample << "\n";
        if (!f.repro.empty()) out << "      repro:  " << f.repro << "\n";
      }
    }
  }
  if (shown > kFailuresShown)
    out << "  ... and " << shown - kFailuresShown << " more (see the reports)\n";
  bool routed = false;
  for (const OpResult& op : results.ops) {
    if (!op.serving.via_common && !op.via_fallback()) continue;
    if (!routed) out << "\nOps served through the Common key or the CPU fallback:\n";
    routed = true;
    out << "  " << std::left << std::setw(24) << op.op << " " << op.served_by() << "; "
        << op.transfers.to_device << " bytes to the device, " << op.transfers.to_host
        << " bytes back during its calls\n";
  }
  bool ledger = false;
  for (const OpResult& op : results.ops) {
    if (op.handles.leaked == 0 && op.handles.over_released == 0) continue;
    if (!ledger) out << "\nTensor handles leaked or over-released by the backend's kernels:\n";
    ledger = true;
    out << "  " << std::left << std::setw(24) << op.op << " " << op.handles.created
        << " references created, " << op.handles.released << " released, " << op.handles.returned
        << " returned, " << op.handles.leaked << " leaked, " << op.handles.over_released
        << " over-released\n";
  }
  for (const std::string& source : results.tolerance_sources) {
    if (&source != &results.tolerance_sources.front())
      out << "\nVendor tolerances: " << source << "\n";
  }
  for (const std::string& note : results.notes) out << "\nNote: " << note << "\n";
  out << "\nCases: " << results.cases(Verdict::kPass) << " passed, "
      << results.cases(Verdict::kFail) << " failed, " << results.cases(Verdict::kUnsupported)
      << " unsupported.";
  if (verdict.expected_failures > 0)
    out << " Expected failures: " << verdict.expected_failures << ".";
  if (verdict.unexpected_passes > 0) {
    out << " Unexpected passes: " << verdict.unexpected_passes
        << " (listed as expected failures, but they pass: update the list).";
  }
  out << "\nProfile: " << (profile != nullptr ? profile->name : std::string("none")) << "\n";
  out << "Verdict: " << (verdict.passed ? "PASS" : "FAIL") << "\n";
  for (const std::string& r : verdict.reasons) out << "  - " << r << "\n";
}

}  // namespace bp::conformance
