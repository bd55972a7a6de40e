// The kernel templates of the ops along one dim, over the scalar math the CPU runs too
// (reference_backend/math/reduction.h and scan.h ops structs, normalization.h functors). The plugin
// generates one entry point per op and dtype:
//
//   extern "C" __global__ void __launch_bounds__(bp::jit::kLineThreads)
//   cumsum_out__float32(const bp::jit::LineArgs args) {
//     bp::jit::scan_lines<bp::math::SumOps<float>, float>(args);
//   }
//
// Layout (LineArgs, kernel_args.h): one warp per line. A scan walks its line in chunks of 32
// elements: an inclusive warp scan (Hillis-Steele over shuffles) of each chunk, combined with
// the carry of the chunks before it (the identity before the first). A normalisation reduces its
// line's statistic across the warp with butterfly shuffles (every lane gets the result), then
// writes. Inputs are already of the output's dtype S (the host converts them first, as the CPU
// does). Every thread of a block runs every shuffle, whether its warp has a line or not.
namespace bp {
namespace jit {

// __shfl_up_sync / __shfl_sync / __shfl_xor_sync for any trivially copyable value, 4 bytes at
// a time.
template <typename T>
BP_INLINE T shuffle_words(T value, int mode, int lane_arg) {
  constexpr int kWords = (sizeof(T) + 3) / 4;
  uint32_t words[kWords] = {};
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    if (mode == 0) {
      words[w] = __shfl_up_sync(0xFFFFFFFFu, words[w], static_cast<unsigned>(lane_arg), 32);
    } else if (mode == 1) {
      words[w] = __shfl_sync(0xFFFFFFFFu, words[w], lane_arg, 32);
    } else {
      words[w] = __shfl_xor_sync(0xFFFFFFFFu, words[w], lane_arg, 32);
    }
  }
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

struct LineRef {
  bool active;  // this warp has a line
  uint32_t lane;
  char* out;
  char* indices;
  const char* in;
};

BP_INLINE LineRef line_of(const LineArgs& args) {
  const uint32_t line = blockIdx.x * (kLineThreads / 32) + threadIdx.x / 32;
  LineRef r{line < args.num_lines, threadIdx.x % 32, args.output, args.indices, args.input};
  if (r.active) {
    const OperandOffsets<3> base = offsets_of<3>(args.lines, line);
    r.out += base.at[0];
    r.indices += base.at[1];
    r.in += base.at[2];
  }
  return r;
}

// A running reduction with Ops (an ops struct of reference_backend/math/reduction.h over the
// output's dtype S): out[i] = project(x[0] (+) ... (+) x[i]), and indices[i] when project gives
// a ValueIndex. Each lane folds its element into the identity, then the warp scans with
// combine(earlier, later).
template <typename Ops, typename S>
BP_INLINE void scan_lines(const LineArgs& args) {
  using A = typename Ops::acc_t;
  using V = typename Ops::value_t;
  const Ops ops{};
  const LineRef line = line_of(args);
  A carry = ops.identity();
  for (uint32_t start = 0; start < args.line_size; start += 32) {
    const uint32_t i = start + line.lane;
    const bool inside = line.active && i < args.line_size;
    A v = inside ? ops.reduce(
                       ops.identity(),
                       element_cast<V>(*reinterpret_cast<const S*>(line.in + i * args.steps[2])),
                       static_cast<int64_t>(i))
                 : ops.identity();
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const A earlier = shuffle_words(v, 0, d);
      if (line.lane >= static_cast<uint32_t>(d)) v = ops.combine(earlier, v);
    }
    v = ops.combine(carry, v);
    if (inside) {
      using R = decltype(ops.project(v));
      const R r = ops.project(v);
      if constexpr (math::is_value_index_v<R>) {
        *reinterpret_cast<S*>(line.out + i * args.steps[0]) = element_cast<S>(r.value);
        *reinterpret_cast<int64_t*>(line.indices + i * args.steps[1]) = r.index;
      } else {
        *reinterpret_cast<S*>(line.out + i * args.steps[0]) = element_cast<S>(r);
      }
    }
    carry = shuffle_words(v, 1, 31);
  }
}

// Normalisation Norm in the compute type M: max, then the sum of Norm::term, then Norm::apply.
template <typename Norm, typename S, typename M>
BP_INLINE void normalize_lines(const LineArgs& args) {
  const LineRef line = line_of(args);
  const uint32_t n = line.active ? args.line_size : 0;
  auto x = [&](uint32_t i) {
    return element_cast<M>(*reinterpret_cast<const S*>(line.in + i * args.steps[2]));
  };
  M max = -math::infinity<M>();
  for (uint32_t i = line.lane; i < n; i += 32) max = math::Max{}(max, x(i));
#pragma unroll
  for (int d = 16; d > 0; d /= 2) max = math::Max{}(max, shuffle_words(max, 2, d));
  M sum = M(0);
  for (uint32_t i = line.lane; i < n; i += 32) sum = sum + Norm{}.term(x(i), max);
#pragma unroll
  for (int d = 16; d > 0; d /= 2) sum = sum + shuffle_words(sum, 2, d);
  for (uint32_t i = line.lane; i < n; i += 32) {
    *reinterpret_cast<S*>(line.out + i * args.steps[0]) =
        element_cast<S>(Norm{}.apply(x(i), max, sum));
  }
}

}  // namespace jit
}  // namespace bp
