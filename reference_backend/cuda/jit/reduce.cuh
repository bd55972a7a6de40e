// The reduction kernel template and the reductions it runs (sum, mean, prod, amax / amin,
// max / min with indices, argmax / argmin, var / std, norms, all / any, logsumexp).
//
// The plugin generates one entry point per reduction, input dtype and output dtype:
//
//   extern "C" __global__ void __launch_bounds__(bp::jit::kReduceThreads)
//   sum__float32__float32__acc_float64(const bp::jit::ReduceArgs args) {
//     bp::jit::reduce<bp::jit::Sum<double, float>, float, float>(args);
//   }
//
// Layout (ReduceArgs, kernel_args.h): each output (a linear index over the kept dimensions)
// gathers `num_reduced` input elements. A block of kReduceThreads threads serves several outputs
// ("slots"); the threads of one slot ("lanes") split its reduced elements, accumulate, then
// combine: warp shuffles (and shared memory between warps) when the lanes run along threadIdx.x
// (the reduced dimension is the fastest, so neighbouring lanes read neighbouring elements), a
// shared-memory tree when they run along threadIdx.y (outputs are the fastest). Large reductions
// with few outputs are split in `chunks` along blockIdx.y: a first launch (mode kPartial) writes
// each chunk's accumulator to `partials`, a second (mode kFinalize) combines them.
//
// Accumulation: each op's acc_t, chosen by the host as the CPU backend accumulates (int64 for
// integer sums, float for float16 / bfloat16, double for float32 sums...). Ops provide
// identity(), reduce(acc, value, index), combine(acc, acc) and store(outputs, offsets, acc).
// Every thread runs every barrier and shuffle (none returns early).
namespace bp {
namespace jit {

enum ReduceMode { kSinglePass = 0, kPartial = 1, kFinalize = 2 };

// ---- Limits and comparisons ---------------------------------------------------------------------

template <typename T>
BP_INLINE T lowest() {
  if constexpr (math::is_floating_v<T>) {
    return -math::infinity<T>();
  } else if constexpr (portable::is_same_v<T, bool>) {
    return false;
  } else if constexpr (math::is_signed_v<T>) {
    return static_cast<T>(static_cast<T>(1) << (sizeof(T) * 8 - 1));
  } else {
    return T(0);
  }
}
template <typename T>
BP_INLINE T highest() {
  if constexpr (math::is_floating_v<T>) {
    return math::infinity<T>();
  } else if constexpr (portable::is_same_v<T, bool>) {
    return true;
  } else if constexpr (math::is_signed_v<T>) {
    return static_cast<T>(~lowest<T>());
  } else {
    return static_cast<T>(~T(0));
  }
}

template <typename T>
BP_INLINE bool is_nan(T x) {
  return math::isnan(x);
}

// PyTorch's max_propagate_nan / min_propagate_nan.
template <typename T>
BP_INLINE T max_nan(T a, T b) {
  return (is_nan(a) || a > b) ? a : b;
}
template <typename T>
BP_INLINE T min_nan(T a, T b) {
  return (is_nan(a) || a < b) ? a : b;
}

// ---- The reductions -----------------------------------------------------------------------------
// V: the type elements are converted to before reduce(); A: the accumulator.

template <typename A, typename Out>
struct Sum {
  using value_t = A;
  using acc_t = A;
  BP_INLINE explicit Sum(const Value*) {}
  BP_INLINE A identity() const { return A(0); }
  BP_INLINE A reduce(A a, A x, int64_t) const { return a + x; }
  BP_INLINE A combine(A a, A b) const { return a + b; }
  BP_INLINE void store(char* const* out, A a) const {
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(a);
  }
};

// sum, rounded to Out, then divided by the count in Out's compute type M (the CPU computes
// mean as sum(...).div_(n)). values[0]: the count, as M.
template <typename A, typename Out, typename M>
struct Mean {
  using value_t = A;
  using acc_t = A;
  M count;
  BP_INLINE explicit Mean(const Value* v) : count(value_as<M>(v[0])) {}
  BP_INLINE A identity() const { return A(0); }
  BP_INLINE A reduce(A a, A x, int64_t) const { return a + x; }
  BP_INLINE A combine(A a, A b) const { return a + b; }
  BP_INLINE void store(char* const* out, A a) const {
    *reinterpret_cast<Out*>(out[0]) =
        element_cast<Out>(element_cast<M>(element_cast<Out>(a)) / count);
  }
};

template <typename A, typename Out>
struct Prod {
  using value_t = A;
  using acc_t = A;
  BP_INLINE explicit Prod(const Value*) {}
  BP_INLINE A identity() const { return A(1); }
  BP_INLINE A reduce(A a, A x, int64_t) const { return a * x; }
  BP_INLINE A combine(A a, A b) const { return a * b; }
  BP_INLINE void store(char* const* out, A a) const {
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(a);
  }
};

// amax (kMax) / amin: NaN wins.
template <typename A, typename Out, bool kMax>
struct Extreme {
  using value_t = A;
  using acc_t = A;
  BP_INLINE explicit Extreme(const Value*) {}
  BP_INLINE A identity() const { return kMax ? lowest<A>() : highest<A>(); }
  BP_INLINE A reduce(A a, A x, int64_t) const { return combine(a, x); }
  BP_INLINE A combine(A a, A b) const { return kMax ? max_nan(a, b) : min_nan(a, b); }
  BP_INLINE void store(char* const* out, A a) const {
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(a);
  }
};

template <typename V>
struct ValueIndex {
  V value;
  int64_t index;
};

// max.dim / min.dim (kValues: outputs value and index) and argmax / argmin (index only): NaN
// wins, ties go to the smallest index (PyTorch's GreaterOrNan / LessOrNan).
template <typename V, typename Out, bool kMax, bool kValues>
struct ExtremeIndex {
  using value_t = V;
  using acc_t = ValueIndex<V>;
  BP_INLINE explicit ExtremeIndex(const Value*) {}
  BP_INLINE acc_t identity() const {
    return {kMax ? lowest<V>() : highest<V>(), static_cast<int64_t>(0x7FFFFFFFFFFFFFFFll)};
  }
  BP_INLINE acc_t reduce(acc_t a, V x, int64_t index) const { return combine(a, acc_t{x, index}); }
  BP_INLINE acc_t combine(acc_t a, acc_t b) const {
    if (is_nan(a.value)) return (is_nan(b.value) && b.index < a.index) ? b : a;
    if (is_nan(b.value)) return b;
    if (a.value == b.value) return a.index < b.index ? a : b;
    return (kMax ? a.value > b.value : a.value < b.value) ? a : b;
  }
  BP_INLINE void store(char* const* out, acc_t a) const {
    if constexpr (kValues) {
      *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(a.value);
      *reinterpret_cast<int64_t*>(out[1]) = a.index;
    } else {
      *reinterpret_cast<int64_t*>(out[0]) = a.index;
    }
  }
};

// Welford's running mean and sum of squared deviations (Chan et al. to combine).
template <typename R>
struct Welford {
  R mean;
  R m2;
  R n;
};
template <typename R>
BP_INLINE Welford<R> welford_add(Welford<R> a, R x) {
  const R n = a.n + R(1);
  const R delta = x - a.mean;
  const R mean = a.mean + delta / n;
  return {mean, a.m2 + delta * (x - mean), n};
}
template <typename R>
BP_INLINE Welford<R> welford_combine(Welford<R> a, Welford<R> b) {
  if (a.n == R(0)) return b;
  if (b.n == R(0)) return a;
  const R n = a.n + b.n;
  const R nb_over_n = b.n / n;
  const R delta = b.mean - a.mean;
  return {a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
}
template <typename R>
BP_INLINE R welford_var(Welford<R> a, R correction) {
  const R divisor = a.n > correction ? a.n - correction : R(0);
  return a.m2 / divisor;
}

template <typename R>
struct ComplexWelford {
  Welford<R> re;
  Welford<R> im;
};

// var / std (kSqrt) with values[0] = the correction (as R). Complex values: the sum of the
// variances of the real and imaginary parts (PyTorch's definition).
template <typename V, typename R, typename Out, bool kSqrt>
struct Variance {
  using value_t = V;
  using acc_t = portable::conditional_t<math::is_complex_v<V>, ComplexWelford<R>, Welford<R>>;
  R correction;
  BP_INLINE explicit Variance(const Value* v) : correction(value_as<R>(v[0])) {}
  BP_INLINE acc_t identity() const { return acc_t{}; }
  BP_INLINE acc_t reduce(acc_t a, V x, int64_t) const {
    if constexpr (math::is_complex_v<V>) {
      return {welford_add(a.re, R(x.real())), welford_add(a.im, R(x.imag()))};
    } else {
      return welford_add(a, R(x));
    }
  }
  BP_INLINE acc_t combine(acc_t a, acc_t b) const {
    if constexpr (math::is_complex_v<V>) {
      return {welford_combine(a.re, b.re), welford_combine(a.im, b.im)};
    } else {
      return welford_combine(a, b);
    }
  }
  BP_INLINE void store(char* const* out, acc_t a) const {
    R var;
    if constexpr (math::is_complex_v<V>) {
      var = welford_var(a.re, correction) + welford_var(a.im, correction);
    } else {
      var = welford_var(a, correction);
    }
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(kSqrt ? math::sqrt(var) : var);
  }
};

enum NormKind {
  kNormZero = 0,
  kNormOne = 1,
  kNormTwo = 2,
  kNormInf = 3,
  kNormNegInf = 4,
  kNormP = 5
};

// Vector norms of |x| accumulated in R; values[0] = p (as R) for kNormP.
template <typename V, typename R, typename Out, int kP>
struct Norm {
  using value_t = V;
  using acc_t = R;
  R p;
  BP_INLINE explicit Norm(const Value* v) : p(value_as<R>(v[0])) {}
  BP_INLINE R identity() const { return kP == kNormNegInf ? math::infinity<R>() : R(0); }
  BP_INLINE R magnitude(V x) const { return R(math::abs(x)); }
  BP_INLINE R reduce(R a, V x, int64_t) const {
    const R m = magnitude(x);
    if constexpr (kP == kNormZero) return a + (m != R(0) ? R(1) : R(0));
    if constexpr (kP == kNormOne) return a + m;
    if constexpr (kP == kNormTwo) return a + m * m;
    if constexpr (kP == kNormInf) return max_nan(a, m);
    if constexpr (kP == kNormNegInf) return min_nan(a, m);
    return a + math::pow(m, p);  // kNormP
  }
  BP_INLINE R combine(R a, R b) const {
    if constexpr (kP == kNormInf) {
      return max_nan(a, b);
    } else if constexpr (kP == kNormNegInf) {
      return min_nan(a, b);
    } else {
      return a + b;
    }
  }
  BP_INLINE void store(char* const* out, R a) const {
    R result = a;
    if constexpr (kP == kNormTwo) result = math::sqrt(a);
    if constexpr (kP == kNormP) result = math::pow(a, R(1) / p);
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(result);
  }
};

// all (kAll) / any: the elements as bool.
template <typename Out, bool kAll>
struct Logical {
  using value_t = bool;
  using acc_t = bool;
  BP_INLINE explicit Logical(const Value*) {}
  BP_INLINE bool identity() const { return kAll; }
  BP_INLINE bool reduce(bool a, bool x, int64_t) const { return kAll ? (a && x) : (a || x); }
  BP_INLINE bool combine(bool a, bool b) const { return kAll ? (a && b) : (a || b); }
  BP_INLINE void store(char* const* out, bool a) const {
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(a);
  }
};

template <typename R>
struct MaxSum {
  R max;  // the largest element so far (-inf when none; never NaN)
  R sum;  // the sum of exp(x - shift(max))
};

// logsumexp in one pass: log(sum(exp(x - shift))) + shift, where shift is the maximum, or 0 when
// the maximum is infinite (PyTorch's masked_fill of infinite maxima); the sum is rescaled when
// the maximum grows, and a NaN element makes the sum NaN.
template <typename R, typename Out>
struct LogSumExp {
  using value_t = R;
  using acc_t = MaxSum<R>;
  BP_INLINE explicit LogSumExp(const Value*) {}
  BP_INLINE static R shift(R max) { return math::isinf(max) ? R(0) : max; }
  BP_INLINE static R rescale(R sum, R from, R to) {
    const R f = shift(from), t = shift(to);
    return (f == t || sum == R(0)) ? sum : sum * math::exp(f - t);
  }
  BP_INLINE acc_t identity() const { return {-math::infinity<R>(), R(0)}; }
  BP_INLINE acc_t reduce(acc_t a, R x, int64_t) const {
    if (is_nan(x)) return {a.max, x};
    return combine(a, acc_t{x, math::exp(x - shift(x))});
  }
  BP_INLINE acc_t combine(acc_t a, acc_t b) const {
    const R max = a.max > b.max ? a.max : b.max;
    return {max, rescale(a.sum, a.max, max) + rescale(b.sum, b.max, max)};
  }
  BP_INLINE void store(char* const* out, acc_t a) const {
    *reinterpret_cast<Out*>(out[0]) = element_cast<Out>(math::log(a.sum) + shift(a.max));
  }
};

// ---- The kernel ---------------------------------------------------------------------------------

// __shfl_down_sync for any trivially copyable value, 4 bytes at a time.
template <typename T>
BP_INLINE T shuffle_down(T value, unsigned delta, int width) {
  constexpr int kWords = (sizeof(T) + 3) / 4;
  uint32_t words[kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_down_sync(0xFFFFFFFFu, words[w], delta, width);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

// Byte offset of reduced element r (operand 0 of `offsets`: the input).
BP_INLINE uint32_t reduced_offset(const Offsets& offsets, uint32_t r) {
  if (offsets.ndim == 1) return r * offsets.strides[0][0];
  return offsets_of<1>(offsets, r).at[0];
}

// In: the input's element type; S: the dtype it is reduced in (PyTorch casts the input to S
// first); Ops: the reduction. args.mode: a ReduceMode.
template <typename Ops, typename In, typename S, int kOutputs>
BP_INLINE void reduce(const ReduceArgs& args) {
  using A = typename Ops::acc_t;
  using V = typename Ops::value_t;
  static_assert(sizeof(A) <= kPartialStride, "accumulator larger than a partials slot");
  const Ops ops(args.values);
  const bool on_x = args.reduce_on_x != 0;
  const uint32_t lanes = on_x ? blockDim.x : blockDim.y;
  const uint32_t lane = on_x ? threadIdx.x : threadIdx.y;
  const uint32_t slots = on_x ? blockDim.y : blockDim.x;
  const uint32_t slot = on_x ? threadIdx.y : threadIdx.x;
  const uint32_t output = blockIdx.x * slots + slot;
  const bool active = output < args.num_outputs;

  A acc = ops.identity();
  if (args.mode == kFinalize) {
    // Lanes combine the chunks' accumulators.
    for (uint32_t c = lane; active && c < args.chunks; c += lanes) {
      A partial;
      memcpy(
          &partial,
          args.partials + (static_cast<uint64_t>(c) * args.num_outputs + output) * kPartialStride,
          sizeof(A));
      acc = ops.combine(acc, partial);
    }
  } else if (active) {
    const uint32_t input_base = offsets_of<kOutputs + 1>(args.kept, output).at[kOutputs];
    const uint32_t begin = blockIdx.y * args.chunk_size;
    const uint32_t end =
        args.num_reduced - begin < args.chunk_size ? args.num_reduced : begin + args.chunk_size;
    for (uint32_t r = begin + lane; r < end; r += lanes) {
      const In x =
          *reinterpret_cast<const In*>(args.input + input_base + reduced_offset(args.reduced, r));
      acc = ops.reduce(acc, element_cast<V>(element_cast<S>(x)), static_cast<int64_t>(r));
    }
  }

  // Combine the lanes of each slot. Shared memory as raw bytes: a __shared__ array cannot have
  // a constructor, and accumulators (bp::complex, Welford) initialise their members.
  struct alignas(A) Slot {
    unsigned char bytes[sizeof(A)];
  };
  __shared__ Slot shared_slots[kReduceThreads];
  A* const shared = reinterpret_cast<A*>(shared_slots);
  const uint32_t tid = threadIdx.x + threadIdx.y * blockDim.x;
  if (on_x) {
    // Warp shuffles within segments of min(lanes, 32), then the warps' results.
    const int width = lanes < 32 ? static_cast<int>(lanes) : 32;
    for (int delta = width / 2; delta > 0; delta /= 2) {
      acc = ops.combine(acc, shuffle_down(acc, static_cast<unsigned>(delta), width));
    }
    if (lanes > 32) {
      const uint32_t warps = lanes / 32;
      if (lane % 32 == 0) shared[slot * warps + lane / 32] = acc;
      __syncthreads();
      acc = lane < warps ? shared[slot * warps + lane] : ops.identity();
      for (int delta = static_cast<int>(warps) / 2; delta > 0; delta /= 2) {
        acc = ops.combine(acc, shuffle_down(acc, static_cast<unsigned>(delta), 32));
      }
    }
  } else {
    shared[tid] = acc;
    __syncthreads();
    for (uint32_t stride = lanes / 2; stride > 0; stride /= 2) {
      if (lane < stride) shared[tid] = ops.combine(shared[tid], shared[tid + stride * slots]);
      __syncthreads();
    }
    acc = shared[tid];
  }

  if (!active || lane != 0) return;
  if (args.mode == kPartial) {
    memcpy(args.partials +
               (static_cast<uint64_t>(blockIdx.y) * args.num_outputs + output) * kPartialStride,
           &acc, sizeof(A));
    return;
  }
  const OperandOffsets<kOutputs + 1> offsets = offsets_of<kOutputs + 1>(args.kept, output);
  char* out[kOutputs];
#pragma unroll
  for (int k = 0; k < kOutputs; ++k) out[k] = args.outputs[k] + offsets.at[k];
  ops.store(out, acc);
}

}  // namespace jit
}  // namespace bp
