// Elementwise kernel templates: the loads and stores around a scalar computation (a "body").
//
// The plugin generates, per kernel, a body struct and an entry point (kernel_source.cc):
//
//   struct body_add_out_f32 {                     // the computation of one element
//     using compute_t = float;                    // M: the op's compute type
//     static constexpr int kInputs = 2;
//     float arg0;                                 // the functor's Scalar arguments
//     explicit body_add_out_f32(const bp::jit::Value* v) : arg0(bp::jit::value_as<float>(
//         v[kInputs + 0])) {}
//     auto operator()(const float (&in)[2]) const { return bp::math::Add{}(in[0], in[1], arg0); }
//   };
//   extern "C" __global__ void add_out__f32__vec4(const bp::jit::ContiguousArgs args) {
//     bp::jit::vectorized<body_add_out_f32, float, float, 4, 0u>(args);
//   }
//
// Three loops, as in PyTorch's CUDALoops.cuh:
//   vectorized  contiguous operands of the compute dtype S, kVec elements per load (4, 2 or 1);
//   unrolled    any strides, operands of dtype S (offsets from the linear index);
//   dynamic     any strides and any operand dtypes, converted on load and store.
// Inputs whose bit is set in kScalarMask are not read from memory: they are passed by value in
// args.values[i] (CPU scalars). Every thread handles kThreadWork elements, kThreads per block
// (kernel_args.h).
//
// Results: the body's result R is stored as the CPU backend stores it: R == M (the compute type)
// rounds to S first (float -> Half), then converts to the output's dtype; another R (bool for
// predicates) converts directly.
namespace bp {
namespace jit {

template <typename T>
BP_INLINE T value_as(const Value& value) {
  return *reinterpret_cast<const T*>(value.bytes);
}

// An input read as bool (where's condition, masked_fill's mask), from the compute type it was
// loaded in: 1 where it is non-zero, else 0, of that type (as the CPU backend's loops give it).
template <typename T>
BP_INLINE T as_mask(const T& x) {
  return x == T(0) ? T(0) : T(1);
}

BP_INLINE uint32_t mul_hi(uint32_t a, uint32_t b) {
#if defined(__CUDACC_RTC__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

// Byte offsets of the first kOperands operands for linear index `index`.
template <int kOperands>
struct OperandOffsets {
  uint32_t at[kOperands];
};
template <int kOperands>
BP_INLINE OperandOffsets<kOperands> offsets_of(const Offsets& offsets, uint32_t index) {
  OperandOffsets<kOperands> result;
#pragma unroll
  for (int k = 0; k < kOperands; ++k) result.at[k] = 0;
    // Not unrolled: an unrolled loop over kMaxDims per element multiplies compile time (and code
    // size) for no measurable gain; sizes and strides come from the parameter bank either way.
#pragma unroll 1
  for (int d = 0; d < offsets.ndim; ++d) {
    const FastDivider& size = offsets.sizes[d];
    const uint32_t quotient = (mul_hi(index, size.magic) + index) >> size.shift;
    const uint32_t coordinate = index - quotient * size.divisor;
#pragma unroll
    for (int k = 0; k < kOperands; ++k) result.at[k] += coordinate * offsets.strides[d][k];
    index = quotient;
  }
  return result;
}

// The body applied to one element's inputs; a body with kUsesIndex also gets the element's linear
// index in the plan (a factory's: arange's start + index * step).
template <typename Body, typename In>
BP_INLINE auto apply(const Body& body, const In& in, uint32_t index) {
  if constexpr (Body::kUsesIndex) {
    return body(in, index);
  } else {
    (void)index;
    return body(in);
  }
}

// S, or R when the body's result type R is not the compute type M (see the file comment).
template <typename S, typename M, typename R>
BP_INLINE portable::conditional_t<portable::is_same_v<R, M>, S, R> to_storage(R result) {
  if constexpr (portable::is_same_v<R, M>) {
    return element_cast<S>(result);
  } else {
    return result;
  }
}

template <int kVec, typename T>
struct alignas(sizeof(T) * kVec) Vector {
  T val[kVec];
};

// The dtype behind a dense dtype code (dtypes.h), as a type.
#define BP_JIT_FOR_EACH_DTYPE(X) \
  X(0, bool)                     \
  X(1, uint8_t)                  \
  X(2, int8_t)                   \
  X(3, int16_t)                  \
  X(4, int32_t)                  \
  X(5, int64_t)                  \
  X(6, Half)                     \
  X(7, BFloat16)                 \
  X(8, float)                    \
  X(9, double)                   \
  X(10, complex<float>)          \
  X(11, complex<double>)

// Loads an element of runtime dtype `dtype` as S, then as M.
template <typename S, typename M>
BP_INLINE M load_dynamic(const char* p, int32_t dtype) {
  switch (dtype) {
#define BP_JIT_LOAD_CASE(code, type) \
  case code:                         \
    return element_cast<M>(element_cast<S>(*reinterpret_cast<const type*>(p)));
    BP_JIT_FOR_EACH_DTYPE(BP_JIT_LOAD_CASE)
#undef BP_JIT_LOAD_CASE
  }
  return M();
}

// Stores `value` (already in storage form) as an element of runtime dtype `dtype`.
template <typename V>
BP_INLINE void store_dynamic(char* p, int32_t dtype, V value) {
  switch (dtype) {
#define BP_JIT_STORE_CASE(code, type)                        \
  case code:                                                 \
    *reinterpret_cast<type*>(p) = element_cast<type>(value); \
    return;
    BP_JIT_FOR_EACH_DTYPE(BP_JIT_STORE_CASE)
#undef BP_JIT_STORE_CASE
  }
}

// The by-value inputs of a launch, converted once.
template <typename M, int kInputs, uint32_t kScalarMask>
struct ScalarInputs {
  M value[kInputs > 0 ? kInputs : 1];
  BP_INLINE explicit ScalarInputs(const Value* values) {
#pragma unroll
    for (int i = 0; i < kInputs; ++i) {
      if ((kScalarMask >> i) & 1u) value[i] = value_as<M>(values[i]);
    }
  }
};

template <typename Body, typename S, typename Out, int kVec, uint32_t kScalarMask>
BP_INLINE void vectorized(const ContiguousArgs& args) {
  using M = typename Body::compute_t;
  constexpr int kInputs = Body::kInputs;
  const Body body(args.values);
  const ScalarInputs<M, kInputs, kScalarMask> scalars(args.values);
  const uint32_t base = blockIdx.x * kBlockWork;
  const uint32_t remaining = args.numel - base;
  if (remaining < static_cast<uint32_t>(kBlockWork)) {
    // The last block: element by element, with bounds checks (not unrolled: it runs once).
#pragma unroll 1
    for (int j = 0; j < kThreadWork; ++j) {
      const uint32_t index = base + threadIdx.x + j * kThreads;
      if (index >= args.numel) break;
      M in[kInputs > 0 ? kInputs : 1];
#pragma unroll
      for (int i = 0; i < kInputs; ++i) {
        in[i] = ((kScalarMask >> i) & 1u)
                    ? scalars.value[i]
                    : element_cast<M>(reinterpret_cast<const S*>(args.data[1 + i])[index]);
      }
      reinterpret_cast<Out*>(args.data[0])[index] =
          element_cast<Out>(to_storage<S, M>(apply(body, in, index)));
    }
    return;
  }
  constexpr int kLoops = kThreadWork / kVec;
  Vector<kVec, S> loaded[kLoops][kInputs > 0 ? kInputs : 1];
#pragma unroll
  for (int j = 0; j < kLoops; ++j) {
    const uint32_t v = base / kVec + threadIdx.x + j * kThreads;
#pragma unroll
    for (int i = 0; i < kInputs; ++i) {
      if (!((kScalarMask >> i) & 1u)) {
        loaded[j][i] = reinterpret_cast<const Vector<kVec, S>*>(args.data[1 + i])[v];
      }
    }
  }
  Vector<kVec, Out> results[kLoops];
#pragma unroll
  for (int j = 0; j < kLoops; ++j) {
#pragma unroll
    for (int l = 0; l < kVec; ++l) {
      M in[kInputs > 0 ? kInputs : 1];
#pragma unroll
      for (int i = 0; i < kInputs; ++i) {
        in[i] = ((kScalarMask >> i) & 1u) ? scalars.value[i] : element_cast<M>(loaded[j][i].val[l]);
      }
      const uint32_t index = (base / kVec + threadIdx.x + j * kThreads) * kVec + l;
      results[j].val[l] = element_cast<Out>(to_storage<S, M>(apply(body, in, index)));
    }
  }
#pragma unroll
  for (int j = 0; j < kLoops; ++j) {
    const uint32_t v = base / kVec + threadIdx.x + j * kThreads;
    reinterpret_cast<Vector<kVec, Out>*>(args.data[0])[v] = results[j];
  }
}

// Strided operands of dtype S, output of dtype Out. Loads for all kThreadWork elements are issued
// before the stores (in-place operands alias their output exactly, never partially).
template <typename Body, typename S, typename Out, uint32_t kScalarMask>
BP_INLINE void strided(const StridedArgs& args) {
  using M = typename Body::compute_t;
  constexpr int kInputs = Body::kInputs;
  constexpr int kOperands = kInputs + 1;
  const Body body(args.values);
  const ScalarInputs<M, kInputs, kScalarMask> scalars(args.values);
  const uint32_t base = blockIdx.x * kBlockWork;
  M in[kThreadWork][kInputs > 0 ? kInputs : 1];
  uint32_t out_offset[kThreadWork];
#pragma unroll
  for (int j = 0; j < kThreadWork; ++j) {
    const uint32_t index = base + threadIdx.x + j * kThreads;
    if (index < args.numel) {
      const OperandOffsets<kOperands> offsets = offsets_of<kOperands>(args.offsets, index);
      out_offset[j] = offsets.at[0];
#pragma unroll
      for (int i = 0; i < kInputs; ++i) {
        in[j][i] = ((kScalarMask >> i) & 1u) ? scalars.value[i]
                                             : element_cast<M>(*reinterpret_cast<const S*>(
                                                   args.data[1 + i] + offsets.at[1 + i]));
      }
    }
  }
#pragma unroll
  for (int j = 0; j < kThreadWork; ++j) {
    const uint32_t index = base + threadIdx.x + j * kThreads;
    if (index < args.numel) {
      *reinterpret_cast<Out*>(args.data[0] + out_offset[j]) =
          element_cast<Out>(to_storage<S, M>(apply(body, in[j], index)));
    }
  }
}

// Strided operands of any dtypes (args.dtypes), converted to S and the compute type on load and
// from S to the output's dtype on store. One element per iteration, not unrolled: the dtype
// switches make unrolled code large and slow to compile, and this is the rare path.
template <typename Body, typename S, uint32_t kScalarMask>
BP_INLINE void dynamic(const StridedArgs& args) {
  using M = typename Body::compute_t;
  constexpr int kInputs = Body::kInputs;
  constexpr int kOperands = kInputs + 1;
  const Body body(args.values);
  const ScalarInputs<M, kInputs, kScalarMask> scalars(args.values);
  const uint32_t base = blockIdx.x * kBlockWork;
#pragma unroll 1
  for (int j = 0; j < kThreadWork; ++j) {
    const uint32_t index = base + threadIdx.x + j * kThreads;
    if (index >= args.numel) break;
    const OperandOffsets<kOperands> offsets = offsets_of<kOperands>(args.offsets, index);
    M in[kInputs > 0 ? kInputs : 1];
#pragma unroll
    for (int i = 0; i < kInputs; ++i) {
      in[i] = ((kScalarMask >> i) & 1u)
                  ? scalars.value[i]
                  : load_dynamic<S, M>(args.data[1 + i] + offsets.at[1 + i], args.dtypes[1 + i]);
    }
    store_dynamic(args.data[0] + offsets.at[0], args.dtypes[0],
                  to_storage<S, M>(apply(body, in, index)));
  }
}

}  // namespace jit
}  // namespace bp
