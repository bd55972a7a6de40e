// Matrix products (mm, bmm, addmm, baddbmm, matmul, linear): numpy's matmul over wide values,
// rounded to the dtype once; PyTorch's shape and dtype checks with its messages.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/values.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

// PyTorch 1.13's CPU products have no bool and no float16 kernel.
constexpr DtypeSet kProductDtypes = kAllDtypes - kBoolOnly - DtypeSet(ScalarType::kFloat16);

// Small values without specials: sums of products stay exact in wide precision, and rounding
// is the only difference between a backend and the reference. Integers may still wrap (uint8).
constexpr Domain kValues{
    .low = -2, .high = 2, .int_low = -4, .int_high = 4, .specials = false, .int_extremes = false};

// A dtype other than `t` for the dtype-mismatch samples.
ScalarType other_dtype(ScalarType t) {
  return t == ScalarType::kFloat32 ? ScalarType::kFloat64 : ScalarType::kFloat32;
}

Wide zero() { return from_int(Int(0)); }
// A Scalar argument as the kernel takes it: converted to the dtype.
Wide scalar_in(const RefArgs& a, const std::string& name, ScalarType t) {
  const ScalarArg s = a.scalar(name, ScalarArg::integer(1));
  return cast(s.value, s.type, t);
}
bool is_zero(const Wide& w, ScalarType t) {
  return kind_of(t) == Kind::kInt ? w.i == 0 : w.z == cd(0, 0);
}

// Sizes without their last `drop` entries.
Sizes leading(const Sizes& s, size_t drop) { return Sizes(s.begin(), s.end() - drop); }

// numpy's matmul of a [..., n, k] and b [..., k, p] (batch dims broadcast), exact, not rounded.
RefTensor product(const RefTensor& a, const RefTensor& b) {
  const ScalarType t = a.dtype;
  Sizes batch;
  if (!broadcast_sizes(leading(a.sizes, 2), leading(b.sizes, 2), &batch)) {
    throw RefError{"The size of tensor a"};
  }
  const int64_t n = a.sizes[a.dim() - 2], k = a.sizes[a.dim() - 1], p = b.sizes[b.dim() - 1];
  Sizes sizes = batch;
  sizes.push_back(n);
  sizes.push_back(p);
  RefTensor r{t, sizes, {}};
  for_each_index(sizes, [&](const Index& index) {
    Index ai(index.begin(), index.end() - 2), bi = ai;
    ai.push_back(index[index.size() - 2]);
    ai.push_back(0);
    bi.push_back(0);
    bi.push_back(index.back());
    Wide sum = zero();
    for (int64_t j = 0; j < k; ++j) {
      ai.back() = j;
      bi[bi.size() - 2] = j;
      sum = add(sum, mul(a.at_broadcast(ai), b.at_broadcast(bi), t), t);
    }
    r.values.push_back(sum);
  });
  return r;
}

RefTensor rounded(RefTensor r) {
  for (Wide& w : r.values) w = round_to(w, r.dtype);
  return r;
}

// beta * addend + alpha * prod, with the addend and the scalars converted to the dtype (beta = 0:
// the addend is ignored, NaNs included), rounded.
RefTensor scaled_sum(const RefArgs& a, const RefTensor& addend, const RefTensor& prod) {
  const ScalarType t = prod.dtype;
  const Wide alpha = scalar_in(a, "alpha", t), beta = scalar_in(a, "beta", t);
  Sizes out;
  if (!broadcast_sizes(addend.sizes, prod.sizes, &out) || out != prod.sizes) {
    throw RefError{"The expanded size of the tensor"};
  }
  RefTensor r{t, prod.sizes, {}};
  size_t i = 0;
  for_each_index(prod.sizes, [&](const Index& index) {
    Wide v = mul(alpha, prod.values[i++], t);
    if (!is_zero(beta, t)) {
      v = add(v, mul(beta, cast(addend.at_broadcast(index), addend.dtype, t), t), t);
    }
    r.values.push_back(round_to(v, t));
  });
  return r;
}

std::string mm_shape_error(const RefTensor& a, const RefTensor& b) {
  return "mat1 and mat2 shapes cannot be multiplied (" + std::to_string(a.sizes[0]) + "x" +
         std::to_string(a.sizes[1]) + " and " + std::to_string(b.sizes[0]) + "x" +
         std::to_string(b.sizes[1]) + ")";
}

void check_same_dtype(const RefTensor& expected, const RefTensor& found) {
  if (expected.dtype != found.dtype) {
    throw RefError{"expected scalar type " + std::string(scalar_type_name(expected.dtype)) +
                   " but found " + std::string(scalar_type_name(found.dtype))};
  }
}

void check_batches(const RefTensor& b1, const RefTensor& b2) {
  if (b1.dim() != 3) throw RefError{"batch1 must be a 3D tensor"};
  if (b2.dim() != 3) throw RefError{"batch2 must be a 3D tensor"};
  if (b2.sizes[0] != b1.sizes[0] || b2.sizes[1] != b1.sizes[2]) {
    throw RefError{"Expected size for first two dimensions of batch2 tensor to be: [" +
                   std::to_string(b1.sizes[0]) + ", " + std::to_string(b1.sizes[2]) +
                   "] but got: [" + std::to_string(b2.sizes[0]) + ", " +
                   std::to_string(b2.sizes[1]) + "]."};
  }
}

// One sample per (sizes, layout) pair of the two operands, named `first` and `second`.
struct PairShape {
  Sizes a, b;
  Layout la = Layout::kContiguous, lb = Layout::kContiguous;
  std::string note;
};

std::vector<Sample> pair_samples(ScalarType dtype, uint64_t seed, const std::string& first,
                                 const std::string& second, const std::vector<PairShape>& shapes) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (const PairShape& s : shapes) {
    Sample sample;
    sample.add(first, make_tensor(src, dtype, s.a, s.la, kValues))
        .add(second, make_tensor(src, dtype, s.b, s.lb, kValues));
    sample.note = s.note;
    out.push_back(std::move(sample));
  }
  return out;
}

// A sample whose second operand has another dtype.
Sample mixed_dtypes(ScalarType dtype, uint64_t seed, const std::string& first,
                    const std::string& second, const Sizes& a, const Sizes& b) {
  ValueSource src(seed);
  Sample s;
  s.add(first, make_tensor(src, dtype, a, Layout::kContiguous, kValues))
      .add(second, make_tensor(src, other_dtype(dtype), b, Layout::kContiguous, kValues));
  s.note = "mixed dtypes";
  return s;
}

const std::vector<PairShape> kMatrixShapes = {
    {{3, 4}, {4, 5}},
    {{3, 4}, {4, 5}, Layout::kTransposed, Layout::kContiguous, "transposed self"},
    {{3, 4}, {4, 5}, Layout::kContiguous, Layout::kTransposed, "transposed mat2"},
    {{5, 6}, {6, 3}, Layout::kTransposed, Layout::kTransposed, "both transposed"},
    {{4, 6}, {6, 5}, Layout::kSliced, Layout::kSliced, "strided rows"},
    {{3, 4}, {4, 2}, Layout::kOffset, Layout::kExpanded, "offset, expanded"},
    {{1, 7}, {7, 1}, Layout::kContiguous, Layout::kContiguous, "row by column"},
    {{0, 3}, {3, 4}, Layout::kContiguous, Layout::kContiguous, "no rows"},
    {{3, 0}, {0, 4}, Layout::kContiguous, Layout::kContiguous, "empty contraction"},
    {{3, 4}, {4, 0}, Layout::kContiguous, Layout::kContiguous, "no columns"},
    {{33, 65}, {65, 17}, Layout::kContiguous, Layout::kContiguous, "odd sizes"},
    {{64, 72}, {72, 60}, Layout::kContiguous, Layout::kTransposed, "split across threads"},
};

const std::vector<PairShape> kBatchShapes = {
    {{2, 3, 4}, {2, 4, 5}},
    {{3, 4, 5}, {3, 5, 2}, Layout::kTransposed, Layout::kContiguous, "transposed batch1"},
    {{2, 4, 6}, {2, 6, 3}, Layout::kSliced, Layout::kTransposed, "strided, transposed"},
    {{3, 2, 4}, {3, 4, 3}, Layout::kExpanded, Layout::kOffset, "expanded batch, offset"},
    {{0, 3, 4}, {0, 4, 5}, Layout::kContiguous, Layout::kContiguous, "no batches"},
    {{2, 3, 0}, {2, 0, 4}, Layout::kContiguous, Layout::kContiguous, "empty contraction"},
    {{1, 48, 40}, {1, 40, 70}, Layout::kContiguous, Layout::kContiguous, "one large batch"},
    {{5, 17, 9}, {5, 9, 13}, Layout::kContiguous, Layout::kContiguous, "odd sizes"},
};

// An entry of the family: its declared variants, PyTorch's CPU dtypes, an out of the result's
// dtype exactly.
OpEntry product_entry(const std::string& name) {
  OpEntry e;
  e.name = name;
  e.family = "linalg";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = kProductDtypes;
  e.out_dtype = OutDtypeRule::kExact;
  return e;
}

OpEntry mm_entry() {
  OpEntry e = product_entry("mm");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<Sample> out = pair_samples(dtype, seed, "self", "mat2", kMatrixShapes);
    const std::vector<Sample> bad = pair_samples(dtype, seed + 1, "self", "mat2",
                                                 {{{3}, {3, 2}, {}, {}, "1-D self"},
                                                  {{2, 3}, {2, 3, 2}, {}, {}, "3-D mat2"},
                                                  {{2, 3}, {4, 2}, {}, {}, "mismatched"}});
    out.insert(out.end(), bad.begin(), bad.end());
    out.push_back(mixed_dtypes(dtype, seed + 2, "self", "mat2", {2, 3}, {3, 2}));
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor &self = a.tensor("self"), &mat2 = a.tensor("mat2");
    if (self.dim() != 2) throw RefError{"self must be a matrix"};
    if (mat2.dim() != 2) throw RefError{"mat2 must be a matrix"};
    if (self.sizes[1] != mat2.sizes[0]) throw RefError{mm_shape_error(self, mat2)};
    check_same_dtype(self, mat2);
    return Expected::of(rounded(product(self, mat2)));
  };
  return e;
}

OpEntry bmm_entry() {
  OpEntry e = product_entry("bmm");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<Sample> out = pair_samples(dtype, seed, "self", "mat2", kBatchShapes);
    const std::vector<Sample> bad = pair_samples(dtype, seed + 1, "self", "mat2",
                                                 {{{3, 4}, {2, 4, 2}, {}, {}, "2-D batch1"},
                                                  {{2, 3, 4}, {4, 2}, {}, {}, "2-D batch2"},
                                                  {{2, 3, 4}, {3, 4, 2}, {}, {}, "batches"},
                                                  {{2, 3, 4}, {2, 5, 2}, {}, {}, "contraction"}});
    out.insert(out.end(), bad.begin(), bad.end());
    out.push_back(mixed_dtypes(dtype, seed + 2, "self", "mat2", {2, 2, 3}, {2, 3, 2}));
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor &self = a.tensor("self"), &mat2 = a.tensor("mat2");
    check_batches(self, mat2);
    check_same_dtype(self, mat2);
    return Expected::of(rounded(product(self, mat2)));
  };
  return e;
}

// addmm / baddbmm: the product's samples with an addend `self` of the product's shape, of
// shapes that broadcast to it, and with beta and alpha.
std::vector<Sample> with_addend(ScalarType dtype, uint64_t seed, std::vector<Sample> products,
                                bool batched) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (size_t i = 0; i < products.size(); ++i) {
    const Sample& p = products[i];
    const Tensor& x = std::get<TensorArg>(p.args[0].value).host;
    const Tensor& y = std::get<TensorArg>(p.args[1].value).host;
    Sizes full = batched ? Sizes{x.size(0), x.size(1), y.size(2)} : Sizes{x.size(0), y.size(1)};
    // The addends: full size, a row broadcast, a single element; every third sample scales.
    const Sizes row = {full.back()};
    const Sizes shapes[] = {full, row, Sizes{1}};
    Sample s;
    s.add("self", make_tensor(src, dtype, shapes[i % 3],
                              i % 2 ? Layout::kTransposed : Layout::kContiguous, kValues));
    for (const SampleArg& arg : p.args) s.args.push_back(arg);
    if (i % 3 == 1) s.add("beta", Value(Scalar(0.5))).add("alpha", Value(Scalar(2)));
    if (i % 3 == 2) s.add("beta", Value(Scalar(-1))).add("alpha", Value(Scalar(true)));
    s.note = p.note;
    out.push_back(std::move(s));
  }
  return out;
}

// beta = 0 with a NaN addend: ignored; beta = 1 with it: propagated. alpha = 0 with a NaN
// operand: propagated too, as PyTorch's CPU computes 0 * (a @ b) (BLAS alone would skip the
// product). Real floating dtypes only (a complex NaN's other part is left to implementations, as
// C99's complex arithmetic).
std::vector<Sample> nan_samples(ScalarType dtype, uint64_t seed, const Sizes& self,
                                const std::string& m1, const Sizes& s1, const std::string& m2,
                                const Sizes& s2) {
  std::vector<Sample> out;
  if (kind_of(dtype) != Kind::kReal) return out;
  ValueSource src(seed);
  RefTensor nans = filled(dtype, self, cast(from_real(std::nan("")), ScalarType::kFloat64, dtype));
  for (int beta : {0, 1}) {
    Sample s;
    s.add("self", make_contiguous(nans))
        .add(m1, make_tensor(src, dtype, s1, Layout::kContiguous, kValues))
        .add(m2, make_tensor(src, dtype, s2, Layout::kContiguous, kValues))
        .add("beta", Value(Scalar(beta)));
    s.note = beta == 0 ? "NaN addend, beta 0" : "NaN addend";
    out.push_back(std::move(s));
  }
  // Also with one row: a matrix-vector product (BLAS's gemv skips it at alpha 0; gemm does not).
  for (const bool one_row : {false, true}) {
    Sizes self_sizes = self, s1_sizes = s1;
    if (one_row) self_sizes.end()[-2] = s1_sizes.end()[-2] = 1;
    Sample s;
    s.add("self", make_tensor(src, dtype, self_sizes, Layout::kContiguous, kValues))
        .add(m1, make_contiguous(filled(
                     dtype, s1_sizes, cast(from_real(std::nan("")), ScalarType::kFloat64, dtype))))
        .add(m2, make_tensor(src, dtype, s2, Layout::kContiguous, kValues))
        .add("alpha", Value(Scalar(0)));
    s.note = one_row ? "NaN row operand, alpha 0" : "NaN operand, alpha 0";
    out.push_back(std::move(s));
  }
  return out;
}

// One sample per row: self and the two operands with these sizes, the argument named `other`
// (if any) in another dtype.
struct AddendShape {
  Sizes self, first, second;
  std::string other, note;
};

std::vector<Sample> addend_samples(ScalarType dtype, uint64_t seed, const std::string& first,
                                   const std::string& second,
                                   const std::vector<AddendShape>& shapes) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (const AddendShape& s : shapes) {
    const auto t = [&](const std::string& name, const Sizes& sizes) {
      return make_tensor(src, s.other == name ? other_dtype(dtype) : dtype, sizes,
                         Layout::kContiguous, kValues);
    };
    Sample sample;
    sample.add("self", t("self", s.self))
        .add(first, t(first, s.first))
        .add(second, t(second, s.second));
    sample.note = s.note;
    out.push_back(std::move(sample));
  }
  return out;
}

// addmm_ / baddbmm_: once the product's checks pass, self must have the product's shape
// (PyTorch's in-place check of a structured op's output: no broadcasting into self).
std::optional<std::string> inplace_shape_error(const RefTensor& self, const Sizes& product) {
  if (self.sizes == product) return std::nullopt;
  return "Bad in-place call: input tensor size " + sizes_string(self.sizes) +
         " and output tensor size " + sizes_string(product) + " should match";
}

OpEntry addmm_entry() {
  OpEntry e = product_entry("addmm");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<Sample> out = with_addend(
        dtype, seed, pair_samples(dtype, seed + 1, "mat1", "mat2", kMatrixShapes), false);
    auto nans = nan_samples(dtype, seed + 2, {3, 2}, "mat1", {3, 4}, "mat2", {4, 2});
    out.insert(out.end(), nans.begin(), nans.end());
    const std::vector<Sample> bad =
        addend_samples(dtype, seed + 3, "mat1", "mat2",
                       {{{2, 3}, {2, 3}, {3, 2}, "", "self not broadcastable"},
                        {{2, 2}, {2, 3}, {3, 2}, "mat2", "mat2's dtype"},
                        {{2, 2}, {2, 3}, {3, 2}, "mat1", "mat1's dtype"},
                        {{2, 2}, {3}, {3, 2}, "", "1-D mat1"},
                        {{2, 2}, {2, 3}, {4, 2}, "", "mismatched"}});
    out.insert(out.end(), bad.begin(), bad.end());
    return out;
  };
  e.inplace_error_first = [](const RefArgs& a) -> std::optional<std::string> {
    const RefTensor &self = a.tensor("self"), &m1 = a.tensor("mat1"), &m2 = a.tensor("mat2");
    if (self.dtype != m2.dtype || m1.dtype != m2.dtype || m1.dim() != 2 || m2.dim() != 2 ||
        m1.sizes[1] != m2.sizes[0]) {
      return std::nullopt;  // the functional op's error comes first
    }
    return inplace_shape_error(self, {m1.sizes[0], m2.sizes[1]});
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor &self = a.tensor("self"), &m1 = a.tensor("mat1"), &m2 = a.tensor("mat2");
    if (self.dtype != m2.dtype) throw RefError{"self and mat2 must have the same dtype"};
    if (m1.dtype != m2.dtype) throw RefError{"mat1 and mat2 must have the same dtype"};
    for (const auto& [name, m] : {std::pair{"mat1", &m1}, std::pair{"mat2", &m2}}) {
      if (m->dim() != 2) {
        throw RefError{std::string(name) + " must be a matrix, got " + std::to_string(m->dim()) +
                       "-D tensor"};
      }
    }
    if (m1.sizes[1] != m2.sizes[0]) throw RefError{mm_shape_error(m1, m2)};
    return Expected::of(scaled_sum(a, self, product(m1, m2)));
  };
  return e;
}

OpEntry baddbmm_entry() {
  OpEntry e = product_entry("baddbmm");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<Sample> out = with_addend(
        dtype, seed, pair_samples(dtype, seed + 1, "batch1", "batch2", kBatchShapes), true);
    auto nans = nan_samples(dtype, seed + 2, {2, 3, 2}, "batch1", {2, 3, 4}, "batch2", {2, 4, 2});
    out.insert(out.end(), nans.begin(), nans.end());
    const std::vector<Sample> bad =
        addend_samples(dtype, seed + 3, "batch1", "batch2",
                       {{{2, 3, 3}, {2, 3, 4}, {2, 4, 2}, "", "self not broadcastable"},
                        {{2, 3, 2}, {2, 3, 4}, {2, 4, 2}, "batch2", "batch2's dtype"},
                        {{2, 3, 2}, {2, 3, 4}, {2, 4, 2}, "self", "self of another dtype"},
                        {{2, 3, 2}, {2, 3, 4}, {2, 5, 2}, "", "mismatched"}});
    out.insert(out.end(), bad.begin(), bad.end());
    return out;
  };
  e.inplace_error_first = [](const RefArgs& a) -> std::optional<std::string> {
    const RefTensor &b1 = a.tensor("batch1"), &b2 = a.tensor("batch2");
    if (b1.dim() != 3 || b2.dim() != 3 || b2.sizes[0] != b1.sizes[0] ||
        b2.sizes[1] != b1.sizes[2]) {
      return std::nullopt;  // the functional op's error comes first
    }
    const RefTensor& self = a.tensor("self");
    const Sizes product = {b1.sizes[0], b1.sizes[1], b2.sizes[2]};
    Sizes out;
    if (!broadcast_sizes(self.sizes, product, &out) || out != product) return std::nullopt;
    if (self.dtype != b2.dtype) {
      return "Bad in-place call: input tensor dtype " + std::string(scalar_type_name(self.dtype)) +
             " and output tensor dtype " + std::string(scalar_type_name(b2.dtype)) +
             " should match";
    }
    return inplace_shape_error(self, product);
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor &self = a.tensor("self"), &b1 = a.tensor("batch1"), &b2 = a.tensor("batch2");
    check_batches(b1, b2);
    const RefTensor prod = product(b1, b2);
    Sizes out;
    if (!broadcast_sizes(self.sizes, prod.sizes, &out) || out != prod.sizes) {
      throw RefError{"The expanded size of the tensor"};
    }
    // The product takes batch2's dtype (self is converted); PyTorch checks batch1's after the
    // output is built.
    if (b1.dtype != b2.dtype) {
      RefError e{"expected scalar type " + std::string(scalar_type_name(b1.dtype)) + " but found " +
                 std::string(scalar_type_name(b2.dtype))};
      e.result_sizes = prod.sizes;
      e.result_dtype = b2.dtype;
      throw e;
    }
    return Expected::of(scaled_sum(a, self, prod));
  };
  return e;
}

// matmul(a, b) with numpy's rules, the checks of PyTorch's dot / mv / mm / bmm paths.
RefTensor matmul_ref(const RefTensor& a, const RefTensor& b) {
  const int64_t d1 = a.dim(), d2 = b.dim();
  if (d1 == 0 || d2 == 0) {
    throw RefError{"both arguments to matmul need to be at least 1D, but they are " +
                   std::to_string(d1) + "D and " + std::to_string(d2) + "D"};
  }
  if (d1 == 1 && d2 == 1) {
    if (a.dtype != b.dtype) {
      throw RefError{"dot : expected both vectors to have same dtype, but found " +
                     std::string(scalar_type_name(a.dtype)) + " and " +
                     std::string(scalar_type_name(b.dtype))};
    }
    if (a.sizes[0] != b.sizes[0]) throw RefError{"inconsistent tensor size"};
  }
  if (d1 >= 2 && d2 == 1 && a.sizes.back() != b.sizes[0]) throw RefError{"size mismatch, got"};
  if (d2 >= 2 && a.sizes.back() != b.sizes[d2 - 2]) {
    // Through mm (the other operand folded into a matrix) or bmm.
    throw RefError{d2 == 2 ? "shapes cannot be multiplied" : "Expected size"};
  }
  check_same_dtype(a, b);
  RefTensor a2 = a, b2 = b;
  if (d1 == 1) a2.sizes = {1, a.sizes[0]};
  if (d2 == 1) b2.sizes = {b.sizes[0], 1};
  RefTensor r = product(a2, b2);
  if (d2 == 1) r.sizes.erase(r.sizes.end() - 1);
  if (d1 == 1) r.sizes.erase(r.sizes.end() - (d2 == 1 ? 1 : 2));
  return rounded(r);
}

OpEntry matmul_entry() {
  OpEntry e = product_entry("matmul");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<Sample> out =
        pair_samples(dtype, seed, "self", "other",
                     {{{4}, {4}, {}, {}, "vector . vector"},
                      {{3, 4}, {4}, Layout::kTransposed, Layout::kContiguous, "matrix @ vector"},
                      {{4}, {4, 3}, {}, {}, "vector @ matrix"},
                      {{3, 4}, {4, 5}, {}, Layout::kTransposed, "matrix @ matrix"},
                      {{2, 3, 4}, {4}, {}, {}, "batch @ vector"},
                      {{2, 3, 4}, {4, 5}, Layout::kSliced, Layout::kContiguous, "batch @ matrix"},
                      {{4}, {2, 4, 3}, {}, {}, "vector @ batch"},
                      {{3, 4}, {2, 4, 5}, {}, Layout::kTransposed, "matrix @ batch"},
                      {{2, 3, 4}, {2, 4, 5}, {}, {}, "batch @ batch"},
                      {{2, 1, 3, 4}, {5, 4, 2}, {}, {}, "broadcast batches"},
                      {{0, 3, 4}, {4, 2}, {}, {}, "empty batch"},
                      {{3, 0}, {0, 2}, {}, {}, "empty contraction"},
                      {{0, 3, 0}, {0, 2}, {}, {}, "empty batch and contraction"},
                      {{}, {4}, {}, {}, "0-D"},
                      {{3}, {4}, {}, {}, "vector lengths"},
                      {{2, 3}, {4}, {}, {}, "matrix @ short vector"},
                      {{2, 3}, {4, 2}, {}, {}, "matrix shapes"},
                      {{2, 2, 3}, {3, 3, 2}, {}, {}, "batches do not broadcast"}});
    out.push_back(mixed_dtypes(dtype, seed + 1, "self", "other", {3}, {3}));
    out.push_back(mixed_dtypes(dtype, seed + 2, "self", "other", {2, 3}, {3, 2}));
    return out;
  };
  e.reference = [](const RefArgs& a) {
    return Expected::of(matmul_ref(a.tensor("self"), a.tensor("other")));
  };
  return e;
}

OpEntry linear_entry() {
  OpEntry e = product_entry("linear");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    auto t = [&](const Sizes& sizes, Layout layout = Layout::kContiguous) {
      return make_tensor(src, dtype, sizes, layout, kValues);
    };
    std::vector<Sample> out;
    const std::vector<std::tuple<Sizes, Sizes, std::optional<Sizes>, std::string>> shapes = {
        {{3, 4}, {5, 4}, Sizes{5}, "matrix, bias"},
        {{3, 4}, {5, 4}, std::nullopt, "matrix"},
        {{2, 3, 4}, {5, 4}, Sizes{5}, "batch, bias"},
        {{2, 3, 4}, {5, 4}, std::nullopt, "batch"},
        {{4}, {5, 4}, Sizes{5}, "vector input"},
        {{3, 4}, {4}, std::nullopt, "vector weight"},
        {{3, 4}, {5, 4}, Sizes{3, 5}, "full bias"},
        {{0, 4}, {5, 4}, Sizes{5}, "no rows"},
        {{3, 4}, {5, 3}, Sizes{5}, "mismatched"},
        {{3, 4}, {5, 4}, Sizes{4}, "bias does not broadcast"},
    };
    for (const auto& [input, weight, bias, note] : shapes) {
      Sample s;
      s.add("input", t(input)).add("weight", t(weight, Layout::kTransposed));
      if (bias) s.add("bias", t(*bias));
      s.note = note;
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor &input = a.tensor("input"), &weight = a.tensor("weight");
    RefTensor wt = weight;  // weight.t()
    if (weight.dim() == 2) {
      wt.sizes = {weight.sizes[1], weight.sizes[0]};
      wt.values.clear();
      for_each_index(wt.sizes, [&](const Index& i) {
        wt.values.push_back(weight.at({i[1], i[0]}));
      });
    }
    RefTensor r = matmul_ref(input, wt);
    if (const RefTensor* bias = a.optional_tensor("bias")) {
      Sizes out;
      if (!broadcast_sizes(bias->sizes, r.sizes, &out) || out != r.sizes) {
        throw RefError{"The expanded size of the tensor"};
      }
      RefTensor sum{r.dtype, r.sizes, {}};
      size_t i = 0;
      for_each_index(r.sizes, [&](const Index& index) {
        sum.values.push_back(
            round_to(add(r.values[i++], bias->at_broadcast(index), r.dtype), r.dtype));
      });
      r = std::move(sum);
    }
    return Expected::of(std::move(r));
  };
  return e;
}

}  // namespace

void add_linalg_entries(OpDatabase& db) {
  db.add(mm_entry());
  db.add(bmm_entry());
  db.add(addmm_entry());
  db.add(baddbmm_entry());
  db.add(matmul_entry());
  db.add(linear_entry());
}

}  // namespace bp::conformance
