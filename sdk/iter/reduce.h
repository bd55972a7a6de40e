// Reductions on TensorIterator (ATen's make_reduction, binary_kernel_reduce and
// binary_kernel_reduce_vec, our code).
//
//   Tensor result;                                   // allocated: [4] for a [4, 6] input
//   TensorIterator iter = make_reduction("sum", result, self, {1}, /*keepdim=*/false,
//                                        ScalarType::kFloat32, ScalarType::kFloat32);
//   binary_kernel_reduce_vec(
//       iter, [](float a, float b) -> float { return a + b; },
//       [](auto a, auto b) { return a + b; }, /*ident=*/0.0f);   // a, b: Vectorized<float, W>
//
// A reduction iterator has outputs with stride 0 along the reduced dimensions (is_reduction).
// The kernels split its dimensions into kept (one output element each) and reduced ones, and:
//   - vectorise along the input's contiguous dimension: when it is reduced, each output sums runs
//     with vector accumulators and combines the lanes at the end ("inner" reduction); when it is
//     kept, a block of outputs (accumulators filling about half the L1 cache) takes up to 8
//     input rows per pass: the rows combine in vector registers and meet the accumulators once,
//     so the input streams through in order, several rows at a time ("outer");
//   - run on several threads over the outputs, or, when there are fewer outputs than threads,
//     over the reduced elements with one partial result per chunk and a combine step (in chunk
//     order, so results do not depend on timing).
// Inputs of another dtype than the accumulator's are converted chunk by chunk (convert_elements);
// results are converted to each output's dtype.
//
// Thread safety: the ops run concurrently on disjoint parts; they must be thread-safe.
#ifndef BACKPLANE_SDK_ITER_REDUCE_H_
#define BACKPLANE_SDK_ITER_REDUCE_H_

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/function_traits.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/strided_convert.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {

// Builds the iterator of a reduction of `self` over `dims` (empty: all dims), as ATen's
// make_reduction. `result` (undefined: allocated; defined: resized) gets the reduced shape (reduced
// dims kept as 1 with keepdim, removed otherwise) and dtype `out_dtype`; the iterator sees it with
// stride 0 along the reduced dims. `self` is converted to `in_dtype` first when it differs.
// Errors (PyTorch's texts): "Dimension out of range (expected to be in range of [-2, 1], but got
// 2)"; "dim 1 appears multiple times in the list of dims"; "<name>: provided dtype must match
// dtype of result. Got int32 and float32." (dtypes spelled as everywhere in Backplane).
TensorIterator make_reduction(std::string_view name, Tensor& result, const Tensor& self,
                              IntArrayRef dims, bool keepdim, ScalarType in_dtype,
                              ScalarType out_dtype);
// The same with two results (value and index, e.g. max.dim), both of the reduced shape.
TensorIterator make_reduction(std::string_view name, Tensor& result1, Tensor& result2,
                              const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType dtype1,
                              ScalarType dtype2);

// The split of a reduction iterator's dims (used by the kernels below).
struct ReduceDims {
  DimVector sizes;       // fastest first
  StrideVector strides;  // strides[d * ntensors + operand], bytes
  int ntensors = 0;

  int64_t numel() const;
  int64_t size0() const { return sizes.empty() ? 1 : sizes[0]; }
  int64_t stride0(int operand) const { return sizes.empty() ? 0 : strides[operand]; }
  // Byte offsets of element `index` (< numel(), in this dims' order) for every operand. Inline
  // for up to one dim: kernels call it for every output.
  void offsets(int64_t index, int64_t* out) const {
    if (sizes.size() > 1) return offsets_of_several_dims(index, out);
    for (int t = 0; t < ntensors; ++t) out[t] = sizes.empty() ? 0 : index * strides[t];
  }

 private:
  void offsets_of_several_dims(int64_t index, int64_t* out) const;
};
struct ReductionGeometry {
  ReduceDims kept;     // output stride != 0
  ReduceDims reduced;  // output stride 0
};
// With `contiguous_first`, the dim where operand `input`'s stride is its element size goes first
// in its group (the vectorised direction); otherwise iteration order is kept.
ReductionGeometry reduction_geometry(const TensorIteratorBase& iter, int input,
                                     bool contiguous_first);

namespace reduce_detail {

// Outer reductions accumulate a block of outputs whose accumulators fill about half the L1 cache,
// reading kRows input rows per pass (several streams in flight, one accumulator update per pass).
inline constexpr int64_t kBlockBytes = 16 * 1024;
inline constexpr int64_t kRows = 8;
inline constexpr int64_t kChunk = 256;           // elements converted at a time
inline constexpr int64_t kPrefetchBytes = 4096;  // how far ahead inner reductions prefetch

template <typename AccT>
constexpr int64_t block_size() {
  return std::max<int64_t>(64, kBlockBytes / static_cast<int64_t>(sizeof(AccT)));
}

// Calls fn(values, index_offset, count) over `len` elements of dtype `dtype` at (ptr, stride),
// where `values` points at `count` contiguous T: the input itself when it already is, else a
// converted copy.
template <typename T, typename Fn>
[[gnu::always_inline]] inline void contiguous_chunks(ScalarType dtype, const char* ptr,
                                                     int64_t stride, int64_t len, const Fn& fn) {
  if (dtype == scalar_type_of<T> && stride == static_cast<int64_t>(sizeof(T))) {
    fn(ptr, int64_t{0}, len);
    return;
  }
  T buf[kChunk];
  for (int64_t begin = 0; begin < len; begin += kChunk) {
    const int64_t count = std::min(kChunk, len - begin);
    load_converted(buf, dtype, ptr + begin * stride, stride, count);
    fn(reinterpret_cast<const char*>(buf), begin, count);
  }
}

template <typename T>
[[gnu::always_inline]] inline T load(const char* values, int64_t i) {
  T v;
  copy_bytes(&v, values + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

// Writes `value` (converted) to output `o`, or a pair / tuple's elements to outputs 0, 1, ...
template <typename T>
void store_result(char** out, const TensorIteratorBase& iter, int o, const T& value) {
  store_converted(iter.dtype(o), out[o], 0, &value, 1);
}
template <typename... T>
void store_result(char** out, const TensorIteratorBase& iter, int, const std::tuple<T...>& value) {
  std::apply(
      [&](const auto&... v) {
        int o = 0;
        (store_result(out, iter, o++, v), ...);
      },
      value);
}
template <typename A, typename B>
void store_result(char** out, const TensorIteratorBase& iter, int, const std::pair<A, B>& value) {
  store_result(out, iter, 0, value.first);
  store_result(out, iter, 1, value.second);
}

// An associative op with its vector form; accumulates in T (binary_kernel_reduce_vec).
template <typename Op, typename VecOp, typename Project>
struct VecReducer {
  using acc_t = typename function_traits<Op>::result_type;
  static constexpr int64_t kSize = static_cast<int64_t>(sizeof(acc_t));
  // Inner reductions keep 4 accumulators of kLanes lanes (one widest vector each) whatever the
  // ISA's width, so that they combine the same elements in the same order on every ISA.
  static constexpr int64_t kLanes = kMaxVectorBytes / kSize;
  const Op& op;
  const VecOp& vop;
  const Project& project;
  acc_t ident;
  const TensorIteratorBase& iter;
  ScalarType dtype;

  acc_t init() const { return ident; }
  acc_t combine(acc_t a, acc_t b) const { return op(a, b); }
  // The vector width for an ISA of kIsaWidth bytes: that for a generic vop, the default (widest)
  // for one written for Vectorized<acc_t>.
  template <int kIsaWidth>
  static constexpr int width() {
    using Vec = Vectorized<acc_t, kIsaWidth>;
    if constexpr (std::is_invocable_r_v<Vec, const VecOp&, Vec, Vec>) {
      return kIsaWidth;
    } else {
      return kMaxVectorBytes;
    }
  }
  template <int kIsaWidth>
  [[gnu::always_inline]] void inner(acc_t& acc, const char* p, int64_t stride, int64_t len,
                                    int64_t) const {
    constexpr int kWidth = width<kIsaWidth>();
    using Vec = Vectorized<acc_t, kWidth>;
    constexpr int64_t kParts = kLanes / Vec::size();  // vectors per accumulator
    // The chunk lambda is inlined so that it is compiled for the ISA that dispatch_cpu picked:
    // out of line, GCC builds it for the baseline ISA, where wide compares and selects (max) turn
    // into scalar code.
    const auto chunk = [&](const char* v, int64_t, int64_t n) __attribute__((always_inline)) {
      // Four independent accumulators hide the latency of the vector op.
      Vec a[4][kParts];
      for (auto& row : a) {
        for (Vec& part : row) part = Vec(ident);
      }
      int64_t i = 0;
      for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
        const char* q = v + i * kSize;
        // 4 KiB ahead (as cascade_sum): the hardware prefetcher alone left amax over rows of
        // 256 floats reading 6 GB/s. Prefetches never fault.
        for (int64_t line = 0; line < 4 * kLanes * kSize; line += 64) {
          __builtin_prefetch(q + kPrefetchBytes + line);
        }
        // Unrolled, so that the accumulators stay in registers.
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
#pragma GCC unroll 4
          for (int64_t part = 0; part < kParts; ++part) {
            a[k][part] = vop(a[k][part], Vec::loadu(q + (k * kParts + part) * kWidth));
          }
        }
      }
      acc_t s = ident;
      for (int64_t part = 0; part < kParts; ++part) {
        const Vec all = vop(vop(a[0][part], a[1][part]), vop(a[2][part], a[3][part]));
        for (int lane = 0; lane < Vec::size(); ++lane) {
          s = (part == 0 && lane == 0) ? all[0] : op(s, all[lane]);
        }
      }
      for (; i < n; ++i) s = op(s, load<acc_t>(v, i));
      acc = op(acc, s);
    };
    contiguous_chunks<acc_t>(dtype, p, stride, len, chunk);
  }
  template <int kIsaWidth>
  [[gnu::always_inline]] void outer(acc_t* acc, const char* p, int64_t stride, int64_t len,
                                    int64_t row_stride, int64_t rows, int64_t) const {
    constexpr int kWidth = width<kIsaWidth>();
    if (dtype != scalar_type_of<acc_t> || stride != kSize) {
      // Converted chunk by chunk, one row at a time.
      for (int64_t r = 0; r < rows; ++r) {
        contiguous_chunks<acc_t>(
            dtype, p + r * row_stride, stride,
            len, [&](const char* v, int64_t off, int64_t n) __attribute__((always_inline)) {
              add_rows<kWidth>(acc + off, v, n, 0, 1);
            });
      }
      return;
    }
    if (rows == kRows) {
      add_rows<kWidth, kRows>(acc, p, len, row_stride, kRows);
    } else {
      add_rows<kWidth>(acc, p, len, row_stride, rows);
    }
  }
  // acc[i] = op(acc[i], op(...op(row 0[i], row 1[i])..., row rows-1[i])): the rows combine in
  // vector registers, then meet the accumulators once. kFixedRows (when not 0) is `rows`.
  template <int kWidth, int64_t kFixedRows = 0>
  [[gnu::always_inline]] void add_rows(acc_t* acc, const char* v, int64_t n, int64_t row_stride,
                                       int64_t rows) const {
    using Vec = Vectorized<acc_t, kWidth>;
    constexpr int64_t kW = Vec::size();
    if constexpr (kFixedRows != 0) rows = kFixedRows;
    char* a = reinterpret_cast<char*>(acc);
    int64_t i = 0;
    for (; i + kW <= n; i += kW) {
      const char* q = v + i * kSize;
      Vec s = Vec::loadu(q);
      for (int64_t r = 1; r < rows; ++r) s = vop(s, Vec::loadu(q + r * row_stride));
      vop(Vec::loadu(a + i * kSize), s).store(a + i * kSize);
    }
    for (; i < n; ++i) {
      acc_t s = load<acc_t>(v, i);
      for (int64_t r = 1; r < rows; ++r) s = op(s, load<acc_t>(v + r * row_stride, i));
      acc[i] = op(acc[i], s);
    }
  }
  void store(char** out, acc_t acc) const { store_result(out, iter, 0, project(acc)); }
};

struct Identity {
  template <typename T>
  T operator()(T v) const {
    return v;
  }
};

}  // namespace reduce_detail

// Drives a reduction (the loops, threads and conversions of the file comment) with a Reducer
// `red`, which provides acc_t, init(), inner<W>(acc&, ptr, stride, len, idx0) (the `len` elements
// at ptr, `stride` bytes apart, whose first has reduced index idx0), outer<W>(acc*, ptr, stride,
// len, row_stride, rows, idx0) (acc[i] takes elements i of `rows` input rows, the first of which
// has reduced index idx0), combine(acc, acc) (earlier elements first) and store(out_ptrs, acc). W
// is the vector width dispatch_cpu picked; inner and outer run inlined into code compiled for its
// ISA. With `contiguous_first`, the input's contiguous dim is iterated first in its group (see
// reduction_geometry). binary_kernel_reduce and binary_kernel_reduce_vec are two Reducers; a
// kernel that vectorises a reduction they cannot (argmax) writes its own.
template <typename Reducer>
void run_reduction(const TensorIteratorBase& iter, const Reducer& red, bool contiguous_first) {
  using acc_t = typename Reducer::acc_t;
  const int nout = iter.noutputs(), in = nout, nt = iter.ntensors();
  const ReductionGeometry g = reduction_geometry(iter, in, contiguous_first);
  const int64_t num_kept = g.kept.numel(), num_reduced = g.reduced.numel();
  if (num_kept == 0) return;
  const PtrVector base = iter.get_base_ptrs();
  const int64_t in_size = static_cast<int64_t>(element_size(iter.dtype(in)));
  // Outer when the input is contiguous along a kept dim and not along a reduced one.
  const bool outer =
      !g.kept.sizes.empty() && g.kept.stride0(in) == in_size && g.reduced.stride0(in) != in_size;

  // acc[k - kb] accumulates reduced elements [rb, re) of kept elements [kb, ke).
  auto accumulate = [&](int64_t kb, int64_t ke, int64_t rb, int64_t re, acc_t* acc) {
    StrideVector koff(nt), roff(nt);
    auto body = [&](auto width) __attribute__((always_inline)) {
      constexpr int kIsaWidth = decltype(width)::value;
      if (outer) {
        for (int64_t k = kb; k < ke;) {
          const int64_t len = std::min(g.kept.size0() - k % g.kept.size0(), ke - k);
          g.kept.offsets(k, koff.data());
          for (int64_t r = rb; r < re;) {
            // Rows along the first reduced dim, up to its end.
            const int64_t rows =
                std::min({reduce_detail::kRows, g.reduced.size0() - r % g.reduced.size0(), re - r});
            g.reduced.offsets(r, roff.data());
            red.template outer<kIsaWidth>(acc + (k - kb), base[in] + koff[in] + roff[in],
                                          g.kept.stride0(in), len, g.reduced.stride0(in), rows, r);
            r += rows;
          }
          k += len;
        }
        return;
      }
      if (g.kept.sizes.size() <= 1 && g.reduced.sizes.size() <= 1 && rb == 0 && re == num_reduced) {
        // Whole rows along one reduced dim, one kept dim (a reduction over the last dim): the
        // rows are one stride apart. Offsets per output cost as much as a row of 256 floats.
        const int64_t row_stride = g.kept.stride0(in), stride = g.reduced.stride0(in);
        const char* row = base[in] + kb * row_stride;
        for (int64_t k = kb; k < ke; ++k, row += row_stride) {
          red.template inner<kIsaWidth>(acc[k - kb], row, stride, num_reduced, 0);
        }
        return;
      }
      for (int64_t k = kb; k < ke; ++k) {
        g.kept.offsets(k, koff.data());
        for (int64_t r = rb; r < re;) {
          const int64_t len = std::min(g.reduced.size0() - r % g.reduced.size0(), re - r);
          g.reduced.offsets(r, roff.data());
          red.template inner<kIsaWidth>(acc[k - kb], base[in] + koff[in] + roff[in],
                                        g.reduced.stride0(in), len, r);
          r += len;
        }
      }
    };
    dispatch_cpu(body);
  };
  auto finish = [&](int64_t kb, int64_t ke, const acc_t* acc) {
    StrideVector koff(nt);
    PtrVector out(nout);
    if (g.kept.sizes.size() <= 1) {  // outputs one stride apart
      StrideVector step(nout);
      for (int o = 0; o < nout; ++o) {
        step[o] = g.kept.stride0(o);
        out[o] = base[o] + kb * step[o];
      }
      for (int64_t k = kb; k < ke; ++k) {
        red.store(out.data(), acc[k - kb]);
        for (int o = 0; o < nout; ++o) out[o] += step[o];
      }
      return;
    }
    for (int64_t k = kb; k < ke; ++k) {
      g.kept.offsets(k, koff.data());
      for (int o = 0; o < nout; ++o) out[o] = base[o] + koff[o];
      red.store(out.data(), acc[k - kb]);
    }
  };

  const int threads = in_parallel_region() ? 1 : get_num_threads();
  const bool parallel = threads > 1 && num_kept * num_reduced >= kGrainSize;
  if (!parallel || num_kept >= threads) {
    const int64_t grain =
        parallel ? std::max<int64_t>(1, kGrainSize / std::max<int64_t>(num_reduced, 1)) : num_kept;
    constexpr int64_t kBlock = reduce_detail::block_size<acc_t>();
    parallel_for(0, num_kept, grain, [&](int64_t begin, int64_t end) {
      std::vector<acc_t> acc(static_cast<size_t>(std::min(kBlock, end - begin)));
      for (int64_t kb = begin; kb < end; kb += kBlock) {
        const int64_t ke = std::min(end, kb + kBlock);
        std::fill(acc.begin(), acc.end(), red.init());
        accumulate(kb, ke, 0, num_reduced, acc.data());
        finish(kb, ke, acc.data());
      }
    });
    return;
  }
  // Few outputs: split the reduced elements into one chunk per thread, then combine in order.
  const int64_t chunks = std::min<int64_t>(threads, std::max<int64_t>(1, num_reduced));
  std::vector<acc_t> partial(static_cast<size_t>(chunks * num_kept), red.init());
  parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      accumulate(0, num_kept, num_reduced * c / chunks, num_reduced * (c + 1) / chunks,
                 partial.data() + c * num_kept);
    }
  });
  for (int64_t c = 1; c < chunks; ++c) {
    for (int64_t k = 0; k < num_kept; ++k) {
      partial[k] = red.combine(partial[k], partial[c * num_kept + k]);
    }
  }
  finish(0, num_kept, partial.data());
}

// The Reducer of binary_kernel_reduce: any ops (see there), one element at a time, inputs
// converted to the type of ops.reduce's second argument chunk by chunk. A Reducer that
// vectorises some cases can defer the others to it.
template <typename Ops, typename AccT>
struct ElementwiseReducer {
  using acc_t = AccT;
  using in_t = std::decay_t<typename function_traits<decltype(&Ops::reduce)>::template arg_t<1>>;
  const Ops& ops;
  AccT initial;
  const TensorIteratorBase& iter;
  ScalarType dtype;

  acc_t init() const { return initial; }
  acc_t combine(const acc_t& a, const acc_t& b) const { return ops.combine(a, b); }
  template <int kWidth>
  [[gnu::always_inline]] void inner(acc_t& acc, const char* p, int64_t stride, int64_t len,
                                    int64_t idx0) const {
    reduce_detail::contiguous_chunks<in_t>(
        dtype, p, stride, len, [&](const char* v, int64_t off, int64_t n) {
          for (int64_t i = 0; i < n; ++i)
            acc = ops.reduce(acc, reduce_detail::load<in_t>(v, i), idx0 + off + i);
        });
  }
  template <int kWidth>
  [[gnu::always_inline]] void outer(acc_t* acc, const char* p, int64_t stride, int64_t len,
                                    int64_t row_stride, int64_t rows, int64_t idx0) const {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t idx = idx0 + r;
      reduce_detail::contiguous_chunks<in_t>(
          dtype, p + r * row_stride, stride, len, [&](const char* v, int64_t off, int64_t n) {
            for (int64_t i = 0; i < n; ++i)
              acc[off + i] = ops.reduce(acc[off + i], reduce_detail::load<in_t>(v, i), idx);
          });
    }
  }
  void store(char** out, const acc_t& acc) const {
    reduce_detail::store_result(out, iter, 0, ops.project(acc));
  }
};

// Reduces with `ops` (ATen's reduction ops): reduce(acc, x, idx) -> acc, where idx is x's
// position among the reduced elements (for one reduced dim: its index along it);
// combine(acc, acc) -> acc (merges partial results in order: the first argument holds earlier
// elements); project(acc) -> the output value, or a std::pair / std::tuple of values for several
// outputs (e.g. max and argmax). `init` is the initial accumulator. One element at a time.
template <typename Ops, typename AccT>
void binary_kernel_reduce(const TensorIteratorBase& iter, const Ops& ops, AccT init) {
  ElementwiseReducer<Ops, AccT> red{ops, init, iter, iter.input_dtype()};
  run_reduction(iter, red, /*contiguous_first=*/false);
}

// Reduces with an associative `op(acc, acc) -> acc` (and its vector form `vop`, generic: it maps
// two Vectorized<acc, W> to one, for every width W; one written for Vectorized<acc> runs with
// 32-byte vectors on every ISA) whose identity is `ident`, e.g. sum, prod, max.
// Accumulates in op's type (float for half inputs, double if asked); `project` (optional) maps the
// final accumulator, e.g. divides for mean. Results do not depend on the ISA.
template <typename Op, typename VecOp, typename Project = reduce_detail::Identity>
void binary_kernel_reduce_vec(const TensorIteratorBase& iter, const Op& op, const VecOp& vop,
                              typename function_traits<Op>::result_type ident,
                              const Project& project = Project()) {
  using T = typename function_traits<Op>::result_type;
  static_assert(
      std::is_invocable_r_v<Vectorized<T, 16>, const VecOp&, Vectorized<T, 16>,
                            Vectorized<T, 16>> ||
          std::is_invocable_r_v<Vectorized<T>, const VecOp&, Vectorized<T>, Vectorized<T>>,
      "binary_kernel_reduce_vec: the vector op must map two Vectorized<T, W> to one for "
      "every width W (a generic lambda), or two Vectorized<T> to one");
  BP_CHECK(iter.noutputs() == 1 && iter.ninputs() == 1,
           "binary_kernel_reduce_vec: expected one output and one input");
  reduce_detail::VecReducer<Op, VecOp, Project> red{op,    vop,  project,
                                                    ident, iter, iter.input_dtype()};
  run_reduction(iter, red, /*contiguous_first=*/true);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_REDUCE_H_
