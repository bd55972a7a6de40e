// Indexing by tensors of indices: index_select, gather, scatter (+ reduce), scatter_add,
// masked_select and embedding, after PyTorch 1.13's checks (index dtypes and ranks, sizes apart
// from the dim, indices out of range, the reduce argument), over contiguous and strided operands.
// Indices are written out per sample, so every case is deterministic: a repeated index in scatter
// keeps the last write (PyTorch's CPU order), and scatter's reductions fold in index order,
// rounding to the dtype at each step, as PyTorch's kernels.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/elementwise.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/values.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

constexpr Layout kC = Layout::kContiguous;

// Small values: sums and products of a few stay exact in every dtype but the 8-bit ones (wrap).
constexpr Domain kValues{
    .low = -3, .high = 3, .int_low = -3, .int_high = 3, .specials = false, .int_extremes = false};

std::string dim_error(int64_t dim, int64_t ndim) {
  return "Dimension out of range (expected to be in range of [" + std::to_string(-ndim) + ", " +
         std::to_string(ndim - 1) + "], but got " + std::to_string(dim) + ")";
}

// PyTorch's maybe_wrap_dim (a 0-dim tensor takes 0 and -1).
int64_t wrapped(int64_t dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n) throw RefError{dim_error(dim, n)};
  return dim < 0 ? dim + n : dim;
}

// ensure_nonempty_dim / ensure_nonempty_size: a 0-dim tensor counts as [1].
int64_t nonempty_dim(const RefTensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t nonempty_size(const RefTensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes[d]; }

// The element of `t` at `index` with entry `d` replaced by `k` (a 0-dim t: its element).
const Wide& at_dim(const RefTensor& t, Index index, int64_t d, int64_t k) {
  if (t.dim() == 0) return t.values[0];
  index[static_cast<size_t>(d)] = k;
  return t.at(index);
}

// An index operand of `sizes` holding `values` (row-major), of dtype `dtype`, laid out.
Tensor indices(const Sizes& sizes, const std::vector<int64_t>& values,
               ScalarType dtype = ScalarType::kInt64, Layout layout = kC) {
  RefTensor t{dtype, sizes, {}};
  for (int64_t v : values) t.values.push_back(from_int(Int(v)));
  return lay_out(t, layout);
}

// A sample's tensor operand of `dtype`.
struct Operand {
  std::string name;
  Sizes sizes;
  Layout layout = kC;
  std::optional<ScalarType> dtype;  // none: the sample's
};

// One sample: data operands drawn from the seed, an index operand, and other arguments.
struct IndexSample {
  std::vector<Operand> data;
  std::string index_name;
  Tensor index;
  std::vector<std::pair<std::string, Value>> args;
  std::string note;
};

std::vector<Sample> samples_of(ScalarType dtype, uint64_t seed,
                               const std::vector<IndexSample>& list) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (const IndexSample& s : list) {
    Sample sample;
    for (const Operand& o : s.data) {
      sample.add(o.name, make_tensor(src, o.dtype.value_or(dtype), o.sizes, o.layout, kValues));
    }
    if (!s.index_name.empty()) sample.add(s.index_name, s.index);
    for (const auto& [name, v] : s.args) sample.add(name, v);
    sample.note = s.note;
    out.push_back(std::move(sample));
  }
  return out;
}

Value dim(int64_t d) { return Value(d); }

// The first value of `index` outside [0, size), if any.
std::optional<int64_t> out_of_range(const RefTensor& index, int64_t size) {
  for (const Wide& w : index.values) {
    if (w.i < 0 || w.i >= size) return w.i;
  }
  return std::nullopt;
}

// A kernel's error, raised after the output is built.
RefError late_error(std::string message, Sizes sizes, ScalarType dtype) {
  RefError e{std::move(message)};
  e.result_sizes = std::move(sizes);
  e.result_dtype = dtype;
  return e;
}

OpEntry entry(const std::string& name, DtypeSet dtypes = kAllDtypes) {
  OpEntry e;
  e.name = name;
  e.family = "indexing";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = dtypes;
  e.out_dtype = OutDtypeRule::kExact;
  return e;
}

// ---- index_select ---------------------------------------------------------------------------

Expected index_select_reference(const RefArgs& a) {
  const RefTensor& self = a.tensor("self");
  const RefTensor& index = a.tensor("index");
  const int64_t d = wrapped(a.integer("dim", 0), self.dim());
  if (index.dim() > 1) throw RefError{"index_select(): Index is supposed to be a vector"};
  if (index.dtype != ScalarType::kInt64 && index.dtype != ScalarType::kInt32) {
    throw RefError{"index_select(): Expected dtype int32 or int64 for index"};
  }
  if (self.dim() == 0 && index.numel() != 1) {
    throw RefError{"index_select(): Index to scalar can have only 1 value, got " +
                   std::to_string(index.numel()) + " value(s)"};
  }
  Sizes sizes = self.sizes;
  if (self.dim() > 0) sizes[d] = index.numel();
  if (self.dim() > 1 && index.numel() != 0 && self.numel() == 0 && self.sizes[d] == 0) {
    throw late_error("index_select(): self indexing axis dim should be positive", sizes,
                     self.dtype);
  }
  if (index.numel() != 0) {
    const int64_t size = nonempty_size(self, d);
    if (const std::optional<int64_t> bad = out_of_range(index, size)) {
      throw late_error(self.dim() > 1 && d == 1
                           ? "INDICES element is out of DATA bounds, id=" + std::to_string(*bad) +
                                 " axis_dim=" + std::to_string(size)
                           : std::string("index out of range in self"),
                       sizes, self.dtype);
    }
  }
  RefTensor r{self.dtype, sizes, {}};
  for_each_index(sizes, [&](const Index& i) {
    const int64_t k = self.dim() == 0 ? 0 : index.values[i[d]].i;
    r.values.push_back(at_dim(self, i, d, k));
  });
  return Expected::of(r);
}

OpEntry index_select_entry() {
  OpEntry e = entry("index_select");
  e.out_dtype_error = [](ScalarType, ScalarType) {
    return std::string("index_select(): self and result must have the same scalar type");
  };
  e.samples = [](ScalarType dtype, uint64_t seed) {
    const ScalarType i32 = ScalarType::kInt32;
    return samples_of(
        dtype, seed,
        {{{{"self", {3, 4}}}, "index", indices({3}, {2, 0, 2}), {{"dim", dim(0)}}, "rows"},
         {{{"self", {3, 4}, Layout::kTransposed}},
          "index",
          indices({2}, {3, 1}, i32),
          {{"dim", dim(1)}},
          "columns of a transposed self, int32"},
         {{{"self", {2, 3, 4}, Layout::kSliced}},
          "index",
          indices({5}, {0, 3, 3, 1, 2}, ScalarType::kInt64, Layout::kSliced),
          {{"dim", dim(-1)}},
          "last dim, strided index"},
         {{{"self", {2, 3, 4}}}, "index", indices({2}, {2, 0}), {{"dim", dim(1)}}, "middle dim"},
         {{{"self", {5}}}, "index", indices({}, {4}), {{"dim", dim(0)}}, "0-dim index"},
         {{{"self", {}}}, "index", indices({1}, {0}), {{"dim", dim(0)}}, "0-dim self"},
         {{{"self", {3, 4}}}, "index", indices({0}, {}), {{"dim", dim(1)}}, "no indices"},
         {{{"self", {3, 0}}}, "index", indices({2}, {1, 1}), {{"dim", dim(0)}}, "empty rows"},
         {{{"self", {3, 4}}}, "index", indices({1}, {3}), {{"dim", dim(0)}}, "out of range"},
         {{{"self", {3, 4}}}, "index", indices({1}, {4}), {{"dim", dim(1)}}, "out of range, dim 1"},
         {{{"self", {3, 4}}}, "index", indices({1}, {-1}), {{"dim", dim(0)}}, "negative"},
         {{{"self", {3, 4}}}, "index", indices({1, 1}, {0}), {{"dim", dim(0)}}, "2-D index"},
         {{{"self", {3, 4}}},
          "index",
          indices({1}, {0}, ScalarType::kInt16),
          {{"dim", dim(0)}},
          "int16 index"},
         {{{"self", {3, 4}}}, "index", indices({1}, {0}), {{"dim", dim(2)}}, "dim out of range"},
         {{{"self", {0, 4}}}, "index", indices({1}, {0}), {{"dim", dim(0)}}, "nothing to index"},
         {{{"self", {}}}, "index", indices({2}, {0, 0}), {{"dim", dim(0)}}, "0-dim self, two"}});
  };
  e.reference = index_select_reference;
  return e;
}

// ---- gather ---------------------------------------------------------------------------------

Expected gather_reference(const RefArgs& a) {
  const RefTensor& self = a.tensor("self");
  const RefTensor& index = a.tensor("index");
  const int64_t d = wrapped(a.integer("dim", 0), self.dim());
  if (index.numel() == 0) return Expected::of(RefTensor{self.dtype, index.sizes, {}});
  if (index.dtype != ScalarType::kInt64) {
    throw RefError{"gather(): Expected dtype int64 for index"};
  }
  if (nonempty_dim(self) != nonempty_dim(index)) {
    throw RefError{"Index tensor must have the same number of dimensions as input tensor"};
  }
  for (int64_t i = 0; i < nonempty_dim(self); ++i) {
    if (i != d && nonempty_size(index, i) > nonempty_size(self, i)) {
      throw RefError{"Size does not match at dimension " + std::to_string(i) + " expected index " +
                     sizes_string(index.sizes) + " to be smaller than self " +
                     sizes_string(self.sizes) + " apart from dimension " + std::to_string(d)};
    }
  }
  const int64_t size = nonempty_size(self, d);
  if (const std::optional<int64_t> bad = out_of_range(index, size)) {
    throw late_error("index " + std::to_string(*bad) + " is out of bounds for dimension " +
                         std::to_string(d) + " with size " + std::to_string(size),
                     index.sizes, self.dtype);
  }
  RefTensor r{self.dtype, index.sizes, {}};
  for_each_index(index.sizes, [&](const Index& i) {
    r.values.push_back(at_dim(self, i, d, index.dim() == 0 ? index.values[0].i : index.at(i).i));
  });
  return Expected::of(r);
}

// The index errors gather and scatter share: dtype, rank, sizes apart from the dim, range, dim.
std::vector<IndexSample> index_shape_errors() {
  return {
      {{{"self", {3, 4}}},
       "index",
       indices({1, 1}, {0}, ScalarType::kInt32),
       {{"dim", dim(1)}},
       "int32 index"},
      {{{"self", {3, 4}}}, "index", indices({2}, {0, 1}), {{"dim", dim(1)}}, "ranks differ"},
      {{{"self", {3, 4}}},
       "index",
       indices({4, 1}, {0, 0, 0, 0}),
       {{"dim", dim(1)}},
       "index larger than self"},
      {{{"self", {3, 4}}}, "index", indices({1, 2}, {0, 4}), {{"dim", dim(1)}}, "out of range"},
      {{{"self", {3, 4}}}, "index", indices({1, 1}, {-1}), {{"dim", dim(0)}}, "negative"},
      {{{"self", {3, 4}}}, "index", indices({1, 1}, {0}), {{"dim", dim(2)}}, "dim out of range"},
  };
}

OpEntry gather_entry() {
  OpEntry e = entry("gather");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    std::vector<IndexSample> list = {
        {{{"self", {3, 4}}},
         "index",
         indices({2, 4}, {0, 2, 1, 1, 2, 2, 0, 1}),
         {{"dim", dim(0)}},
         "dim 0"},
        {{{"self", {3, 4}, Layout::kTransposed}},
         "index",
         indices({3, 2}, {3, 0, 1, 1, 2, 0}),
         {{"dim", dim(1)}},
         "dim 1, transposed self"},
        {{{"self", {3, 4}}},
         "index",
         indices({2, 3}, {3, 2, 1, 0, 0, 0}, ScalarType::kInt64, Layout::kTransposed),
         {{"dim", dim(-1)}},
         "smaller index, transposed"},
        {{{"self", {2, 3, 2}, Layout::kSliced}},
         "index",
         indices({2, 1, 2}, {2, 0, 1, 1}),
         {{"dim", dim(1)}},
         "3-D, strided self"},
        {{{"self", {}}}, "index", indices({}, {0}), {{"dim", dim(0)}}, "0-dim"},
        {{{"self", {3, 4}}}, "index", indices({3, 0}, {}), {{"dim", dim(1)}}, "empty index"},
        {{{"self", {3, 4}}},
         "index",
         indices({2, 0}, {}, ScalarType::kInt32),
         {{"dim", dim(1)}},
         "empty int32 index"}};
    for (IndexSample& s : index_shape_errors()) list.push_back(std::move(s));
    return samples_of(dtype, seed, list);
  };
  e.reference = gather_reference;
  return e;
}

// ---- scatter --------------------------------------------------------------------------------

// PyTorch's scatter_gather_dtype_check("scatter") and scatter_shape_check.
void check_scatter(const RefTensor& self, int64_t d, const RefTensor& index, const RefTensor* src) {
  if (index.numel() != 0 && index.dtype != ScalarType::kInt64) {
    throw RefError{"scatter(): Expected dtype int64 for index"};
  }
  if (src != nullptr && src->dtype != self.dtype) {
    throw RefError{"scatter(): Expected self.dtype to be equal to src.dtype"};
  }
  if (index.numel() == 0) return;
  if (nonempty_dim(self) != nonempty_dim(index)) {
    throw RefError{"Index tensor must have the same number of dimensions as self tensor"};
  }
  bool wrong = false;
  for (int64_t i = 0; i < nonempty_dim(self); ++i) {
    if (i != d && nonempty_size(index, i) > nonempty_size(self, i)) wrong = true;
    if (src != nullptr && i < nonempty_dim(*src) &&
        nonempty_size(index, i) > nonempty_size(*src, i)) {
      wrong = true;
    }
  }
  const std::string smaller = "Expected index " + sizes_string(index.sizes) +
                              " to be smaller than self " + sizes_string(self.sizes) +
                              " apart from dimension " + std::to_string(d);
  if (src == nullptr) {
    if (wrong) throw RefError{smaller};
    return;
  }
  if (nonempty_dim(*src) != nonempty_dim(index)) {
    throw RefError{"Index tensor must have the same number of dimensions as src tensor"};
  }
  if (wrong)
    throw RefError{smaller + " and to be smaller size than src " + sizes_string(src->sizes)};
}

enum class Combine { kAssign, kAdd, kMultiply };

// scatter's variants: self with src (or `value`) combined in at the indices, in index order.
Expected scatter_reference(const RefArgs& a, bool with_src, std::optional<Combine> fixed) {
  const RefTensor& self = a.tensor("self");
  const RefTensor& index = a.tensor("index");
  const RefTensor* src = with_src ? &a.tensor("src") : nullptr;
  const int64_t d = wrapped(a.integer("dim", 0), self.dim());
  check_scatter(self, d, index, src);
  Combine combine = fixed.value_or(Combine::kAssign);
  if (!fixed) {
    const std::optional<std::string> reduce = a.string("reduce");
    if (reduce != "add" && reduce != "multiply") {
      throw RefError{"reduce argument must be either add or multiply."};
    }
    combine = *reduce == "add" ? Combine::kAdd : Combine::kMultiply;
  }
  RefTensor r = self;
  if (index.numel() == 0) return Expected::of(r);
  const int64_t size = nonempty_size(self, d);
  if (const std::optional<int64_t> bad = out_of_range(index, size)) {
    throw late_error("index " + std::to_string(*bad) + " is out of bounds for dimension " +
                         std::to_string(d) + " with size " + std::to_string(size),
                     self.sizes, self.dtype);
  }
  const ScalarType t = self.dtype;
  Wide value;
  if (src == nullptr) {
    const ScalarArg v = a.scalar("value", ScalarArg::integer(0));
    value = cast(v.value, v.type, t);
  }
  const Sizes strides = contiguous_strides_of(self.sizes);
  for_each_index(index.sizes, [&](const Index& i) {
    const int64_t k = index.dim() == 0 ? index.values[0].i : index.at(i).i;
    int64_t pos = 0;
    for (size_t j = 0; j < self.sizes.size(); ++j) {
      pos += (static_cast<int64_t>(j) == d ? k : i[j]) * strides[j];
    }
    const Wide s = src == nullptr ? value : (src->dim() == 0 ? src->values[0] : src->at(i));
    Wide& o = r.values[static_cast<size_t>(pos)];
    switch (combine) {
      case Combine::kAssign:
        o = s;
        break;
      case Combine::kAdd:
        o = round_to(add(o, s, t), t);
        break;
      case Combine::kMultiply:
        o = round_to(mul(o, s, t), t);
        break;
    }
  });
  return Expected::of(r);
}

// scatter's samples; `src` adds a src operand (else a value), `reduce` a reduce argument.
std::vector<Sample> scatter_samples(ScalarType dtype, uint64_t seed, bool src,
                                    std::optional<std::string> reduce, bool repeats) {
  std::vector<IndexSample> list = {
      {{{"self", {3, 5}}},
       "index",
       indices({2, 3}, {0, 4, 2, 1, 3, 0}),
       {{"dim", dim(1)}},
       "dim 1"},
      {{{"self", {4, 3}, Layout::kTransposed}},
       "index",
       indices({2, 3}, {3, 0, 1, 1, 2, 0}),
       {{"dim", dim(0)}},
       "dim 0, transposed self"},
      {{{"self", {2, 4}}},
       "index",
       indices({2, 2}, {3, 1, 0, 2}, ScalarType::kInt64, Layout::kTransposed),
       {{"dim", dim(-1)}},
       "transposed index"},
      {{{"self", {}}}, "index", indices({}, {0}), {{"dim", dim(0)}}, "0-dim"},
      {{{"self", {3, 4}}}, "index", indices({0, 2}, {}), {{"dim", dim(1)}}, "empty index"},
  };
  for (IndexSample& s : index_shape_errors()) list.push_back(std::move(s));
  if (repeats) {
    list.push_back({{{"self", {2, 4}}},
                    "index",
                    indices({2, 5}, {1, 1, 3, 1, 0, 2, 2, 2, 2, 0}),
                    {{"dim", dim(1)}},
                    "repeated indices"});
  }
  for (IndexSample& s : list) {
    if (!src) {
      s.args.push_back({"value", Value(Scalar(int64_t{2}))});
      continue;
    }
    // src as large as the index, or larger (a strided one), in the sample's dtype.
    Sizes sizes(s.index.sizes().begin(), s.index.sizes().end());
    Layout layout = kC;
    if (s.note == "dim 1") {
      sizes.back() += 1;
      layout = Layout::kSliced;
    }
    s.data.push_back({"src", sizes, layout});
  }
  if (src) {
    const ScalarType other =
        dtype == ScalarType::kFloat64 ? ScalarType::kFloat32 : ScalarType::kFloat64;
    list.push_back({{{"self", {3, 4}}, {"src", {1, 1}, kC, other}},
                    "index",
                    indices({1, 1}, {0}),
                    {{"dim", dim(1)}},
                    "src of another dtype"});
    list.push_back({{{"self", {3, 4}}, {"src", {1}}},
                    "index",
                    indices({1, 1}, {0}),
                    {{"dim", dim(1)}},
                    "src ranks differ"});
    list.push_back({{{"self", {3, 4}}, {"src", {1, 1}}},
                    "index",
                    indices({2, 1}, {0, 1}),
                    {{"dim", dim(1)}},
                    "src smaller than index"});
  }
  if (reduce) {
    for (IndexSample& s : list) s.args.push_back({"reduce", Value(*reduce)});
    IndexSample bad = list[0];
    bad.args.back().second = Value("mean");
    bad.note = "reduce 'mean'";
    list.push_back(bad);
  }
  return samples_of(dtype, seed, list);
}

OpEntry scatter_entry(const std::string& name, bool src, bool reduce, std::optional<Combine> fixed,
                      const std::string& tolerance_key) {
  OpEntry e = entry(name);
  e.tolerance_key = tolerance_key;
  e.samples = [src, reduce, fixed](ScalarType dtype, uint64_t seed) {
    std::optional<std::string> how;
    if (reduce) how = "add";
    const bool repeats = reduce || fixed == Combine::kAdd;
    std::vector<Sample> out = scatter_samples(dtype, seed, src, how, repeats);
    if (reduce) {
      // The same operands multiplied in.
      std::vector<Sample> times = scatter_samples(dtype, seed + 1, src, "multiply", repeats);
      for (Sample& s : times) s.note += ", multiply";
      out.insert(out.end(), times.begin(), times.end());
    }
    return out;
  };
  e.reference = [src, fixed](const RefArgs& a) { return scatter_reference(a, src, fixed); };
  return e;
}

// ---- masked_select, embedding ---------------------------------------------------------------

Expected masked_select_reference(const RefArgs& a) {
  const RefTensor& self = a.tensor("self");
  const RefTensor& mask = a.tensor("mask");
  if (mask.dtype != ScalarType::kBool && mask.dtype != ScalarType::kUInt8) {
    throw RefError{"masked_select: expected BoolTensor or ByteTensor for mask"};
  }
  const Sizes shape = broadcast_all({&mask, &self});
  RefTensor r{self.dtype, {0}, {}};
  for_each_index(shape, [&](const Index& i) {
    if (mask.at_broadcast(i).i != 0) r.values.push_back(self.at_broadcast(i));
  });
  r.sizes[0] = static_cast<int64_t>(r.values.size());
  return Expected::of(r);
}

OpEntry masked_select_entry() {
  OpEntry e = entry("masked_select");
  e.data_dependent_sizes = true;
  e.out_dtype_error = [](ScalarType, ScalarType) {
    return std::string("masked_select(): self and result must have the same scalar type");
  };
  e.samples = [](ScalarType dtype, uint64_t seed) {
    const ScalarType b = ScalarType::kBool;
    auto mask = [](const Sizes& sizes, const std::vector<int64_t>& v,
                   ScalarType t = ScalarType::kBool,
                   Layout l = kC) { return indices(sizes, v, t, l); };
    return samples_of(
        dtype, seed,
        {{{{"self", {2, 3}}}, "mask", mask({2, 3}, {1, 0, 1, 1, 1, 0}), {}, "same shape"},
         {{{"self", {2, 3}, Layout::kTransposed}},
          "mask",
          mask({3}, {0, 1, 1}),
          {},
          "mask broadcast, transposed self"},
         {{{"self", {3}}}, "mask", mask({2, 1}, {1, 0}), {}, "both broadcast"},
         {{{"self", {2, 2}}}, "mask", mask({2, 2}, {0, 0, 0, 0}), {}, "nothing selected"},
         {{{"self", {}}}, "mask", mask({}, {1}), {}, "0-dim"},
         {{{"self", {2, 3}}},
          "mask",
          mask({2, 3}, {1, 0, 1, 0, 0, 1}, b, Layout::kTransposed),
          {},
          "transposed mask"},
         {{{"self", {2, 3}}}, "mask", mask({3}, {1, 0, 1}, ScalarType::kInt64), {}, "int64 mask"},
         {{{"self", {2, 3}}}, "mask", mask({2}, {1, 0}), {}, "shapes do not broadcast"}});
  };
  e.reference = masked_select_reference;
  return e;
}

Expected embedding_reference(const RefArgs& a) {
  const RefTensor& weight = a.tensor("weight");
  const RefTensor& index = a.tensor("indices");
  if (weight.dim() != 2) throw RefError{"'weight' must be 2-D"};
  if (index.dtype != ScalarType::kInt64 && index.dtype != ScalarType::kInt32) {
    throw RefError{
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        "Long, Int; but got "};
  }
  Sizes sizes = index.sizes;
  sizes.push_back(weight.sizes[1]);
  if (out_of_range(index, weight.sizes[0])) {
    throw late_error("index out of range in self", sizes, weight.dtype);
  }
  RefTensor r{weight.dtype, sizes, {}};
  for (const Wide& k : index.values) {
    for (int64_t j = 0; j < weight.sizes[1]; ++j) r.values.push_back(weight.at({k.i, j}));
  }
  return Expected::of(r);
}

OpEntry embedding_entry() {
  OpEntry e = entry("embedding");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    const ScalarType i32 = ScalarType::kInt32;
    return samples_of(
        dtype, seed,
        {{{{"weight", {5, 3}}}, "indices", indices({4}, {4, 0, 4, 2}), {}, "a list of tokens"},
         {{{"weight", {5, 3}, Layout::kTransposed}},
          "indices",
          indices({2, 3}, {1, 2, 3, 0, 0, 4}, i32),
          {},
          "a batch, int32, transposed weight"},
         {{{"weight", {5, 3}}}, "indices", indices({}, {3}), {}, "0-dim indices"},
         {{{"weight", {5, 3}}},
          "indices",
          indices({2}, {1, 2}),
          {{"padding_idx", Value(int64_t{1})}},
          "padding_idx (gradients only)"},
         {{{"weight", {5, 3}}}, "indices", indices({0, 2}, {}), {}, "no indices"},
         {{{"weight", {5, 3}}}, "indices", indices({2}, {1, 5}), {}, "out of range"},
         {{{"weight", {5, 3}}}, "indices", indices({1}, {-1}), {}, "negative"},
         {{{"weight", {5}}}, "indices", indices({1}, {0}), {}, "1-D weight"},
         {{{"weight", {5, 3}}},
          "indices",
          indices({1}, {0}, ScalarType::kInt16),
          {},
          "int16 indices"}});
  };
  e.reference = embedding_reference;
  return e;
}

}  // namespace

void add_indexing_entries(OpDatabase& db) {
  db.add(index_select_entry());
  db.add(gather_entry());
  db.add(scatter_entry("scatter.src", true, false, Combine::kAssign, "scatter"));
  db.add(scatter_entry("scatter.value", false, false, Combine::kAssign, "scatter"));
  db.add(scatter_entry("scatter.reduce", true, true, std::nullopt, "scatter"));
  db.add(scatter_entry("scatter.value_reduce", false, true, std::nullopt, "scatter"));
  db.add(scatter_entry("scatter_add", true, false, Combine::kAdd, "scatter_add"));
  db.add(masked_select_entry());
  db.add(embedding_entry());
}

}  // namespace bp::conformance
