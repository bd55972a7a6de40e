// Runs every reduction kernel (reduction_catalog.h: of every reduction declared with `reduce:`),
// compiled as host C++ with its threads run concurrently (emulator.h), on reduction plans over
// several layouts, and compares with references computed here naively in wide precision, one per
// ops struct of reference_backend/math/reduction.h (the CPU kernels run the same structs, so
// these references are what can catch a mistake in them): block and warp combination in both
// thread layouts, split reductions (partials, then a final pass), NaN propagation, ties of max
// going to the first index, accumulation dtypes, every kind of p-norm.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "backplane/iter.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_catalog.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

using C = std::complex<long double>;

C element(const Tensor& t, int64_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const complex<double> z = element_cast<complex<double>>(t.data_ptr<T>()[i]);
    return C(z.real(), z.imag());
  });
}

bool is_nan(C z) { return std::isnan(z.real()) || std::isnan(z.imag()); }

// logsumexp of complex values, as bp::math::LogSumExpOps defines it from PyTorch's real one: NaN
// if a real part is NaN, else inf if one is inf; elements whose real part is -inf add nothing.
C complex_logsumexp(const std::vector<C>& x) {
  long double max = -INFINITY;
  for (C v : x) {
    if (std::isnan(v.real())) return C(NAN, 0);
    max = std::max(max, v.real());
  }
  if (std::isinf(max)) return C(max, 0);
  C sum(0);
  for (C v : x) {
    if (v.real() != -INFINITY) sum += std::exp(v - max);
  }
  return std::log(sum) + max;
}

// The reference result of one output of a kernel of `family` (ops struct and outputs,
// reduce_kernel.h) from its reduced elements (in order), as (value, index).
std::pair<C, int64_t> reference(const std::string& family, const std::vector<C>& x, bool integral,
                                bool complex_values, long double p) {
  const long double n = static_cast<long double>(x.size());
  // The first maximum (minimum); the first NaN beats every number.
  auto extreme = [&](bool max) {
    int64_t best = -1;
    for (size_t i = 0; i < x.size(); ++i) {
      if (best >= 0 && is_nan(x[static_cast<size_t>(best)])) break;
      const long double b = best < 0 ? 0 : x[static_cast<size_t>(best)].real();
      if (best < 0 || is_nan(x[i]) || (max ? x[i].real() > b : x[i].real() < b)) {
        best = static_cast<int64_t>(i);
      }
    }
    return std::pair<C, int64_t>(x[static_cast<size_t>(best)], best);
  };
  const std::string ops = family.substr(0, family.find('_'));
  if (ops == "NanSumOps" || ops == "NanMeanOps") {  // integers have no NaN
    std::vector<C> kept;
    for (C v : x) {
      if (!is_nan(v)) kept.push_back(v);
    }
    return reference(ops == "NanSumOps" ? "SumOps" : "MeanOps", kept, integral, complex_values, p);
  }
  if (ops == "CountNonzeroOps") {
    int64_t n = 0;
    for (C v : x) n += v != C(0) ? 1 : 0;
    return {C(static_cast<long double>(n)), 0};
  }
  if (ops == "StdOps") {
    const auto [var, unused] = reference("VarianceOps", x, integral, complex_values, p);
    return {C(std::sqrt(var.real())), 0};
  }
  if (ops == "SumOps" || ops == "MeanOps" || ops == "ProdOps") {
    const bool prod = ops == "ProdOps";
    if (integral) {  // int64 arithmetic, wrapping like the device
      uint64_t acc = prod ? 1 : 0;
      for (C v : x) {
        const uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(v.real()));
        acc = prod ? acc * u : acc + u;
      }
      return {C(static_cast<long double>(static_cast<int64_t>(acc))), 0};
    }
    // Complex products with the plain formula (as bp::complex and c10::complex multiply, not
    // std::complex's recovery of infinities).
    C acc = prod ? C(1) : C(0);
    for (C v : x) {
      if (!prod) {
        acc += v;
      } else if (complex_values) {
        acc = C(acc.real() * v.real() - acc.imag() * v.imag(),
                acc.real() * v.imag() + acc.imag() * v.real());
      } else {
        acc = C(acc.real() * v.real());
      }
    }
    return {ops == "MeanOps" ? acc / n : acc, 0};
  }
  if (ops == "MaxOps" || ops == "ArgMaxOps") return extreme(true);
  if (ops == "MinOps" || ops == "ArgMinOps") return extreme(false);
  if (ops == "VarianceOps") {
    C mean(0);
    for (C v : x) mean += v;
    mean /= n;
    long double m2 = 0;
    for (C v : x) m2 += std::norm(v - mean);
    return {C(m2 / std::max<long double>(n - 1, 0)), 0};
  }
  if (ops == "AllOps" || ops == "AnyOps") {
    const bool all = ops == "AllOps";
    bool acc = all;
    for (C v : x) {
      const bool b = v != C(0);
      acc = all ? acc && b : acc || b;
    }
    return {C(acc ? 1 : 0), 0};
  }
  if (ops == "LogSumExpOps") {
    if (complex_values) return {complex_logsumexp(x), 0};
    long double max = -INFINITY;
    bool nan = false;
    for (C v : x) {
      nan = nan || std::isnan(v.real());
      if (v.real() > max) max = v.real();
    }
    if (nan) return {C(NAN), 0};
    const long double shift = std::isinf(max) ? 0 : max;
    long double sum = 0;
    for (C v : x) sum += std::exp(v.real() - shift);
    return {C(std::log(sum) + shift), 0};
  }
  EXPECT_EQ(ops, "NormOps") << "a reduction without a reference";
  long double acc = p == -INFINITY ? INFINITY : 0;
  bool nan = false;
  for (C v : x) {
    const long double m = std::abs(v);
    nan = nan || std::isnan(m);
    if (p == 0) acc += m != 0;
    if (p == 1) acc += m;
    if (p == 2) acc += m * m;
    if (p == INFINITY) acc = std::max(acc, m);
    if (p == -INFINITY) acc = std::min(acc, m);
    if (p != 0 && p != 1 && p != 2 && !std::isinf(p)) acc += std::pow(m, p);
  }
  if (nan && std::isinf(p)) acc = NAN;
  if (p == 2) acc = std::sqrt(acc);
  if (p != 0 && p != 1 && p != 2 && !std::isinf(p)) acc = std::pow(acc, 1 / p);
  return {C(acc), 0};
}

// The ops struct's arguments, as the plugin passes them: p for norms, correction 1 for var.
std::vector<jit::Value> values_of(const ReduceKernel& k, double p) {
  const std::string ops = k.op->ops;
  if (ops == "NormOps") return reduce_values(std::vector<double>{p});
  if (ops == "VarianceOps" || ops == "StdOps") return reduce_values(std::vector<double>{1});
  EXPECT_EQ(k.op->num_args, 0) << ops << " takes arguments this test does not know";
  return {};
}

class ReduceEmulation : public ::testing::Test {
 protected:
  // Reduces `input` (CPU) over `dims` with kernel k on the emulated device and compares every
  // output with the reference.
  void check(const ReduceKernel& k, const Tensor& input, const std::vector<int64_t>& dims,
             const std::string& what, double p = 3.0) {
    SCOPED_TRACE(what + ": " + k.entry_name() + " (p " + std::to_string(p) + " for norms)");
    const Tensor on_device = device_.copy_of(input);
    const std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end());
    ReductionCall call = reduction_call(device_, k, on_device, dims);
    const std::vector<Tensor>& outputs = call.outputs;
    const std::vector<int64_t> kept(outputs[0].sizes().begin(), outputs[0].sizes().end());
    int64_t count = 1;
    for (int64_t d : dims) count *= sizes[static_cast<size_t>(d)];
    const ReduceLaunch launch = plan_reduce(k, plan_of(call.iter), values_of(k, p));
    ASSERT_GT(launch.grid_x, 0u);
    std::vector<char> partials(launch.partial_bytes);
    jit::ReduceArgs args = launch.args;
    args.partials = partials.data();
    const emulation::EmulatedKernel kernel = emulation::find_emulated_kernel(k.entry_name());
    ASSERT_TRUE(kernel) << k.entry_name() << " was not built for emulation";
    emulation::emulate_launch(kernel, {launch.grid_x, launch.chunks},
                              {launch.block_x, launch.block_y}, &args);
    if (launch.chunks > 1) {
      args.mode = 2;  // kFinalize
      emulation::emulate_launch(kernel, {launch.grid_x, 1}, {launch.block_x, launch.block_y},
                                &args);
      ++split_;
    }
    ++launches_;

    // The references, output by output (row-major over the kept shape): each output's reduced
    // elements in row-major order of the reduced dimensions.
    const Tensor values = converted(input, input.dtype());
    const std::vector<int64_t> in_strides(values.strides().begin(), values.strides().end());
    Tensor expected_values = cpu_tensor(kept, ScalarType::kComplex128);
    Tensor expected_integers = cpu_tensor(kept, ScalarType::kInt64);
    std::vector<int64_t> expected_indices;
    const bool integral = is_integral(scalar_type_of(k.out), /*include_bool=*/false);
    for (int64_t o = 0; o < expected_values.numel(); ++o) {
      std::vector<int64_t> idx(sizes.size(), 0);
      int64_t rest = o;
      for (size_t d = sizes.size(); d-- > 0;) {
        idx[d] = rest % kept[d];
        rest /= kept[d];
      }
      std::vector<C> xs;
      for (int64_t r = 0; r < count; ++r) {
        int64_t rr = r;
        for (size_t i = dims.size(); i-- > 0;) {
          const size_t d = static_cast<size_t>(dims[i]);
          idx[d] = rr % sizes[d];
          rr /= sizes[d];
        }
        int64_t offset = 0;
        for (size_t d = 0; d < sizes.size(); ++d) offset += idx[d] * in_strides[d];
        xs.push_back(element(values, offset));
      }
      const auto [value, index] = reference(k.family(), xs, integral, info(k.dtype).is_complex, p);
      expected_values.data_ptr<complex<double>>()[o] =
          complex<double>(static_cast<double>(value.real()), static_cast<double>(value.imag()));
      expected_integers.data_ptr<int64_t>()[o] = static_cast<int64_t>(value.real());
      expected_indices.push_back(index);
    }
    for (int o = 0; o < k.num_outputs(); ++o) {
      if (k.op->result(o) == ReduceResult::kValue) {
        expect_same_values(
            outputs[static_cast<size_t>(o)],
            converted(integral ? expected_integers : expected_values, scalar_type_of(k.out)), what);
        continue;
      }
      const Tensor& indices = outputs[static_cast<size_t>(o)];
      int mismatches = 0;
      for (size_t o = 0; o < expected_indices.size() && mismatches < 5; ++o) {
        const int64_t got = indices.data_ptr<int64_t>()[o];
        if (got != expected_indices[o]) {
          ADD_FAILURE() << what << ": index " << got << " at output " << o << ", expected "
                        << expected_indices[o];
          ++mismatches;
        }
      }
    }
  }

  EmulatedDevice device_;
  int launches_ = 0;
  int split_ = 0;
};

// The dtype an input of kernel k holds (the kernel reduces its own dtype).
Tensor input_for(const ReduceKernel& k, std::vector<int64_t> sizes, uint64_t seed) {
  return random_tensor(std::move(sizes), scalar_type_of(k.dtype), seed);
}

// Reductions with an index output are declared over one dim.
bool single_dim(const ReduceKernel& k) { return k.op->has_index_output(); }

TEST_F(ReduceEmulation, EveryReductionKernelMatchesTheReferenceOverAMiddleDimension) {
  for (const ReduceKernel& k : reduction_kernels()) {
    check(k, input_for(k, {6, 37, 5}, 1), {1}, "dim 1 of [6, 37, 5]");
  }
  EXPECT_GT(launches_, 80);
}

TEST_F(ReduceEmulation, EveryReductionMatchesTheReferenceOverTheFastestAndSeveralDimensions) {
  std::set<std::string> seen;
  for (const ReduceKernel& k : reduction_kernels()) {
    // One dtype per family: float32 where it has it, its first dtype otherwise.
    if (seen.count(k.family())) continue;
    if (k.dtype != Dtype::kFloat32 && natural_reduction(*k.op, Dtype::kFloat32)) continue;
    seen.insert(k.family());
    check(k, input_for(k, {6, 37, 5}, 2), {2}, "dim 2 of [6, 37, 5]");
    check(k, input_for(k, {6, 37, 5}, 3), {0}, "dim 0 of [6, 37, 5]");
    if (!single_dim(k)) check(k, input_for(k, {6, 37, 5}, 4), {0, 2}, "dims 0, 2");
  }
  EXPECT_EQ(seen, reduction_families());
}

TEST_F(ReduceEmulation, LongReductionsSplitIntoChunksAndCombinePartials) {
  std::set<std::string> seen;
  for (const ReduceKernel& k : reduction_kernels()) {
    if (!seen.insert(k.family()).second) continue;
    check(k, input_for(k, {9000}, 5), {0}, "all of [9000]");
    check(k, input_for(k, {2, 5000}, 6), {1}, "dim 1 of [2, 5000]");
  }
  EXPECT_EQ(seen, reduction_families());
  EXPECT_EQ(split_, 2 * static_cast<int>(seen.size()));
}

// One kernel serves every p: the choice is the ops struct's, at run time.
TEST_F(ReduceEmulation, OneNormKernelComputesEveryKindOfPNorm) {
  const std::optional<ReduceKernel> norm =
      natural_reduction(*find_reduction_op("norm.out"), Dtype::kComplex64);
  ASSERT_TRUE(norm.has_value());
  for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, double(INFINITY), -double(INFINITY)}) {
    for (const ReduceKernel& k : {*norm, *natural_reduction(*norm->op, Dtype::kFloat32)}) {
      check(k, input_for(k, {6, 37, 5}, 8), {1}, "dim 1 of [6, 37, 5]", p);
      check(k, input_for(k, {9000}, 9), {0}, "all of [9000]", p);
    }
  }
}

// The CUDA plugin's check for integer division by zero (pointwise_kernels.cc): all.out's kernel
// reduces the divisor, with its sizes, into one flag (stride 0 along every dim), in all.out's
// result dtype (uint8 for uint8, else bool); the flag is 0 when any element is 0.
TEST_F(ReduceEmulation, TheZeroDivisorCheckFindsAZeroAnywhereInEveryIntegerDtype) {
  const ReductionOp* all = find_reduction_op("all.out");
  ASSERT_NE(all, nullptr);
  for (const ScalarType dtype : {ScalarType::kUInt8, ScalarType::kInt8, ScalarType::kInt16,
                                 ScalarType::kInt32, ScalarType::kInt64}) {
    for (const int64_t zero_at : {int64_t{-1}, int64_t{0}, int64_t{700}, int64_t{1034}}) {
      SCOPED_TRACE(std::string(scalar_type_name(dtype)) + ", zero at " + std::to_string(zero_at));
      Tensor divisor = converted(random_tensor({5, 207}, dtype, 21), ScalarType::kInt64);
      if (zero_at >= 0) divisor.data_ptr<int64_t>()[zero_at] = 0;
      const Tensor on_device = device_.copy_of(converted(divisor, dtype));
      const Dtype d = dtype_of_code(static_cast<int>(dtype));
      const Dtype flag_dtype = d == Dtype::kUInt8 ? Dtype::kUInt8 : Dtype::kBool;
      const Tensor flag = device_.empty({}, scalar_type_of(flag_dtype));
      const Tensor view = native::as_strided(flag, {5, 207}, {0, 0});
      TensorIterator iter =
          build_plan(BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE |
                         BP_ITER_CHECK_ALL_SAME_DEVICE,
                     {view}, {on_device});
      const ReduceKernel k{all, d, flag_dtype};
      const ReduceLaunch launch = plan_reduce(k, plan_of(iter), {});
      ASSERT_GT(launch.grid_x, 0u);
      ASSERT_EQ(launch.chunks, 1u);
      jit::ReduceArgs args = launch.args;
      const emulation::EmulatedKernel kernel = emulation::find_emulated_kernel(k.entry_name());
      ASSERT_TRUE(kernel) << k.entry_name() << " was not built for emulation";
      emulation::emulate_launch(kernel, {launch.grid_x, launch.chunks},
                                {launch.block_x, launch.block_y}, &args);
      EXPECT_EQ(*static_cast<const uint8_t*>(flag.data_ptr()), zero_at < 0 ? 1 : 0);
    }
  }
}

TEST_F(ReduceEmulation, EmptyReductionsWriteTheIdentity) {
  const ReduceKernel sum{find_reduction_op("sum.IntList_out"), Dtype::kFloat32, Dtype::kFloat32};
  check(sum, random_tensor({3, 0}, ScalarType::kFloat32, 7), {1}, "dim 1 of [3, 0]");
  const ReduceKernel all{find_reduction_op("all.out"), Dtype::kBool, Dtype::kBool};
  check(all, random_tensor({3, 0}, ScalarType::kBool, 7), {1}, "dim 1 of [3, 0]");
  // mean of nothing: 0 / 0.
  const ReduceKernel mean{find_reduction_op("mean.out"), Dtype::kFloat32, Dtype::kFloat32};
  check(mean, random_tensor({3, 0}, ScalarType::kFloat32, 7), {1}, "dim 1 of [3, 0]");
}

}  // namespace
}  // namespace bp::cuda
