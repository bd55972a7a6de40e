// View ops: the exact sizes, strides and storage offset PyTorch gives each view, computed from
// the input's geometry, and its values read through them from the input's storage.
#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

#include "conformance/families/memory_rules.h"
#include "conformance/families/pointwise.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/reduce.h"
#include "conformance/ops/database.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/promotion.h"
#include "sdk/core/tensor_impl.h"

namespace bp::conformance {
namespace {

Value ints(std::vector<int64_t> v) { return Value(std::move(v)); }
Value integer(int64_t v) { return Value(v); }

// The inputs every view op is tried on, by name.
std::map<std::string, Tensor> view_inputs(ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  std::map<std::string, Tensor> in;
  in["3d"] = make_tensor(src, dtype, {2, 3, 4}, Layout::kContiguous);
  in["transposed"] = make_tensor(src, dtype, {5, 7}, Layout::kTransposed);
  in["transposed46"] = make_tensor(src, dtype, {4, 6}, Layout::kTransposed);
  in["sliced"] = make_tensor(src, dtype, {4, 9}, Layout::kSliced);
  in["expanded"] = make_tensor(src, dtype, {6, 5}, Layout::kExpanded);
  in["channels-last"] = make_tensor(src, dtype, {2, 3, 4, 5}, Layout::kChannelsLast);
  in["0-dim"] = make_tensor(src, dtype, {}, Layout::kContiguous);
  in["zero-size"] = make_tensor(src, dtype, {0, 3}, Layout::kContiguous);
  in["offset"] = make_tensor(src, dtype, {17}, Layout::kOffset);
  in["column"] = make_tensor(src, dtype, {3, 1}, Layout::kContiguous);
  in["2d"] = make_tensor(src, dtype, {2, 3}, Layout::kContiguous);
  in["square"] = make_tensor(src, dtype, {4, 4}, Layout::kContiguous);
  in["1x3x1"] = make_tensor(src, dtype, {1, 3, 1}, Layout::kContiguous);
  in["pairs"] = make_tensor(src, dtype, {3, 2}, Layout::kContiguous);
  in["pairs-transposed"] = make_tensor(src, dtype, {2, 3, 2}, Layout::kTransposed);
  return in;
}

struct ViewCase {
  std::string input;
  Kwargs args;
};

using ViewRef = std::function<Expected(const Tensor& self, const RefArgs& a)>;

// An entry for the view op `name`, functional or (squeeze_, t_) in-place: an in-place view gives
// self the view's geometry, so the same reference describes both.
OpEntry view_entry(std::string name, std::vector<ViewCase> cases, ViewRef ref,
                   VariantKind kind = VariantKind::kFunctional, int tier = 1) {
  auto shared_cases = std::make_shared<const std::vector<ViewCase>>(std::move(cases));
  OpEntry e;
  e.name = name;
  e.family = "view";
  e.tier = tier;
  e.variants = {{name, kind}};
  e.dtypes = kAllDtypes;
  e.samples = [shared_cases](ScalarType dtype, uint64_t seed) {
    const std::map<std::string, Tensor> in = view_inputs(dtype, seed);
    std::vector<Sample> out;
    for (const ViewCase& c : *shared_cases) {
      Sample s;
      s.add("self", in.at(c.input));
      for (const SampleArg& a : c.args) {
        // A tensor argument names another input (expand_as's other).
        if (const auto* v = std::get_if<Value>(&a.value);
            v != nullptr && v->tag() == Value::Tag::kString && in.count(v->ref<std::string>())) {
          s.add(a.name, in.at(v->ref<std::string>()));
        } else {
          s.args.push_back(a);
        }
      }
      s.note = c.input;
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [ref](const RefArgs& a) { return ref(a.host("self"), a); };
  return e;
}

Expected one(ExpectedOutput o) {
  Expected e;
  e.outputs.push_back(std::move(o));
  return e;
}

// A view, or (reshape, flatten) a row-major copy when no view has the shape.
Expected view_or_copy(const Tensor& self, const Sizes& shape, bool allow_copy) {
  if (std::optional<Sizes> s = view_strides(sizes_of(self), strides_of(self), shape)) {
    return one(view_of(self, shape, *s, self.storage_offset()));
  }
  if (!allow_copy) {
    throw RefError{
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead."};
  }
  RefTensor values = read_tensor(self);
  values.sizes = shape;
  ExpectedOutput o = Expected::output(std::move(values));
  o.strides = contiguous_strides_of(shape);
  return one(std::move(o));
}

int64_t wrap(int64_t dim, int64_t ndim) { return wrap_dim_or_throw(dim, ndim); }

// The storage of `self` read as `dtype` with this geometry (view_as_real, view_as_complex).
Expected reinterpreted(const Tensor& self, ScalarType dtype, const Sizes& sizes,
                       const Sizes& strides, int64_t offset) {
  const Tensor host(IntrusivePtr<TensorImpl>::make(self.storage(), dtype, IntArrayRef(sizes),
                                                   IntArrayRef(strides), offset));
  ExpectedOutput o;
  o.value = read_tensor(host);
  o.strides = strides;
  o.storage_offset = offset;
  o.aliases = "self";
  return one(std::move(o));
}

// view_as_real's geometry: a last dim of the 2 parts, strides and offset in parts.
struct PartsView {
  Sizes sizes, strides;
  int64_t offset;
};
PartsView parts_view(const Tensor& self) {
  PartsView v{sizes_of(self), {}, 2 * self.storage_offset()};
  for (int64_t s : strides_of(self)) v.strides.push_back(2 * s);
  v.sizes.push_back(2);
  v.strides.push_back(1);
  return v;
}

Expected expand(const Tensor& self, const std::vector<int64_t>& target) {
  const Sizes sizes = sizes_of(self), strides = strides_of(self);
  const int64_t ndim = static_cast<int64_t>(target.size()), old = self.dim();
  if (ndim < old) {
    throw RefError{"the number of sizes provided (" + std::to_string(ndim) +
                   ") must be greater or equal to the number of dimensions in the tensor (" +
                   std::to_string(old) + ")"};
  }
  Sizes out_sizes(ndim), out_strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t dim = old - 1 - (ndim - 1 - i);
    int64_t size = dim >= 0 ? sizes[dim] : 1;
    int64_t stride =
        dim >= 0 ? strides[dim] : (i + 1 < ndim ? out_sizes[i + 1] * out_strides[i + 1] : 1);
    int64_t t = target[i];
    if (t == -1) {
      if (dim < 0) {
        throw RefError{
            "The expanded size of the tensor (-1) isn't allowed in a leading, "
            "non-existing dimension " +
            std::to_string(i)};
      }
      t = size;
    }
    if (size != t) {
      if (size != 1) {
        throw RefError{"The expanded size of the tensor (" + std::to_string(t) +
                       ") must match the existing size (" + std::to_string(size) +
                       ") at non-singleton dimension " + std::to_string(i) +
                       ".  Target sizes: " + sizes_string(Sizes(target.begin(), target.end())) +
                       ".  Tensor sizes: " + sizes_string(sizes)};
      }
      size = t;
      stride = 0;
    }
    out_sizes[i] = size;
    out_strides[i] = stride;
  }
  return one(view_of(self, out_sizes, out_strides, self.storage_offset()));
}

Expected slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
               std::optional<int64_t> end, int64_t step) {
  if (self.dim() == 0) throw RefError{"slice() cannot be applied to a 0-dim tensor."};
  dim = wrap(dim, self.dim());
  if (step <= 0) throw RefError{"slice step must be positive"};
  Sizes sizes = sizes_of(self), strides = strides_of(self);
  const int64_t n = sizes[dim];
  int64_t s = start.value_or(0), e = end.value_or(INT64_MAX);
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = s < 0 ? 0 : std::min(s, n);
  e = e < s ? s : std::min(e, n);
  const int64_t offset = self.storage_offset() + s * strides[dim];
  sizes[dim] = (e - s + step - 1) / step;
  strides[dim] *= step;
  return one(view_of(self, sizes, strides, offset));
}

}  // namespace

// A view op and, when `inplace` is not empty, its in-place twin (an entry of its own, since the
// planner checks an in-place-only entry against the reference's new self).
void add_view(OpDatabase& db, const std::string& name, const std::string& inplace,
              std::vector<ViewCase> cases, const ViewRef& ref) {
  if (!inplace.empty()) db.add(view_entry(inplace, cases, ref, VariantKind::kInplace));
  db.add(view_entry(name, std::move(cases), ref));
}

void add_view_entries(OpDatabase& db) {
  db.add(view_entry("view",
                    {{"3d", {{"size", ints({6, 4})}}},
                     {"3d", {{"size", ints({-1})}}},
                     {"3d", {{"size", ints({4, -1, 2})}}},
                     {"3d", {{"size", ints({2, 3, 4, 1})}}},
                     {"3d", {{"size", ints({3, -1, -1})}}},
                     {"3d", {{"size", ints({5, 5})}}},
                     {"transposed", {{"size", ints({35})}}},
                     {"transposed46", {{"size", ints({2, 2, 6})}}},
                     {"sliced", {{"size", ints({2, 2, 9})}}},
                     {"expanded", {{"size", ints({6, 5, 1})}}},
                     {"expanded", {{"size", ints({30})}}},
                     {"channels-last", {{"size", ints({2, 3, 20})}}},
                     {"0-dim", {{"size", ints({1})}}},
                     {"0-dim", {{"size", ints({})}}},
                     {"zero-size", {{"size", ints({3, 0})}}},
                     {"offset", {{"size", ints({1, 17})}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      return view_or_copy(self, infer_size(a.ints("size", {}), self.numel()),
                                          false);
                    }));
  db.add(view_entry("reshape",
                    {{"3d", {{"shape", ints({6, 4})}}},
                     {"3d", {{"shape", ints({-1})}}},
                     {"3d", {{"shape", ints({5, 5})}}},
                     {"transposed", {{"shape", ints({35})}}},
                     {"transposed", {{"shape", ints({7, 5})}}},
                     {"sliced", {{"shape", ints({36})}}},
                     {"expanded", {{"shape", ints({30})}}},
                     {"channels-last", {{"shape", ints({6, 20})}}},
                     {"0-dim", {{"shape", ints({1, 1})}}},
                     {"zero-size", {{"shape", ints({0})}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      return view_or_copy(self, infer_size(a.ints("shape", {}), self.numel()),
                                          true);
                    }));
  add_view(
      db, "as_strided", "as_strided_",
      {{"3d", {{"size", ints({2, 2})}, {"stride", ints({1, 2})}}},
       {"3d", {{"size", ints({3, 3})}, {"stride", ints({3, 1})}, {"storage_offset", integer(1)}}},
       {"3d", {{"size", ints({2, 2, 2, 2})}, {"stride", ints({1, 1, 1, 1})}}},
       {"3d", {{"size", ints({})}, {"stride", ints({})}, {"storage_offset", integer(5)}}},
       {"3d", {{"size", ints({4, 4})}, {"stride", ints({10, 10})}}},
       {"transposed", {{"size", ints({7})}, {"stride", ints({5})}}},
       {"offset", {{"size", ints({4})}, {"stride", ints({2})}}}},
      [](const Tensor& self, const RefArgs& a) {
        const std::vector<int64_t> size = a.ints("size", {}), stride = a.ints("stride", {});
        const int64_t offset = a.optional_integer("storage_offset").value_or(self.storage_offset());
        int64_t last = offset;
        for (size_t d = 0; d < size.size(); ++d) last += (size[d] - 1) * stride[d];
        const int64_t elements = static_cast<int64_t>(self.storage().nbytes() / self.itemsize());
        if (numel_of(Sizes(size.begin(), size.end())) > 0 && last >= elements) {
          throw RefError{"out of bounds for storage of size"};
        }
        return one(view_of(self, Sizes(size.begin(), size.end()),
                           Sizes(stride.begin(), stride.end()), offset));
      });
  db.add(view_entry("permute",
                    {{"3d", {{"dims", ints({2, 0, 1})}}},
                     {"3d", {{"dims", ints({-1, 0, 1})}}},
                     {"3d", {{"dims", ints({0, 1})}}},
                     {"3d", {{"dims", ints({0, 0, 1})}}},
                     {"transposed", {{"dims", ints({1, 0})}}},
                     {"channels-last", {{"dims", ints({0, 2, 3, 1})}}},
                     {"0-dim", {{"dims", ints({})}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      const std::vector<int64_t> dims = a.ints("dims", {});
                      if (static_cast<int64_t>(dims.size()) != self.dim()) {
                        throw RefError{
                            "number of dimensions in the tensor input does not match the length of "
                            "the desired ordering of dimensions"};
                      }
                      Sizes sizes, strides;
                      std::vector<bool> seen(dims.size(), false);
                      for (int64_t d : dims) {
                        const int64_t w = wrap(d, self.dim());
                        if (seen[w]) throw RefError{"permute(): duplicate dims are not allowed."};
                        seen[w] = true;
                        sizes.push_back(self.sizes()[w]);
                        strides.push_back(self.strides()[w]);
                      }
                      return one(view_of(self, sizes, strides, self.storage_offset()));
                    }));
  add_view(db, "transpose.int", "transpose_",
           {{"3d", {{"dim0", integer(0)}, {"dim1", integer(2)}}},
            {"3d", {{"dim0", integer(-1)}, {"dim1", integer(0)}}},
            {"3d", {{"dim0", integer(1)}, {"dim1", integer(1)}}},
            {"3d", {{"dim0", integer(0)}, {"dim1", integer(3)}}},
            {"transposed", {{"dim0", integer(0)}, {"dim1", integer(1)}}},
            {"0-dim", {{"dim0", integer(0)}, {"dim1", integer(-1)}}}},
           [](const Tensor& self, const RefArgs& a) {
             Sizes sizes = sizes_of(self), strides = strides_of(self);
             const int64_t d0 = wrap(a.integer("dim0", 0), self.dim());
             const int64_t d1 = wrap(a.integer("dim1", 0), self.dim());
             if (self.dim() > 0) {
               std::swap(sizes[d0], sizes[d1]);
               std::swap(strides[d0], strides[d1]);
             }
             return one(view_of(self, sizes, strides, self.storage_offset()));
           });
  // t and t_ (PyTorch's check_t names the op called: "t() expects ...", "t_() expects ...").
  const auto t_ref = [](const std::string& op) -> ViewRef {
    return [op](const Tensor& self, const RefArgs&) {
      if (self.dim() > 2) {
        throw RefError{op + " expects a tensor with <= 2 dimensions, but self is " +
                       std::to_string(self.dim()) + "D"};
      }
      Sizes sizes = sizes_of(self), strides = strides_of(self);
      if (self.dim() == 2) {
        std::swap(sizes[0], sizes[1]);
        std::swap(strides[0], strides[1]);
      }
      return one(view_of(self, sizes, strides, self.storage_offset()));
    };
  };
  const std::vector<ViewCase> t_cases = {
      {"0-dim", {}}, {"offset", {}}, {"transposed", {}}, {"3d", {}}};
  db.add(view_entry("t_", t_cases, t_ref("t_()"), VariantKind::kInplace));
  db.add(view_entry("t", t_cases, t_ref("t()")));
  const std::vector<ViewCase> expand_cases = {
      {"column", {{"size", ints({3, 4})}}},  {"column", {{"size", ints({2, 3, 5})}}},
      {"column", {{"size", ints({-1, 4})}}}, {"0-dim", {{"size", ints({2, 3})}}},
      {"offset", {{"size", ints({2, 17})}}}, {"2d", {{"size", ints({2, 4})}}},
      {"2d", {{"size", ints({3})}}},         {"offset", {{"size", ints({-1, 17})}}}};
  const ViewRef expand_ref = [](const Tensor& self, const RefArgs& a) {
    return expand(self, a.ints("size", {}));
  };
  db.add(view_entry("expand", expand_cases, expand_ref));
  // broadcast_to: expand under NumPy's name.
  db.add(view_entry("broadcast_to", expand_cases, expand_ref, VariantKind::kFunctional,
                    /*tier=*/2));
  db.add(view_entry("expand_as",
                    {{"column", {{"other", Value("2d")}}},
                     {"0-dim", {{"other", Value("3d")}}},
                     {"column", {{"other", Value("3d")}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      return expand(self, sizes_of(a.host("other")));
                    }));
  add_view(db, "squeeze", "squeeze_", {{"1x3x1", {}}, {"3d", {}}, {"0-dim", {}}, {"column", {}}},
           [](const Tensor& self, const RefArgs&) {
             Sizes sizes, strides;
             for (int64_t d = 0; d < self.dim(); ++d) {
               if (self.sizes()[d] == 1) continue;
               sizes.push_back(self.sizes()[d]);
               strides.push_back(self.strides()[d]);
             }
             return one(view_of(self, sizes, strides, self.storage_offset()));
           });
  add_view(db, "squeeze.dim", "squeeze_.dim",
           {{"1x3x1", {{"dim", integer(0)}}},
            {"1x3x1", {{"dim", integer(-1)}}},
            {"1x3x1", {{"dim", integer(1)}}},
            {"0-dim", {{"dim", integer(0)}}},
            {"3d", {{"dim", integer(3)}}}},
           [](const Tensor& self, const RefArgs& a) {
             const int64_t dim = wrap(a.integer("dim", 0), self.dim());
             Sizes sizes = sizes_of(self), strides = strides_of(self);
             if (self.dim() > 0 && sizes[dim] == 1) {
               sizes.erase(sizes.begin() + dim);
               strides.erase(strides.begin() + dim);
             }
             return one(view_of(self, sizes, strides, self.storage_offset()));
           });
  add_view(db, "squeeze.dims", "squeeze_.dims",
           {{"1x3x1", {{"dim", ints({0, 2})}}},
            {"1x3x1", {{"dim", ints({-1, 1})}}},
            {"3d", {{"dim", ints({})}}},
            {"0-dim", {{"dim", ints({0})}}},
            {"3d", {{"dim", ints({0, 3})}}}},
           [](const Tensor& self, const RefArgs& a) {
             std::vector<bool> squeezed(static_cast<size_t>(self.dim()), false);
             for (int64_t d : a.ints("dim", {})) {
               const int64_t w = wrap(d, self.dim());
               if (self.dim() > 0) squeezed[w] = self.sizes()[w] == 1;
             }
             Sizes sizes, strides;
             for (int64_t d = 0; d < self.dim(); ++d) {
               if (squeezed[d]) continue;
               sizes.push_back(self.sizes()[d]);
               strides.push_back(self.strides()[d]);
             }
             return one(view_of(self, sizes, strides, self.storage_offset()));
           });
  add_view(db, "unsqueeze", "unsqueeze_",
           {{"3d", {{"dim", integer(0)}}},
            {"3d", {{"dim", integer(3)}}},
            {"3d", {{"dim", integer(-1)}}},
            {"transposed", {{"dim", integer(1)}}},
            {"0-dim", {{"dim", integer(0)}}},
            {"3d", {{"dim", integer(5)}}}},
           [](const Tensor& self, const RefArgs& a) {
             const int64_t dim = wrap(a.integer("dim", 0), self.dim() + 1);
             Sizes sizes = sizes_of(self), strides = strides_of(self);
             const int64_t stride = dim >= self.dim() ? 1 : sizes[dim] * strides[dim];
             sizes.insert(sizes.begin() + dim, 1);
             strides.insert(strides.begin() + dim, stride);
             return one(view_of(self, sizes, strides, self.storage_offset()));
           });
  db.add(view_entry("select.int",
                    {{"3d", {{"dim", integer(1)}, {"index", integer(2)}}},
                     {"3d", {{"dim", integer(-1)}, {"index", integer(-1)}}},
                     {"transposed", {{"dim", integer(0)}, {"index", integer(4)}}},
                     {"2d", {{"dim", integer(1)}, {"index", integer(3)}}},
                     {"0-dim", {{"dim", integer(0)}, {"index", integer(0)}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      if (self.dim() == 0)
                        throw RefError{"select() cannot be applied to a 0-dim tensor."};
                      const int64_t dim = wrap(a.integer("dim", 0), self.dim());
                      int64_t index = a.integer("index", 0);
                      const int64_t n = self.sizes()[dim];
                      if (index < -n || index >= n) {
                        throw RefError{"select(): index " + std::to_string(index) +
                                       " out of range for tensor of size " +
                                       sizes_string(sizes_of(self)) + " at dimension " +
                                       std::to_string(dim)};
                      }
                      if (index < 0) index += n;
                      Sizes sizes = sizes_of(self), strides = strides_of(self);
                      const int64_t offset = self.storage_offset() + index * strides[dim];
                      sizes.erase(sizes.begin() + dim);
                      strides.erase(strides.begin() + dim);
                      return one(view_of(self, sizes, strides, offset));
                    }));
  db.add(
      view_entry("slice.Tensor",
                 {{"3d", {{"dim", integer(2)}, {"start", integer(1)}, {"end", integer(3)}}},
                  {"3d", {{"dim", integer(1)}, {"start", integer(-2)}}},
                  {"offset", {{"start", integer(1)}, {"end", integer(-2)}, {"step", integer(3)}}},
                  {"transposed", {{"dim", integer(1)}, {"step", integer(2)}}},
                  {"3d", {{"dim", integer(2)}, {"start", integer(10)}, {"end", integer(20)}}},
                  {"offset", {{"start", integer(-100)}, {"end", integer(100)}}},
                  {"3d", {{"step", integer(0)}}},
                  {"0-dim", {}}},
                 [](const Tensor& self, const RefArgs& a) {
                   return slice(self, a.integer("dim", 0), a.optional_integer("start"),
                                a.optional_integer("end"), a.integer("step", 1));
                 }));
  db.add(view_entry(
      "narrow",
      {{"3d", {{"dim", integer(2)}, {"start", integer(1)}, {"length", integer(2)}}},
       {"3d", {{"dim", integer(0)}, {"start", integer(-1)}, {"length", integer(1)}}},
       {"transposed", {{"dim", integer(1)}, {"start", integer(3)}, {"length", integer(0)}}},
       {"3d", {{"dim", integer(2)}, {"start", integer(3)}, {"length", integer(2)}}},
       {"3d", {{"dim", integer(2)}, {"start", integer(5)}, {"length", integer(0)}}},
       {"3d", {{"dim", integer(2)}, {"start", integer(0)}, {"length", integer(-1)}}},
       {"0-dim", {{"dim", integer(0)}, {"start", integer(0)}, {"length", integer(1)}}}},
      [](const Tensor& self, const RefArgs& a) {
        if (self.dim() == 0) throw RefError{"narrow() cannot be applied to a 0-dim tensor."};
        const int64_t dim = wrap(a.integer("dim", 0), self.dim());
        int64_t start = a.integer("start", 0);
        const int64_t length = a.integer("length", 0);
        const int64_t n = self.sizes()[dim];
        if (length < 0) throw RefError{"narrow(): length must be non-negative."};
        if (start < -n || start > n) {
          throw RefError{"start out of range (expected to be in range of [" + std::to_string(-n) +
                         ", " + std::to_string(n) + "], but got " + std::to_string(start) + ")"};
        }
        if (start < 0) start += n;
        if (start > n - length) {
          throw RefError{"start (" + std::to_string(start) + ") + length (" +
                         std::to_string(length) + ") exceeds dimension size (" + std::to_string(n) +
                         ")."};
        }
        return slice(self, dim, start, start + length, 1);
      }));
  // movedim: the NumPy formulation (the unmoved dims in order, the moved ones inserted at their
  // destinations in increasing order), independent of the kernel's.
  const auto movedim = [](const Tensor& self, const std::vector<int64_t>& source,
                          const std::vector<int64_t>& destination) {
    if (source.size() != destination.size()) {
      throw RefError{"movedim: Invalid source or destination dims: source (" +
                     int_list_string(source) +
                     " dims) should contain the same number of dims as destination (" +
                     int_list_string(destination) + " dims)"};
    }
    const int64_t ndim = self.dim();
    std::vector<int64_t> src, dst;
    for (int64_t d : source) src.push_back(wrap(d, ndim));
    for (int64_t d : destination) dst.push_back(wrap(d, ndim));
    for (const auto& [dims, given, name] :
         {std::tuple{src, source, "source"}, std::tuple{dst, destination, "destination"}}) {
      if (std::set<int64_t>(dims.begin(), dims.end()).size() != dims.size()) {
        throw RefError{std::string("movedim: repeated dim in `") + name + "` (" +
                       int_list_string(given) + ")"};
      }
    }
    if (ndim == 0) return one(view_of(self, {}, {}, self.storage_offset()));
    std::vector<int64_t> order;
    for (int64_t d = 0; d < ndim; ++d) {
      if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
    }
    std::vector<size_t> by_destination(src.size());
    std::iota(by_destination.begin(), by_destination.end(), 0);
    std::sort(by_destination.begin(), by_destination.end(),
              [&](size_t i, size_t j) { return dst[i] < dst[j]; });
    for (size_t i : by_destination) order.insert(order.begin() + dst[i], src[i]);
    Sizes sizes, strides;
    for (int64_t d : order) {
      sizes.push_back(self.sizes()[d]);
      strides.push_back(self.strides()[d]);
    }
    return one(view_of(self, sizes, strides, self.storage_offset()));
  };
  const std::vector<ViewCase> movedim_lists = {
      {"3d", {{"source", ints({0, 1})}, {"destination", ints({2, 0})}}},
      {"3d", {{"source", ints({-1})}, {"destination", ints({0})}}},
      {"3d", {{"source", ints({})}, {"destination", ints({})}}},
      {"channels-last", {{"source", ints({1})}, {"destination", ints({-1})}}},
      {"transposed", {{"source", ints({0, 1})}, {"destination", ints({1, 0})}}},
      {"0-dim", {{"source", ints({0})}, {"destination", ints({-1})}}},
      {"3d", {{"source", ints({0, 1})}, {"destination", ints({2})}}},
      {"3d", {{"source", ints({0, 0})}, {"destination", ints({1, 2})}}},
      {"3d", {{"source", ints({0, 1})}, {"destination", ints({-1, 2})}}},
      {"3d", {{"source", ints({0, 0})}, {"destination", ints({1, 3})}}}};
  const std::vector<ViewCase> movedim_ints = {
      {"3d", {{"source", integer(0)}, {"destination", integer(2)}}},
      {"3d", {{"source", integer(-1)}, {"destination", integer(1)}}},
      {"transposed", {{"source", integer(1)}, {"destination", integer(0)}}},
      {"0-dim", {{"source", integer(-1)}, {"destination", integer(0)}}},
      {"3d", {{"source", integer(3)}, {"destination", integer(0)}}}};
  for (const char* name : {"movedim", "moveaxis"}) {
    db.add(view_entry(
        std::string(name) + ".intlist", movedim_lists,
        [movedim](const Tensor& self, const RefArgs& a) {
          return movedim(self, a.ints("source", {}), a.ints("destination", {}));
        },
        VariantKind::kFunctional, /*tier=*/2));
    db.add(view_entry(
        std::string(name) + ".int", movedim_ints,
        [movedim](const Tensor& self, const RefArgs& a) {
          return movedim(self, {a.integer("source", 0)}, {a.integer("destination", 0)});
        },
        VariantKind::kFunctional, /*tier=*/2));
  }
  // unflatten: dim split into sizes (one -1 inferred), always a view.
  db.add(view_entry(
      "unflatten.int",
      {{"3d", {{"dim", integer(1)}, {"sizes", ints({3, 1})}}},
       {"3d", {{"dim", integer(-1)}, {"sizes", ints({2, -1})}}},
       {"3d", {{"dim", integer(0)}, {"sizes", ints({1, 2, 1})}}},
       {"transposed", {{"dim", integer(0)}, {"sizes", ints({5, 1})}}},
       {"sliced", {{"dim", integer(1)}, {"sizes", ints({3, -1})}}},
       {"channels-last", {{"dim", integer(1)}, {"sizes", ints({-1, 1})}}},
       {"zero-size", {{"dim", integer(0)}, {"sizes", ints({0, 4})}}},
       {"zero-size", {{"dim", integer(0)}, {"sizes", ints({0, -1})}}},
       {"3d", {{"dim", integer(1)}, {"sizes", ints({})}}},
       {"3d", {{"dim", integer(1)}, {"sizes", ints({2, 2})}}},
       {"3d", {{"dim", integer(1)}, {"sizes", ints({-1, -1})}}},
       {"3d", {{"dim", integer(1)}, {"sizes", ints({-3, -1})}}},
       {"3d", {{"dim", integer(3)}, {"sizes", ints({1})}}},
       {"0-dim", {{"dim", integer(0)}, {"sizes", ints({1})}}}},
      [](const Tensor& self, const RefArgs& a) {
        const int64_t dim = wrap(a.integer("dim", 0), self.dim());
        const std::vector<int64_t> sizes = a.ints("sizes", {});
        if (sizes.empty()) throw RefError{"unflatten: sizes must be non-empty"};
        if (self.dim() == 0) {
          throw RefError{"Dimension specified as 0 but tensor has no dimensions"};
        }
        const int64_t n = self.sizes()[dim];
        // PyTorch rewords the two errors its infer_size throws as std::runtime_error.
        Sizes split;
        try {
          split = infer_size(sizes, n);
        } catch (const RefError& e) {
          if (e.message.find("is invalid for input of size") != std::string::npos) {
            throw RefError{"unflatten: Provided sizes " + int_list_string(sizes) +
                           " don't multiply up to the size of dim " + std::to_string(dim) + " (" +
                           std::to_string(n) + ") in the input tensor"};
          }
          if (e.message == "only one dimension can be inferred") {
            throw RefError{"unflatten got an unexpected error:\n" + e.message};
          }
          throw;
        }
        Sizes shape = sizes_of(self);
        shape.erase(shape.begin() + dim);
        shape.insert(shape.begin() + dim, split.begin(), split.end());
        return view_or_copy(self, shape, false);
      },
      VariantKind::kFunctional, /*tier=*/2));
  db.add(view_entry(
      "unfold",
      {{"3d", {{"dimension", integer(1)}, {"size", integer(2)}, {"step", integer(1)}}},
       {"3d", {{"dimension", integer(-1)}, {"size", integer(2)}, {"step", integer(2)}}},
       {"3d", {{"dimension", integer(2)}, {"size", integer(4)}, {"step", integer(3)}}},
       {"transposed", {{"dimension", integer(0)}, {"size", integer(3)}, {"step", integer(2)}}},
       {"sliced", {{"dimension", integer(1)}, {"size", integer(0)}, {"step", integer(4)}}},
       {"0-dim", {{"dimension", integer(0)}, {"size", integer(1)}, {"step", integer(1)}}},
       {"0-dim", {{"dimension", integer(-1)}, {"size", integer(0)}, {"step", integer(2)}}},
       {"3d", {{"dimension", integer(1)}, {"size", integer(4)}, {"step", integer(1)}}},
       {"3d", {{"dimension", integer(1)}, {"size", integer(-1)}, {"step", integer(1)}}},
       {"3d", {{"dimension", integer(1)}, {"size", integer(2)}, {"step", integer(0)}}},
       {"3d", {{"dimension", integer(3)}, {"size", integer(1)}, {"step", integer(1)}}}},
      [](const Tensor& self, const RefArgs& a) {
        const int64_t ndim = self.dim();
        const int64_t dim = wrap(a.integer("dimension", 0), ndim);
        const int64_t size = a.integer("size", 0), step = a.integer("step", 0);
        const int64_t max_size = ndim == 0 ? 1 : self.sizes()[dim];
        if (size > max_size) {
          throw RefError{"maximum size for tensor at dimension " + std::to_string(dim) + " is " +
                         std::to_string(max_size) + " but size is " + std::to_string(size)};
        }
        if (size < 0) throw RefError{"size is " + std::to_string(size) + " but must be >= 0"};
        if (step <= 0) throw RefError{"step is " + std::to_string(step) + " but must be > 0"};
        Sizes sizes = sizes_of(self), strides = strides_of(self);
        // Window w of the result starts at element w * step of the dim; its elements follow it.
        if (ndim > 0) {
          sizes[dim] = (sizes[dim] - size) / step + 1;
          strides[dim] *= step;
        }
        sizes.push_back(size);
        strides.push_back(ndim == 0 ? 1 : self.strides()[dim]);
        return one(view_of(self, sizes, strides, self.storage_offset()));
      },
      VariantKind::kFunctional, /*tier=*/2));
  const std::vector<ViewCase> complex_inputs = {
      {"3d", {}},    {"transposed", {}}, {"sliced", {}},  {"offset", {}},
      {"0-dim", {}}, {"zero-size", {}},  {"expanded", {}}};
  db.add(view_entry(
      "view_as_real", complex_inputs,
      [](const Tensor& self, const RefArgs&) {
        if (!is_complex(self.dtype())) {
          throw RefError{"view_as_real is only supported for complex tensors"};
        }
        const PartsView v = parts_view(self);
        return reinterpreted(self, to_real_type(self.dtype()), v.sizes, v.strides, v.offset);
      },
      VariantKind::kFunctional, /*tier=*/2));
  db.add(view_entry(
      "view_as_complex",
      {{"pairs", {}}, {"pairs-transposed", {}}, {"3d", {}}, {"0-dim", {}}, {"sliced", {}}},
      [](const Tensor& self, const RefArgs&) {
        const ScalarType dtype = self.dtype();
        if (dtype != ScalarType::kFloat16 && dtype != ScalarType::kFloat32 &&
            dtype != ScalarType::kFloat64) {
          throw RefError{"view_as_complex is only supported for half, float and double tensors"};
        }
        if (self.dim() == 0) throw RefError{"Input tensor must have one or more dimensions"};
        if (self.sizes().back() != 2) {
          throw RefError{"Tensor must have a last dimension of size 2"};
        }
        if (self.strides().back() != 1) {
          throw RefError{"Tensor must have a last dimension with stride 1"};
        }
        Sizes sizes = sizes_of(self), strides = strides_of(self);
        sizes.pop_back();
        strides.pop_back();
        for (int64_t& st : strides) {
          if (st % 2 != 0) {
            throw RefError{"Tensor must have a stride divisible by 2 for all but last dimension"};
          }
          st /= 2;
        }
        if (self.storage_offset() % 2 != 0) {
          throw RefError{"Tensor must have a storage_offset divisible by 2"};
        }
        if (dtype == ScalarType::kFloat16) throw RefError{"complex32 (ComplexHalf)"};
        return reinterpreted(
            self, dtype == ScalarType::kFloat32 ? ScalarType::kComplex64 : ScalarType::kComplex128,
            sizes, strides, self.storage_offset() / 2);
      },
      VariantKind::kFunctional, /*tier=*/2));
  for (const int part : {0, 1}) {
    db.add(view_entry(
        part == 0 ? "real" : "imag", complex_inputs,
        [part](const Tensor& self, const RefArgs&) {
          if (!is_complex(self.dtype())) {
            if (part == 1) {
              throw RefError{"imag is not implemented for tensors with non-complex dtypes."};
            }
            Expected e =
                one(view_of(self, sizes_of(self), strides_of(self), self.storage_offset()));
            e.outputs[0].may_alias = true;  // PyTorch returns self itself
            return e;
          }
          PartsView v = parts_view(self);
          v.sizes.pop_back();
          v.strides.pop_back();
          return reinterpreted(self, to_real_type(self.dtype()), v.sizes, v.strides,
                               v.offset + part);
        },
        VariantKind::kFunctional, /*tier=*/2));
  }
  db.add(view_entry(
      "flatten.using_ints",
      {{"3d", {}},
       {"3d", {{"start_dim", integer(1)}}},
       {"3d", {{"start_dim", integer(0)}, {"end_dim", integer(1)}}},
       {"3d", {{"start_dim", integer(1)}, {"end_dim", integer(1)}}},
       {"transposed", {}},
       {"channels-last", {{"start_dim", integer(2)}}},
       {"0-dim", {}},
       {"3d", {{"start_dim", integer(2)}, {"end_dim", integer(0)}}}},
      [](const Tensor& self, const RefArgs& a) {
        if (self.dim() == 0) return view_or_copy(self, {1}, true);
        const int64_t start = wrap(a.integer("start_dim", 0), self.dim());
        const int64_t end = wrap(a.integer("end_dim", -1), self.dim());
        if (start > end) {
          throw RefError{"flatten() has invalid args: start_dim cannot come after end_dim"};
        }
        if (start == end) {
          Expected e = one(view_of(self, sizes_of(self), strides_of(self), self.storage_offset()));
          e.outputs[0].may_alias = true;  // PyTorch returns self itself
          return e;
        }
        Sizes shape;
        int64_t merged = 1;
        for (int64_t d = 0; d < self.dim(); ++d) {
          if (d < start || d > end) {
            shape.push_back(self.sizes()[d]);
          } else {
            merged *= self.sizes()[d];
            if (d == end) shape.push_back(merged);
          }
        }
        return view_or_copy(self, shape, true);
      }));
  db.add(view_entry("diagonal",
                    {{"square", {}},
                     {"square", {{"offset", integer(1)}}},
                     {"square", {{"offset", integer(-2)}}},
                     {"3d", {{"dim1", integer(2)}, {"dim2", integer(0)}}},
                     {"transposed", {{"offset", integer(9)}}},
                     {"3d", {{"dim1", integer(1)}, {"dim2", integer(-2)}}}},
                    [](const Tensor& self, const RefArgs& a) {
                      const int64_t offset = a.integer("offset", 0);
                      const int64_t d1 = wrap(a.integer("dim1", 0), self.dim());
                      const int64_t d2 = wrap(a.integer("dim2", 1), self.dim());
                      if (d1 == d2) {
                        throw RefError{"diagonal dimensions cannot be identical " +
                                       std::to_string(a.integer("dim1", 0)) + ", " +
                                       std::to_string(a.integer("dim2", 1))};
                      }
                      const int64_t n1 = self.sizes()[d1], n2 = self.sizes()[d2];
                      const int64_t size = offset >= 0
                                               ? std::max<int64_t>(std::min(n1, n2 - offset), 0)
                                               : std::max<int64_t>(std::min(n1 + offset, n2), 0);
                      int64_t storage_offset = self.storage_offset();
                      if (size > 0) {
                        storage_offset += offset >= 0 ? offset * self.strides()[d2]
                                                      : -offset * self.strides()[d1];
                      }
                      Sizes sizes, strides;
                      for (int64_t d = 0; d < self.dim(); ++d) {
                        if (d == d1 || d == d2) continue;
                        sizes.push_back(self.sizes()[d]);
                        strides.push_back(self.strides()[d]);
                      }
                      sizes.push_back(size);
                      strides.push_back(self.strides()[d1] + self.strides()[d2]);
                      return one(view_of(self, sizes, strides, storage_offset));
                    }));
  db.add(view_entry("alias", {{"3d", {}}, {"transposed", {}}, {"0-dim", {}}, {"expanded", {}}},
                    [](const Tensor& self, const RefArgs&) {
                      return one(
                          view_of(self, sizes_of(self), strides_of(self), self.storage_offset()));
                    }));
}

}  // namespace bp::conformance
