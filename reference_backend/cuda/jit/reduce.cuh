// The reduction kernel template: one template runs every reduction, given the reduction's ops
// struct from reference_backend/math/reduction.h (the same struct the CPU backend runs, so both
// share one definition of the math, identity and projection).
//
// The plugin generates one entry point per ops struct, outputs, reduced dtype and output dtype:
//
//   extern "C" __global__ void __launch_bounds__(bp::jit::kReduceThreads)
//   VarianceOps_v__float32__float32(const bp::jit::ReduceArgs args) {
//     bp::jit::reduce<bp::math::VarianceOps<float>, float, float, float, 1, 0, -1>(args);
//   }
//
// Layout (ReduceArgs, kernel_args.h): each output (a linear index over the kept dimensions)
// gathers `num_reduced` input elements. A block of kReduceThreads threads serves several outputs
// ("slots"); the threads of one slot ("lanes") split its reduced elements, accumulate, then
// combine: warp shuffles (and shared memory between warps) when the lanes run along threadIdx.x
// (the reduced dimension is the fastest, so neighbouring lanes read neighbouring elements), a
// shared-memory tree when they run along threadIdx.y (outputs are the fastest). Large reductions
// with few outputs are split in `chunks` along blockIdx.y: a first launch (mode kPartial) writes
// each chunk's accumulator to `partials`, a second (mode kFinalize) combines them. A reduction
// that needs 64-bit indexing runs the same way in 32-bit parts (reduce_kernel.h,
// plan_reduce_parts): each part writes its chunks at its own place in one `partials` workspace
// (with `index_base` its first reduced element's position), and one kFinalize combines them all.
//
// The ops struct gives the accumulator, identity(), reduce(acc, value, index), combine(acc, acc)
// and project(acc) (the convention at the top of reduction.h); its arguments arrive as doubles in
// args.values and are converted to its arg_t. The kernel stores the projection into each output
// as the declaration's `reduce_outputs` say (kValue: the value, converted to Out; kIndex: the
// index, as int64). Every thread runs every barrier and shuffle (none returns early).
namespace bp {
namespace jit {

enum ReduceMode { kSinglePass = 0, kPartial = 1, kFinalize = 2 };

// What an output receives (the numbers of the generated reduction table, reduction_ops.h).
enum ReduceResult { kNoOutput = -1, kValue = 0, kIndex = 1 };

// One argument of an ops struct: a double in args.values, converted to the struct's arg_t.
template <typename Ops>
BP_INLINE typename Ops::arg_t reduce_arg(const Value& value) {
  return element_cast<typename Ops::arg_t>(value_as<double>(value));
}

// The ops struct constructed from its kNumArgs arguments (aggregate initialisation, in the
// order the declaration names them; the generated table holds up to 4).
template <typename Ops, int kNumArgs>
BP_INLINE Ops make_ops(const Value* v) {
  static_assert(kNumArgs >= 0 && kNumArgs <= 4, "reductions take at most 4 arguments");
  if constexpr (kNumArgs == 0) {
    return Ops{};
  } else if constexpr (kNumArgs == 1) {
    return Ops{reduce_arg<Ops>(v[0])};
  } else if constexpr (kNumArgs == 2) {
    return Ops{reduce_arg<Ops>(v[0]), reduce_arg<Ops>(v[1])};
  } else if constexpr (kNumArgs == 3) {
    return Ops{reduce_arg<Ops>(v[0]), reduce_arg<Ops>(v[1]), reduce_arg<Ops>(v[2])};
  } else {
    return Ops{reduce_arg<Ops>(v[0]), reduce_arg<Ops>(v[1]), reduce_arg<Ops>(v[2]),
               reduce_arg<Ops>(v[3])};
  }
}

// Stores what output kind kResult receives of the projection `result`.
template <typename Out, int kResult, typename R>
BP_INLINE void store_result(char* out, const R& result) {
  if constexpr (kResult == kIndex) {
    *reinterpret_cast<int64_t*>(out) = result.index;
  } else if constexpr (math::is_value_index_v<R>) {
    *reinterpret_cast<Out*>(out) = element_cast<Out>(result.value);
  } else {
    *reinterpret_cast<Out*>(out) = element_cast<Out>(result);
  }
}

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
// first); Out: the value outputs' element type; Ops: the reduction, with kNumArgs arguments;
// kResult0 / kResult1: what outputs 0 and 1 receive (kNoOutput: no output 1). args.mode: a
// ReduceMode.
template <typename Ops, typename In, typename S, typename Out, int kNumArgs, int kResult0,
          int kResult1>
BP_INLINE void reduce(const ReduceArgs& args) {
  using A = typename Ops::acc_t;
  using V = typename Ops::value_t;
  constexpr int kOutputs = kResult1 == kNoOutput ? 1 : 2;
  static_assert(sizeof(A) <= kPartialStride, "accumulator larger than a partials slot");
  const Ops ops = make_ops<Ops, kNumArgs>(args.values);
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
      acc = ops.reduce(acc, element_cast<V>(element_cast<S>(x)),
                       args.index_base + static_cast<int64_t>(r));
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
  const auto result = ops.project(acc);
  store_result<Out, kResult0>(args.outputs[0] + offsets.at[0], result);
  if constexpr (kOutputs == 2) store_result<Out, kResult1>(args.outputs[1] + offsets.at[1], result);
}

}  // namespace jit
}  // namespace bp
