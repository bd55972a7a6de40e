#include "conformance/families/along_dim.h"

#include <memory>

#include "conformance/families/reduction.h"
#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/reduce.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

// The outputs of mapping each line along `dim` of `input` through f: `input`'s sizes; the values
// in input's dtype, the indices (if f gives them) int64.
std::vector<RefTensor> map_lines(const RefTensor& input, int64_t dim, bool indices,
                                 const LineFn& f) {
  std::vector<RefTensor> outs = {input};
  if (indices) outs.push_back(filled(ScalarType::kInt64, input.sizes, from_int(Int(0))));
  if (input.numel() == 0) return outs;
  const Sizes strides = contiguous_strides_of(input.sizes);
  const int64_t n = input.dim() == 0 ? 1 : input.sizes[static_cast<size_t>(dim)];
  const int64_t step = input.dim() == 0 ? 0 : strides[static_cast<size_t>(dim)];
  Sizes outer = input.sizes;
  if (input.dim() > 0) outer[static_cast<size_t>(dim)] = 1;
  for_each_index(outer, [&](const Index& idx) {
    int64_t base = 0;
    for (size_t d = 0; d < idx.size(); ++d) base += idx[d] * strides[d];
    std::vector<Wide> line;
    for (int64_t i = 0; i < n; ++i)
      line.push_back(input.values[static_cast<size_t>(base + i * step)]);
    const std::vector<std::vector<Wide>> results = f(line, input.dtype);
    for (size_t k = 0; k < outs.size(); ++k) {
      for (int64_t i = 0; i < n; ++i) {
        outs[k].values[static_cast<size_t>(base + i * step)] = results[k][static_cast<size_t>(i)];
      }
    }
  });
  outs[0] = cast(outs[0], outs[0].dtype);  // rounds to the dtype
  return outs;
}

Expected reference(const AlongDimSpec& spec, const RefArgs& a) {
  const RefTensor& self = a.tensor("self");
  const int64_t dim = wrap_dim_or_throw(a.integer("dim", 0), self.dim());
  const ScalarType result = spec.result_dtype(a, self.dtype);
  std::vector<RefTensor> outs = map_lines(cast(self, result), dim, spec.indices, spec.line);
  Expected e;
  for (RefTensor& o : outs) e.outputs.push_back(Expected::output(std::move(o)));
  return e;
}

std::vector<Sample> samples(const AlongDimSpec& spec, ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  std::vector<Sample> out;
  auto add = [&](const Tensor& t, int64_t dim, std::string note) {
    Sample s;
    s.add("self", t);
    s.add("dim", Value(dim));
    s.note = std::move(note);
    out.push_back(std::move(s));
  };
  for (const ShapeAndLayout& shape : dim_op_shapes()) {
    const Tensor t = make_tensor(src, dtype, shape.sizes, shape.layout, spec.domain);
    const std::string note(layout_name(shape.layout));
    add(t, -1, note);
    if (shape.sizes.size() >= 2) add(t, 0, note);
    if (shape.sizes.size() >= 3) add(t, 1, note);
  }
  const Tensor large = make_tensor(src, dtype, {257, 129}, Layout::kContiguous, spec.domain);
  add(large, -1, "large (parallel)");
  add(large, 0, "large (parallel), outer dim");
  const Tensor small = make_tensor(src, dtype, {3, 4}, Layout::kContiguous, spec.domain);
  add(small, 2, "error: dim out of range");
  add(small, -3, "error: dim out of range");
  for (ScalarType t : spec.dtype_kwargs) {
    if (t == dtype || !can_cast(dtype, t)) continue;
    Sample s;
    s.add("self", make_tensor(src, dtype, {3, 4}, Layout::kContiguous, spec.domain));
    s.add("dim", Value(int64_t{1}));
    s.add("dtype", Value(t));
    s.note = "dtype=" + std::string(scalar_type_name(t));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

OpEntry along_dim(AlongDimSpec spec) {
  auto shared = std::make_shared<const AlongDimSpec>(std::move(spec));
  OpEntry e;
  e.name = shared->name;
  e.family = shared->family;
  e.tier = shared->tier;
  e.variants = declared_variants(shared->name);
  e.dtypes = shared->dtypes;
  e.out_dtype = shared->out_dtype;
  e.inplace_in_self_dtype = shared->inplace_in_self_dtype;
  // Structured ops that are not TensorIterator ops check an in-place output's dtype exactly.
  e.inplace_dtype_error = [](ScalarType result, ScalarType self) {
    return "Bad in-place call: input tensor dtype " + std::string(scalar_type_name(self)) +
           " and output tensor dtype " + std::string(scalar_type_name(result)) + " should match";
  };
  e.samples = [shared](ScalarType dtype, uint64_t seed) { return samples(*shared, dtype, seed); };
  e.reference = [shared](const RefArgs& a) { return reference(*shared, a); };
  return e;
}

}  // namespace bp::conformance
