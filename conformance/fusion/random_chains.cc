#include "conformance/fusion/random_chains.h"

#include <algorithm>
#include <random>
#include <sstream>

#include "conformance/framework/ref_tensor.h"
#include "conformance/runner/compare.h"
#include "conformance/runner/stack.h"
#include "conformance/runner/tolerances.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/fusion/lazy.h"
#include "sdk/ops/op_table.h"
#include "sdk/ops/ops.h"

namespace bp::conformance {
namespace {

// An op a chain can call, with where its tensors and reduction arguments go.
struct Candidate {
  OperatorHandle op;
  int tensors = 1;  // leading Tensor arguments (self[, other]; where: condition, self, other)
  int dim_arg = -1, keepdim_arg = -1;  // reductions
  bool dim_is_list = false;
};

bool is_plain_tensor(const Type& t) {
  return t.kind == TypeKind::kTensor && !t.is_list && !t.optional;
}

std::vector<Candidate> candidates() {
  static const char* const kReductions[] = {"sum.dim_IntList", "mean.dim",  "amax",  "amin",
                                            "prod.dim_int",    "logsumexp", "nansum"};
  std::vector<Candidate> out;
  for (const OpInfo& info : op_table()) {
    if (info.kind != OpKind::kFunctional) continue;
    std::optional<OperatorHandle> op = Dispatcher::singleton().find_op(info.name);
    if (!op) continue;
    const FunctionSchema& schema = op->schema();
    if (schema.returns.size() != 1 || !is_plain_tensor(schema.returns[0].type)) continue;
    Candidate c{*op};
    const bool reduction = std::find(std::begin(kReductions), std::end(kReductions), info.name) !=
                           std::end(kReductions);
    if (!reduction && info.tags.find("pointwise") == std::string_view::npos) continue;
    int tensors = 0;
    while (tensors < static_cast<int>(schema.arguments.size()) &&
           is_plain_tensor(schema.arguments[tensors].type)) {
      ++tensors;
    }
    if (tensors == 0 || tensors > 3 || (tensors == 3 && info.name != "where.self")) continue;
    c.tensors = tensors;
    bool callable = true;
    for (size_t i = tensors; i < schema.arguments.size(); ++i) {
      const Argument& a = schema.arguments[i];
      if (reduction && a.name == "dim") {
        c.dim_arg = static_cast<int>(i);
        c.dim_is_list = a.type.is_list;
      } else if (reduction && a.name == "keepdim") {
        c.keepdim_arg = static_cast<int>(i);
      } else if (!a.default_value && !a.type.optional) {
        callable = false;
      }
    }
    if (!callable || (reduction && (c.dim_arg < 0 || c.keepdim_arg < 0))) continue;
    out.push_back(c);
  }
  return out;
}

const std::vector<Candidate>& all_candidates() {
  static const std::vector<Candidate> c = candidates();
  return c;
}

struct Step {
  int candidate;
  std::vector<int> args;  // value indices of the tensor arguments
  bool transpose_first = false;
  int64_t dim = 0;
  bool keepdim = false;
};

struct Program {
  std::vector<Tensor> inputs;
  std::vector<Step> steps;
  std::vector<int> kept;      // value indices compared
  std::vector<int> last_use;  // per value: the last step reading it (-1: none)
  bool has_reduction = false;
  std::string last_reduction;  // the op whose tolerance applies
};

Stack stack_of(const Candidate& c, const Step& s, const std::vector<Tensor>& values) {
  const FunctionSchema& schema = c.op.schema();
  Stack stack;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    if (static_cast<int>(i) < c.tensors) {
      Tensor t = values[s.args[i]];
      if (i == 0 && s.transpose_first) t = bp::transpose(t, 0, 1);
      stack.emplace_back(std::move(t));
    } else if (static_cast<int>(i) == c.dim_arg) {
      if (c.dim_is_list) {
        stack.emplace_back(std::vector<int64_t>{s.dim});
      } else {
        stack.emplace_back(s.dim);
      }
    } else if (static_cast<int>(i) == c.keepdim_arg) {
      stack.emplace_back(s.keepdim);
    } else if (a.default_value) {
      stack.push_back(default_value(a.type, *a.default_value));
    } else {
      stack.emplace_back();  // an optional argument left out: None
    }
  }
  return stack;
}

// Runs the program (releasing each intermediate after its last use unless kept); returns the
// kept values, or throws the first error.
std::vector<Tensor> run(const Program& p) {
  const std::vector<Candidate>& cands = all_candidates();
  std::vector<Tensor> values = p.inputs;
  values.resize(p.inputs.size() + p.steps.size());
  std::vector<bool> keep(values.size(), false);
  for (int k : p.kept) keep[k] = true;
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const Candidate& c = cands[p.steps[s].candidate];
    Stack stack = stack_of(c, p.steps[s], values);
    c.op.call_boxed(&stack);
    const size_t index = p.inputs.size() + s;
    values[index] = std::move(stack.back().ref<Tensor>());
    for (size_t v = p.inputs.size(); v <= index; ++v) {
      if (!keep[v] && p.last_use[v] <= static_cast<int>(s)) values[v] = Tensor();
    }
  }
  std::vector<Tensor> out;
  for (int k : p.kept) out.push_back(values[k]);
  return out;
}

class Generator {
 public:
  Generator(Device device, uint64_t seed) : device_(device), rng_(seed) {}

  Program next() {
    Program p;
    const std::vector<int64_t> shape = random_shape();
    const int ninputs = 1 + pick(3);
    for (int i = 0; i < ninputs; ++i)
      p.inputs.push_back(random_input(i == 0 ? shape : broadcast_of(shape)));
    // Build the chain eagerly, keeping the calls eager accepts.
    std::vector<Tensor> values = p.inputs;
    const int length = 2 + pick(7);
    const std::vector<Candidate>& cands = all_candidates();
    for (int attempt = 0; attempt < 40 && static_cast<int>(p.steps.size()) < length; ++attempt) {
      Step s;
      s.candidate = pick(static_cast<int>(cands.size()));
      const Candidate& c = cands[s.candidate];
      const int last = static_cast<int>(values.size()) - 1;
      for (int t = 0; t < c.tensors; ++t) {
        const bool chain = t == (c.tensors == 3 ? 1 : 0);  // where: the chain is `self`
        s.args.push_back(chain && coin(0.8) ? last : pick(static_cast<int>(values.size())));
      }
      const Tensor& first = values[s.args[0]];
      s.transpose_first = first.dim() >= 2 && coin(0.1);
      if (c.dim_arg >= 0) {
        const int64_t rank = first.dim();
        if (rank == 0) continue;
        s.dim = pick(static_cast<int>(2 * rank)) - rank;
        s.keepdim = coin(0.5);
      }
      try {
        Stack stack = stack_of(c, s, values);
        c.op.call_boxed(&stack);
        values.push_back(stack.back().ref<Tensor>());
      } catch (const std::exception&) {
        continue;  // eager rejects it (dtype, shapes): not part of the chain
      }
      if (c.dim_arg >= 0) {
        p.has_reduction = true;
        p.last_reduction = c.op.name().substr(4);
      }
      p.steps.push_back(s);
    }
    const int total = static_cast<int>(values.size());
    p.last_use.assign(total, -1);
    for (size_t s = 0; s < p.steps.size(); ++s) {
      for (int a : p.steps[s].args) p.last_use[a] = static_cast<int>(s);
    }
    for (int v = ninputs; v < total; ++v) {
      if (v == total - 1 || coin(0.15)) p.kept.push_back(v);
    }
    return p;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool coin(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::vector<int64_t> random_shape() {
    static const int64_t kSizes[] = {1, 2, 3, 5, 8, 17, 33};
    std::vector<int64_t> shape(pick(4));  // rank 0..3
    for (int64_t& s : shape) s = kSizes[pick(7)];
    return shape;
  }

  // `shape` itself, its trailing dimensions, or with some dimensions 1.
  std::vector<int64_t> broadcast_of(std::vector<int64_t> shape) {
    if (coin(0.3) && !shape.empty())
      shape.erase(shape.begin(), shape.begin() + 1 + pick(static_cast<int>(shape.size())));
    for (int64_t& s : shape) {
      if (coin(0.3)) s = 1;
    }
    return shape;
  }

  Tensor random_input(const std::vector<int64_t>& shape) {
    static const ScalarType kDtypes[] = {
        ScalarType::kFloat32,  ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kFloat16,
        ScalarType::kBFloat16, ScalarType::kInt32,   ScalarType::kInt64,   ScalarType::kBool};
    const ScalarType dtype = kDtypes[pick(8)];
    // Laid out transposed or with a step of 2 in its last dimension, sometimes.
    const int layout = shape.size() >= 2 ? pick(4) : 0;
    std::vector<int64_t> stored = shape;
    if (layout == 1) std::swap(stored[stored.size() - 1], stored[stored.size() - 2]);
    if (layout == 2) stored.back() *= 2;
    Tensor host = bp::empty(stored, ScalarType::kFloat64);
    double* d = host.data_ptr<double>();
    for (int64_t i = 0; i < host.numel(); ++i) {
      d[i] = dtype == ScalarType::kBool  ? pick(2)
             : is_integral(dtype, false) ? pick(11) - 5
             : coin(0.02)                ? 0.0
                                         : std::uniform_real_distribution<double>(-3, 3)(rng_);
    }
    Tensor t = host.to(dtype).to(device_, dtype);
    if (layout == 1) t = bp::transpose(t, -1, -2);
    if (layout == 2) t = bp::slice(t, -1, 0, std::nullopt, 2);
    return t;
  }

  Device device_;
  std::mt19937_64 rng_;
};

std::string describe(const Program& p) {
  const std::vector<Candidate>& cands = all_candidates();
  std::ostringstream out;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Tensor& t = p.inputs[i];
    out << "%" << i << " = input " << scalar_type_name(t.dtype())
        << sizes_string(Sizes(t.sizes().begin(), t.sizes().end())) << " strides "
        << sizes_string(Sizes(t.strides().begin(), t.strides().end())) << "; ";
  }
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const Step& st = p.steps[s];
    out << "%" << p.inputs.size() + s << " = " << cands[st.candidate].op.name() << "(";
    for (size_t a = 0; a < st.args.size(); ++a) {
      out << (a ? ", " : "") << "%" << st.args[a] << (a == 0 && st.transpose_first ? ".t()" : "");
    }
    if (cands[st.candidate].dim_arg >= 0) out << ", dim=" << st.dim << ", keepdim=" << st.keepdim;
    out << "); ";
  }
  return out.str();
}

// "" when `fused` stands for `eager`; else what differs.
std::string compare(const Program& p, const Tensor& eager, const Tensor& fused, bool* bitwise) {
  if (eager.dtype() != fused.dtype()) return "dtype differs";
  if (!std::equal(eager.sizes().begin(), eager.sizes().end(), fused.sizes().begin(),
                  fused.sizes().end())) {
    return "sizes differ";
  }
  // Layout: the strides of dimensions of more than one element (a size-1 dimension's stride
  // addresses nothing; the meta function and a CPU kernel may pick different ones).
  bool same_layout = true;
  for (int64_t d = 0; d < eager.dim(); ++d) {
    same_layout &= eager.sizes()[d] <= 1 || eager.strides()[d] == fused.strides()[d];
  }
  if (!same_layout) {
    return "strides differ: eager " +
           sizes_string(Sizes(eager.strides().begin(), eager.strides().end())) + ", fused " +
           sizes_string(Sizes(fused.strides().begin(), fused.strides().end()));
  }
  const Device cpu(DeviceType::kCPU);
  const RefTensor a = read_tensor(eager.to(cpu, eager.dtype()));
  const RefTensor b = read_tensor(fused.to(cpu, fused.dtype()));
  std::string why = compare_identical(b, a);
  *bitwise = why.empty();
  if (why.empty() || !p.has_reduction || !is_floating_point(eager.dtype())) return why;
  return compare_values(b, a, Tolerances::builtin().get(p.last_reduction, eager.dtype()));
}

}  // namespace

RandomChainsReport check_random_chains(Device device, int64_t chains, uint64_t seed,
                                       const LazyRunner& run_lazy) {
  const LazyRunner lazy = run_lazy ? run_lazy : [](const std::function<void()>& chain) {
    fusion::LazyScope scope;
    chain();
  };
  RandomChainsReport report;
  Generator gen(device, seed);
  const int64_t fused_before = fusion::fusion_stats().fused_nodes;
  for (int64_t i = 0; i < chains; ++i) {
    const Program p = gen.next();
    ++report.chains;
    report.ops += static_cast<int64_t>(p.steps.size());
    std::vector<Tensor> eager, fused;
    std::string eager_error, fused_error;
    try {
      eager = run(p);
    } catch (const std::exception& e) {
      eager_error = e.what();
    }
    try {
      lazy([&] { fused = run(p); });
    } catch (const std::exception& e) {
      fused_error = e.what();
    }
    std::string why;
    if (eager_error != fused_error) {
      why = "eager: " + (eager_error.empty() ? "(no error)" : eager_error) +
            "; fused: " + (fused_error.empty() ? "(no error)" : fused_error);
    } else if (eager.size() != fused.size()) {
      why = "fused run stopped early";
    }
    for (size_t k = 0; why.empty() && k < eager.size(); ++k) {
      bool bitwise = false;
      why = compare(p, eager[k], fused[k], &bitwise);
      if (!why.empty()) why = "%" + std::to_string(p.kept[k]) + ": " + why;
      ++report.compared;
      if (bitwise) ++report.bitwise;
    }
    if (!why.empty()) {
      ++report.mismatches;
      if (report.failures.size() < 20) {
        report.failures.push_back("chain " + std::to_string(i) + " (seed " + std::to_string(seed) +
                                  "): " + why + "\n    " + describe(p));
      }
    }
  }
  report.fused_ops = fusion::fusion_stats().fused_nodes - fused_before;
  return report;
}

std::string to_string(const RandomChainsReport& r) {
  std::ostringstream out;
  out << "fusion: " << r.chains << " chains (" << r.ops << " ops, " << r.fused_ops << " fused), "
      << r.compared << " results compared (" << r.bitwise << " bitwise), " << r.mismatches
      << " mismatches";
  for (const std::string& f : r.failures) out << "\n  " << f;
  return out.str();
}

}  // namespace bp::conformance
