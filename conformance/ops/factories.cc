// Factories and fills: new tensors of a size, dtype and device (their layout and values), the
// *_like factories (which keep the input's layout), fill_ and zero_.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <tuple>

#include "conformance/families/memory_rules.h"
#include "conformance/families/pointwise.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

Value list(Sizes s) { return Value(std::vector<int64_t>(s.begin(), s.end())); }

const std::vector<Sizes> kSizes = {{}, {0}, {7}, {3, 4}, {2, 3, 4, 5}, {2, 0, 3}};

void check_sizes(const Sizes& size) {
  for (int64_t s : size) {
    if (s < 0) {
      throw RefError{"Trying to create tensor with negative dimension " + std::to_string(s) + ": " +
                     sizes_string(size)};
    }
  }
}

// The dtype a fill value gives when no dtype= is passed (PyTorch's full()).
ScalarType fill_dtype(const ScalarArg& fill) {
  switch (fill.type) {
    case ScalarType::kBool:
      return ScalarType::kBool;
    case ScalarType::kInt64:
      return ScalarType::kInt64;
    case ScalarType::kFloat64:
      return ScalarType::kFloat32;
    default:
      return ScalarType::kComplex64;
  }
}

std::vector<Scalar> fills_for(ScalarType dtype) {
  std::vector<Scalar> fills = {Scalar(int64_t{3}), Scalar(-2.5), Scalar(true)};
  if (is_complex(dtype)) fills.push_back(Scalar(complex<double>(1, -2)));
  return fills;
}

// A factory of a size: zeros, ones, full, empty.
struct SizeFactory {
  std::string name, out;
  bool nondeterministic = false;
  std::optional<int64_t> value;  // the value of every element (zeros, ones)
  bool fill = false;             // full: a fill_value argument
  bool strided = false;          // empty_strided: a stride argument
  bool memory_format = false;    // empty: a memory_format argument
};

std::vector<Sample> size_factory_samples(const SizeFactory& f, ScalarType dtype) {
  std::vector<Sample> out;
  auto base = [&](const Sizes& size) {
    Sample s;
    s.add("size", list(size));
    if (f.strided) s.add("stride", list(contiguous_strides_of(size)));
    s.add("dtype", Value(dtype));
    s.add("device", DeviceUnderTest{});
    return s;
  };
  for (const Sizes& size : kSizes) {
    if (!f.fill) {
      out.push_back(base(size));
      continue;
    }
    for (const Scalar& fill : fills_for(dtype)) {
      Sample s = base(size);
      s.add("fill_value", Value(fill));
      out.push_back(std::move(s));
    }
  }
  if (f.memory_format) {
    Sample s = base({2, 3, 4, 5});
    s.add("memory_format", Value(MemoryFormat::kChannelsLast));
    s.note = "channels-last";
    out.push_back(std::move(s));
  }
  if (f.strided) {
    for (const auto& [size, stride] : std::vector<std::pair<Sizes, Sizes>>{
             {{2, 3}, {1, 2}}, {{4}, {3}}, {{2, 2}, {0, 1}}, {{3, 0}, {1, 1}}}) {
      Sample s = base(size);
      s.set("stride", list(stride));
      s.note = "strided";
      out.push_back(std::move(s));
    }
  }
  Sample negative = base({-1, 2});
  if (f.strided) negative.set("stride", list({2, 1}));
  if (f.fill) negative.add("fill_value", Value(Scalar(int64_t{1})));
  negative.note = "error: a negative size";
  out.push_back(std::move(negative));
  if (dtype == ScalarType::kFloat32) {
    // No dtype=: the default dtype (full: the fill value's).
    for (const Scalar& fill : {Scalar(int64_t{3}), Scalar(2.5)}) {
      Sample s = base({3});
      s.args.erase(s.args.begin() + (f.strided ? 2 : 1));
      if (f.fill) s.add("fill_value", Value(fill));
      s.note = "default dtype";
      out.push_back(std::move(s));
      if (!f.fill) break;
    }
  }
  return out;
}

Expected size_factory_reference(const SizeFactory& f, const RefArgs& a) {
  const Sizes size = a.ints("size", {});
  check_sizes(size);
  std::optional<ScalarArg> fill = a.optional_scalar("fill_value");
  const ScalarType dtype =
      a.dtype("dtype").value_or(fill ? fill_dtype(*fill) : ScalarType::kFloat32);
  Wide value;
  if (f.value) {
    value = cast(from_int(Int(*f.value)), ScalarType::kInt64, dtype);
  } else if (fill) {
    check_fits(*fill, dtype);
    value = cast(fill->value, fill->type, dtype);
  }
  ExpectedOutput o = Expected::output(filled(dtype, size, value));
  o.values_unspecified = f.nondeterministic;
  o.strides = f.strided
                  ? a.ints("stride", {})
                  : format_strides(
                        size, a.memory_format("memory_format").value_or(MemoryFormat::kContiguous));
  Expected e;
  e.outputs.push_back(std::move(o));
  return e;
}

OpEntry size_factory(SizeFactory f) {
  auto shared = std::make_shared<const SizeFactory>(std::move(f));
  OpEntry e;
  e.name = shared->name;
  e.family = "factory";
  e.variants = variants(shared->name, "", shared->out);
  e.dtypes = kAllDtypes;
  e.nondeterministic = shared->nondeterministic;
  e.out_dtype = OutDtypeRule::kFromOut;
  e.samples = [shared](ScalarType dtype, uint64_t) { return size_factory_samples(*shared, dtype); };
  e.reference = [shared](const RefArgs& a) { return size_factory_reference(*shared, a); };
  return e;
}

// arange(start, end, step): PyTorch's size and values, computed in double.
Expected arange_reference(const RefArgs& a) {
  const ScalarArg start = a.scalar("start", ScalarArg::integer(0));
  const ScalarArg end = a.scalar("end", ScalarArg::integer(0));
  const ScalarArg step = a.scalar("step", ScalarArg::integer(1));
  const bool any_float = start.type == ScalarType::kFloat64 || end.type == ScalarType::kFloat64 ||
                         step.type == ScalarType::kFloat64;
  const ScalarType dtype =
      a.dtype("dtype").value_or(any_float ? ScalarType::kFloat32 : ScalarType::kInt64);
  const double s = start.as_real(), e = end.as_real(), d = step.as_real();
  if (d == 0) throw RefError{"step must be nonzero"};
  if (!((d > 0 && e >= s) || (d < 0 && e <= s))) {
    throw RefError{"upper bound and lower bound inconsistent with step sign"};
  }
  const int64_t n = static_cast<int64_t>(std::ceil((e - s) / d));
  RefTensor r{dtype, {n}, {}};
  for (int64_t i = 0; i < n; ++i) {
    r.values.push_back(
        cast(from_real(s + d * static_cast<double>(i)), ScalarType::kFloat64, dtype));
  }
  return Expected::of(std::move(r));
}

// arange(end) takes each range's start as its end (10, -3, 5, 1...: a negative end raises);
// arange(start, end, step) the ranges.
std::vector<Sample> arange_samples(ScalarType dtype, bool end_only) {
  using Range = std::array<Scalar, 3>;
  std::vector<Range> ranges = {{Scalar(int64_t{0}), Scalar(int64_t{10}), Scalar(int64_t{1})},
                               {Scalar(int64_t{-3}), Scalar(int64_t{8}), Scalar(int64_t{2})},
                               {Scalar(int64_t{10}), Scalar(int64_t{0}), Scalar(int64_t{-3})},
                               {Scalar(int64_t{5}), Scalar(int64_t{5}), Scalar(int64_t{1})},
                               {Scalar(int64_t{0}), Scalar(int64_t{70}), Scalar(int64_t{1})},
                               {Scalar(int64_t{1}), Scalar(int64_t{5}), Scalar(int64_t{0})},
                               {Scalar(int64_t{0}), Scalar(int64_t{5}), Scalar(int64_t{-1})}};
  if (is_floating_point(dtype)) {
    ranges.push_back({Scalar(0.0), Scalar(1.0), Scalar(0.125)});
    ranges.push_back({Scalar(-2.5), Scalar(2.5), Scalar(0.5)});
    ranges.push_back({Scalar(3.0), Scalar(-1.0), Scalar(-0.75)});
  }
  std::vector<Sample> out;
  for (const Range& r : ranges) {
    Sample s;
    if (end_only) {
      // arange(end): the range's length as its end (start 0, step 1).
      s.add("end", Value(r[0]));
    } else {
      s.add("start", Value(r[0])).add("end", Value(r[1])).add("step", Value(r[2]));
    }
    s.add("dtype", Value(dtype)).add("device", DeviceUnderTest{});
    out.push_back(std::move(s));
  }
  if (dtype == ScalarType::kFloat32) {
    for (const Scalar& end : {Scalar(int64_t{4}), Scalar(4.5)}) {
      Sample s;
      if (!end_only) s.add("start", Value(Scalar(int64_t{0})));
      s.add("end", Value(end));
      s.add("device", DeviceUnderTest{});
      s.note = "default dtype";
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry arange_entry(const std::string& name, const std::string& out, bool end_only) {
  OpEntry e;
  e.name = name;
  e.family = "factory";
  e.variants = variants(name, "", out);
  e.dtypes = kAllTypes;
  e.out_dtype = OutDtypeRule::kFromOut;
  e.samples = [end_only](ScalarType dtype, uint64_t) { return arange_samples(dtype, end_only); };
  e.reference = arange_reference;
  return e;
}

// *_like factories: the input's sizes, dtype (or dtype=) and layout (or memory_format=).
struct LikeFactory {
  std::string name;
  std::optional<int64_t> value;  // nullopt: empty_like, or a fill_value argument
  bool fill = false;
};

std::vector<Sample> like_samples(const LikeFactory& f, ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  std::vector<Sample> out;
  auto add = [&](const Sizes& sizes, Layout layout, Kwargs kwargs, std::string note) {
    Sample s;
    s.add("self", make_tensor(src, dtype, sizes, layout));
    if (f.fill) s.add("fill_value", Value(Scalar(int64_t{3})));
    for (SampleArg& kw : kwargs) s.args.push_back(std::move(kw));
    s.note = std::move(note);
    out.push_back(std::move(s));
  };
  for (const Layout layout : {Layout::kContiguous, Layout::kTransposed, Layout::kSliced,
                              Layout::kExpanded, Layout::kOffset}) {
    add({5, 7}, layout, {}, std::string(layout_name(layout)));
  }
  add({2, 3, 4, 5}, Layout::kChannelsLast, {}, "channels-last");
  add({}, Layout::kContiguous, {}, "0-dim");
  add({0, 3}, Layout::kContiguous, {}, "zero-size");
  add({2, 3, 4, 5}, Layout::kContiguous, {{"memory_format", Value(MemoryFormat::kChannelsLast)}},
      "memory_format=channels_last");
  add({5, 7}, Layout::kTransposed, {{"memory_format", Value(MemoryFormat::kContiguous)}},
      "memory_format=contiguous_format");
  const ScalarType other =
      dtype == ScalarType::kFloat64 ? ScalarType::kInt64 : ScalarType::kFloat64;
  add({5, 7}, Layout::kTransposed, {{"dtype", Value(other)}}, "dtype=");
  if (f.fill) {
    for (const Scalar& fill : fills_for(dtype)) {
      Sample s = out[0];
      s.set("fill_value", Value(fill));
      s.note = "fill value";
      out.push_back(std::move(s));
    }
  }
  return out;
}

Expected like_reference(const LikeFactory& f, const RefArgs& a) {
  const Tensor& self = a.host("self");
  const ScalarType dtype = a.dtype("dtype").value_or(self.dtype());
  Wide value;
  if (f.value) value = cast(from_int(Int(*f.value)), ScalarType::kInt64, dtype);
  if (f.fill) {
    const ScalarArg fill = a.scalar("fill_value", ScalarArg::integer(0));
    check_fits(fill, dtype);
    value = cast(fill.value, fill.type, dtype);
  }
  ExpectedOutput o = Expected::output(filled(dtype, sizes_of(self), value));
  o.values_unspecified = !f.value && !f.fill;
  o.strides = preserved_strides(self, a.memory_format("memory_format"));
  Expected e;
  e.outputs.push_back(std::move(o));
  return e;
}

OpEntry like_factory(LikeFactory f) {
  auto shared = std::make_shared<const LikeFactory>(std::move(f));
  OpEntry e;
  e.name = shared->name;
  e.family = "factory";
  e.variants = variants(shared->name, "", "");
  e.dtypes = kAllDtypes;
  e.nondeterministic = !shared->value && !shared->fill;
  e.samples = [shared](ScalarType dtype, uint64_t seed) {
    return like_samples(*shared, dtype, seed);
  };
  e.reference = [shared](const RefArgs& a) { return like_reference(*shared, a); };
  return e;
}

// fill_ and zero_: every element of self becomes the value (a value that does not fit self's
// dtype is an error). Self's elements may overlap: filling is idempotent, PyTorch allows it.
Expected fill_reference(const RefArgs& a, const ScalarArg& value) {
  const Tensor& self = a.host("self");
  check_fits(value, self.dtype());
  return Expected::of(
      filled(self.dtype(), sizes_of(self), cast(value.value, value.type, self.dtype())));
}

// Targets of fills: every layout, and an expanded one (an error).
std::vector<Tensor> fill_targets(ScalarType dtype, ValueSource& src) {
  std::vector<Tensor> out;
  for (const auto& [sizes, layout] :
       std::vector<std::pair<Sizes, Layout>>{{{7}, Layout::kContiguous},
                                             {{5, 7}, Layout::kTransposed},
                                             {{4, 9}, Layout::kSliced},
                                             {{2, 3, 4, 5}, Layout::kChannelsLast},
                                             {{}, Layout::kContiguous},
                                             {{0}, Layout::kContiguous},
                                             {{17}, Layout::kOffset},
                                             {{6, 5}, Layout::kExpanded},
                                             {{257, 129}, Layout::kContiguous}}) {
    out.push_back(make_tensor(src, dtype, sizes, layout));
  }
  return out;
}

OpEntry fill_scalar_entry() {
  OpEntry e;
  e.name = "fill_.Scalar";
  e.family = "factory";
  e.variants = {{"fill_.Scalar", VariantKind::kInplace}};
  e.dtypes = kAllDtypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    const std::vector<Tensor> targets = fill_targets(dtype, src);
    for (const Scalar& value : fills_for(dtype)) {
      for (const Tensor& t : targets) {
        Sample s;
        s.add("self", t).add("value", Value(value));
        out.push_back(std::move(s));
      }
    }
    for (const Scalar& big : {Scalar(int64_t{300}), Scalar(1e300), Scalar(complex<double>(0, 1))}) {
      Sample s;
      s.add("self", targets[0]).add("value", Value(big));
      s.note = "a value that may not fit";
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [](const RefArgs& a) {
    return fill_reference(a, a.scalar("value", ScalarArg::integer(0)));
  };
  return e;
}

OpEntry fill_tensor_entry() {
  OpEntry e;
  e.name = "fill_.Tensor";
  e.family = "factory";
  e.variants = {{"fill_.Tensor", VariantKind::kInplace}};
  e.dtypes = kAllDtypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    const std::vector<Tensor> targets = fill_targets(dtype, src);
    for (ScalarType vt : {dtype, ScalarType::kFloat64, ScalarType::kInt64, ScalarType::kBool}) {
      const Tensor value = make_tensor(src, vt, {}, Layout::kContiguous,
                                       Domain{.int_low = 0, .int_high = 100, .specials = false});
      for (const Tensor& t : targets) {
        Sample s;
        s.add("self", t).add("value", value);
        out.push_back(std::move(s));
      }
    }
    Sample bad;
    bad.add("self", targets[0]).add("value", make_tensor(src, dtype, {1}, Layout::kContiguous));
    bad.note = "error: a 1-d value";
    out.push_back(std::move(bad));
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const RefTensor& value = a.tensor("value");
    if (value.dim() != 0) {
      throw RefError{"fill_ only supports 0-dimension value tensor but got tensor with " +
                     std::to_string(value.dim()) + " dimensions."};
    }
    // On the value's device PyTorch copies it (copy_ rejects an expanded self, unlike
    // fill_.Scalar); either way the value lands as a Scalar of its kind would.
    const Tensor& self = a.host("self");
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (self.sizes()[d] > 1 && self.strides()[d] == 0) {
        throw RefError{
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the "
            "operation."};
      }
    }
    ScalarArg s{value.values[0], ScalarType::kFloat64};
    if (kind_of(value.dtype) == Kind::kInt) {
      s.type = value.dtype == ScalarType::kBool ? ScalarType::kBool : ScalarType::kInt64;
    } else if (kind_of(value.dtype) == Kind::kComplex) {
      s.type = ScalarType::kComplex128;
    }
    return fill_reference(a, s);
  };
  return e;
}

OpEntry zero_entry() {
  OpEntry e;
  e.name = "zero_";
  e.family = "factory";
  e.variants = {{"zero_", VariantKind::kInplace}};
  e.dtypes = kAllDtypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    for (const Tensor& t : fill_targets(dtype, src)) {
      Sample s;
      s.add("self", t);
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [](const RefArgs& a) { return fill_reference(a, ScalarArg::integer(0)); };
  return e;
}

// linspace and logspace: `steps` values from start to end (exponents of base), start and end
// converted to the dtype first (an overflow is PyTorch's error). Floating and complex values are
// the exact ones, start + (end - start) i / (steps - 1), in double; integral ones are PyTorch's
// two-sided formula in double, truncated (its definition: trunc(end - ...) near the end).
struct RangeFactory {
  std::string name, out;
  bool log = false;
};

Wide range_value(ScalarType dtype, cd start, cd end, int64_t steps, int64_t i, double base,
                 bool log) {
  const Kind kind = kind_of(dtype);
  cd x;
  if (kind == Kind::kInt) {
    const double step = (end.real() - start.real()) / static_cast<double>(steps - 1);
    x = i < steps / 2 ? start.real() + step * static_cast<double>(i)
                      : end.real() - step * static_cast<double>(steps - 1 - i);
  } else {
    x = start + (end - start) * (static_cast<double>(i) / static_cast<double>(steps - 1));
  }
  if (log) x = kind == Kind::kComplex ? std::pow(cd(base, 0), x) : cd(std::pow(base, x.real()), 0);
  if (kind == Kind::kInt) return cast(from_real(std::trunc(x.real())), ScalarType::kFloat64, dtype);
  return cast(from_complex(x), ScalarType::kComplex128, dtype);
}

Expected range_reference(const RangeFactory& f, const RefArgs& a) {
  const int64_t steps = a.integer("steps", 0);
  const ScalarArg start = a.scalar("start", ScalarArg::integer(0));
  const ScalarArg end = a.scalar("end", ScalarArg::integer(0));
  const double base = a.optional_real("base").value_or(10.0);
  const bool complex_bound =
      start.type == ScalarType::kComplex128 || end.type == ScalarType::kComplex128;
  const std::string fn = f.log ? "torch.logspace()" : "torch.linspace()";
  std::optional<ScalarType> given = a.dtype("dtype");
  if (complex_bound && given && !is_complex(*given)) {
    throw RefError{fn +
                   ": inferred dtype c10::complex<float> can't be safely cast to passed dtype"};
  }
  const ScalarType dtype =
      given.value_or(complex_bound ? ScalarType::kComplex64 : ScalarType::kFloat32);
  if (steps < 0) throw RefError{"number of steps must be non-negative"};
  RefTensor r{dtype, {steps}, {}};
  if (steps == 1) {
    // A fill: with start (linspace) or base ** start in double (logspace), checked.
    ScalarArg value = start;
    if (f.log) {
      value =
          kind_of(dtype) == Kind::kComplex
              ? ScalarArg{from_complex(std::pow(base, start.as_complex())), ScalarType::kComplex128}
              : ScalarArg::real(std::pow(base, start.as_real()));
    }
    check_fits(value, dtype);
    r.values.push_back(cast(value.value, value.type, dtype));
  } else if (steps >= 2) {
    const bool supported = dtype != ScalarType::kBool && !(f.log && dtype == ScalarType::kFloat16);
    if (!supported) {
      throw RefError{std::string(f.log ? "\"logspace_cpu\"" : "\"linspace_cpu\"") +
                     " not implemented for"};
    }
    check_fits(start, dtype);
    check_fits(end, dtype);
    const cd s = as_complex(cast(start.value, start.type, dtype), dtype);
    const cd e = as_complex(cast(end.value, end.type, dtype), dtype);
    for (int64_t i = 0; i < steps; ++i) {
      r.values.push_back(range_value(dtype, s, e, steps, i, base, f.log));
    }
  }
  return Expected::of(std::move(r));
}

std::vector<Sample> range_samples(const RangeFactory& f, ScalarType dtype) {
  struct Range {
    Scalar start, end;
    int64_t steps;
  };
  std::vector<Range> ranges = {
      {Scalar(int64_t{0}), Scalar(int64_t{10}), 5}, {Scalar(int64_t{-3}), Scalar(int64_t{3}), 7},
      {Scalar(int64_t{6}), Scalar(int64_t{-2}), 9}, {Scalar(int64_t{2}), Scalar(int64_t{2}), 4},
      {Scalar(int64_t{1}), Scalar(int64_t{5}), 1},  {Scalar(int64_t{1}), Scalar(int64_t{5}), 0},
      {Scalar(int64_t{0}), Scalar(int64_t{1}), -1}, {Scalar(int64_t{0}), Scalar(int64_t{1000}), 3},
      {Scalar(int64_t{0}), Scalar(int64_t{3}), 70}};
  if (!is_integral(dtype, /*include_bool=*/true)) {
    ranges.push_back({Scalar(0.5), Scalar(-1.25), 6});
    ranges.push_back({Scalar(-1.0), Scalar(1.0), 1001});
  }
  if (is_complex(dtype)) {
    ranges.push_back({Scalar(complex<double>(0, 1)), Scalar(complex<double>(2, -1)), 5});
  }
  std::vector<Sample> out;
  for (const Range& r : ranges) {
    // logspace into integers: only powers that fit (beyond, the conversion is implementation-
    // defined), and the too-large bound only where it is an error (int8, uint8); uint8 bounds
    // below 0 wrap to huge exponents.
    if (f.log && is_integral(dtype, /*include_bool=*/false)) {
      const bool narrow = dtype == ScalarType::kInt8 || dtype == ScalarType::kUInt8;
      if (r.end.to<double>() > 100 && !narrow) continue;
      if (dtype == ScalarType::kUInt8 && (r.start.to<double>() < 0 || r.end.to<double>() < 0))
        continue;
    }
    Sample s;
    s.add("start", Value(r.start)).add("end", Value(r.end)).add("steps", Value(r.steps));
    if (f.log) s.add("base", Value(2.0));
    s.add("dtype", Value(dtype)).add("device", DeviceUnderTest{});
    out.push_back(std::move(s));
  }
  if (f.log) {
    Sample s = out[1];
    s.set("base", Value(10.0));
    s.note = "base 10";
    out.push_back(std::move(s));
  }
  if (dtype == ScalarType::kFloat32) {
    for (const Scalar& end : {Scalar(int64_t{4}), Scalar(complex<double>(1, 1))}) {
      Sample s;
      s.add("start", Value(Scalar(int64_t{0})))
          .add("end", Value(end))
          .add("steps", Value(int64_t{5}));
      s.add("device", DeviceUnderTest{});
      s.note = "default dtype";
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry range_factory(RangeFactory f) {
  auto shared = std::make_shared<const RangeFactory>(std::move(f));
  OpEntry e;
  e.name = shared->name;
  e.family = "factory";
  e.tier = 2;
  e.variants = variants(shared->name, "", shared->out);
  e.dtypes = shared->log ? kAllButBool - DtypeSet(ScalarType::kFloat16) : kAllButBool;
  e.out_dtype = OutDtypeRule::kFromOut;
  e.samples = [shared](ScalarType dtype, uint64_t) { return range_samples(*shared, dtype); };
  e.reference = [shared](const RefArgs& a) { return range_reference(*shared, a); };
  return e;
}

// eye(n, m): ones on the main diagonal, zeros elsewhere.
OpEntry eye_entry(const std::string& name, const std::string& out, bool with_m) {
  OpEntry e;
  e.name = name;
  e.family = "factory";
  e.tier = 2;
  e.variants = variants(name, "", out);
  e.dtypes = kAllDtypes - DtypeSet(ScalarType::kBFloat16);
  e.out_dtype = OutDtypeRule::kFromOut;
  e.samples = [with_m](ScalarType dtype, uint64_t) {
    std::vector<Sample> out;
    for (const auto& [n, m] : std::vector<std::pair<int64_t, int64_t>>{
             {3, 3}, {2, 5}, {6, 2}, {0, 3}, {1, 1}, {40, 33}, {-1, 2}, {2, -3}}) {
      if (!with_m && n != m && m != 3) continue;
      Sample s;
      s.add("n", Value(n));
      if (with_m) s.add("m", Value(m));
      s.add("dtype", Value(dtype)).add("device", DeviceUnderTest{});
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [](const RefArgs& a) {
    const int64_t n = a.integer("n", 0), m = a.integer("m", n);
    if (n < 0) throw RefError{"n must be greater or equal to 0, got " + std::to_string(n)};
    if (m < 0) throw RefError{"m must be greater or equal to 0, got " + std::to_string(m)};
    const ScalarType dtype = a.dtype("dtype").value_or(ScalarType::kFloat32);
    RefTensor r = filled(dtype, {n, m}, cast(from_int(Int(0)), ScalarType::kInt64, dtype));
    for (int64_t i = 0; i < std::min(n, m); ++i) {
      r.values[i * m + i] = cast(from_int(Int(1)), ScalarType::kInt64, dtype);
    }
    return Expected::of(std::move(r));
  };
  return e;
}

// tril / triu: self's elements on and below (above) the diagonal-th diagonal of the last two
// dims, zeros elsewhere; every layout, batches, and fewer than 2 dims (an error).
OpEntry triangle_entry(const std::string& name, bool upper) {
  OpEntry e;
  e.name = name;
  e.family = "factory";
  e.tier = 2;
  e.variants = variants(name, name + "_", name + ".out");
  e.dtypes = kAllDtypes;
  e.out_dtype = OutDtypeRule::kExact;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    for (const auto& [sizes, layout, k] :
         std::vector<std::tuple<Sizes, Layout, int64_t>>{{{4, 5}, Layout::kContiguous, 0},
                                                         {{5, 7}, Layout::kTransposed, 1},
                                                         {{4, 9}, Layout::kSliced, -2},
                                                         {{3, 4, 4}, Layout::kContiguous, -1},
                                                         {{2, 3, 4, 5}, Layout::kChannelsLast, 2},
                                                         {{17}, Layout::kOffset, 0},
                                                         {{6, 5}, Layout::kExpanded, 0},
                                                         {{3, 4}, Layout::kContiguous, 100},
                                                         {{3, 4}, Layout::kContiguous, -100},
                                                         {{0, 3}, Layout::kContiguous, 0},
                                                         {{2, 0, 3}, Layout::kContiguous, 1},
                                                         {{65, 130}, Layout::kContiguous, 3},
                                                         {{}, Layout::kContiguous, 0}}) {
      Sample s;
      s.add("self", make_tensor(src, dtype, sizes, layout)).add("diagonal", Value(k));
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [upper](const RefArgs& a) {
    const RefTensor& self = a.tensor("self");
    const int64_t d = self.dim();
    if (d == 0) throw RefError{"Dimension specified as -2 but tensor has no dimensions"};
    if (d < 2) {
      throw RefError{"Dimension out of range (expected to be in range of [-1, 0], but got -2)"};
    }
    const int64_t k = a.integer("diagonal", 0);
    RefTensor r{self.dtype, self.sizes, {}};
    const Wide zero = cast(from_int(Int(0)), ScalarType::kInt64, self.dtype);
    for_each_index(self.sizes, [&](const Index& index) {
      const int64_t offset = index[d - 1] - index[d - 2];
      const bool kept = upper ? offset >= k : offset <= k;
      r.values.push_back(kept ? self.at(index) : zero);
    });
    return Expected::of(std::move(r));
  };
  return e;
}

}  // namespace

void add_factory_entries(OpDatabase& db) {
  db.add(size_factory(
      {.name = "empty.memory_format", .nondeterministic = true, .memory_format = true}));
  {
    // empty.out takes no memory_format (PyTorch: "'memory_format' argument is incompatible
    // with 'out' tensor argument"): the samples of an empty without one, out= only.
    OpEntry e =
        size_factory({.name = "empty.memory_format", .out = "empty.out", .nondeterministic = true});
    e.name = "empty.out";
    e.variants = {{"empty.out", VariantKind::kOut}};
    db.add(std::move(e));
  }
  db.add(size_factory({.name = "empty_strided", .nondeterministic = true, .strided = true}));
  db.add(size_factory({.name = "zeros", .out = "zeros.out", .value = 0}));
  db.add(size_factory({.name = "ones", .out = "ones.out", .value = 1}));
  db.add(size_factory({.name = "full", .out = "full.out", .fill = true}));
  db.add(arange_entry("arange", "arange.out", /*end_only=*/true));
  db.add(arange_entry("arange.start_step", "arange.start_out", /*end_only=*/false));
  db.add(like_factory({.name = "empty_like"}));
  db.add(like_factory({.name = "zeros_like", .value = 0}));
  db.add(like_factory({.name = "ones_like", .value = 1}));
  db.add(like_factory({.name = "full_like", .fill = true}));
  db.add(fill_scalar_entry());
  db.add(fill_tensor_entry());
  db.add(zero_entry());
  db.add(range_factory({.name = "linspace", .out = "linspace.out"}));
  db.add(range_factory({.name = "logspace", .out = "logspace.out", .log = true}));
  db.add(eye_entry("eye", "eye.out", /*with_m=*/false));
  db.add(eye_entry("eye.m", "eye.m_out", /*with_m=*/true));
  db.add(triangle_entry("tril", /*upper=*/false));
  db.add(triangle_entry("triu", /*upper=*/true));
}

}  // namespace bp::conformance
