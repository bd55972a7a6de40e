// View ops returning lists (split, chunk, tensor_split, unbind, broadcast_tensors): the number of
// pieces and each piece's exact sizes, strides and storage offset, computed from the input's
// geometry as PyTorch 1.13 cuts it, with its values read through them from the input's storage
// and the piece sharing that storage. Each piece is one expected output, in order. The entries
// take their variants from the declarations: unsafe_split's out= ops (the pieces copied into a
// `Tensor(a!)[] out`, one out per piece) are checked against the functional op's pieces.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/families/memory_rules.h"
#include "conformance/families/pointwise_samples.h"
#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/reduce.h"
#include "conformance/ops/database.h"
#include "sdk/core/int_array_ref.h"

namespace bp::conformance {
namespace {

Value ints(std::vector<int64_t> v) { return Value(std::move(v)); }
Value integer(int64_t v) { return Value(v); }

// The inputs the list views are cut from, by name.
std::map<std::string, Tensor> list_view_inputs(ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  std::map<std::string, Tensor> in;
  in["5x4"] = make_tensor(src, dtype, {5, 4}, Layout::kContiguous);
  in["transposed"] = make_tensor(src, dtype, {5, 7}, Layout::kTransposed);
  in["sliced"] = make_tensor(src, dtype, {4, 9}, Layout::kSliced);
  in["expanded"] = make_tensor(src, dtype, {6, 5}, Layout::kExpanded);
  in["offset"] = make_tensor(src, dtype, {17}, Layout::kOffset);
  in["zero-size"] = make_tensor(src, dtype, {0, 3}, Layout::kContiguous);
  in["0-dim"] = make_tensor(src, dtype, {}, Layout::kContiguous);
  return in;
}

struct ListCase {
  std::string input;
  Kwargs args;
};

using ListRef = std::function<Expected(const Tensor& self, const RefArgs& a)>;

OpEntry list_view_entry(std::string name, std::vector<ListCase> cases, ListRef ref) {
  auto shared_cases = std::make_shared<const std::vector<ListCase>>(std::move(cases));
  OpEntry e;
  e.name = name;
  e.family = "view";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = kAllDtypes;
  // out= ops (unsafe_split.Tensor_out): the pieces are copied into outs of any dtype, and there
  // must be one out per piece (PyTorch 1.13 asserts it internally; the message is that of its
  // split_copy_Tensor_out, naming the op).
  e.out_dtype = OutDtypeRule::kAny;
  if (const OpVariant* out = e.variant(VariantKind::kOut)) {
    std::string op = out->op;  // "unsafe_split_Tensor_out" for unsafe_split.Tensor_out
    std::replace(op.begin(), op.end(), '.', '_');
    e.out_count_error = [op](size_t expected, size_t given) {
      return op + "() expected an out= argument of size " + std::to_string(expected) +
             ", got size " + std::to_string(given);
    };
  }
  e.samples = [shared_cases](ScalarType dtype, uint64_t seed) {
    const std::map<std::string, Tensor> in = list_view_inputs(dtype, seed);
    std::vector<Sample> out;
    for (const ListCase& c : *shared_cases) {
      Sample s;
      s.add("self", in.at(c.input));
      for (const SampleArg& a : c.args) s.args.push_back(a);
      s.note = c.input;
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [ref](const RefArgs& a) { return ref(a.host("self"), a); };
  return e;
}

// Elements [start, start + length) of `dim` (in range), as narrow and slice give them: the
// offset moves by start elements of the dim even when the piece is empty.
ExpectedOutput piece(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  Sizes sizes = sizes_of(self);
  sizes[dim] = length;
  return view_of(self, sizes, strides_of(self),
                 self.storage_offset() + start * self.strides()[dim]);
}

// Pieces of the given lengths, one after the other along `dim`.
Expected pieces(const Tensor& self, int64_t dim, const std::vector<int64_t>& lengths) {
  Expected e;
  int64_t start = 0;
  for (int64_t length : lengths) {
    e.outputs.push_back(piece(self, dim, start, length));
    start += length;
  }
  return e;
}

// The dim of `self` the op cuts, wrapped ("Dimension out of range ..." past it).
int64_t cut_dim(const Tensor& self, const RefArgs& a) {
  return wrap_dim_or_throw(a.integer("dim", 0), self.dim());
}

Expected split_ref(const Tensor& self, const RefArgs& a) {
  if (self.dim() == 0) throw RefError{"split expects at least a 1-dimensional tensor"};
  const int64_t split_size = a.integer("split_size", 0);
  if (split_size < 0) {
    throw RefError{"split expects split_size be non-negative, but got split_size=" +
                   std::to_string(split_size)};
  }
  const int64_t dim = cut_dim(self, a);
  const int64_t n = self.sizes()[dim];
  if (split_size == 0 && n != 0) {
    throw RefError{"split_size can only be 0 if dimension size is 0, but got dimension size of " +
                   std::to_string(n)};
  }
  // Full pieces, then the rest; one (empty or short) piece when there is no full one.
  std::vector<int64_t> lengths;
  for (int64_t left = n; left > 0; left -= split_size)
    lengths.push_back(std::min(left, split_size));
  if (lengths.empty()) lengths.push_back(n);
  return pieces(self, dim, lengths);
}

Expected split_with_sizes_ref(const Tensor& self, const RefArgs& a, const std::string& arg) {
  if (self.dim() == 0) throw RefError{"split expects at least a 1-dimensional tensor"};
  const int64_t dim = cut_dim(self, a);
  const std::vector<int64_t> lengths = a.ints(arg, {});
  const std::string given = int_list_string(lengths);
  int64_t total = 0;
  for (int64_t length : lengths) {
    if (length < 0) {
      throw RefError{
          "split_with_sizes expects split_sizes have only non-negative entries, but got "
          "split_sizes=" +
          given};
    }
    total += length;
  }
  if (total != self.sizes()[dim]) {
    throw RefError{"split_with_sizes expects split_sizes to sum exactly to " +
                   std::to_string(self.sizes()[dim]) + " (input tensor's size at dimension " +
                   std::to_string(a.integer("dim", 0)) + "), but got split_sizes=" + given};
  }
  return pieces(self, dim, lengths);
}

Expected chunk_ref(const Tensor& self, const RefArgs& a) {
  if (self.dim() == 0) throw RefError{"chunk expects at least a 1-dimensional tensor"};
  const int64_t chunks = a.integer("chunks", 0);
  if (chunks <= 0) {
    throw RefError{"chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks)};
  }
  const int64_t dim = cut_dim(self, a);
  const int64_t n = self.sizes()[dim];
  // Pieces of ceil(n / chunks), the last one shorter; `chunks` empty pieces of an empty dim.
  if (n == 0) return pieces(self, dim, std::vector<int64_t>(chunks, 0));
  const int64_t size = (n + chunks - 1) / chunks;
  std::vector<int64_t> lengths;
  for (int64_t left = n; left > 0; left -= size) lengths.push_back(std::min(left, size));
  return pieces(self, dim, lengths);
}

void check_tensor_split_input(const Tensor& self) {
  if (self.dim() == 0) {
    throw RefError{
        "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"};
  }
}

// `sections` pieces whose lengths differ by at most one, the longer ones first.
Expected sections_ref(const Tensor& self, int64_t dim, int64_t sections) {
  if (sections <= 0) {
    throw RefError{"number of sections must be larger than 0, got " + std::to_string(sections)};
  }
  const int64_t n = self.sizes()[dim];
  std::vector<int64_t> lengths;
  for (int64_t i = 0; i < sections; ++i) lengths.push_back(n / sections + (i < n % sections));
  return pieces(self, dim, lengths);
}

// The pieces between consecutive indices, each index wrapped once when negative and clamped to
// [0, n] as Python slices do (a piece whose end is before its start is empty, at its start).
Expected indices_ref(const Tensor& self, int64_t dim, const std::vector<int64_t>& indices) {
  const int64_t n = self.sizes()[dim];
  auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); };
  Expected e;
  int64_t start = 0;
  std::vector<int64_t> ends = indices;
  ends.push_back(n);
  for (int64_t end : ends) {
    const int64_t s = clamp(start), t = clamp(end);
    e.outputs.push_back(piece(self, dim, s, std::max<int64_t>(t - s, 0)));
    start = end;
  }
  return e;
}

Expected unbind_ref(const Tensor& self, const RefArgs& a) {
  if (self.dim() == 0) throw RefError{"Dimension specified as 0 but tensor has no dimensions"};
  const int64_t dim = cut_dim(self, a);
  Sizes sizes = sizes_of(self), strides = strides_of(self);
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  Expected e;
  for (int64_t i = 0; i < self.sizes()[dim]; ++i) {
    e.outputs.push_back(
        view_of(self, sizes, strides, self.storage_offset() + i * self.strides()[dim]));
  }
  return e;
}

// broadcast_tensors' samples: lists of shapes (broadcastable, or not), in the sample's dtype.
OpEntry broadcast_tensors_entry() {
  OpEntry e;
  e.name = "broadcast_tensors";
  e.family = "view";
  e.tier = 2;
  e.variants = {{"broadcast_tensors", VariantKind::kFunctional}};
  e.dtypes = kAllDtypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    const std::vector<std::pair<std::vector<Sizes>, std::string>> shape_lists = {
        {{{3, 1}, {2}}, "column and row"},
        {{{2, 3}, {2, 3}}, "same shapes"},
        {{{}, {2, 2}, {1, 2}}, "0-dim and two more"},
        {{{0, 3}, {1, 3}}, "zero-size"},
        {{{4}}, "one tensor"},
        {{}, "no tensors"},
        {{{2}, {3}}, "mismatch"},
        {{{2}, {1, 2}, {3, 3}}, "mismatch with the shape so far"}};
    std::vector<Sample> out;
    for (const auto& [shapes, note] : shape_lists) {
      TensorListArg list;
      for (size_t i = 0; i < shapes.size(); ++i) {
        list.host.push_back(make_tensor(
            src, dtype, shapes[i],
            i == 1 && shapes[i].size() == 2 ? Layout::kTransposed : Layout::kContiguous));
      }
      Sample s;
      s.add("tensors", std::move(list));
      s.note = note;
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const std::vector<Tensor>& tensors = a.host_list("tensors");
    // NumPy's rule, dims aligned at the end, folded left to right (the message's "tensor a" is
    // the shape so far).
    Sizes shape;
    for (size_t k = 0; k < tensors.size(); ++k) {
      const Sizes next = sizes_of(tensors[k]);
      if (k == 0) {
        shape = next;
        continue;
      }
      const size_t ndim = std::max(shape.size(), next.size());
      Sizes merged(ndim);
      for (size_t i = 0; i < ndim; ++i) {
        const int64_t x = i + shape.size() >= ndim ? shape[i + shape.size() - ndim] : 1;
        const int64_t y = i + next.size() >= ndim ? next[i + next.size() - ndim] : 1;
        if (x != y && x != 1 && y != 1) {
          throw RefError{"The size of tensor a (" + std::to_string(x) +
                         ") must match the size of tensor b (" + std::to_string(y) +
                         ") at non-singleton dimension " + std::to_string(i)};
        }
        merged[i] = x == 1 ? y : x;
      }
      shape = merged;
    }
    Expected e;
    for (size_t k = 0; k < tensors.size(); ++k) {
      const Tensor& t = tensors[k];
      // An expanded dim has stride 0; the others keep theirs.
      Sizes strides(shape.size(), 0);
      const size_t lead = shape.size() - static_cast<size_t>(t.dim());
      for (int64_t d = 0; d < t.dim(); ++d) {
        if (t.sizes()[d] == shape[lead + d]) strides[lead + d] = t.strides()[d];
      }
      ExpectedOutput o = view_of(t, shape, strides, t.storage_offset());
      o.aliases = list_element_name("tensors", k);
      e.outputs.push_back(std::move(o));
    }
    return e;
  };
  return e;
}

}  // namespace

void add_list_view_entries(OpDatabase& db) {
  const std::vector<ListCase> split_cases = {
      {"5x4", {{"split_size", integer(2)}}},
      {"5x4", {{"split_size", integer(3)}, {"dim", integer(1)}}},
      {"transposed", {{"split_size", integer(3)}, {"dim", integer(-1)}}},
      {"sliced", {{"split_size", integer(4)}, {"dim", integer(1)}}},
      {"expanded", {{"split_size", integer(2)}}},
      {"offset", {{"split_size", integer(5)}}},
      {"5x4", {{"split_size", integer(10)}}},
      {"zero-size", {{"split_size", integer(0)}}},
      {"zero-size", {{"split_size", integer(2)}}},
      {"5x4", {{"split_size", integer(0)}}},
      {"5x4", {{"split_size", integer(-1)}}},
      {"5x4", {{"split_size", integer(2)}, {"dim", integer(2)}}},
      {"0-dim", {{"split_size", integer(1)}}}};
  db.add(list_view_entry("split.Tensor", split_cases, split_ref));
  // unsafe_split: split's pieces (still over self's storage), with counters of their own.
  db.add(list_view_entry("unsafe_split.Tensor", split_cases, split_ref));

  const auto sizes_cases = [](const std::string& arg) {
    return std::vector<ListCase>{{"5x4", {{arg, ints({1, 4})}}},
                                 {"5x4", {{arg, ints({2, 0, 2})}, {"dim", integer(-1)}}},
                                 {"transposed", {{arg, ints({7})}, {"dim", integer(1)}}},
                                 {"offset", {{arg, ints({10, 7})}}},
                                 {"zero-size", {{arg, ints({0, 0})}}},
                                 {"5x4", {{arg, ints({})}}},
                                 {"5x4", {{arg, ints({1, 1})}}},
                                 {"5x4", {{arg, ints({4, -2, 3})}}},
                                 {"0-dim", {{arg, ints({1})}}}};
  };
  db.add(list_view_entry("split.sizes", sizes_cases("split_size"),
                         [](const Tensor& self, const RefArgs& a) {
                           return split_with_sizes_ref(self, a, "split_size");
                         }));
  for (const char* name : {"split_with_sizes", "unsafe_split_with_sizes"}) {
    db.add(
        list_view_entry(name, sizes_cases("split_sizes"), [](const Tensor& self, const RefArgs& a) {
          return split_with_sizes_ref(self, a, "split_sizes");
        }));
  }

  db.add(list_view_entry("chunk",
                         {{"5x4", {{"chunks", integer(3)}}},
                          {"5x4", {{"chunks", integer(2)}, {"dim", integer(1)}}},
                          {"5x4", {{"chunks", integer(4)}, {"dim", integer(-1)}}},
                          {"transposed", {{"chunks", integer(3)}, {"dim", integer(1)}}},
                          {"offset", {{"chunks", integer(20)}}},
                          {"zero-size", {{"chunks", integer(3)}}},
                          {"5x4", {{"chunks", integer(0)}}},
                          {"0-dim", {{"chunks", integer(1)}}}},
                         chunk_ref));

  db.add(list_view_entry("tensor_split.sections",
                         {{"5x4", {{"sections", integer(3)}}},
                          {"transposed", {{"sections", integer(4)}, {"dim", integer(1)}}},
                          {"offset", {{"sections", integer(20)}}},
                          {"zero-size", {{"sections", integer(2)}}},
                          {"5x4", {{"sections", integer(0)}}},
                          {"5x4", {{"sections", integer(2)}, {"dim", integer(-3)}}},
                          {"0-dim", {{"sections", integer(2)}}}},
                         [](const Tensor& self, const RefArgs& a) {
                           check_tensor_split_input(self);
                           return sections_ref(self, cut_dim(self, a), a.integer("sections", 0));
                         }));
  db.add(list_view_entry("tensor_split.indices",
                         {{"5x4", {{"indices", ints({1, 3})}}},
                          {"5x4", {{"indices", ints({4, 1, -1, 9})}}},
                          {"transposed", {{"indices", ints({2})}, {"dim", integer(1)}}},
                          {"offset", {{"indices", ints({})}}},
                          {"zero-size", {{"indices", ints({1, 2})}, {"dim", integer(1)}}},
                          {"0-dim", {{"indices", ints({1})}}}},
                         [](const Tensor& self, const RefArgs& a) {
                           check_tensor_split_input(self);
                           return indices_ref(self, cut_dim(self, a), a.ints("indices", {}));
                         }));
  // The sections or indices as an int64 CPU tensor (0-dim: sections), which PyTorch reads on the
  // host: it stays there whatever the device under test.
  OpEntry by_tensor = list_view_entry("tensor_split.tensor_indices_or_sections", {}, nullptr);
  by_tensor.samples = [](ScalarType dtype, uint64_t seed) {
    const std::map<std::string, Tensor> in = list_view_inputs(dtype, seed);
    const auto longs = [](const Sizes& sizes, const std::vector<int64_t>& values) {
      RefTensor r{ScalarType::kInt64, sizes, {}};
      for (int64_t v : values) r.values.push_back(Wide{v, {}});
      return make_contiguous(r);
    };
    const std::vector<std::tuple<std::string, Tensor, int64_t>> cases = {
        {"5x4", longs({2}, {1, 3}), 0},
        {"5x4", longs({}, {3}), 0},
        {"transposed", longs({3}, {6, 2, -2}), 1},
        {"5x4", longs({2, 1}, {1, 2}), 0},
        {"5x4", make_contiguous(RefTensor{ScalarType::kFloat32, {1}, {from_real(1.0)}}), 0},
        {"0-dim", longs({1}, {1}), 0}};
    std::vector<Sample> out;
    for (const auto& [input, indices, dim] : cases) {
      Sample s;
      s.add("self", in.at(input));
      s.add("tensor_indices_or_sections", TensorArg{indices, /*keep_on_host=*/true});
      s.add("dim", integer(dim));
      s.note = input;
      out.push_back(std::move(s));
    }
    return out;
  };
  by_tensor.reference = [](const RefArgs& a) {
    const Tensor& self = a.host("self");
    check_tensor_split_input(self);
    const Tensor& given = a.host("tensor_indices_or_sections");
    if (given.dtype() != ScalarType::kInt64) {
      throw RefError{
          "tensor_split expected tensor_indices_or_sections to have dtype of long, but got " +
          std::string(scalar_type_name(given.dtype()))};
    }
    if (given.dim() > 1) {
      throw RefError{
          "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
          "one-dimensional tensor, but got a tensor with " +
          std::to_string(given.dim()) + " dims"};
    }
    const RefTensor& values = a.tensor("tensor_indices_or_sections");
    std::vector<int64_t> ints;
    for (const Wide& w : values.values) ints.push_back(w.i);
    const int64_t dim = cut_dim(self, a);
    return given.dim() == 0 ? sections_ref(self, dim, ints[0]) : indices_ref(self, dim, ints);
  };
  db.add(std::move(by_tensor));

  db.add(list_view_entry("unbind.int",
                         {{"5x4", {}},
                          {"5x4", {{"dim", integer(1)}}},
                          {"transposed", {{"dim", integer(-1)}}},
                          {"expanded", {{"dim", integer(1)}}},
                          {"offset", {}},
                          {"zero-size", {}},
                          {"zero-size", {{"dim", integer(1)}}},
                          {"5x4", {{"dim", integer(2)}}},
                          {"0-dim", {}}},
                         unbind_ref));

  db.add(broadcast_tensors_entry());
}

}  // namespace bp::conformance
