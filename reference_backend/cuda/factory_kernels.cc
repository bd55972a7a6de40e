// Kernels of the range factories arange.start_out, linspace.out and logspace.out: out= ops with no
// tensor input, not structured. Each runs the host's Meta kernel first (api->op_call_meta on a
// Meta copy of `out`: the checks, the length, the host's messages and its warning for a
// non-empty `out` of another size), resizes `out` to it (resize_), then writes the range with a
// kernel that reads the element's index (range_factories.h: the same element formula as the CPU
// backend). linspace and logspace of 0 steps write nothing and of 1 step fill `out` (fill_), as
// the CPU does. A range beyond 32-bit indexing, or into an `out` of several dimensions, runs on
// the CPU.
#include <cmath>
#include <complex>
#include <cstring>
#include <optional>
#include <vector>

#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/op_arguments.h"
#include "reference_backend/cuda/plugin_state.h"
#include "reference_backend/cuda/range_factories.h"

namespace bp::cuda {
namespace {

// The boxed argument positions of a declared op, by name.
struct Positions {
  explicit Positions(const char* op) : arguments(find_op_arguments(op)) {
    BP_CUDA_INTERNAL_CHECK(arguments.has_value(), "a range factory that is not declared");
  }
  int operator[](const char* name) const { return arguments->index_of(name); }
  std::optional<OpArguments> arguments;
};

// Calls op `name` with boxed `args` through the host (the plugin's kernel for this device).
void call(const char* name, bp_value* args, size_t nargs) {
  const bp_op* op = nullptr;
  check(api()->op_find(name, &op));
  bp_value result{};
  size_t count = 0;
  check(api()->op_call(op, args, nargs, &result, 1, &count));
  if (count == 1) api()->value_release(&result);
}

// Runs the op's Meta kernel (its checks and errors) and resizes `out` to the sizes it gives.
void check_and_resize(const bp_op* op, const bp_value* args, size_t nargs, bp_tensor* out) {
  bp_value meta{};
  size_t count = 0;
  check(api()->op_call_meta(op, args, nargs, &meta, 1, &count));
  BP_CUDA_INTERNAL_CHECK(count == 1 && meta.tag == BP_VALUE_TENSOR, "a factory's Meta kernel");
  const TensorRef meta_out(meta.u.tensor);
  const std::vector<int64_t> sizes = meta_of(meta_out.get()).sizes;
  if (meta_of(out).sizes == sizes) return;
  bp_value resize_args[2]{};
  resize_args[0].tag = BP_VALUE_TENSOR;
  resize_args[0].u.tensor = out;
  resize_args[1].tag = BP_VALUE_INT_LIST;
  resize_args[1].u.ints.data = sizes.data();
  resize_args[1].u.ints.size = sizes.size();
  call("resize_", resize_args, 2);
}

// fill_(out, value) (the plugin's fill kernel, with its check that the value fits).
void fill(bp_tensor* out, const bp_value& value) {
  bp_value fill_args[2]{};
  fill_args[0].tag = BP_VALUE_TENSOR;
  fill_args[0].u.tensor = out;
  fill_args[1] = value;
  call("fill_.Scalar", fill_args, 2);
}

Dtype dtype_of_tensor(const bp_tensor* t) { return *dtype_from_abi(meta_of(t).dtype); }

// Writes the range into `out` (resized): the element's index is the plan's, so `out` must be
// one-dimensional (the Meta kernels keep an `out` of several dimensions whose numel is the
// range's length, which the CPU fills in row-major order) and the plan must run in one part.
void run_range(const RangeFactory& f, bp_tensor* out) {
  if (meta_of(out).sizes.size() != 1) {
    throw BeyondKernelLimits(detail::concat("a ", f.computation.name, " into a ",
                                            meta_of(out).sizes.size(), "-dimensional out"));
  }
  const Iter iter = build_iter({out}, {}, 0);
  bp_iter_info plan_info{};
  plan_info.struct_size = sizeof plan_info;
  check(api()->iter_info(iter.get(), &plan_info));
  if (!plan_info.can_use_32bit_indexing) {
    throw BeyondKernelLimits(detail::concat("a ", f.computation.name, " beyond 32-bit indexing"));
  }
  const IterPlan plan = read_plan(iter.get());
  BP_CUDA_INTERNAL_CHECK(plan.shape.size() <= 1, "a range factory's plan is not one-dimensional");
  run_elementwise(device_of(out),
                  plan_elementwise(f.computation, f.dtype, dtype_of_tensor(out), plan, f.values));
}

// arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out).
bp_error* arange_kernel(void*, const bp_op* op, const bp_value* args, size_t nargs,
                        bp_value* results, size_t nresults) {
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    static const Positions at("arange.start_out");
    bp_tensor* out = args[at["out"]].u.tensor;
    check_and_resize(op, args, nargs, out);
    run_range(arange_factory(args[at["start"]], args[at["step"]], dtype_of_tensor(out)), out);
    return_tensor(results, nresults, out);
  });
}

// linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out): 1 step fills start.
bp_error* linspace_kernel(void*, const bp_op* op, const bp_value* args, size_t nargs,
                          bp_value* results, size_t nresults) {
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    static const Positions at("linspace.out");
    bp_tensor* out = args[at["out"]].u.tensor;
    check_and_resize(op, args, nargs, out);
    const int64_t steps = args[at["steps"]].u.i;
    if (steps == 1) fill(out, args[at["start"]]);
    if (steps >= 2) {
      run_range(linspace_factory(args[at["start"]], args[at["end"]], steps, dtype_of_tensor(out)),
                out);
    }
    return_tensor(results, nresults, out);
  });
}

// The value logspace of 1 step fills: C's pow of the numbers as given (double, or complex<double>
// for a complex out: std::pow of a real base and a complex exponent), as the CPU backend computes
// it; start converted as Scalar::to<double>() checks it.
bp_value logspace_single(const bp_value& start, double base, Dtype out) {
  bp_value v{};
  if (info(out).is_complex) {
    const jit::Value s = scalar_as(start, Dtype::kComplex128);
    double parts[2];
    std::memcpy(parts, s.bytes, sizeof parts);
    const std::complex<double> power = std::pow(base, std::complex<double>(parts[0], parts[1]));
    v.tag = BP_VALUE_COMPLEX;
    v.u.c.re = power.real();
    v.u.c.im = power.imag();
  } else {
    check_scalar_fits(start, Dtype::kFloat64);
    v.tag = BP_VALUE_DOUBLE;
    v.u.d = std::pow(base, value_to_double(scalar_as(start, Dtype::kFloat64), Dtype::kFloat64));
  }
  return v;
}

// logspace.out(Scalar start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out).
bp_error* logspace_kernel(void*, const bp_op* op, const bp_value* args, size_t nargs,
                          bp_value* results, size_t nresults) {
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    static const Positions at("logspace.out");
    bp_tensor* out = args[at["out"]].u.tensor;
    check_and_resize(op, args, nargs, out);
    const int64_t steps = args[at["steps"]].u.i;
    const double base =
        value_to_double(scalar_as(args[at["base"]], Dtype::kFloat64), Dtype::kFloat64);
    const Dtype dtype = dtype_of_tensor(out);
    if (steps == 1) fill(out, logspace_single(args[at["start"]], base, dtype));
    if (steps >= 2) {
      run_range(logspace_factory(args[at["start"]], args[at["end"]], steps, base, dtype), out);
    }
    return_tensor(results, nresults, out);
  });
}

}  // namespace

std::vector<KernelRegistration> factory_registrations() {
  return {{"arange.start_out", &arange_kernel, nullptr},
          {"linspace.out", &linspace_kernel, nullptr},
          {"logspace.out", &logspace_kernel, nullptr}};
}

}  // namespace bp::cuda
