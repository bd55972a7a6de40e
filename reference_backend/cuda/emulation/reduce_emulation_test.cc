// Runs every reduction kernel, compiled as host C++ with its threads run concurrently
// (emulator.h), on reduction plans over several layouts, and compares with references computed
// here naively in wide precision (the reductions' CPU kernels live elsewhere): block and warp
// combination in both thread layouts, split reductions (partials, then a final pass), NaN
// propagation, ties of max / min going to the first index, accumulation dtypes.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "backplane/iter.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/reduce_kernel.h"
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

// The reference result of one output from its reduced elements (in order), as (value, index).
std::pair<C, int64_t> reference(ReduceOp op, const std::vector<C>& x, bool integral,
                                bool complex_values, long double p) {
  const long double n = static_cast<long double>(x.size());
  auto extreme = [&](bool max) {
    int64_t best = -1;
    for (size_t i = 0; i < x.size(); ++i) {
      if (best >= 0 && is_nan(x[static_cast<size_t>(best)])) break;
      if (best < 0 || is_nan(x[i]) ||
          (max ? x[i].real() > x[static_cast<size_t>(best)].real()
               : x[i].real() < x[static_cast<size_t>(best)].real())) {
        best = static_cast<int64_t>(i);
      }
    }
    return std::pair<C, int64_t>(x[static_cast<size_t>(best)], best);
  };
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
    case ReduceOp::kProd: {
      if (integral) {  // int64 arithmetic, wrapping like the device
        uint64_t acc = op == ReduceOp::kProd ? 1 : 0;
        for (C v : x) {
          const uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(v.real()));
          acc = op == ReduceOp::kProd ? acc * u : acc + u;
        }
        return {C(static_cast<long double>(static_cast<int64_t>(acc))), 0};
      }
      // Complex products with the plain formula (as bp::complex and c10::complex multiply, not
      // std::complex's recovery of infinities).
      C acc = op == ReduceOp::kProd ? C(1) : C(0);
      for (C v : x) {
        if (op != ReduceOp::kProd) {
          acc += v;
        } else if (complex_values) {
          acc = C(acc.real() * v.real() - acc.imag() * v.imag(),
                  acc.real() * v.imag() + acc.imag() * v.real());
        } else {
          acc = C(acc.real() * v.real());
        }
      }
      return {op == ReduceOp::kMean ? acc / n : acc, 0};
    }
    case ReduceOp::kAmax:
    case ReduceOp::kMaxDim:
    case ReduceOp::kArgmax:
      return extreme(true);
    case ReduceOp::kAmin:
    case ReduceOp::kMinDim:
    case ReduceOp::kArgmin:
      return extreme(false);
    case ReduceOp::kVar:
    case ReduceOp::kStd: {
      C mean(0);
      for (C v : x) mean += v;
      mean /= n;
      long double m2 = 0;
      for (C v : x) m2 += std::norm(v - mean);
      const long double var = m2 / std::max<long double>(n - 1, 0);
      return {C(op == ReduceOp::kStd ? std::sqrt(var) : var), 0};
    }
    case ReduceOp::kAll:
    case ReduceOp::kAny: {
      bool acc = op == ReduceOp::kAll;
      for (C v : x) {
        const bool b = v != C(0);
        acc = op == ReduceOp::kAll ? acc && b : acc || b;
      }
      return {C(acc ? 1 : 0), 0};
    }
    case ReduceOp::kLogSumExp: {
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
    default: {  // norms
      long double acc = op == ReduceOp::kNormNegInf ? INFINITY : 0;
      bool nan = false;
      for (C v : x) {
        const long double m = std::abs(v);
        nan = nan || std::isnan(m);
        if (op == ReduceOp::kNormZero) acc += m != 0;
        if (op == ReduceOp::kNormOne) acc += m;
        if (op == ReduceOp::kNormTwo) acc += m * m;
        if (op == ReduceOp::kNormInf) acc = std::max(acc, m);
        if (op == ReduceOp::kNormNegInf) acc = std::min(acc, m);
        if (op == ReduceOp::kNormP) acc += std::pow(m, p);
      }
      if (nan && (op == ReduceOp::kNormInf || op == ReduceOp::kNormNegInf)) acc = NAN;
      if (op == ReduceOp::kNormTwo) acc = std::sqrt(acc);
      if (op == ReduceOp::kNormP) acc = std::pow(acc, 1 / p);
      return {C(acc), 0};
    }
  }
}

// The op's parameters, as plan_reduce takes them.
std::vector<jit::Value> values_of(const ReduceKernel& k, int64_t count, double p) {
  bp_value v{};
  if (k.op == ReduceOp::kMean) {
    v.tag = BP_VALUE_INT;
    v.u.i = count;
    return {scalar_as(v, compute_dtype(k.out))};
  }
  if (k.op == ReduceOp::kVar || k.op == ReduceOp::kStd) {
    v.tag = BP_VALUE_INT;
    v.u.i = 1;
    return {scalar_as(v, k.accumulator())};
  }
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = p;
  return {scalar_as(v, k.accumulator())};
}

class ReduceEmulation : public ::testing::Test {
 protected:
  // Reduces `input` (CPU) over `dims` with kernel k on the emulated device and compares every
  // output with the reference.
  void check(const ReduceKernel& k, const Tensor& input, const std::vector<int64_t>& dims,
             const std::string& what) {
    SCOPED_TRACE(what + ": " + k.entry_name());
    const Tensor on_device = device_.copy_of(input);
    std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end()), kept = sizes;
    for (int64_t d : dims) kept[static_cast<size_t>(d)] = 1;
    std::vector<Tensor> outputs, views;
    const ScalarType out_types[2] = {k.op == ReduceOp::kArgmax || k.op == ReduceOp::kArgmin
                                         ? ScalarType::kInt64
                                         : scalar_type_of(k.out),
                                     ScalarType::kInt64};
    for (int o = 0; o < k.num_outputs(); ++o) {
      outputs.push_back(device_.empty(kept, out_types[o]));
      std::vector<int64_t> strides(outputs.back().strides().begin(),
                                   outputs.back().strides().end());
      for (int64_t d : dims) strides[static_cast<size_t>(d)] = 0;
      views.push_back(native::as_strided(outputs.back(), sizes, strides));
    }
    TensorIterator iter = build_plan(BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE |
                                         BP_ITER_CHECK_ALL_SAME_DEVICE,
                                     views, {on_device});
    int64_t count = 1;
    for (int64_t d : dims) count *= sizes[static_cast<size_t>(d)];
    const double p = 3.0;
    const ReduceLaunch launch = plan_reduce(k, plan_of(iter), values_of(k, count, p));
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
      const auto [value, index] = reference(k.op, xs, integral, info(k.dtype).is_complex, p);
      expected_values.data_ptr<complex<double>>()[o] =
          complex<double>(static_cast<double>(value.real()), static_cast<double>(value.imag()));
      expected_integers.data_ptr<int64_t>()[o] = static_cast<int64_t>(value.real());
      expected_indices.push_back(index);
    }
    const bool indices_only = k.op == ReduceOp::kArgmax || k.op == ReduceOp::kArgmin;
    if (!indices_only) {
      expect_same_values(
          outputs[0],
          converted(integral ? expected_integers : expected_values, scalar_type_of(k.out)), what);
    }
    if (k.num_outputs() == 2 || indices_only) {
      const Tensor& indices = outputs[indices_only ? 0 : 1];
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

bool single_dim(ReduceOp op) {
  return op == ReduceOp::kMaxDim || op == ReduceOp::kMinDim || op == ReduceOp::kArgmax ||
         op == ReduceOp::kArgmin;
}

TEST_F(ReduceEmulation, EveryReductionKernelMatchesTheReferenceOverAMiddleDimension) {
  for (const ReduceKernel& k : all_reduce_kernels()) {
    check(k, input_for(k, {6, 37, 5}, 1), {1}, "dim 1 of [6, 37, 5]");
  }
  EXPECT_GT(launches_, 100);
}

TEST_F(ReduceEmulation, EveryReductionMatchesTheReferenceOverTheFastestAndSeveralDimensions) {
  std::vector<ReduceOp> seen;
  for (const ReduceKernel& k : all_reduce_kernels()) {
    // One dtype per reduction: float32 where it has it, its first dtype otherwise.
    if (std::find(seen.begin(), seen.end(), k.op) != seen.end()) continue;
    if (k.dtype != Dtype::kFloat32 && is_supported({k.op, Dtype::kFloat32, k.out})) continue;
    seen.push_back(k.op);
    check(k, input_for(k, {6, 37, 5}, 2), {2}, "dim 2 of [6, 37, 5]");
    check(k, input_for(k, {6, 37, 5}, 3), {0}, "dim 0 of [6, 37, 5]");
    if (!single_dim(k.op)) check(k, input_for(k, {6, 37, 5}, 4), {0, 2}, "dims 0, 2");
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kNumReduceOps));
}

TEST_F(ReduceEmulation, LongReductionsSplitIntoChunksAndCombinePartials) {
  std::vector<ReduceOp> seen;
  for (const ReduceKernel& k : all_reduce_kernels()) {
    if (std::find(seen.begin(), seen.end(), k.op) != seen.end()) continue;
    seen.push_back(k.op);
    check(k, input_for(k, {9000}, 5), {0}, "all of [9000]");
    check(k, input_for(k, {2, 5000}, 6), {1}, "dim 1 of [2, 5000]");
  }
  EXPECT_EQ(split_, 2 * kNumReduceOps);
}

TEST_F(ReduceEmulation, EmptyReductionsWriteTheIdentity) {
  const ReduceKernel sum{ReduceOp::kSum, Dtype::kFloat32, Dtype::kFloat32};
  check(sum, random_tensor({3, 0}, ScalarType::kFloat32, 7), {1}, "dim 1 of [3, 0]");
  const ReduceKernel all{ReduceOp::kAll, Dtype::kBool, Dtype::kBool};
  check(all, random_tensor({3, 0}, ScalarType::kBool, 7), {1}, "dim 1 of [3, 0]");
}

}  // namespace
}  // namespace bp::cuda
