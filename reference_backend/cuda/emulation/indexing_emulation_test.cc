// Runs the indexing kernels (indexing_kernel.h) compiled as host C++ (emulator.h) over views
// planned as the plugin plans them (indexing_kernels.cc), and compares every element with the
// CPU backend's index_select, gather, scatter (src, value, add, multiply) and scatter_add:
// exactly (same bits but NaN's payload), in several dtypes, shapes and dims (negative too),
// transposed and sliced operands, 0-size indices, duplicate indices (the last write wins, sums
// and products in index order) and 0-dim tensors. The range check kernel must find the first
// offending index in row-major order, and report none for good indices.
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/emulator.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/indexing_kernel.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

const ScalarType kDtypes[] = {
    ScalarType::kBool,    ScalarType::kUInt8,   ScalarType::kInt8,      ScalarType::kInt16,
    ScalarType::kInt32,   ScalarType::kInt64,   ScalarType::kFloat16,   ScalarType::kBFloat16,
    ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kComplex64, ScalarType::kComplex128};

Tensor at_least_1d(const Tensor& t) {
  const int64_t one = 1;
  return t.dim() == 0 ? native::as_strided(t, IntArrayRef(&one, 1), IntArrayRef(&one, 1)) : t;
}

std::vector<int64_t> sizes_of(const Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

IndexOperand operand(const Tensor& t) {
  return {t.data_ptr(), std::vector<int64_t>(t.strides().begin(), t.strides().end())};
}

// An int64 (or `dtype`) CPU tensor of `sizes` holding `values` in row-major order.
Tensor indices(std::vector<int64_t> sizes, const std::vector<int64_t>& values,
               ScalarType dtype = ScalarType::kInt64) {
  Tensor t = random_tensor(sizes, ScalarType::kInt64, 1);
  EXPECT_EQ(t.numel(), static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<int64_t>()[i] = values[i];
  return converted(t, dtype);
}

// Every element equal: the same value and sign (NaN matching NaN), real and imaginary parts.
void expect_identical(const Tensor& actual, const Tensor& expected, const std::string& what) {
  ASSERT_EQ(sizes_of(actual), sizes_of(expected)) << what;
  const Tensor a = converted(actual, ScalarType::kComplex128);
  const Tensor e = converted(expected, ScalarType::kComplex128);
  const auto* pa = a.data_ptr<complex<double>>();
  const auto* pe = e.data_ptr<complex<double>>();
  int mismatches = 0;
  for (int64_t i = 0; i < a.numel() && mismatches < 5; ++i) {
    for (const auto& [x, y] :
         {std::pair{pa[i].real(), pe[i].real()}, std::pair{pa[i].imag(), pe[i].imag()}}) {
      const bool same =
          (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
      if (!same) {
        ADD_FAILURE() << what << ": element " << i << " is " << x << ", the CPU's " << y;
        ++mismatches;
      }
    }
  }
}

class IndexingEmulation : public ::testing::Test {
 protected:
  // The first offending index of a device `index` against [0, bound), by the check kernel.
  std::optional<int64_t> first_out_of_range(const Tensor& index, int64_t bound) {
    const Tensor i1 = at_least_1d(index);
    const Tensor result = device_.empty({2}, ScalarType::kInt64);
    const IndexLaunch launch =
        plan_index_check(index_check_kernel(dtype_of(index.dtype())), operand(i1), sizes_of(i1),
                         bound, result.data_ptr());
    if (launch.grid_x == 0) return std::nullopt;
    EXPECT_TRUE(
        run_emulated(launch.kernel.entry_name(), launch.grid_x, jit::kIndexThreads, &launch.args));
    const Tensor r = converted(result, ScalarType::kInt64);
    if (r.data_ptr<int64_t>()[0] < 0) return std::nullopt;
    return r.data_ptr<int64_t>()[1];
  }

  void run(const IndexLaunch& launch) {
    if (launch.grid_x == 0) return;
    ASSERT_TRUE(
        run_emulated(launch.kernel.entry_name(), launch.grid_x, jit::kIndexThreads, &launch.args));
    ++launches_;
  }

  // gather(self, dim, index) on the device against the CPU's.
  void gather(const Tensor& self, int64_t dim, const Tensor& index, const std::string& what) {
    SCOPED_TRACE(what);
    // The CPU kernel of the out= op (its meta function first), into a CPU out.
    const Tensor expected = random_tensor(sizes_of(index), self.dtype(), 0);
    call_op("gather.out", {Value(self), Value(dim), Value(index), Value(false), Value(expected)});
    const Tensor dself = device_.copy_of(self), dindex = device_.copy_of(index);
    const Tensor out = device_.empty(sizes_of(index), self.dtype());
    if (index.numel() != 0) {
      const Tensor self1 = at_least_1d(dself), index1 = at_least_1d(dindex);
      const int64_t d = dim < 0 ? dim + self1.dim() : dim;
      EXPECT_EQ(first_out_of_range(dindex, self1.size(d)), std::nullopt);
      IndexGeometry g;
      g.sizes = sizes_of(index1);
      g.dim = d;
      g.bound = self1.size(d);
      g.out = operand(at_least_1d(out));
      g.src = operand(self1);
      g.index = operand(index1);
      run(plan_gather(gather_kernel(dtype_of(self.dtype()), Dtype::kInt64), g));
    }
    expect_identical(out, expected, what);
  }

  // index_select(self, dim, index) on the device into an out of `out_strides` (contiguous when
  // empty) against the CPU's.
  void index_select(const Tensor& self, int64_t dim, const Tensor& index, const std::string& what,
                    std::vector<int64_t> out_strides = {}) {
    SCOPED_TRACE(what);
    std::vector<int64_t> sizes = sizes_of(self);
    if (!sizes.empty())
      sizes[static_cast<size_t>(dim < 0 ? dim + self.dim() : dim)] = index.numel();
    const Tensor expected = random_tensor(sizes, self.dtype(), 0);
    call_op("index_select.out", {Value(self), Value(dim), Value(index), Value(expected)});
    const Tensor dself = device_.copy_of(self), dindex = device_.copy_of(index);
    const Tensor out = device_.empty(sizes_of(expected), self.dtype(), out_strides);
    const Tensor self1 = at_least_1d(dself), out1 = at_least_1d(out);
    const int64_t d = dim < 0 ? dim + self1.dim() : dim;
    EXPECT_EQ(first_out_of_range(dindex, self1.size(d)), std::nullopt);
    IndexGeometry g;
    g.sizes = sizes_of(out1);
    g.dim = d;
    g.bound = self1.size(d);
    g.out = operand(out1);
    g.src = operand(self1);
    g.index = {dindex.data_ptr(), std::vector<int64_t>(g.sizes.size(), 0)};
    g.index.strides[static_cast<size_t>(d)] = index.dim() == 0 ? 0 : dindex.stride(0);
    run(plan_gather(gather_kernel(dtype_of(self.dtype()), dtype_of(index.dtype())), g));
    expect_identical(out, expected, what);
  }

  // scatter of src (or of `value` when src is undefined) with `reduce` ("", "add", "multiply")
  // into a device copy of self (its strides: in place) against the CPU's op.
  void scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               const Scalar& value, const std::string& reduce, const std::string& what) {
    SCOPED_TRACE(what);
    Stack args{Value(self), Value(dim), Value(index)};
    args.push_back(src.defined() ? Value(src) : Value(value));
    std::string op = src.defined() ? "scatter.src" : "scatter.value";
    if (!reduce.empty()) {
      args.push_back(Value(std::string_view(reduce)));
      op = src.defined() ? "scatter.reduce" : "scatter.value_reduce";
    }
    const Tensor expected = random_tensor(sizes_of(self), self.dtype(), 0);
    args.push_back(Value(expected));
    call_op(op + "_out", std::move(args));
    const Tensor out = device_.copy_of(self), dindex = device_.copy_of(index);
    const Tensor dsrc = src.defined() ? device_.copy_of(src) : Tensor();
    const Tensor out1 = at_least_1d(out), index1 = at_least_1d(dindex);
    const int64_t d = dim < 0 ? dim + out1.dim() : dim;
    const Dtype dtype = dtype_of(self.dtype());
    if (index.numel() != 0) {
      EXPECT_EQ(first_out_of_range(dindex, out1.size(d)), std::nullopt);
      IndexGeometry g;
      g.sizes = sizes_of(index1);
      g.dim = d;
      g.bound = out1.size(d);
      g.out = operand(out1);
      g.index = operand(index1);
      if (src.defined()) {
        g.src = operand(at_least_1d(dsrc));
      } else {
        g.src.strides.assign(g.sizes.size(), 0);
        g.value = scalar_as(abi_value(value), dtype);
      }
      const IndexKernel k = reduce.empty() ? scatter_kernel(dtype)
                                           : scatter_reduce_kernel(dtype, reduce == "multiply");
      run(plan_scatter(k, g));
    }
    expect_identical(out, expected, what);
  }

  void scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                   const std::string& what) {
    // scatter_add is scatter.reduce with "add" on the CPU as well: check the two agree first.
    const Tensor a = random_tensor(sizes_of(self), self.dtype(), 0);
    call_op("scatter_add.out", {Value(self), Value(dim), Value(index), Value(src), Value(a)});
    const Tensor b = random_tensor(sizes_of(self), self.dtype(), 0);
    call_op("scatter.reduce_out",
            {Value(self), Value(dim), Value(index), Value(src), Value("add"), Value(b)});
    expect_identical(a, b, what + ": the CPU's scatter_add and scatter.reduce add");
    scatter(self, dim, index, src, Scalar(), "add", what);
  }

  EmulatedDevice device_;
  int launches_ = 0;
};

TEST_F(IndexingEmulation, GatherEveryDtypeShapeAndDim) {
  uint64_t seed = 1;
  for (ScalarType t : kDtypes) {
    const std::string name(info(dtype_of(t)).name);
    const Tensor self = random_tensor({4, 5, 3}, t, ++seed);
    gather(self, 1, indices({4, 3, 2}, {4, 0, 1, 1, 2, 3, 0, 0, 4, 4, 3, 2,  //
                                        1, 2, 3, 0, 4, 1, 2, 2, 2, 0, 1, 3}),
           name + ": gather dim 1");
    gather(self, -1, indices({2, 5, 3}, {2, 1, 0, 0, 0, 1, 2, 2, 2, 1, 1, 1, 0, 2, 1,  //
                                         0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 1, 2, 2, 1, 0}),
           name + ": gather dim -1");
    gather(self, 0, indices({1, 2, 1}, {3, 0}), name + ": gather dim 0, a smaller index");
  }
}

TEST_F(IndexingEmulation, GatherStridedZeroSizeAndZeroDim) {
  const Tensor self = random_tensor({6, 7}, ScalarType::kFloat32, 3);
  const Tensor t = native::transpose(self, 0, 1);  // [7, 6], strides (1, 7)
  gather(t, 1, indices({3, 2}, {5, 0, 1, 4, 3, 3}), "a transposed self");
  const Tensor idx = native::transpose(indices({2, 3}, {0, 1, 2, 5, 5, 4}), 0, 1);
  gather(self, 0, idx, "a transposed index");
  gather(native::slice(self, 1, 1, 7, 2), 0, indices({2, 3}, {5, 0, 2, 1, 1, 1}),
         "a sliced self (step 2)");
  gather(self, 1, indices({0, 3}, {}), "an empty index");
  const Tensor scalar = random_tensor({}, ScalarType::kInt64, 4);
  gather(scalar, 0, indices({}, {0}), "0-dim self and index");
  EXPECT_GT(launches_, 0);
}

TEST_F(IndexingEmulation, IndexSelectEveryDtypeAndIndexType) {
  uint64_t seed = 10;
  for (ScalarType t : kDtypes) {
    for (ScalarType it : {ScalarType::kInt32, ScalarType::kInt64}) {
      const std::string name =
          std::string(info(dtype_of(t)).name) + ", index " + std::string(info(dtype_of(it)).name);
      const Tensor self = random_tensor({3, 4, 5}, t, ++seed);
      index_select(self, 0, indices({4}, {2, 0, 2, 1}, it), name + ": dim 0, a repeated index");
      index_select(self, 1, indices({3}, {3, 3, 0}, it), name + ": dim 1");
      index_select(self, -1, indices({6}, {4, 0, 1, 2, 3, 4}, it), name + ": dim -1");
    }
  }
}

TEST_F(IndexingEmulation, IndexSelectStridedEmptyAndZeroDim) {
  const Tensor self = random_tensor({5, 6}, ScalarType::kFloat64, 20);
  index_select(native::transpose(self, 0, 1), 1, indices({3}, {4, 0, 2}), "a transposed self");
  index_select(self, 0, native::slice(indices({6}, {4, 9, 0, 9, 3, 9}), 0, 0, 6, 2),
               "a strided index");
  index_select(self, 1, indices({2}, {5, 1}), "a transposed out", {1, 5});
  index_select(self, 0, indices({0}, {}), "an empty index");
  index_select(random_tensor({}, ScalarType::kFloat32, 21), 0, indices({}, {0}),
               "0-dim self and index");
  index_select(random_tensor({}, ScalarType::kInt16, 22), -1, indices({1}, {0}, ScalarType::kInt32),
               "0-dim self, a 1-element index");
}

TEST_F(IndexingEmulation, ScatterEveryDtypeWithDuplicatesLastWins) {
  uint64_t seed = 30;
  for (ScalarType t : kDtypes) {
    const std::string name(info(dtype_of(t)).name);
    const Tensor self = random_tensor({3, 5}, t, ++seed);
    // Row 0 writes column 1 three times: the last (src[0][3]) wins, as on the CPU.
    const Tensor index = indices({3, 4}, {1, 1, 4, 1, 0, 2, 2, 3, 4, 3, 2, 1});
    scatter(self, 1, index, random_tensor({3, 4}, t, ++seed), Scalar(), "",
            name + ": scatter src, dim 1");
    scatter(self, -2, indices({2, 5}, {0, 2, 2, 1, 0, 0, 2, 0, 1, 0}),
            random_tensor({2, 6}, t, ++seed), Scalar(), "", name + ": scatter src, dim -2");
    scatter(self, 1, index, Tensor(), sample_scalar(t), "", name + ": scatter value");
  }
}

TEST_F(IndexingEmulation, ScatterReduceAndScatterAddInTheCpusOrder) {
  uint64_t seed = 50;
  for (ScalarType t : kDtypes) {
    const std::string name(info(dtype_of(t)).name);
    const Tensor self = random_tensor({4, 3}, t, ++seed);
    const Tensor index = indices({5, 3}, {1, 1, 1, 1, 0, 2, 1, 2, 2, 3, 0, 2, 1, 1, 2});
    const Tensor src = random_tensor({5, 3}, t, ++seed);
    scatter_add(self, 0, index, src, name + ": scatter_add, duplicates");
    scatter(self, 0, index, src, Scalar(), "multiply", name + ": scatter multiply");
    scatter(self, -2, index, Tensor(), sample_scalar(t), "add", name + ": scatter value add");
    scatter(self, 0, index, Tensor(), sample_scalar(t), "multiply",
            name + ": scatter value multiply");
  }
}

TEST_F(IndexingEmulation, ScatterStridedEmptyZeroDimAndManyLines) {
  const Tensor self = random_tensor({6, 5}, ScalarType::kFloat32, 70);
  const Tensor src = random_tensor({5, 6}, ScalarType::kFloat32, 71);
  // A transposed self (so a strided out in place), src and index.
  scatter(native::transpose(self, 0, 1), 1, indices({2, 3}, {5, 0, 5, 1, 1, 1}), src, Scalar(), "",
          "transposed self");
  scatter(self, 0, native::transpose(indices({3, 2}, {5, 0, 5, 1, 1, 1}), 0, 1),
          native::transpose(src, 0, 1), Scalar(), "add", "transposed index and src");
  scatter(self, 1, indices({0, 2}, {}), src, Scalar(), "", "an empty index");
  scatter(random_tensor({}, ScalarType::kFloat64, 72), 0, indices({}, {0}),
          random_tensor({}, ScalarType::kFloat64, 73), Scalar(), "add", "0-dim tensors");
  // More lines than one block: 300 lines of 2 positions each.
  std::vector<int64_t> values;
  for (int i = 0; i < 600; ++i) values.push_back((i * 7) % 4);
  scatter_add(random_tensor({4, 300}, ScalarType::kFloat32, 74), 0, indices({2, 300}, values),
              random_tensor({2, 300}, ScalarType::kFloat32, 75), "300 lines");
}

TEST_F(IndexingEmulation, TheRangeCheckFindsTheFirstOffenderInRowMajorOrder) {
  for (ScalarType it : {ScalarType::kInt32, ScalarType::kInt64}) {
    EXPECT_EQ(first_out_of_range(device_.copy_of(indices({2, 3}, {0, 1, 2, 2, 1, 0}, it)), 3),
              std::nullopt);
    EXPECT_EQ(first_out_of_range(device_.copy_of(indices({2, 3}, {0, 1, 2, 5, -1, 7}, it)), 3),
              std::optional<int64_t>(5));
    EXPECT_EQ(first_out_of_range(device_.copy_of(indices({2, 3}, {0, 1, -2, 5, -1, 7}, it)), 3),
              std::optional<int64_t>(-2));
    // Transposed: row-major order of the view, not of memory.
    const Tensor t = native::transpose(indices({3, 2}, {0, 9, 1, 1, 8, 2}, it), 0, 1);
    EXPECT_EQ(first_out_of_range(device_.copy_of(t), 3), std::optional<int64_t>(8));
    // Offenders in two threads' strides (positions 999 and 500): the first position wins.
    std::vector<int64_t> values(1000, 1);
    values[999] = 3;
    values[500] = 4;
    EXPECT_EQ(first_out_of_range(device_.copy_of(indices({1000}, values, it)), 3),
              std::optional<int64_t>(4));
    EXPECT_EQ(first_out_of_range(device_.copy_of(indices({1}, {-1}, it)), 3),
              std::optional<int64_t>(-1));
  }
}

TEST(IndexingPlan, LimitsFallBackToTheCpu) {
  int64_t dummy = 0;
  IndexGeometry g;
  g.sizes = {2, 2};
  g.dim = 0;
  g.bound = 3;
  g.out = {&dummy, {2, 1}};
  g.src = {&dummy, {2, int64_t{1} << 31}};  // past 32-bit byte offsets
  g.index = {&dummy, {2, 1}};
  const IndexKernel k = gather_kernel(Dtype::kFloat32, Dtype::kInt64);
  EXPECT_THROW(plan_gather(k, g), BeyondKernelLimits);
  g.src = {&dummy, {2, -1}};
  EXPECT_THROW(plan_gather(k, g), BeyondKernelLimits);
  g.src = {&dummy, {2, 1}};
  g.bound = int64_t{1} << 31;  // self's indexed dim past 32-bit offsets
  EXPECT_THROW(plan_gather(k, g), BeyondKernelLimits);
  EXPECT_THROW(plan_scatter(scatter_kernel(Dtype::kFloat32), g), BeyondKernelLimits);
  g.bound = 3;
  EXPECT_GT(plan_gather(k, g).grid_x, 0u);
  // A scatter line of 2^31 positions (an expanded index, stride 0 along dim).
  IndexGeometry long_line = g;
  long_line.sizes = {int64_t{1} << 31, 1};
  long_line.out.strides = long_line.src.strides = long_line.index.strides = {0, 0};
  EXPECT_THROW(plan_scatter(scatter_kernel(Dtype::kFloat32), long_line), BeyondKernelLimits);
  g.sizes = {0, 2};
  EXPECT_EQ(plan_gather(k, g).grid_x, 0u);
  EXPECT_EQ(gather_kernel(Dtype::kComplex128, Dtype::kInt32).entry_name(), "gather__16__int32");
  EXPECT_EQ(scatter_reduce_kernel(Dtype::kBFloat16, true).entry_name(),
            "scatter_multiply__bfloat16");
}

}  // namespace
}  // namespace bp::cuda
