// The kernel parameter blocks of jitted kernels: one definition for the host, which fills them,
// and the device, which reads them (this header is also embedded in every kernel's source, after
// the portable scalar layer, whose base.h gives NVRTC the fixed-width integer types).
//
//   ContiguousArgs  vectorised kernels over contiguous operands (data pointers and values only)
//   StridedArgs     unrolled and dynamic-cast kernels: byte strides per dimension and operand,
//                   and each operand's dtype
//   ReduceArgs      reduction kernels (reduce.cuh)
//   LineArgs        kernels along one dim: scans and normalisations (along_dim.cuh)
//   GemmArgs        batched matrix products (gemm.cuh)
//   IndexArgs       indexing by a tensor of indices: gather, scatter, their range check
//                   (indexing.cuh)
//
// Operand order is the iteration plan's: outputs first, then inputs. Dimension 0 is the fastest.
// Every index and byte offset fits 32 bits (the host splits larger plans first). Layouts are
// plain C (x86-64 and NVPTX-64 agree on them) and checked by static_asserts on the host.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_KERNEL_ARGS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_KERNEL_ARGS_H_

#if !defined(__CUDACC_RTC__)
#include <cstdint>
#endif

namespace bp {
namespace jit {

// Limits of one launch (the host falls back to the CPU beyond them).
constexpr int kMaxDims = 25;     // PyTorch's MAX_DIMS
constexpr int kMaxOperands = 8;  // outputs + inputs
constexpr int kMaxValues = 8;    // by-value inputs and functor arguments
constexpr int kMaxReduceOutputs = 2;

// Elementwise launches: kThreads per block, each thread handles kThreadWork elements.
constexpr int kThreads = 128;
constexpr int kThreadWork = 4;
constexpr int kBlockWork = kThreads * kThreadWork;
static_assert(kBlockWork % 4 == 0, "a block's work is a whole number of 4-wide vectors");

// Reductions (reduce.cuh): threads per block, and bytes per accumulator in a partials workspace.
constexpr int kReduceThreads = 256;
constexpr int kPartialStride = 64;

// One value passed by value: the bytes of a compute-type value (up to complex<double>).
struct alignas(16) Value {
  unsigned char bytes[16];
};

// n / divisor and n % divisor with a multiply-high and a shift, for n < 2^31 (PyTorch's
// IntDivider): quotient = (umulhi(n, magic) + n) >> shift.
struct FastDivider {
  uint32_t divisor;
  uint32_t magic;
  uint32_t shift;
};

// Byte offsets of each operand from a linear index over `ndim` dimensions.
struct Offsets {
  int32_t ndim;
  FastDivider sizes[kMaxDims];
  uint32_t strides[kMaxDims][kMaxOperands];
};

struct ContiguousArgs {
  uint32_t numel;
  char* data[kMaxOperands];
  // values[i] is input i when it is passed by value; values[ninputs + j] is functor argument j.
  Value values[kMaxValues];
};

struct StridedArgs {
  uint32_t numel;
  char* data[kMaxOperands];
  Value values[kMaxValues];
  int32_t dtypes[kMaxOperands];  // dense dtype codes (dtypes.h), read by dynamic-cast kernels
  Offsets offsets;
};

// A reduction of `num_reduced` elements into each of `num_outputs` outputs: output o (a linear
// index over the kept dimensions) reads input elements at input_base(o) + reduced_offset(r) for
// r < num_reduced. `kept` operands are the outputs, then the input; `reduced` has one operand,
// the input. Launch geometry and modes: reduce.cuh.
struct ReduceArgs {
  uint32_t num_outputs;
  uint32_t num_reduced;
  char* outputs[kMaxReduceOutputs];
  const char* input;
  // Partial accumulators (split reductions): `chunks` groups of num_outputs accumulators.
  char* partials;
  uint32_t chunks;
  uint32_t chunk_size;  // reduced elements per chunk
  int32_t mode;         // a ReduceMode (reduce.cuh)
  int32_t reduce_on_x;  // the lanes of one output run along threadIdx.x (else .y)
  // The position of reduced element 0 among the reduced elements of the whole reduction (not 0
  // for the later parts of a reduction split for 32-bit indexing): what ArgMax's index counts.
  int64_t index_base;
  Value values[kMaxValues];  // the reduction's parameters (the count for mean, p for norm...)
  Offsets kept;              // operands: outputs..., input
  Offsets reduced;           // operand 0: the input
};

// Ops along one dim (along_dim.cuh): `num_lines` lines of `line_size` elements, one warp per
// line, kLineThreads / 32 lines per block. Line l starts at the byte offsets `lines` gives for
// l (operands: the values output, the indices output, the input); element i of a line is
// i * steps[k] bytes further. `indices` is null but for scans of values and indices (cummax).
constexpr int kLineThreads = 128;
struct LineArgs {
  uint32_t num_lines;
  uint32_t line_size;
  char* output;
  char* indices;
  const char* input;
  uint32_t steps[3];  // output, indices, input
  Offsets lines;
};

// Batched matrix products (gemm.cuh): out[b] = beta * c[b] + alpha * (a[b] @ b[b]) for
// a [batches, n, k], b [batches, k, p], c and out [batches, n, p]. Strides are in bytes (batch,
// row, column); any of them may be 0 (c broadcast). A block of kGemmTile x kGemmTile threads
// computes one tile of out; blockIdx.z walks the batches, gridDim.z at a time.
constexpr int kGemmTile = 16;
struct GemmArgs {
  uint32_t batches, n, p, k;
  char* out;
  const char* a;
  const char* b;
  const char* c;  // null when `add` is 0
  uint32_t out_strides[3], a_strides[3], b_strides[3], c_strides[3];
  // 0: beta is 0, c is not read (NaNs in it included). a @ b is always computed: at alpha 0,
  // 0 * NaN is NaN, as in PyTorch's CPU kernel.
  int32_t add;
  Value alpha, beta;  // in the compute type
};

// Indexing by a tensor of indices (indexing.cuh), kIndexThreads threads per block:
//   - gather / index_select: `count` output elements, one thread each; `offsets` gives each
//     one's byte offsets (operands: out, src at its line's start along dim, index); the element
//     read is src + offset + index * steps[1].
//   - scatter: `count` lines (every index coordinate but dim's), one thread each, walking the
//     `line_size` index positions along dim in order; `offsets` over the other dims (out, src,
//     index), steps[] the byte steps along dim (out's per index value, src's and index's per
//     position). A null src writes `value` (in out's dtype).
//   - the range check: `count` indices at `offsets`' operand 2 (row-major order), each in
//     [0, bound); writes the first offending position (or -1) and its value as two int64 at out.
constexpr int kIndexThreads = 128;
struct IndexArgs {
  uint32_t count;
  uint32_t line_size;
  char* out;
  const char* src;
  const char* index;
  uint32_t steps[3];  // out, src, index
  int64_t bound;
  Value value;
  Offsets offsets;
};

}  // namespace jit
}  // namespace bp

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_KERNEL_ARGS_H_
