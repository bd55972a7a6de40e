#include "conformance/families/reduction.h"

#include <memory>

#include "conformance/families/pointwise.h"
#include "conformance/framework/layouts.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

Value list(std::vector<int64_t> dims) { return Value(std::move(dims)); }

// The dims a sample names, as the op's dim argument, for each style.
std::vector<Value> dim_choices(DimArg style, int64_t ndim) {
  switch (style) {
    case DimArg::kOptionalList:
      return ndim >= 2 ? std::vector<Value>{Value(), list({-1}), list({0}), list({0, -1}), list({})}
                       : std::vector<Value>{Value(), list({-1}), list({0})};
    case DimArg::kList:
      return ndim >= 2 ? std::vector<Value>{list({}), list({-1}), list({0}), list({0, -1})}
                       : std::vector<Value>{list({}), list({-1}), list({0})};
    case DimArg::kInt:
      return ndim >= 3
                 ? std::vector<Value>{Value(int64_t{-1}), Value(int64_t{0}), Value(int64_t{1})}
                 : std::vector<Value>{Value(int64_t{-1}), Value(int64_t{0})};
    case DimArg::kOptionalInt:
      return {Value(), Value(int64_t{-1}), Value(int64_t{0})};
    case DimArg::kNone:
      return {Value()};
  }
  return {};
}

std::vector<int64_t> given_dims(DimArg style, const RefArgs& a) {
  switch (style) {
    case DimArg::kOptionalList:
      return a.optional_ints("dim").value_or(std::vector<int64_t>{});
    case DimArg::kList:
      return a.ints("dim", {});
    case DimArg::kInt:
      return {a.integer("dim", 0)};
    case DimArg::kOptionalInt:
      if (auto d = a.optional_integer("dim")) return {*d};
      return {};
    case DimArg::kNone:
      return {};
  }
  return {};
}

std::vector<bool> reduced_of(DimArg style, const RefArgs& a, int64_t ndim) {
  switch (style) {
    case DimArg::kOptionalList:
      return reduced_dims(ndim, a.optional_ints("dim"));
    case DimArg::kList:
      return reduced_dims(ndim, a.ints("dim", {}));
    case DimArg::kInt:
      return reduced_dims(ndim, std::vector<int64_t>{a.integer("dim", 0)}, false);
    case DimArg::kOptionalInt:
      if (auto d = a.optional_integer("dim")) {
        return reduced_dims(ndim, std::vector<int64_t>{*d}, false);
      }
      return reduced_dims(ndim, std::nullopt);
    case DimArg::kNone:
      return reduced_dims(ndim, std::nullopt);
  }
  return {};
}

// PyTorch's zero_numel_check_dims for reductions without an identity.
void check_empty(const ReductionSpec& spec, const RefArgs& a, const RefTensor& self) {
  if (spec.empty_check.empty() || self.numel() != 0) return;
  const std::vector<int64_t> dims = given_dims(spec.dim, a);
  if (dims.empty()) {
    throw RefError{spec.empty_check +
                   ": Expected reduction dim to be specified for input.numel() == 0."};
  }
  const bool wrapped = spec.dim == DimArg::kInt || spec.dim == DimArg::kOptionalInt;
  for (int64_t d : dims) {
    const int64_t w = wrap_dim_or_throw(d, self.dim());
    if (self.sizes[static_cast<size_t>(w)] == 0) {
      throw RefError{spec.empty_check + ": Expected reduction dim " +
                     std::to_string(wrapped ? w : d) + " to have non-zero size."};
    }
  }
}

Expected checked_reference(const ReductionSpec& spec, const RefArgs& a) {
  const RefTensor self = spec.input ? spec.input(a) : a.tensor("self");
  const std::vector<bool> reduced = reduced_of(spec.dim, a, self.dim());
  const bool keepdim = a.boolean("keepdim", false);
  if (spec.check) spec.check(a, reduced);
  check_empty(spec, a, self);
  const std::vector<ScalarType> results = spec.result_dtypes(a, self.dtype);
  const ScalarType reduce_in = spec.reduce_in_input ? self.dtype : results[0];
  const ReductionContext ctx{a, reduce_in, results[0]};
  std::vector<RefTensor> outs =
      reduce(cast(self, reduce_in), reduced, keepdim, results,
             [&](const std::vector<Wide>& xs) { return spec.reduce(xs, ctx); });
  Expected e;
  for (RefTensor& o : outs) e.outputs.push_back(Expected::output(std::move(o)));
  return e;
}

Expected reference(const ReductionSpec& spec, const RefArgs& a) {
  try {
    return checked_reference(spec, a);
  } catch (RefError& e) {
    // The out= variant of an error case gets an out of the result's dtype: PyTorch checks the
    // out's dtype (all's bool, logsumexp's floating point) before the arguments.
    if (!e.result_dtype) {
      try {
        e.result_dtype = spec.result_dtypes(a, a.tensor("self").dtype)[0];
      } catch (const RefError&) {
      }
    }
    throw;
  }
}

std::vector<Sample> samples(const ReductionSpec& spec, ScalarType dtype, uint64_t seed) {
  std::vector<Sample> out =
      reduction_samples(dtype, seed, spec.dim, spec.domain, spec.kwargs, spec.keepdim);
  if (spec.large_of_ones) {
    const bool negative = is_signed(dtype);  // not bool or uint8
    for (Sample& s : out) {
      if (s.note.rfind("large", 0) != 0) continue;
      const Tensor& t = std::get<TensorArg>(s.find("self")->value).host;
      const int64_t one = negative ? -1 : 1;
      const Wide fill = kind_of(dtype) == Kind::kInt
                            ? from_int(Int(one))
                            : from_complex(cd(static_cast<double>(one), 0));
      const Sizes sizes(t.sizes().begin(), t.sizes().end());
      s.set("self", lay_out(filled(dtype, sizes, fill), Layout::kContiguous));
    }
  }
  const size_t base = out.size();
  // Keyword variations on the first two samples with elements and dims.
  std::vector<size_t> targets;
  for (size_t i = 0; i < base && targets.size() < 2; ++i) {
    const Tensor& t = std::get<TensorArg>(out[i].find("self")->value).host;
    if (t.numel() > 1 && t.dim() >= 1) targets.push_back(i);
  }
  for (const Kwargs& kwargs : spec.extra_kwargs) {
    for (size_t i : targets) {
      Sample s = out[i];
      for (const SampleArg& kw : kwargs) s.set(kw.name, kw.value);
      s.note = "keywords";
      out.push_back(std::move(s));
    }
  }
  ValueSource src(seed ^ 0x5851f42d4c957f2dull);
  for (ScalarType t : spec.dtype_kwargs) {
    if (!can_cast(dtype, t)) continue;
    Sample s;
    s.add("self", make_tensor(src, dtype, {3, 4}, Layout::kContiguous, spec.domain));
    if (spec.dim != DimArg::kNone) {
      s.add("dim", spec.dim == DimArg::kInt ? Value(int64_t{1}) : Value(std::vector<int64_t>{1}));
    }
    s.add("dtype", Value(t));
    for (const SampleArg& kw : spec.kwargs) s.args.push_back(kw);
    s.note = "dtype=" + std::string(scalar_type_name(t));
    out.push_back(std::move(s));
  }
  if (spec.extra_samples) {
    for (Sample& s : spec.extra_samples(dtype, src)) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

const std::vector<ShapeAndLayout>& dim_op_shapes() {
  static const auto* kShapes =
      new std::vector<ShapeAndLayout>{{{}, Layout::kContiguous},
                                      {{7}, Layout::kContiguous},
                                      {{3, 4}, Layout::kContiguous},
                                      {{65}, Layout::kContiguous},
                                      {{0}, Layout::kContiguous},
                                      {{3, 4}, Layout::kTransposed},
                                      {{2, 3, 4}, Layout::kContiguous},
                                      {{4, 0}, Layout::kContiguous},
                                      {{2, 3, 4, 5}, Layout::kChannelsLast},
                                      {{4, 9}, Layout::kSliced},
                                      {{6, 5}, Layout::kExpanded},
                                      {{17}, Layout::kOffset}};
  return *kShapes;
}

std::vector<Sample> reduction_samples(ScalarType dtype, uint64_t seed, DimArg dim,
                                      const Domain& domain, const Kwargs& kwargs,
                                      bool takes_keepdim) {
  ValueSource src(seed);
  std::vector<Sample> out;
  auto add = [&](const Tensor& t, const Value& d, bool keepdim, std::string note) {
    Sample s;
    s.add("self", t);
    if (dim != DimArg::kNone) s.add("dim", d);
    if (takes_keepdim && dim != DimArg::kNone) s.add("keepdim", Value(keepdim));
    for (const SampleArg& kw : kwargs) s.args.push_back(kw);
    s.note = std::move(note);
    out.push_back(std::move(s));
  };
  for (const ShapeAndLayout& shape : dim_op_shapes()) {
    const Tensor t = make_tensor(src, dtype, shape.sizes, shape.layout, domain);
    const std::vector<Value> dims = dim_choices(dim, static_cast<int64_t>(shape.sizes.size()));
    for (size_t i = 0; i < dims.size(); ++i) {
      add(t, dims[i], /*keepdim=*/i + 1 == dims.size(), std::string(layout_name(shape.layout)));
    }
  }
  const Tensor large = make_tensor(src, dtype, {257, 129}, Layout::kContiguous, domain);
  if (dim == DimArg::kNone) {
    add(large, Value(), false, "large (parallel)");
    return out;
  }
  add(large, dim == DimArg::kInt || dim == DimArg::kOptionalInt ? Value(int64_t{-1}) : list({-1}),
      false, "large (parallel)");
  add(large, dim == DimArg::kInt || dim == DimArg::kOptionalInt ? Value(int64_t{0}) : list({0}),
      false, "large (parallel), outer dim");
  const Tensor small = make_tensor(src, dtype, {3, 4}, Layout::kContiguous, domain);
  add(small, dim == DimArg::kInt || dim == DimArg::kOptionalInt ? Value(int64_t{2}) : list({2}),
      false, "error: dim out of range");
  if (dim == DimArg::kList || dim == DimArg::kOptionalList) {
    add(small, list({1, -1}), false, "error: a repeated dim");
  }
  return out;
}

OpEntry reduction(ReductionSpec spec) {
  auto shared = std::make_shared<const ReductionSpec>(std::move(spec));
  OpEntry e;
  e.name = shared->name;
  e.family = "reduction";
  e.tier = shared->tier;
  e.variants = variants(shared->name, "", shared->out);
  e.dtypes = shared->dtypes;
  e.out_dtype = shared->out_dtype;
  e.out_dtype_error = shared->out_dtype_error;
  e.samples = [shared](ScalarType dtype, uint64_t seed) { return samples(*shared, dtype, seed); };
  e.reference = [shared](const RefArgs& a) { return reference(*shared, a); };
  return e;
}

}  // namespace bp::conformance
