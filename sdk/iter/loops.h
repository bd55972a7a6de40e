// CPU element-wise loops over a TensorIterator: what kernel authors write against (the semantics
// of ATen's native/cpu/Loops.h).
//
//   TensorIterator iter;
//   iter.build_borrowing_binary_op(out, a, b);
//   cpu_kernel_vec(
//       iter, [](float x, float y) -> float { return x + y; },
//       [](auto x, auto y) { return x + y; });   // x, y: Vectorized<float, W>
//
// The scalar callable's argument and result types are deduced (function_traits: it must not be
// generic); operand 0 is the output, operands 1..n the inputs, in the callable's argument order.
// The vector callable is generic: it is called with Vectorized<T, W> values, W the register width
// of the ISA the loop runs with (see vectorized.h); constants inside it are decltype(x)(2). (One
// written for Vectorized<T> runs with 32-byte vectors on every ISA.)
// Each 2-D tile row takes the fastest path that fits:
//   - contiguous: every operand has stride == element size: a tight loop (with cpu_kernel_vec,
//     2 Vectorized steps per iteration, the tail through the scalar callable);
//   - scalar operand: one input has stride 0 and the others are contiguous: that input is loaded
//     once per row (and broadcast into a vector once);
//   - strided: any byte strides;
//   - dynamic casting: when an operand's dtype is not the callable's type (e.g. an int32 input to
//     a float kernel, or a bool output), chunks of each input are converted to the callable's
//     types, computed, and the results converted to the output's dtype (convert_elements, PyTorch's
//     conversion rules). cpu_kernel_vec uses the scalar callable then.
// Tiles run on several threads when the iterator has at least `grain_size` elements
// (TensorIteratorBase::for_each); the contiguous and scalar-operand loops are compiled for each
// ISA and the best one for the CPU is picked at run time (dispatch_cpu), and a generic vector
// callable gets vectors tagged with that ISA (Vectorized<T, W, VecIsa>: vec_math.h then calls
// SLEEF with the vector in a register; the callable must be inlined into the loop, as
// pointwise.h's flattened bodies are); strided and casting rows are compiled once, for the
// baseline ISA.
//
// Errors (BP_CHECK): the callable's arity differs from the iterator's inputs, or the iterator has
// more than one output. Callables must not throw.
//
// Thread safety: the callables run concurrently on disjoint elements; they must be thread-safe.
#ifndef BACKPLANE_SDK_ITER_LOOPS_H_
#define BACKPLANE_SDK_ITER_LOOPS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"
#include "sdk/iter/function_traits.h"
#include "sdk/iter/strided_convert.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace loops_detail {

template <typename Op>
using traits_of = function_traits<Op>;
template <typename Op, size_t I>
using arg_of = typename traits_of<Op>::template arg_t<I>;
template <typename Op>
using result_of = typename traits_of<Op>::result_type;
// The lane type of an op's vectors: its result's, or its arguments' for a predicate (a bool
// result), whose vector op returns comparison masks.
template <typename Op,
          bool kPredicate = std::is_same_v<result_of<Op>, bool> && (traits_of<Op>::arity > 0)>
struct VecElement {
  using type = result_of<Op>;
};
template <typename Op>
struct VecElement<Op, true> {
  using type = arg_of<Op, 0>;
};
template <typename Op>
using vec_element_t = typename VecElement<Op>::type;

// ---- Element access: one kind per operand layout ---------------------------------------------
// Loads and stores go through copy_bytes (vectorized.h): any dtype may sit at any byte offset.

template <typename T>
struct Contiguous {
  char* ptr;
  [[gnu::always_inline]] T load(int64_t i) const {
    T v;
    copy_bytes(&v, ptr + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
  }
  [[gnu::always_inline]] void store(int64_t i, const T& v) const {
    copy_bytes(ptr + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
  }
  template <int kWidth, VecIsa kIsa>
  [[gnu::always_inline]] Vectorized<T, kWidth, kIsa> load_vec(int64_t i) const {
    return Vectorized<T, kWidth, kIsa>::loadu(ptr + i * static_cast<int64_t>(sizeof(T)));
  }
};

template <typename T>
struct Strided {
  char* ptr;
  int64_t stride;
  [[gnu::always_inline]] T load(int64_t i) const {
    T v;
    copy_bytes(&v, ptr + i * stride, sizeof(T));
    return v;
  }
  [[gnu::always_inline]] void store(int64_t i, const T& v) const {
    copy_bytes(ptr + i * stride, &v, sizeof(T));
  }
};

// A contiguous bool input (a mask) of a vector op whose lanes are E: vectors of 0 / 1 of E.
template <typename E>
struct ContiguousMask {
  char* ptr;
  [[gnu::always_inline]] bool load(int64_t i) const {
    bool v;
    copy_bytes(&v, ptr + i, 1);
    return v;
  }
  template <int kWidth, VecIsa kIsa>
  [[gnu::always_inline]] Vectorized<E, kWidth, kIsa> load_vec(int64_t i) const {
    using Vec = Vectorized<E, kWidth, kIsa>;
    typedef uint8_t Bytes __attribute__((vector_size(Vec::size())));
    Bytes bytes;
    copy_bytes(&bytes, ptr + i, sizeof(bytes));
    return Vec::from_raw(__builtin_convertvector(bytes, typename Vec::Raw));
  }
};

// A stride-0 input: read once.
template <typename T>
struct Broadcast {
  T value;
  [[gnu::always_inline]] T load(int64_t) const { return value; }
  template <int kWidth, VecIsa kIsa>
  [[gnu::always_inline]] Vectorized<T, kWidth, kIsa> load_vec(int64_t) const {
    return Vectorized<T, kWidth, kIsa>(value);
  }
};

// A stride-0 bool input of a vector op whose lanes are E: 0 / 1 of E in every lane.
template <typename E>
struct BroadcastMask {
  bool value;
  [[gnu::always_inline]] bool load(int64_t) const { return value; }
  template <int kWidth, VecIsa kIsa>
  [[gnu::always_inline]] Vectorized<E, kWidth, kIsa> load_vec(int64_t) const {
    return Vectorized<E, kWidth, kIsa>(static_cast<E>(value));
  }
};

// Whether argument I of Op is a bool mask beside vector lanes of another type.
template <typename Op, size_t I>
inline constexpr bool kMaskArg =
    std::is_same_v<arg_of<Op, I>, bool> && !std::is_same_v<vec_element_t<Op>, bool>;

// out[i] = op(in[i]...) for i in [begin, end).
template <typename Op, typename Out, typename... In>
[[gnu::always_inline]] inline void apply_row(const Op& op, const Out& out, int64_t begin,
                                             int64_t end, const In&... in) {
  for (int64_t i = begin; i < end; ++i) out.store(i, op(in.load(i)...));
}

// The even lanes of `v` (lanes 0, 2, 4, ...).
template <typename V, size_t... I>
[[gnu::always_inline]] inline auto even_lanes(V v, std::index_sequence<I...>) {
  return __builtin_shufflevector(v, v, (2 * I)...);
}

// Stores the lanes of `mask` (a comparison's result: every bit of a lane set or none) as
// size() bools at `out`.
template <typename T, int kWidth, VecIsa kIsa>
[[gnu::always_inline]] inline void store_mask_as_bool(const Vectorized<T, kWidth, kIsa>& mask,
                                                      char* out) {
  constexpr int kLanes = Vectorized<T, kWidth, kIsa>::size();
  using Lane =
      std::conditional_t<sizeof(T) == 1, int8_t,
                         std::conditional_t<sizeof(T) == 2, int16_t,
                                            std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>>;
  typedef Lane Lanes __attribute__((vector_size(kWidth)));
  typedef int8_t Bytes __attribute__((vector_size(kLanes)));
  Bytes bytes;
  if constexpr (sizeof(T) == 8) {
    // Each 8-byte lane's low half first: GCC narrows 8-byte lanes to bytes one lane at a time
    // (extracts, shifts and ors: ne of int64 into bool took 1.2x libtorch's time on AVX2), and
    // 4-byte lanes with packs. The low byte is the same either way.
    typedef int32_t Halves __attribute__((vector_size(kWidth)));
    Halves halves;
    copy_bytes(&halves, &mask, sizeof(halves));
    bytes = -__builtin_convertvector(even_lanes(halves, std::make_index_sequence<kLanes>()), Bytes);
  } else {
    Lanes lanes;
    copy_bytes(&lanes, &mask, sizeof(lanes));
    // -1 (all bits set) narrows to -1: its negation is true's byte.
    bytes = -__builtin_convertvector(lanes, Bytes);
  }
  copy_bytes(out, &bytes, sizeof(bytes));
}

// Whether the kBytes bools at `p` are all false.
template <int kBytes>
[[gnu::always_inline]] inline bool all_clear(const char* p) {
  using Word = std::conditional_t<kBytes % 8 == 0, uint64_t, uint32_t>;
  static_assert(kBytes % sizeof(Word) == 0);
  Word any = 0;
  for (int k = 0; k < kBytes; k += static_cast<int>(sizeof(Word))) {
    Word w;
    copy_bytes(&w, p + k, sizeof(w));
    any |= w;
  }
  return any == 0;
}

// The same with 2 vectors of kWidth bytes (tagged kIsa) per step; the tail goes through the
// scalar op. A bool output (a predicate of T inputs) stores the masks `vop` returns as bools.
// kSkips: `clear_mask` (if not null) is a bool input's row where the output keeps its value
// (kept_where_clear): the steps whose mask bytes are all clear are skipped.
template <int kWidth, VecIsa kIsa, bool kSkips = false, typename Op, typename VecOp, typename T,
          typename... In>
[[gnu::always_inline]] inline void apply_row_vec(const Op& op, const VecOp& vop,
                                                 const Contiguous<T>& out, int64_t n,
                                                 const char* clear_mask, const In&... in) {
  using E = vec_element_t<Op>;
  using Vec = Vectorized<E, kWidth, kIsa>;
  constexpr int64_t kW = Vec::size();
  int64_t i = 0;
  for (; i + 2 * kW <= n; i += 2 * kW) {
    if constexpr (kSkips) {
      if (clear_mask != nullptr && all_clear<2 * kW>(clear_mask + i)) continue;
    }
    const Vec r0 = vop(in.template load_vec<kWidth, kIsa>(i)...);
    const Vec r1 = vop(in.template load_vec<kWidth, kIsa>(i + kW)...);
    if constexpr (std::is_same_v<T, bool>) {
      store_mask_as_bool(r0, out.ptr + i);
      store_mask_as_bool(r1, out.ptr + i + kW);
    } else {
      r0.store(out.ptr + i * static_cast<int64_t>(sizeof(T)));
      r1.store(out.ptr + (i + kW) * static_cast<int64_t>(sizeof(T)));
    }
  }
  apply_row(op, out, i, n, in...);
}

// ---- Row kinds ------------------------------------------------------------------------------

// Input I as an accessor: Broadcast when I is the scalar input kScalar, else Contiguous.
template <typename Op, size_t I, int kScalar>
[[gnu::always_inline]] inline auto contiguous_arg(char* const* data) {
  using T = arg_of<Op, I>;
  if constexpr (kMaskArg<Op, I>) {
    using E = vec_element_t<Op>;
    if constexpr (static_cast<int>(I) == kScalar) {
      return BroadcastMask<E>{ContiguousMask<E>{data[I + 1]}.load(0)};
    } else {
      return ContiguousMask<E>{data[I + 1]};
    }
  } else if constexpr (static_cast<int>(I) == kScalar) {
    return Broadcast<T>{Contiguous<T>{data[I + 1]}.load(0)};
  } else {
    return Contiguous<T>{data[I + 1]};
  }
}

// The bool input of a vector op whose clear elements leave input 0 as it is in the result
// (`static constexpr int kKeptWhereClear = 1` on masked_fill's: value where the mask is set, else
// self), or -1. In place (the output is input 0) the loops write only where it is set, as
// PyTorch's scalar loop (`if (mask[i]) self[i] = value`) does, without its branch per element.
template <typename VecOp>
constexpr int kept_where_clear() {
  if constexpr (requires { VecOp::kKeptWhereClear; }) {
    return VecOp::kKeptWhereClear;
  } else {
    return -1;
  }
}

// Inputs are contiguous except kScalar (-1: none), which has stride 0. With a VecOp, vectorised
// with vectors of kWidth bytes, tagged kIsa.
template <int kScalar, int kWidth, VecIsa kIsa, typename Op, typename VecOp, size_t... I>
[[gnu::always_inline]] inline void contiguous_row(const Op& op, const VecOp* vop, char* const* data,
                                                  int64_t n, std::index_sequence<I...>) {
  const Contiguous<result_of<Op>> out{data[0]};
  if constexpr (std::is_same_v<VecOp, std::nullptr_t>) {
    apply_row(op, out, 0, n, contiguous_arg<Op, I, kScalar>(data)...);
  } else {
    constexpr int kMask = kept_where_clear<VecOp>();
    const char* clear_mask = nullptr;
    if constexpr (kMask >= 0) {
      static_assert(std::is_same_v<arg_of<Op, 0>, result_of<Op>> && kMaskArg<Op, kMask>);
      if (data[0] == data[1]) {  // in place
        if constexpr (kScalar == kMask) {
          if (!ContiguousMask<bool>{data[kMask + 1]}.load(0)) return;
        } else {
          clear_mask = data[kMask + 1];
        }
      }
    }
    apply_row_vec<kWidth, kIsa, (kMask >= 0)>(op, *vop, out, n, clear_mask,
                                              contiguous_arg<Op, I, kScalar>(data)...);
  }
}

template <typename Op, size_t... I>
[[gnu::always_inline]] inline void strided_row(const Op& op, char* const* data,
                                               const int64_t* strides, int64_t n,
                                               std::index_sequence<I...>) {
  apply_row(op, Strided<result_of<Op>>{data[0], strides[0]}, 0, n,
            Strided<arg_of<Op, I>>{data[I + 1], strides[I + 1]}...);
}

// The row kinds of a tile: every row of a 2-D tile has the same inner strides and length.
inline constexpr int kStridedRow = -2;
inline constexpr int kContiguousRow = -1;  // >= 0: contiguous with that input broadcast

// The kind of the rows with these inner strides and length: contiguous, contiguous but for one
// stride-0 input (its index), or strided.
template <typename Op, size_t... I>
[[gnu::always_inline]] inline int row_kind(const int64_t* strides, int64_t n,
                                           std::index_sequence<I...>) {
  constexpr std::array<int64_t, sizeof...(I) + 1> kSizes = {sizeof(result_of<Op>),
                                                            sizeof(arg_of<Op, I>)...};
  int num_scalars = 0, scalar = -1;
  bool contiguous = strides[0] == kSizes[0];
  for (size_t k = 1; k < kSizes.size(); ++k) {
    if (strides[k] == 0 && n > 1) {
      ++num_scalars;
      scalar = static_cast<int>(k) - 1;
    } else {
      contiguous &= strides[k] == kSizes[k];
    }
  }
  if (!contiguous || num_scalars > 1) return kStridedRow;
  return num_scalars == 0 ? kContiguousRow : scalar;
}

// A contiguous row of `kind` (kContiguousRow or a scalar input's index).
template <int kWidth, VecIsa kIsa, typename Op, typename VecOp, size_t... I>
[[gnu::always_inline]] inline void contiguous_row_of_kind(int kind, const Op& op, const VecOp* vop,
                                                          char* const* data, int64_t n,
                                                          std::index_sequence<I...> seq) {
  if (kind == kContiguousRow) {
    return contiguous_row<kContiguousRow, kWidth, kIsa>(op, vop, data, n, seq);
  }
  // Instantiate the scalar-input row for each input position; run the one that matches.
  (void)((static_cast<int>(I) == kind
              ? (contiguous_row<static_cast<int>(I), kWidth, kIsa>(op, vop, data, n, seq), true)
              : false) ||
         ...);
}

// Dynamic casting: converts chunks of every operand through buffers of the callable's types.
template <typename Op, size_t... I>
void casting_row(const Op& op, const ScalarType* dtypes, char* const* data, const int64_t* strides,
                 int64_t n, std::index_sequence<I...>) {
  constexpr int64_t kChunk = 256;
  using R = result_of<Op>;
  std::tuple<std::array<arg_of<Op, I>, kChunk>...> in_bufs;
  std::array<R, kChunk> out_buf;
  for (int64_t begin = 0; begin < n; begin += kChunk) {
    const int64_t m = std::min(kChunk, n - begin);
    (load_converted(std::get<I>(in_bufs).data(), dtypes[I + 1],
                    data[I + 1] + begin * strides[I + 1], strides[I + 1], m),
     ...);
    apply_row(op, Contiguous<R>{reinterpret_cast<char*>(out_buf.data())}, 0, m,
              Contiguous<arg_of<Op, I>>{reinterpret_cast<char*>(std::get<I>(in_bufs).data())}...);
    store_converted(dtypes[0], data[0] + begin * strides[0], strides[0], out_buf.data(), m);
  }
}

// Whether every operand's dtype is the callable's type for it.
template <typename Op, size_t... I>
bool needs_dynamic_casting(const TensorIteratorBase& iter, std::index_sequence<I...>) {
  return iter.dtype(0) != scalar_type_of<result_of<Op>> ||
         ((iter.dtype(static_cast<int>(I) + 1) != scalar_type_of<arg_of<Op, I>>) || ...);
}

template <size_t, typename T>
using Repeat = T;

// Whether `vop` maps Vectorized<T, kWidth, kIsa> arguments (one per I) to one of those.
template <typename VecOp, typename T, int kWidth, VecIsa kIsa = VecIsa::kAny, size_t... I>
constexpr bool vec_op_takes(std::index_sequence<I...>) {
  using Vec = Vectorized<T, kWidth, kIsa>;
  if constexpr (std::is_invocable_v<const VecOp&, Repeat<I, Vec>...>) {
    return std::is_same_v<std::invoke_result_t<const VecOp&, Repeat<I, Vec>...>, Vec>;
  } else {
    return false;
  }
}

// The vector width and tag to run `vop` with on an ISA path whose vectors are kIsaWidth bytes,
// tagged kIsa: those for a generic vop, the default Vectorized<T> (widest, untagged) for a vop
// written for it.
struct VecShape {
  int width;
  VecIsa isa;
};
template <typename VecOp, typename T, int kIsaWidth, VecIsa kIsa, typename Seq>
constexpr VecShape vec_op_shape(Seq seq) {
  if constexpr (std::is_same_v<VecOp, std::nullptr_t>) {
    return {kIsaWidth, kIsa};  // no vector op
  } else if constexpr (vec_op_takes<VecOp, T, kIsaWidth, kIsa>(seq)) {
    return {kIsaWidth, kIsa};
  } else {
    return {kMaxVectorBytes, VecIsa::kAny};
  }
}

// The vector width for `VecOp` on the ISA path whose width type is Width: 64 bytes on AVX-512
// for vector ops that declare `static constexpr bool kWideVectors = true` (their vector form
// makes no comparisons, selects, maximum / minimum or clamps, which GCC would turn into scalar
// code at that width: see cpu_capability.h), else the path's width.
template <typename VecOp, typename Width>
constexpr int isa_width() {
  if constexpr (Width::isa == VecIsa::kAvx512) {
    if constexpr (requires { VecOp::kWideVectors; }) {
      if constexpr (VecOp::kWideVectors) return 64;
    }
  }
  return Width::value;
}

inline void check_kernel_arity(const TensorIteratorBase& iter, int arity) {
  BP_CHECK(iter.noutputs() == 1, "cpu_kernel: expected an iterator with one output, got ",
           iter.noutputs());
  BP_CHECK(iter.ninputs() == arity, "cpu_kernel: the kernel takes ", arity,
           " arguments but the iterator has ", iter.ninputs(), " inputs");
}

// The Loop2d for `op` (and `vop`, or nullptr_t for none) on `iter`, and whether it casts.
template <typename Op, typename VecOp>
auto make_loop2d(const TensorIteratorBase& iter, const Op& op, const VecOp* vop) {
  constexpr int kArity = traits_of<Op>::arity;
  check_kernel_arity(iter, kArity);
  using Seq = std::make_index_sequence<kArity>;
  std::array<ScalarType, kArity + 1> dtypes;
  for (int k = 0; k <= kArity; ++k) dtypes[k] = iter.dtype(k);
  const bool cast = needs_dynamic_casting<Op>(iter, Seq{});
  return
      [&op, vop, dtypes, cast](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        constexpr int kN = kArity + 1;
        std::array<char*, kN> ptrs;
        for (int k = 0; k < kN; ++k) ptrs[k] = data[k];
        auto each_row = [&](const auto& row) __attribute__((always_inline)) {
          for (int64_t j = 0; j < size1; ++j) {
            row(ptrs.data());
            for (int k = 0; k < kN; ++k) ptrs[k] += strides[kN + k];
          }
        };
        // Only contiguous rows get a copy per ISA (dispatch_cpu): casting and strided rows gain
        // little from wider vectors, and every copy is compiled per op and dtype.
        if (cast) {
          return each_row([&](char* const* p) __attribute__((always_inline)) {
            casting_row(op, dtypes.data(), p, strides, size0, Seq{});
          });
        }
        const int kind = row_kind<Op>(strides, size0, Seq{});
        if (kind == kStridedRow) {
          return each_row([&](char* const* p) __attribute__((always_inline)) {
            strided_row(op, p, strides, size0, Seq{});
          });
        }
        dispatch_cpu([&](auto width) __attribute__((always_inline)) {
          using Width = decltype(width);
          constexpr VecShape kShape =
              vec_op_shape<VecOp, vec_element_t<Op>, isa_width<VecOp, Width>(), Width::isa>(Seq{});
          each_row([&](char* const* p) __attribute__((always_inline)) {
            contiguous_row_of_kind<kShape.width, kShape.isa>(kind, op, vop, p, size0, Seq{});
          });
        });
      };
}

}  // namespace loops_detail

// Runs `op` on every element of `iter` (one output), multithreaded for iterators of at least
// `grain_size` elements. See the file comment.
template <typename Op>
void cpu_kernel(const TensorIteratorBase& iter, const Op& op, int64_t grain_size = kGrainSize) {
  iter.for_each(loops_detail::make_loop2d(iter, op, static_cast<const std::nullptr_t*>(nullptr)),
                grain_size);
}

// cpu_kernel with a vectorised inner loop: `vop` (generic) takes and returns Vectorized<T, W> for
// every W, where T is the scalar op's (single) element type for every argument and the result;
// a bool argument of an op on another T is a mask, which `vop` receives as lanes of 0 / 1 of T. A
// vop that takes only Vectorized<T> (the default, widest width) runs with it on every ISA. A
// predicate (an op returning bool from arguments of one type T) has a vop that returns the
// comparison mask as a Vectorized<T> (`x < y`), stored as bools.
template <typename Op, typename VecOp>
void cpu_kernel_vec(const TensorIteratorBase& iter, const Op& op, const VecOp& vop,
                    int64_t grain_size = kGrainSize) {
  using traits = function_traits<Op>;
  using T = loops_detail::vec_element_t<Op>;
  static_assert(
      []<size_t... I>(std::index_sequence<I...>) {
        return (
            (std::is_same_v<loops_detail::arg_of<Op, I>, T> || loops_detail::kMaskArg<Op, I>)&&...);
      }(std::make_index_sequence<traits::arity>()),
      "cpu_kernel_vec: every argument must have the result's type (or, for a bool result, one "
      "type), or be a bool mask");
  static_assert(
      loops_detail::vec_op_takes<VecOp, T, 16>(std::make_index_sequence<traits::arity>()) ||
          loops_detail::vec_op_takes<VecOp, T, kMaxVectorBytes>(
              std::make_index_sequence<traits::arity>()),
      "cpu_kernel_vec: the vector op must take and return Vectorized<T, W> for every width W (a "
      "generic lambda), or Vectorized<T>");
  iter.for_each(loops_detail::make_loop2d(iter, op, &vop), grain_size);
}

// cpu_kernel on the calling thread only.
template <typename Op>
void cpu_serial_kernel(const TensorIteratorBase& iter, const Op& op) {
  iter.serial_for_each(
      loops_detail::make_loop2d(iter, op, static_cast<const std::nullptr_t*>(nullptr)),
      {0, iter.numel()});
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_LOOPS_H_
