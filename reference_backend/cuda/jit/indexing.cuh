// The indexing templates (index_select, gather, scatter, scatter_add, scatter.reduce), moving
// data as the CPU backend does (reference_backend/cpu/indexing.cc). The plugin generates entry
// points such as:
//
//   extern "C" __global__ void __launch_bounds__(bp::jit::kIndexThreads)
//   scatter_add__bfloat16(const bp::jit::IndexArgs args) {
//     bp::jit::scatter_reduce_lines<bp::BFloat16, float, false>(args);
//   }
//
// Copies move element bytes (one instantiation per element size), reductions compute in the
// CPU's compute type. Scatter runs one thread per line and walks its index positions in order:
// lines write disjoint elements (they differ in a coordinate other than dim), so no atomics are
// needed and duplicate indices resolve as on the CPU (the last write wins; sums and products in
// index order). The indices were checked by index_check first: the kernels trust them.
namespace bp {
namespace jit {

// An element of kBytes bytes, moved as one value.
struct alignas(8) IndexBytes16 {
  uint64_t low, high;
};
template <int kBytes>
struct IndexElement;
template <>
struct IndexElement<1> {
  using type = uint8_t;
};
template <>
struct IndexElement<2> {
  using type = uint16_t;
};
template <>
struct IndexElement<4> {
  using type = uint32_t;
};
template <>
struct IndexElement<8> {
  using type = uint64_t;
};
template <>
struct IndexElement<16> {
  using type = IndexBytes16;
};

// The first index (in row-major order) outside [0, bound): one block, each thread walks every
// kIndexThreads-th position and keeps its first offender, then the block takes the smallest.
// out: {position or -1, its value}. Launched alone (one block) before the kernel it guards.
template <typename I>
BP_INLINE void index_check(const IndexArgs& args) {
  __shared__ uint32_t first[kIndexThreads];
  const uint32_t t = threadIdx.x;
  uint32_t mine = 0xffffffffu;
  for (uint32_t i = t; i < args.count; i += kIndexThreads) {
    const I k = *reinterpret_cast<const I*>(args.index + offsets_of<3>(args.offsets, i).at[2]);
    if (k < 0 || static_cast<int64_t>(k) >= args.bound) {
      mine = i;
      break;
    }
  }
  first[t] = mine;
  __syncthreads();
  for (uint32_t half = kIndexThreads / 2; half > 0; half /= 2) {
    if (t < half && first[t + half] < first[t]) first[t] = first[t + half];
    __syncthreads();
  }
  if (t == 0) {
    int64_t* result = reinterpret_cast<int64_t*>(args.out);
    const uint32_t p = first[0];
    const bool found = p != 0xffffffffu;
    result[0] = found ? static_cast<int64_t>(p) : -1;
    result[1] = found ? static_cast<int64_t>(*reinterpret_cast<const I*>(
                            args.index + offsets_of<3>(args.offsets, p).at[2]))
                      : 0;
  }
}

// gather / index_select: out[i] = src[line of i][index[i]], one thread per output element.
template <int kBytes, typename I>
BP_INLINE void gather_elements(const IndexArgs& args) {
  using E = typename IndexElement<kBytes>::type;
  const uint32_t i = blockIdx.x * kIndexThreads + threadIdx.x;
  if (i >= args.count) return;
  const OperandOffsets<3> o = offsets_of<3>(args.offsets, i);
  const uint32_t k = static_cast<uint32_t>(*reinterpret_cast<const I*>(args.index + o.at[2]));
  *reinterpret_cast<E*>(args.out + o.at[0]) =
      *reinterpret_cast<const E*>(args.src + o.at[1] + k * args.steps[1]);
}

// The line a scatter thread walks: its out, src and index starts, or active false.
struct IndexLine {
  bool active;
  char* out;
  const char* src;
  const char* index;
};

BP_INLINE IndexLine index_line(const IndexArgs& args) {
  const uint32_t line = blockIdx.x * kIndexThreads + threadIdx.x;
  IndexLine r{line < args.count, args.out, args.src, args.index};
  if (r.active) {
    const OperandOffsets<3> o = offsets_of<3>(args.offsets, line);
    r.out += o.at[0];
    if (r.src != nullptr) r.src += o.at[1];
    r.index += o.at[2];
  }
  return r;
}

// scatter (src or value): out[index[j]] = src[j] along the line, in order (the last one wins).
template <int kBytes>
BP_INLINE void scatter_lines(const IndexArgs& args) {
  using E = typename IndexElement<kBytes>::type;
  const IndexLine line = index_line(args);
  if (!line.active) return;
  const E value = *reinterpret_cast<const E*>(args.value.bytes);
  for (uint32_t j = 0; j < args.line_size; ++j) {
    const uint32_t k =
        static_cast<uint32_t>(*reinterpret_cast<const int64_t*>(line.index + j * args.steps[2]));
    *reinterpret_cast<E*>(line.out + k * args.steps[0]) =
        line.src != nullptr ? *reinterpret_cast<const E*>(line.src + j * args.steps[1]) : value;
  }
}

// scatter_add and scatter.reduce: out[index[j]] = out[index[j]] (+ or *) src[j] in M (the CPU's
// compute type: float for float16 / bfloat16), along the line in order.
template <typename T, typename M, bool kMultiply>
BP_INLINE void scatter_reduce_lines(const IndexArgs& args) {
  const IndexLine line = index_line(args);
  if (!line.active) return;
  const T value = *reinterpret_cast<const T*>(args.value.bytes);
  for (uint32_t j = 0; j < args.line_size; ++j) {
    const uint32_t k =
        static_cast<uint32_t>(*reinterpret_cast<const int64_t*>(line.index + j * args.steps[2]));
    T& o = *reinterpret_cast<T*>(line.out + k * args.steps[0]);
    const M a = element_cast<M>(o);
    const M b = element_cast<M>(
        line.src != nullptr ? *reinterpret_cast<const T*>(line.src + j * args.steps[1]) : value);
    if constexpr (kMultiply) {
      o = element_cast<T>(bp::math::Mul{}(a, b));
    } else {
      o = element_cast<T>(bp::math::Add{}(a, b, M(1)));
    }
  }
}

}  // namespace jit
}  // namespace bp
