#include "conformance/perf/perf_run.h"

#include "conformance/perf/perf_samples.h"
#include "conformance/runner/execute.h"
#include "conformance/runner/in_flight.h"
#include "conformance/runner/run.h"
#include "conformance/runner/stack.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/cpu_fallback.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

int64_t distinct_bytes(const Tensor& t) {
  int64_t n = 1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.strides()[d] != 0) n *= t.sizes()[d];
  }
  if (t.numel() == 0) n = 0;
  return n * static_cast<int64_t>(t.itemsize());
}

// Times `c`'s call on `backend`: its arguments staged once, then each call on a copy of the
// prepared stack (the same tensors), the backend synchronized after it.
Timing time_case(const Case& c, const OperatorHandle& op, const Backend& backend,
                 const TimingOptions& timing) {
  const PreparedCall prepared = prepare_call(op.schema(), c.args, backend.device());
  WarningCapture quiet;  // resize warnings and the like, once per call
  return time_calls(
      [&] {
        Stack stack = prepared.stack;
        op.call_boxed(&stack);
      },
      [&] { backend.synchronize(); }, timing);
}

void add_record(RunResults& results, const CaseRecord& record) {
  if (OpResult* op = results.find(record.op)) results.add(*op, record);
}

}  // namespace

int64_t bytes_moved(const Case& c, const std::vector<RefTensor>& outputs) {
  int64_t bytes = 0;
  for (const SampleArg& a : c.args) {
    if (const auto* t = std::get_if<TensorArg>(&a.value)) bytes += distinct_bytes(t->host);
    if (const auto* list = std::get_if<TensorListArg>(&a.value)) {
      for (const Tensor& t : list->host) bytes += distinct_bytes(t);
    }
  }
  for (const RefTensor& o : outputs) {
    bytes += o.numel() * static_cast<int64_t>(element_size(o.dtype));
  }
  return bytes;
}

PerfResults run_perf(const OpDatabase& db, const Backend& backend, const PerfOptions& options,
                     RunResults& results) {
  const Tolerances& tolerances = options.tolerances ? *options.tolerances : Tolerances::builtin();
  PerfResults perf;
  perf.backend = backend.name();
  perf.timing = options.timing;
  perf.reference_is_backend = options.reference == nullptr;
  for (const CatalogueShape& s : options.shapes) perf.shapes.push_back(s.name);
  set_in_flight("measuring the memory roof of " + backend.name());
  try {
    perf.roof = measure_memory_roof(backend, options.roof_bytes, options.timing);
  } catch (const Error& e) {
    perf.roof.nbytes = options.roof_bytes;
    perf.roof.problem = e.message();
  }
  for (const OpEntry* entry : select_entries(db, options.ops)) {
    if (options.progress) options.progress(entry->name);
    for (ScalarType dtype : (entry->dtypes & options.dtypes).list()) {
      const PerfPlan plan = perf_cases(*entry, dtype, options.shapes, tolerances);
      // An entry_error is the correctness run's to report (run_entry plans the same samples).
      for (const PerfCase& p : plan.cases) {
        const Case& c = p.c;
        set_in_flight(
            case_in_flight(c.op, scalar_type_name(dtype), c.check + ", perf", c.description));
        const CaseOutcome outcome = execute(c, backend, ExecuteOptions{options.reference});
        add_record(results, record_of(c, outcome));
        PerfRecord r;
        r.op = c.op;
        r.entry = entry->name;
        r.dtype = dtype;
        r.shape = p.shape;
        r.call = c.description;
        r.correct = outcome.verdict == Verdict::kPass;
        r.bytes = bytes_moved(c, outcome.actual);
        if (!r.correct) {
          r.problem = outcome.failures.empty() ? std::string(verdict_name(outcome.verdict))
                                               : outcome.failures.front();
          perf.records.push_back(std::move(r));
          continue;
        }
        const OperatorHandle op = *Dispatcher::singleton().find_op(c.op);
        try {
          const int64_t fallback_before = cpu_fallback_calls();
          r.time = time_case(c, op, backend, options.timing);
          r.fallback_calls = cpu_fallback_calls() - fallback_before;
          r.reference = options.reference == nullptr
                            ? r.time
                            : time_case(c, op, *options.reference, options.timing);
        } catch (const std::exception& e) {
          // A call that passed its check once and then raised: not a result to score.
          const Error* error = dynamic_cast<const Error*>(&e);
          r.correct = false;
          r.time.reset();
          r.reference.reset();
          r.problem = "raised while timed: " + (error ? error->message() : std::string(e.what()));
          add_record(results, CaseRecord::failure(c.op, dtype, "perf", r.problem));
        }
        perf.records.push_back(std::move(r));
      }
    }
  }
  set_in_flight("");
  return perf;
}

}  // namespace bp::conformance
