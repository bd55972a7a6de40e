#include "reference_backend/cuda/range_factories.h"

#include <utility>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

// The factory of `computation` in S = `dtype` with arguments `numbers` (Scalars, ints and
// floats as the C ABI passes them), each converted to its ArgType's dtype; arguments of the
// compute type (start, end, step) are converted to `via` first, as the CPU converts them.
RangeFactory factory(Computation computation, Dtype dtype, Dtype via,
                     std::initializer_list<bp_value> numbers) {
  RangeFactory f{std::move(computation), dtype, {}};
  BP_CUDA_INTERNAL_CHECK(numbers.size() == f.computation.args.size(),
                         "a factory's arguments do not match its computation");
  size_t j = 0;
  for (const bp_value& number : numbers) {
    const ArgType type = f.computation.args[j++];
    if (type == ArgType::kCompute) {
      const jit::Value value = scalar_as(number, via);
      f.values.push_back(element_as(value.bytes, via, via, dtype));
    } else {
      f.values.push_back(scalar_as(number, arg_dtype(type, dtype)));
    }
  }
  return f;
}

bp_value int_value(int64_t i) {
  bp_value v{};
  v.tag = BP_VALUE_INT;
  v.u.i = i;
  return v;
}

bp_value double_value(double d) {
  bp_value v{};
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = d;
  return v;
}

// A computation with no inputs that reads the element's index, in S itself.
Computation index_computation(const char* name, std::vector<ArgType> args, const char* expression) {
  Computation c;
  c.name = name;
  c.args = std::move(args);
  c.uses_opmath = false;
  c.expression = expression;
  c.uses_index = true;
  return c;
}

}  // namespace

Computation arange_computation() {
  return index_computation("arange", {ArgType::kCompute, ArgType::kCompute},
                           "arg0 + arg1 * compute_t(index)");
}

Computation linspace_computation() {
  return index_computation("linspace", {ArgType::kCompute, ArgType::kCompute, ArgType::kInt64},
                           "bp::math::linspace_element(arg0, arg1, arg2, int64_t(index))");
}

Computation logspace_computation() {
  return index_computation(
      "logspace", {ArgType::kCompute, ArgType::kCompute, ArgType::kFloat64, ArgType::kInt64},
      "bp::math::logspace_element(arg0, arg1, arg2, arg3, int64_t(index))");
}

Dtype arange_dtype(Dtype out) {
  const DtypeInfo& i = info(out);
  if (i.is_complex) return Dtype::kComplex128;
  if (!i.is_floating) return Dtype::kInt64;
  return i.itemsize == 2 ? Dtype::kFloat32 : Dtype::kFloat64;
}

Dtype linspace_dtype(Dtype out) { return info(out).is_integral ? Dtype::kFloat64 : out; }

RangeFactory arange_factory(const bp_value& start, const bp_value& step, Dtype out) {
  const Dtype s = arange_dtype(out);
  return factory(arange_computation(), s, s, {start, step});
}

RangeFactory linspace_factory(const bp_value& start, const bp_value& end, int64_t steps,
                              Dtype out) {
  return factory(linspace_computation(), linspace_dtype(out), out, {start, end, int_value(steps)});
}

RangeFactory logspace_factory(const bp_value& start, const bp_value& end, int64_t steps,
                              double base, Dtype out) {
  return factory(logspace_computation(), out, out,
                 {start, end, double_value(base), int_value(steps)});
}

}  // namespace bp::cuda
