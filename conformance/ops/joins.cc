// cat and stack: the tensors' values side by side in their promoted dtype, after PyTorch 1.13's
// checks (an empty list, 0-dim tensors, ranks and sizes that differ outside the dim, the legacy
// skip of 1-D empty tensors).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/values.h"
#include "conformance/ops/database.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

std::string dim_error(int64_t dim, int64_t ndim) {
  return "Dimension out of range (expected to be in range of [" + std::to_string(-ndim) + ", " +
         std::to_string(ndim - 1) + "], but got " + std::to_string(dim) + ")";
}

int64_t wrapped(int64_t dim, int64_t ndim) {
  if (dim < -ndim || dim >= ndim) throw RefError{dim_error(dim, ndim)};
  return dim < 0 ? dim + ndim : dim;
}

bool skipped(const RefTensor& t) { return t.dim() == 1 && t.sizes[0] == 0; }

RefTensor concatenated(const std::vector<RefTensor>& tensors, int64_t dim) {
  if (tensors.empty()) throw RefError{"torch.cat(): expected a non-empty list of Tensors"};
  ScalarType dtype = tensors[0].dtype;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].dim() == 0) {
      throw RefError{"zero-dimensional tensor (at position " + std::to_string(i) +
                     ") cannot be concatenated"};
    }
    dtype = promote_types(dtype, tensors[i].dtype);
  }
  std::vector<RefTensor> used;
  for (const RefTensor& t : tensors) {
    if (!skipped(t)) used.push_back(cast(t, dtype));
  }
  if (used.empty()) return RefTensor{dtype, {0}, {}};
  const RefTensor& ref = used[0];
  const int64_t d = wrapped(dim, ref.dim());
  Sizes sizes = ref.sizes;
  sizes[d] = 0;
  for (size_t i = 0, k = 0; i < tensors.size(); ++i) {
    if (skipped(tensors[i])) continue;
    const RefTensor& t = used[k++];
    if (t.dim() != ref.dim()) {
      throw RefError{"Tensors must have same number of dimensions: got " +
                     std::to_string(ref.dim()) + " and " + std::to_string(t.dim())};
    }
    for (int64_t j = 0; j < t.dim(); ++j) {
      if (j != d && t.sizes[j] != ref.sizes[j]) {
        throw RefError{"Sizes of tensors must match except in dimension " + std::to_string(d) +
                       ". Expected size " + std::to_string(ref.sizes[j]) + " but got size " +
                       std::to_string(t.sizes[j]) + " for tensor number " + std::to_string(i) +
                       " in the list."};
      }
    }
    sizes[d] += t.sizes[d];
  }
  RefTensor r{dtype, sizes, {}};
  for_each_index(sizes, [&](const Index& index) {
    Index at = index;
    size_t k = 0;
    while (at[d] >= used[k].sizes[d]) at[d] -= used[k++].sizes[d];
    r.values.push_back(used[k].at(at));
  });
  return r;
}

std::vector<RefTensor> list_of(const RefArgs& a) {
  std::vector<RefTensor> out;
  for (const Tensor& t : a.host_list("tensors")) out.push_back(read_tensor(t));
  return out;
}

// Lists of (sizes, layout, dtype) with a dim and a note; no dtype: the sample's.
struct ListSample {
  std::vector<std::tuple<Sizes, Layout, std::optional<ScalarType>>> tensors;
  int64_t dim;
  std::string note;
};

std::vector<Sample> list_samples(ScalarType dtype, uint64_t seed,
                                 const std::vector<ListSample>& lists) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (const ListSample& l : lists) {
    TensorListArg list;
    for (const auto& [sizes, layout, d] : l.tensors) {
      list.host.push_back(make_tensor(src, d.value_or(dtype), sizes, layout));
    }
    Sample s;
    s.add("tensors", std::move(list)).add("dim", Value(l.dim));
    s.note = l.note;
    out.push_back(std::move(s));
  }
  return out;
}

constexpr std::optional<ScalarType> kSame;
constexpr Layout kC = Layout::kContiguous;

// The second dtype of the promotion samples.
ScalarType other_dtype(ScalarType dtype) {
  return dtype == ScalarType::kFloat64 ? ScalarType::kInt32 : ScalarType::kFloat64;
}

OpEntry join_entry(const std::string& name) {
  OpEntry e;
  e.name = name;
  e.family = "copy";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = kAllDtypes;
  return e;
}

OpEntry cat_entry() {
  OpEntry e = join_entry("cat");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    const ScalarType other = other_dtype(dtype);
    return list_samples(
        dtype, seed,
        {{{{{2, 3}, kC, kSame}, {{4, 3}, Layout::kTransposed, kSame}}, 0, "rows"},
         {{{{2, 1}, kC, kSame}, {{2, 3}, Layout::kSliced, kSame}, {{2, 0}, kC, kSame}},
          1,
          "columns, one empty"},
         {{{{3, 2, 2}, Layout::kExpanded, kSame}, {{3, 2, 5}, kC, kSame}}, -1, "last dim"},
         {{{{2, 2}, kC, kSame}, {{1, 2}, kC, other}}, 0, "promoted"},
         {{{{0}, kC, kSame}, {{2, 3}, kC, kSame}}, 1, "legacy empty skipped"},
         {{{{5}, Layout::kOffset, kSame}}, 0, "one tensor"},
         {{}, 0, "no tensors"},
         {{{{2}, kC, kSame}, {{}, kC, kSame}}, 0, "0-dim"},
         {{{{2, 3}, kC, kSame}, {{2}, kC, kSame}}, 0, "ranks differ"},
         {{{{2, 3}, kC, kSame}, {{3, 3}, kC, kSame}}, 1, "sizes differ"},
         {{{{2, 3}, kC, kSame}, {{2, 3}, kC, kSame}}, 2, "dim out of range"}});
  };
  e.reference = [](const RefArgs& a) {
    return Expected::of(concatenated(list_of(a), a.integer("dim", 0)));
  };
  return e;
}

OpEntry stack_entry() {
  OpEntry e = join_entry("stack");
  e.samples = [](ScalarType dtype, uint64_t seed) {
    const ScalarType other = other_dtype(dtype);
    return list_samples(
        dtype, seed,
        {{{{{2, 3}, kC, kSame}, {{2, 3}, Layout::kTransposed, kSame}}, 0, "first dim"},
         {{{{2, 3}, Layout::kSliced, kSame}, {{2, 3}, kC, kSame}, {{2, 3}, kC, kSame}},
          2,
          "new last dim"},
         {{{{4}, kC, kSame}, {{4}, kC, other}}, -1, "promoted, dim -1"},
         {{{{}, kC, kSame}, {{}, kC, kSame}}, 0, "0-dim"},
         {{{{0, 2}, kC, kSame}}, 1, "zero-size"},
         {{}, 0, "no tensors"},
         {{{{2}, kC, kSame}, {{3}, kC, kSame}}, 0, "sizes differ"},
         {{{{2}, kC, kSame}, {{2}, kC, kSame}}, 2, "dim out of range"}});
  };
  e.reference = [](const RefArgs& a) {
    std::vector<RefTensor> tensors = list_of(a);
    if (tensors.empty()) throw RefError{"stack expects a non-empty TensorList"};
    const int64_t dim = wrapped(a.integer("dim", 0), tensors[0].dim() + 1);
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (tensors[i].sizes != tensors[0].sizes) {
        throw RefError{"stack expects each tensor to be equal size, but got " +
                       sizes_string(tensors[0].sizes) + " at entry 0 and " +
                       sizes_string(tensors[i].sizes) + " at entry " + std::to_string(i)};
      }
    }
    for (RefTensor& t : tensors) t.sizes.insert(t.sizes.begin() + dim, 1);
    return Expected::of(concatenated(tensors, dim));
  };
  return e;
}

}  // namespace

void add_join_entries(OpDatabase& db) {
  db.add(cat_entry());
  db.add(stack_entry());
}

}  // namespace bp::conformance
