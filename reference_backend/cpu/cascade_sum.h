// cascade_sum: sums a reduction iterator's input with cascade (streaming pairwise) summation, as
// PyTorch's CPU sum does for floating and complex types, so that the rounding error grows with
// the logarithm of the number of elements summed instead of linearly.
//
//   TensorIterator iter = reduction_iterator("sum", out, self, dims, keepdim, self.dtype());
//   cascade_sum<float>(iter);                                   // float16 data: A = float
//   cascade_sum<double>(iter, math::DivideBy<double>{count});   // mean
//
// Each output's elements are summed directly in leaves (1024 elements on four 64-byte vector
// accumulators when read in place, 256 when converted first or complex), whose partial sums,
// still vectors, then merge like a binary counter, each meeting one of about its size; the lanes
// are added once at the end. The vectors are 64 bytes on every ISA, so results do not depend on
// it. A contiguous row of A, the common case, takes a lean path (per-row costs dominated rows of
// a few dozen elements; see docs/design/iter.md). When the
// input is contiguous along a kept dim (an "outer" reduction), whole input rows are added into a
// block of up to 4096 outputs instead (whole rows of most matrices, so
// the input streams in order), through levels that each add at most 16 terms. Inputs of
// another dtype than A are converted as they are read. Threads split the outputs, or, when there
// are fewer outputs than threads, the summed elements (the chunks' sums are added in order, so
// results do not depend on timing).
//
// Why it is here: sdk/iter/reduce.h's binary_kernel_reduce_vec accumulates each output (and each
// vector lane) sequentially, which loses about 1e-3 relative precision over 10^7 float32
// elements; this is the summation variant it lacks. It uses reduce.h's public geometry only.
//
// Thread safety: runs on several threads over disjoint outputs; `project` must be thread-safe.
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_CASCADE_SUM_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_CASCADE_SUM_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/reduce.h"
#include "sdk/iter/strided_convert.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::cpu {
namespace cascade_detail {

inline constexpr int64_t kLeaf = 256;     // elements summed directly into one partial sum
inline constexpr int64_t kLeafRows = 16;  // outer reductions: rows summed directly
inline constexpr int64_t kBlock = 4096;   // outer reductions: outputs accumulated together
inline constexpr int kOperands = 2;       // the output and the input

template <typename A>
inline constexpr bool kVectorizable = std::is_arithmetic_v<A> && !std::is_same_v<A, bool>;

// 64 bytes of A as 64 / kPieceBytes vectors of kPieceBytes. GCC 12 keeps a 64-byte vector
// extension in registers only in AVX-512 code: on the AVX2 and baseline paths it moved each of a
// leaf's four accumulators through the stack in 16-byte pieces on every add, and a sum over rows
// of 4096 floats took 2.0x PyTorch's time on Zen 3. Separate vectors of the path's width stay in
// registers. The lanes, their adds and the order of reduce_add's halving are those of the 64-byte
// vector, so every path gives the same bits.
template <typename A, int kPieceBytes, VecIsa kIsa>
struct Vector64 {
  using Piece = Vectorized<A, kPieceBytes, kIsa>;
  static constexpr int kPieces = 64 / kPieceBytes;
  static constexpr int size() { return 64 / static_cast<int>(sizeof(A)); }

  Vector64() = default;
  [[gnu::always_inline]] explicit Vector64(A value) {
    for (Piece& p : piece) p = Piece(value);
  }
  [[gnu::always_inline]] static Vector64 loadu(const A* v) {
    Vector64 r;
    for (int j = 0; j < kPieces; ++j) r.piece[j] = Piece::loadu(v + j * Piece::size());
    return r;
  }
  // The first `count` (< size()) elements; the other lanes are 0.
  [[gnu::always_inline]] static Vector64 loadu(const A* v, int64_t count) {
    Vector64 r(A(0));
    for (int j = 0; j < kPieces && count > 0; ++j, count -= Piece::size()) {
      r.piece[j] = count >= Piece::size() ? Piece::loadu(v + j * Piece::size())
                                          : Piece::loadu(v + j * Piece::size(), count);
    }
    return r;
  }
  [[gnu::always_inline]] friend Vector64 operator+(Vector64 a, const Vector64& b) {
    for (int j = 0; j < kPieces; ++j) a.piece[j] = a.piece[j] + b.piece[j];
    return a;
  }
  [[gnu::always_inline]] Vector64& operator+=(const Vector64& b) { return *this = *this + b; }
  // The low half plus the high half, down to one piece, then its own halving: reduce_add's order
  // on a 64-byte vector.
  [[gnu::always_inline]] friend A reduce_add(Vector64 a) {
    for (int n = kPieces / 2; n >= 1; n /= 2) {
      for (int j = 0; j < n; ++j) a.piece[j] = a.piece[j] + a.piece[j + n];
    }
    return reduce_add(a.piece[0]);
  }

  Piece piece[kPieces];
};

// The vector a leaf's partial sum stays in until the end (its lanes are added last): 64 bytes on
// every ISA, so that results do not depend on it (sums compare nothing, so 64-byte vectors are
// plain vector adds everywhere, see cpu_capability.h), in pieces of the path's width below
// AVX-512 (Vector64); A itself where A has no vectors (complex).
template <typename A, typename Width>
struct PartialOf {
  using type = A;
};
template <typename A, typename Width>
requires kVectorizable<A>
struct PartialOf<A, Width> {
  using type = Vector64<A, Width::isa == VecIsa::kAvx512 ? 64 : Width::value, Width::isa>;
};
template <typename A, typename Width>
using Partial = typename PartialOf<A, Width>::type;

// A partial sum's value.
template <typename A, typename P>
[[gnu::always_inline]] inline A total_of(P p) {
  if constexpr (std::is_same_v<P, A>) {
    return p;
  } else {
    return reduce_add(p);
  }
}

// The partial sum of n contiguous values: on four vector accumulators where A allows
// (the tail loaded zero-filled), else on eight interleaved scalar ones (complex), so that no
// accumulator takes more than 32 terms.
template <typename A, typename Width>
[[gnu::always_inline]] inline Partial<A, Width> leaf_sum(const A* v, int64_t n, Width) {
  using P = Partial<A, Width>;
  int64_t i = 0;
  if constexpr (!std::is_same_v<P, A>) {
    constexpr int64_t kW = P::size();
    P a0(A(0)), a1(A(0)), a2(A(0)), a3(A(0));
    for (; i + 4 * kW <= n; i += 4 * kW) {
      // 4 KiB ahead: the hardware prefetcher alone left sums of 64 MiB a few percent short of
      // PyTorch's (both then read at the core's bandwidth). Prefetches never fault.
      for (int line = 0; line < 4 * kW * int{sizeof(A)}; line += 64) {
        __builtin_prefetch(reinterpret_cast<const char*>(v + i) + 4096 + line);
      }
      a0 += P::loadu(v + i);
      a1 += P::loadu(v + i + kW);
      a2 += P::loadu(v + i + 2 * kW);
      a3 += P::loadu(v + i + 3 * kW);
    }
    for (; i + kW <= n; i += kW) a0 += P::loadu(v + i);
    if (i < n) a1 += P::loadu(v + i, n - i);
    return (a0 + a1) + (a2 + a3);
  } else {
    A a[8] = {A(0), A(0), A(0), A(0), A(0), A(0), A(0), A(0)};
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; ++j) a[j] += v[i + j];
    }
    A s = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
    for (; i < n; ++i) s += v[i];
    return s;
  }
}

// acc[i] += v[i] for i < n.
template <typename A>
[[gnu::always_inline]] inline void add_into(A* acc, const A* v, int64_t n) {
  int64_t i = 0;
  if constexpr (kVectorizable<A>) {
    using Vec = Vectorized<A>;
    for (; i + Vec::size() <= n; i += Vec::size()) {
      (Vec::loadu(acc + i) + Vec::loadu(v + i)).store(acc + i);
    }
  }
  for (; i < n; ++i) acc[i] += v[i];
}

// Streaming pairwise summation of leaves' partial sums P (vectors, or scalars for complex):
// add() takes partial sums of about equal weight; level j holds the sum of 2^j of them, and adding
// a leaf carries through the levels like incrementing a binary counter. Levels are written before
// they are read: no initialisation needed.
template <typename P>
struct LeafCascade {
  P level[64];
  uint64_t count = 0;

  [[gnu::always_inline]] void add(P leaf) {
    int j = 0;
    for (uint64_t c = count++; c & 1; c >>= 1, ++j) leaf = level[j] + leaf;
    level[j] = leaf;
  }
  // The sum of `partial` (a last, smaller leaf) and every leaf added, smallest levels first.
  [[gnu::always_inline]] P total(P partial) const {
    for (int j = 0; (count >> j) != 0; ++j) {
      if ((count >> j) & 1) partial = partial + level[j];
    }
    return partial;
  }
};

// A cascade of `width` sums at once (an outer reduction's block of outputs), with a fan-out of
// kLeafRows per level: rows are added into level 0 (leaf()); push_leaf() adds level 0 into level
// 1, and every kLeafRows-th push into a level carries that level on into the next one. Each sum
// thus takes at most kLeafRows terms, and there are log_16(rows) levels.
template <typename A>
class BlockCascade {
 public:
  explicit BlockCascade(int64_t width)
      : width_(width), sums_(static_cast<size_t>(2 * width), A(0)), counts_(2, 0) {}

  A* leaf() { return level(0); }

  [[gnu::always_inline]] void push_leaf() {
    for (size_t j = 0;; ++j) {
      if (j + 1 == counts_.size()) {
        sums_.resize(sums_.size() + static_cast<size_t>(width_), A(0));
        counts_.push_back(0);
      }
      move_into(level(j + 1), level(j));
      if (++counts_[j + 1] < kLeafRows) return;
      counts_[j + 1] = 0;
    }
  }
  // out[i] = the sum of everything added to output i, smallest levels first.
  [[gnu::always_inline]] void totals(A* out) {
    for (int64_t i = 0; i < width_; ++i) out[i] = A(0);
    for (size_t j = 0; j < counts_.size(); ++j) add_into(out, level(j), width_);
  }

 private:
  A* level(size_t j) { return sums_.data() + j * static_cast<size_t>(width_); }
  // to += from; from = 0.
  [[gnu::always_inline]] void move_into(A* to, A* from) {
    add_into(to, from, width_);
    for (int64_t i = 0; i < width_; ++i) from[i] = A(0);
  }

  int64_t width_;
  std::vector<A> sums_;          // level j at [j * width, (j + 1) * width)
  std::vector<int64_t> counts_;  // counts_[j]: pushes into level j since it last carried
};

// The iterator's operands as the summation reads them: its split of dims (contiguous dim first
// in each group), base pointers, and the input's dtype.
struct SumPlan {
  ReductionGeometry g;
  PtrVector base;
  ScalarType in_dtype;
  int64_t in_size;
  bool outer;  // input contiguous along a kept dim and not along a reduced one

  explicit SumPlan(const TensorIteratorBase& iter)
      : g(reduction_geometry(iter, /*input=*/1, /*contiguous_first=*/true)),
        base(iter.get_base_ptrs()),
        in_dtype(iter.dtype(1)),
        in_size(static_cast<int64_t>(element_size(iter.dtype(1)))),
        outer(!g.kept.sizes.empty() && g.kept.stride0(1) == in_size &&
              g.reduced.stride0(1) != in_size) {
    BP_INTERNAL_ASSERT(iter.ntensors() == kOperands, "cascade_sum: one output and one input");
  }
};

// Byte offsets of an element for each operand (fixed size: kernels fill one per output).
using Offsets = std::array<int64_t, kOperands>;

// Elements summed in place into one leaf: a vector leaf spreads them over four accumulators of
// 64 bytes (1024 floats put 16 terms in each lane).
template <typename A, typename Width>
inline constexpr int64_t kDirectLeaf = std::is_same_v<Partial<A, Width>, A> ? kLeaf : 4 * kLeaf;

// Adds the n contiguous values at v to `cascade`, in leaves of up to kDirectLeaf (the last may be
// shorter).
template <typename A, typename Width>
[[gnu::always_inline]] inline void add_in_place(LeafCascade<Partial<A, Width>>& cascade, const A* v,
                                                int64_t n, Width width) {
  constexpr int64_t kStep = kDirectLeaf<A, Width>;
  for (int64_t i = 0; i < n; i += kStep)
    cascade.add(leaf_sum(v + i, std::min(kStep, n - i), width));
}

// The sum of the n contiguous values at v: one leaf, or a cascade of leaves of kDirectLeaf.
template <typename A, typename Width>
[[gnu::always_inline]] inline A row_sum(const A* v, int64_t n, Width width) {
  using P = Partial<A, Width>;
  if (n <= kDirectLeaf<A, Width>) return total_of<A>(leaf_sum(v, n, width));
  LeafCascade<P> cascade;
  add_in_place(cascade, v, n, width);
  return total_of<A>(cascade.total(P(A(0))));
}

// Sums reduced elements [rb, re) of kept element k: read in place, in leaves of up to
// kDirectLeaf elements (a run's last leaf may be shorter), when contiguous and of dtype A, else
// gathered (converted) into a buffer, in leaves of kLeaf.
template <typename A, typename Width>
[[gnu::always_inline]] inline A sum_one(const SumPlan& plan, int64_t k, int64_t rb, int64_t re,
                                        Width width) {
  using P = Partial<A, Width>;
  const ReduceDims& reduced = plan.g.reduced;
  Offsets koff, roff;
  plan.g.kept.offsets(k, koff.data());
  const int64_t stride = reduced.stride0(1);
  const bool direct = plan.in_dtype == scalar_type_of<A> && stride == plan.in_size;
  if (direct && reduced.sizes.size() <= 1) {
    // One run: a row of A (the common case, kept lean: rows of 64 floats took twice PyTorch's
    // time through the general loop below).
    return row_sum<A>(reinterpret_cast<const A*>(plan.base[1] + koff[1]) + rb, re - rb, width);
  }
  LeafCascade<P> cascade;
  A buf[kLeaf];
  int64_t filled = 0;
  for (int64_t r = rb; r < re;) {
    const int64_t len = std::min(reduced.size0() - r % reduced.size0(), re - r);
    reduced.offsets(r, roff.data());
    const char* p = plan.base[1] + koff[1] + roff[1];
    r += len;
    if (direct) {
      add_in_place(cascade, reinterpret_cast<const A*>(p), len, width);
      continue;
    }
    for (int64_t i = 0; i < len;) {
      const int64_t n = std::min(kLeaf - filled, len - i);
      load_converted(buf + filled, plan.in_dtype, p + i * stride, stride, n);
      filled += n;
      i += n;
      if (filled == kLeaf) {
        cascade.add(leaf_sum(buf, kLeaf, width));
        filled = 0;
      }
    }
  }
  return total_of<A>(cascade.total(leaf_sum(buf, filled, width)));
}

// Sums reduced elements [rb, re) of kept elements [k, k + n), which lie contiguously in the input
// (an outer reduction): rows of n elements are added into a block of leaf accumulators.
template <typename A>
[[gnu::always_inline]] inline void sum_block(const SumPlan& plan, int64_t k, int64_t n, int64_t rb,
                                             int64_t re, A* out) {
  Offsets koff, roff;
  plan.g.kept.offsets(k, koff.data());
  const bool direct_dtype = plan.in_dtype == scalar_type_of<A>;
  BlockCascade<A> cascade(n);
  std::vector<A> row(direct_dtype ? 0 : static_cast<size_t>(n));
  int64_t rows = 0;
  for (int64_t r = rb; r < re; ++r) {
    plan.g.reduced.offsets(r, roff.data());
    const char* p = plan.base[1] + koff[1] + roff[1];
    if (direct_dtype) {
      add_into(cascade.leaf(), reinterpret_cast<const A*>(p), n);
    } else {
      load_converted(row.data(), plan.in_dtype, p, plan.in_size, n);
      add_into(cascade.leaf(), row.data(), n);
    }
    if (++rows == kLeafRows) {
      cascade.push_leaf();
      rows = 0;
    }
  }
  cascade.totals(out);
}

// out[k - kb] = the sum of reduced elements [rb, re) of kept element k, for k in [kb, ke).
template <typename A>
void sum_range(const SumPlan& plan, int64_t kb, int64_t ke, int64_t rb, int64_t re, A* out) {
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    if (!plan.outer) {
      const ReduceDims& kept = plan.g.kept;
      const ReduceDims& reduced = plan.g.reduced;
      if (kept.sizes.size() <= 1 && reduced.sizes.size() <= 1 &&
          plan.in_dtype == scalar_type_of<A> && reduced.stride0(1) == plan.in_size) {
        // Rows of A one stride apart (a sum over the last dim): no offsets per row, which cost
        // as much as summing a row of 256 floats.
        const int64_t row_stride = kept.stride0(1);
        const char* row = plan.base[1] + kb * row_stride;
        for (int64_t k = kb; k < ke; ++k, row += row_stride) {
          out[k - kb] = row_sum<A>(reinterpret_cast<const A*>(row) + rb, re - rb, width);
        }
        return;
      }
      for (int64_t k = kb; k < ke; ++k) out[k - kb] = sum_one<A>(plan, k, rb, re, width);
      return;
    }
    const int64_t size0 = plan.g.kept.size0();
    for (int64_t k = kb; k < ke;) {
      const int64_t n = std::min({size0 - k % size0, ke - k, kBlock});
      sum_block<A>(plan, k, n, rb, re, out + (k - kb));
      k += n;
    }
  });
}

}  // namespace cascade_detail

// Sums `iter`'s input (operand 1) over the reduced dims into its output (operand 0), in
// accumulator type A (float, double or their complex), and stores project(sum) converted to the
// output's dtype. See the file comment.
template <typename A, typename Project>
void cascade_sum(const TensorIteratorBase& iter, const Project& project) {
  using namespace cascade_detail;
  const SumPlan plan(iter);
  const int64_t num_kept = plan.g.kept.numel(), num_reduced = plan.g.reduced.numel();
  if (num_kept == 0) return;
  using R = decltype(project(A()));
  // Of the result's own type, a plain store (store_converted's dispatch on the dtype cost as
  // much as summing a row of 64 floats).
  const bool same_dtype = iter.dtype(0) == scalar_type_of<R>;
  auto store = [&](int64_t kb, int64_t ke, const A* sums) {
    if (same_dtype && plan.g.kept.sizes.size() <= 1) {  // outputs one stride apart
      const int64_t stride = plan.g.kept.stride0(0);
      char* out = plan.base[0] + kb * stride;
      for (int64_t k = kb; k < ke; ++k, out += stride) {
        const R value = project(sums[k - kb]);
        copy_bytes(out, &value, sizeof(R));
      }
      return;
    }
    Offsets koff;
    for (int64_t k = kb; k < ke; ++k) {
      plan.g.kept.offsets(k, koff.data());
      const R value = project(sums[k - kb]);
      if (same_dtype) {
        copy_bytes(plan.base[0] + koff[0], &value, sizeof(R));
      } else {
        store_converted(iter.dtype(0), plan.base[0] + koff[0], 0, &value, 1);
      }
    }
  };
  const int threads = in_parallel_region() ? 1 : get_num_threads();
  const bool parallel = threads > 1 && num_kept * num_reduced >= kGrainSize;
  if (!parallel || num_kept >= threads) {
    const int64_t grain =
        parallel ? std::max<int64_t>(1, kGrainSize / std::max<int64_t>(num_reduced, 1)) : num_kept;
    parallel_for(0, num_kept, grain, [&](int64_t begin, int64_t end) {
      std::vector<A> sums(static_cast<size_t>(std::min(kBlock, end - begin)));
      for (int64_t kb = begin; kb < end; kb += kBlock) {
        const int64_t ke = std::min(end, kb + kBlock);
        sum_range<A>(plan, kb, ke, 0, num_reduced, sums.data());
        store(kb, ke, sums.data());
      }
    });
    return;
  }
  // Fewer outputs than threads: one chunk of the summed elements per thread, then the chunks'
  // sums in order.
  const int64_t chunks = std::min<int64_t>(threads, num_reduced);
  std::vector<A> partial(static_cast<size_t>(chunks * num_kept));
  parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      sum_range<A>(plan, 0, num_kept, num_reduced * c / chunks, num_reduced * (c + 1) / chunks,
                   partial.data() + c * num_kept);
    }
  });
  for (int64_t c = 1; c < chunks; ++c) {
    for (int64_t k = 0; k < num_kept; ++k) partial[k] += partial[c * num_kept + k];
  }
  store(0, num_kept, partial.data());
}

}  // namespace bp::cpu

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_CASCADE_SUM_H_
