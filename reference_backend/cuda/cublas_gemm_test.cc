// plan_cublas_gemm: which layouts go to cuBLAS and with which arguments (row-major out as
// out^T = b^T a^T, column-major out as out = a b), and which stay with the jitted kernel.
#include "reference_backend/cuda/cublas_gemm.h"

#include <cstring>

#include "gtest/gtest.h"

namespace bp::cuda {
namespace {

char a_data[8], b_data[8], out_data[8];

// [batches, n, k] @ [batches, k, p] -> [batches, n, p], contiguous row-major unless changed.
GemmGeometry geometry(int64_t batches, int64_t n, int64_t k, int64_t p) {
  GemmGeometry g;
  g.batches = batches;
  g.n = n;
  g.k = k;
  g.p = p;
  g.a = {a_data, {n * k, k, 1}};
  g.b = {b_data, {k * p, p, 1}};
  g.out = {out_data, {n * p, p, 1}};
  float one = 1;
  std::memcpy(g.alpha.bytes, &one, sizeof one);
  return g;
}

TEST(PlanCublasGemm, RowMajorOperandsAreTheTransposedProduct) {
  const auto plan = plan_cublas_gemm(Dtype::kFloat32, geometry(3, 2, 4, 5));
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->trans_a, CUBLAS_OP_N);
  EXPECT_EQ(plan->trans_b, CUBLAS_OP_N);
  EXPECT_EQ(plan->m, 5);
  EXPECT_EQ(plan->n, 2);
  EXPECT_EQ(plan->k, 4);
  EXPECT_EQ(plan->a, b_data);  // out^T = b^T a^T
  EXPECT_EQ(plan->b, a_data);
  EXPECT_EQ(plan->lda, 5);
  EXPECT_EQ(plan->ldb, 4);
  EXPECT_EQ(plan->ldc, 5);
  EXPECT_EQ(plan->stride_a, 20);
  EXPECT_EQ(plan->stride_b, 8);
  EXPECT_EQ(plan->stride_c, 10);
  EXPECT_EQ(plan->batches, 3);
  EXPECT_EQ(plan->type, CUDA_R_32F);
  EXPECT_EQ(plan->compute, CUBLAS_COMPUTE_32F);
}

TEST(PlanCublasGemm, TransposedAndBroadcastOperands) {
  GemmGeometry g = geometry(2, 3, 4, 5);
  g.a.strides = {0, 1, 3};   // a broadcast over batches, a^T contiguous
  g.b.strides = {20, 1, 4};  // b^T contiguous
  const auto plan = plan_cublas_gemm(Dtype::kFloat64, g);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->trans_a, CUBLAS_OP_T);  // b^T from b stored column-major
  EXPECT_EQ(plan->trans_b, CUBLAS_OP_T);
  EXPECT_EQ(plan->lda, 4);
  EXPECT_EQ(plan->ldb, 3);
  EXPECT_EQ(plan->stride_b, 0);
  EXPECT_EQ(plan->compute, CUBLAS_COMPUTE_64F);
}

TEST(PlanCublasGemm, AColumnMajorOutputIsTheProductItself) {
  GemmGeometry g = geometry(1, 3, 4, 5);
  g.out.strides = {15, 1, 3};
  const auto plan = plan_cublas_gemm(Dtype::kBFloat16, g);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->m, 3);
  EXPECT_EQ(plan->n, 5);
  EXPECT_EQ(plan->a, a_data);
  EXPECT_EQ(plan->trans_a, CUBLAS_OP_T);  // a row-major
  EXPECT_EQ(plan->lda, 4);
  EXPECT_EQ(plan->ldc, 3);
  EXPECT_EQ(plan->type, CUDA_R_16BF);
  EXPECT_EQ(plan->compute, CUBLAS_COMPUTE_32F);
}

TEST(PlanCublasGemm, WhatStaysWithTheJittedKernel) {
  for (Dtype d : {Dtype::kInt32, Dtype::kInt64, Dtype::kFloat16, Dtype::kComplex64, Dtype::kBool}) {
    EXPECT_FALSE(plan_cublas_gemm(d, geometry(1, 2, 2, 2))) << static_cast<int>(d);
  }
  GemmGeometry g = geometry(1, 3, 4, 5);
  g.a.strides = {0, 8, 2};  // no unit stride
  EXPECT_FALSE(plan_cublas_gemm(Dtype::kFloat32, g));
  g = geometry(1, 3, 4, 5);
  g.a.strides = {0, 0, 1};  // rows broadcast: leading dimension 0
  EXPECT_FALSE(plan_cublas_gemm(Dtype::kFloat32, g));
  g = geometry(2, 3, 4, 5);
  g.out.strides = {0, 5, 1};  // batches over each other
  EXPECT_FALSE(plan_cublas_gemm(Dtype::kFloat32, g));
  g = geometry(1, 3, 0, 5);  // nothing to multiply
  EXPECT_FALSE(plan_cublas_gemm(Dtype::kFloat32, g));
  g = geometry(1, 3, 4, 5);
  g.alpha_zero = true;  // 0 * (a @ b) must still be computed
  EXPECT_FALSE(plan_cublas_gemm(Dtype::kFloat32, g));
}

TEST(PlanCublasGemm, SizeOneDimsTakeAnyStride) {
  GemmGeometry g = geometry(1, 1, 4, 1);  // a row times a column
  g.a.strides = {0, 77, 1};
  g.b.strides = {0, 9, 123};
  g.out.strides = {0, 42, 99};
  const auto plan = plan_cublas_gemm(Dtype::kFloat32, g);
  ASSERT_TRUE(plan);
  EXPECT_GE(plan->lda, 1);
  EXPECT_GE(plan->ldc, 1);
}

}  // namespace
}  // namespace bp::cuda
