// mm, bmm, addmm and baddbmm: one batched GEMM, out[i] = alpha * (a[i] @ b[i]) + beta * c[i].
//
// float32, float64, complex64 and complex128 run OpenBLAS's gemm (chosen against BLIS by
// measurement on GPT-2's shapes: docs/design/matmul.md), one call per batch and row block, with
// OpenBLAS's own threads off: parallel_for splits the work. bfloat16 computes in float32 (as
// PyTorch's CPU kernel accumulates in float) and rounds once. Integral dtypes, empty contractions
// and sizes past BLAS's 32-bit integers run a plain loop in the dtype's own arithmetic (integers
// wrap, as PyTorch's do). beta = 0 ignores c, NaNs included, as BLAS does; alpha = 0 does not
// ignore a @ b (0 * NaN is NaN), as PyTorch's CPU kernel does not.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/pointwise.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

// OpenBLAS's (declared by its cblas.h, not by other BLAS's): its threads stay off, parallel_for
// splits the work.
extern "C" void openblas_set_num_threads(int num_threads);

namespace bp::cpu {
namespace {

// Below this many multiply-adds a product runs on the calling thread.
constexpr int64_t kParallelFlops = int64_t{1} << 18;

// A matrix operand as BLAS takes it: row-major (unit column stride) or transposed (unit row
// stride), with its leading dimension. Views of [batch, rows, cols].
struct BlasMatrix {
  bool transposed;
  int64_t ld;
};

bool fits_blas_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

std::optional<BlasMatrix> blas_matrix(const Tensor& t) {
  const int64_t rows = t.size(1), cols = t.size(2), rs = t.stride(1), cs = t.stride(2);
  std::optional<BlasMatrix> m;
  if ((cs == 1 || cols == 1) && (rs >= std::max<int64_t>(1, cols) || rows == 1)) {
    m = BlasMatrix{false, rows == 1 ? std::max<int64_t>(1, cols) : rs};
  } else if ((rs == 1 || rows == 1) && (cs >= std::max<int64_t>(1, rows) || cols == 1)) {
    m = BlasMatrix{true, cols == 1 ? std::max<int64_t>(1, rows) : cs};
  }
  if (m && !fits_blas_int(m->ld)) m.reset();
  return m;
}

// `t` itself when BLAS can read it, else a contiguous copy.
Tensor blas_readable(const Tensor& t, BlasMatrix& m) {
  if (auto got = blas_matrix(t)) {
    m = *got;
    return t;
  }
  Tensor c = t.contiguous();
  m = BlasMatrix{false, std::max<int64_t>(1, t.size(2))};
  return c;
}

void blas_gemm(bool ta, bool tb, int n, int p, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, n, p,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void blas_gemm(bool ta, bool tb, int n, int p, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, n, p,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <typename R>
void blas_gemm(bool ta, bool tb, int n, int p, int k, complex<R> alpha, const complex<R>* a,
               int lda, const complex<R>* b, int ldb, complex<R> beta, complex<R>* c, int ldc) {
  const auto op = [](bool t) { return t ? CblasTrans : CblasNoTrans; };
  if constexpr (std::is_same_v<R, float>) {
    cblas_cgemm(CblasRowMajor, op(ta), op(tb), n, p, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
  } else {
    cblas_zgemm(CblasRowMajor, op(ta), op(tb), n, p, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
  }
}

// y = alpha * op(m) x + beta * y, m row-major [rows, cols] with leading dimension ld.
void blas_gemv(bool t, int rows, int cols, float alpha, const float* m, int ld, const float* x,
               int incx, float beta, float* y) {
  cblas_sgemv(CblasRowMajor, t ? CblasTrans : CblasNoTrans, rows, cols, alpha, m, ld, x, incx, beta,
              y, 1);
}
void blas_gemv(bool t, int rows, int cols, double alpha, const double* m, int ld, const double* x,
               int incx, double beta, double* y) {
  cblas_dgemv(CblasRowMajor, t ? CblasTrans : CblasNoTrans, rows, cols, alpha, m, ld, x, incx, beta,
              y, 1);
}
template <typename R>
void blas_gemv(bool t, int rows, int cols, complex<R> alpha, const complex<R>* m, int ld,
               const complex<R>* x, int incx, complex<R> beta, complex<R>* y) {
  const auto op = t ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<R, float>) {
    cblas_cgemv(CblasRowMajor, op, rows, cols, &alpha, m, ld, x, incx, &beta, y, 1);
  } else {
    cblas_zgemv(CblasRowMajor, op, rows, cols, &alpha, m, ld, x, incx, &beta, y, 1);
  }
}

template <typename T>
constexpr bool kBlasType = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                           std::is_same_v<T, complex<float>> || std::is_same_v<T, complex<double>>;

// Runs f(batch, row_begin, row_end) over every batch and block of rows, in parallel when the
// product has at least kParallelFlops multiply-adds.
template <typename F>
void for_each_block(int64_t batches, int64_t rows, int64_t flops, const F& f) {
  const int64_t threads = flops >= kParallelFlops ? get_num_threads() : 1;
  const int64_t blocks = batches >= threads ? 1 : std::min<int64_t>(rows, threads);
  const int64_t block_rows = (rows + blocks - 1) / std::max<int64_t>(blocks, 1);
  parallel_for(0, batches * blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t batch = task / blocks, row0 = (task % blocks) * block_rows;
      if (row0 < rows) f(batch, row0, std::min(rows, row0 + block_rows));
    }
  });
}

// result = alpha * a @ b + beta * result, by BLAS. result is contiguous.
template <typename T>
void gemm_blas(const Tensor& a_in, const Tensor& b_in, T alpha, T beta, const Tensor& result) {
  BlasMatrix ma{}, mb{};
  const Tensor a = blas_readable(a_in, ma), b = blas_readable(b_in, mb);
  const int64_t batches = result.size(0), n = result.size(1), p = result.size(2), k = a.size(2);
  static const bool threads_off = [] {
    openblas_set_num_threads(1);
    return true;
  }();
  (void)threads_off;
  const T* a_data = static_cast<const T*>(a.data_ptr());
  const T* b_data = static_cast<const T*>(b.data_ptr());
  T* r_data = static_cast<T*>(result.data_ptr());
  const auto as_int = [](int64_t v) { return static_cast<int>(v); };
  if (n == 1 || p == 1) {
    // A row times a matrix, or a matrix times a column: gemv, 4-5x gemm's speed on these shapes
    // (one token through a linear layer: 92 against 431 us for 768 x 2304).
    for (int64_t i = 0; i < batches; ++i) {
      const T* ai = a_data + i * a.stride(0);
      const T* bi = b_data + i * b.stride(0);
      T* ri = r_data + i * n * p;
      if (n == 1) {  // r[p] = b^T a: a's row is the vector
        const int64_t inc = ma.transposed ? ma.ld : 1;
        if (mb.transposed) {  // b stored [p, k]
          blas_gemv(false, as_int(p), as_int(k), alpha, bi, as_int(mb.ld), ai, as_int(inc), beta,
                    ri);
        } else {  // b stored [k, p]
          blas_gemv(true, as_int(k), as_int(p), alpha, bi, as_int(mb.ld), ai, as_int(inc), beta,
                    ri);
        }
      } else {  // r[n] = a b: b's column is the vector
        const int64_t inc = mb.transposed ? 1 : mb.ld;
        if (ma.transposed) {  // a stored [k, n]
          blas_gemv(true, as_int(k), as_int(n), alpha, ai, as_int(ma.ld), bi, as_int(inc), beta,
                    ri);
        } else {  // a stored [n, k]
          blas_gemv(false, as_int(n), as_int(k), alpha, ai, as_int(ma.ld), bi, as_int(inc), beta,
                    ri);
        }
      }
    }
    return;
  }
  for_each_block(batches, n, batches * n * p * k, [&](int64_t i, int64_t row0, int64_t row1) {
    // Rows row0.. of the product are rows row0.. of a (row-major) or its columns (transposed).
    const T* a_rows = a_data + i * a.stride(0) + row0 * (ma.transposed ? 1 : ma.ld);
    blas_gemm(ma.transposed, mb.transposed, static_cast<int>(row1 - row0), static_cast<int>(p),
              static_cast<int>(k), alpha, a_rows, static_cast<int>(ma.ld), b_data + i * b.stride(0),
              static_cast<int>(mb.ld), beta, r_data + i * n * p + row0 * p,
              static_cast<int>(std::max<int64_t>(1, p)));
  });
}

// result = alpha * a @ b + beta * result in T's own arithmetic (integers wrap: -fwrapv), for any
// strides of a and b. result is contiguous.
template <typename T>
void gemm_loop(const Tensor& a, const Tensor& b, T alpha, T beta, const Tensor& result) {
  const int64_t batches = result.size(0), n = result.size(1), p = result.size(2), k = a.size(2);
  const T* a_data = static_cast<const T*>(a.data_ptr());
  const T* b_data = static_cast<const T*>(b.data_ptr());
  T* r_data = static_cast<T*>(result.data_ptr());
  const bool keep_result = !(beta == T(0));
  for_each_block(batches, n, batches * n * p * k, [&](int64_t i, int64_t row0, int64_t row1) {
    std::vector<T> acc(static_cast<size_t>(p));
    for (int64_t r = row0; r < row1; ++r) {
      std::fill(acc.begin(), acc.end(), T(0));
      for (int64_t j = 0; j < k; ++j) {
        const T x = a_data[i * a.stride(0) + r * a.stride(1) + j * a.stride(2)];
        const T* b_row = b_data + i * b.stride(0) + j * b.stride(1);
        for (int64_t c = 0; c < p; ++c)
          acc[c] = static_cast<T>(acc[c] + x * b_row[c * b.stride(2)]);
      }
      T* out_row = r_data + (i * n + r) * p;
      for (int64_t c = 0; c < p; ++c) {
        const T product = static_cast<T>(alpha * acc[c]);
        out_row[c] = keep_result ? static_cast<T>(beta * out_row[c] + product) : product;
      }
    }
  });
}

template <typename T>
void gemm(const Tensor& a, const Tensor& b, T alpha, T beta, const Tensor& result) {
  const bool blas_sizes =
      fits_blas_int(result.size(1)) && fits_blas_int(result.size(2)) && fits_blas_int(a.size(2));
  if constexpr (kBlasType<T>) {
    if (blas_sizes && a.size(2) > 0) {
      if (!(alpha == T(0))) return gemm_blas<T>(a, b, alpha, beta, result);
      // BLAS leaves a @ b unread when alpha is 0; PyTorch's CPU result keeps 0 * (a @ b), so a
      // NaN or infinity in the product still makes NaN. Rare: the product goes through a copy.
      const Tensor product = bp::empty(result.sizes(), result.dtype());
      gemm_blas<T>(a, b, T(1), T(0), product);
      const T* p = static_cast<const T*>(product.data_ptr());
      T* r = static_cast<T*>(result.data_ptr());
      const bool keep_result = !(beta == T(0));
      for (int64_t i = 0; i < result.numel(); ++i)
        r[i] =
            keep_result ? static_cast<T>(beta * r[i] + alpha * p[i]) : static_cast<T>(alpha * p[i]);
      return;
    }
  }
  gemm_loop<T>(a, b, alpha, beta, result);
}

// Whether `a` and `b` view the same elements with the same geometry.
bool same_view(const Tensor& a, const Tensor& b) {
  return a.data_ptr() == b.data_ptr() && a.dtype() == b.dtype() && a.sizes() == b.sizes() &&
         a.strides() == b.strides();
}

// out = alpha * (a @ b) + beta * c for [batch, rows, cols] views a, b, out and c (c expanded to
// out's shape, of any dtype: converted; undefined: no addend).
void batched_product(std::string_view name, uint32_t dtypes, const Tensor& a, const Tensor& b,
                     const Tensor& c, const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  const ScalarType dtype = out.dtype();
  check_dtype_supported(dtype, dtypes, name);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, Half>) {
      const T alpha_t = alpha.to<T>();
      const T beta_t = c.defined() ? beta.to<T>() : T(0);
      if (out.numel() == 0) return;
      const bool add = c.defined() && !(beta_t == T(0));
      if constexpr (std::is_same_v<T, BFloat16>) {
        // float32 throughout, rounded to bfloat16 once.
        Tensor result = bp::empty(out.sizes(), ScalarType::kFloat32);
        if (add) bp::copy_(result, c);
        gemm<float>(a.to(ScalarType::kFloat32), b.to(ScalarType::kFloat32),
                    static_cast<float>(alpha_t), add ? static_cast<float>(beta_t) : 0.0f, result);
        Tensor target = out;
        bp::copy_(target, result);
      } else {
        const bool direct = out.is_contiguous() && !out.is_alias_of(a) && !out.is_alias_of(b);
        Tensor result = direct ? out : bp::empty(out.sizes(), dtype);
        if (add && !same_view(result, c)) bp::copy_(result, c);
        gemm<T>(a, b, alpha_t, add ? beta_t : T(0), result);
        Tensor target = out;
        if (!direct) bp::copy_(target, result);
      }
    }
  });
}

}  // namespace

void mm_out(structured_mm_out&, const Tensor& self, const Tensor& mat2, const Tensor& out) {
  batched_product("mm", structured_mm_out::kDtypes, bp::unsqueeze(self, 0), bp::unsqueeze(mat2, 0),
                  Tensor(), Scalar(0), Scalar(1), bp::unsqueeze(out, 0));
}

void bmm_out(structured_bmm_out&, const Tensor& self, const Tensor& mat2, const Tensor& out) {
  batched_product("bmm", structured_bmm_out::kDtypes, self, mat2, Tensor(), Scalar(0), Scalar(1),
                  out);
}

void addmm_out(structured_addmm_out&, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
               const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  batched_product("addmm", structured_addmm_out::kDtypes, bp::unsqueeze(mat1, 0),
                  bp::unsqueeze(mat2, 0), bp::unsqueeze(self.expand(out.sizes()), 0), beta, alpha,
                  bp::unsqueeze(out, 0));
}

void baddbmm_out(structured_baddbmm_out&, const Tensor& self, const Tensor& batch1,
                 const Tensor& batch2, const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  batched_product("baddbmm", structured_baddbmm_out::kDtypes, batch1, batch2,
                  self.expand(out.sizes()), beta, alpha, out);
}

}  // namespace bp::cpu
