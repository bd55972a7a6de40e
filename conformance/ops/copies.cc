// Copies: copy_ between any dtypes, layouts and devices, clone / contiguous / _to_copy / to with
// PyTorch's layout rules, and resize_ / resize_as_.
#include <memory>

#include "conformance/families/memory_rules.h"
#include "conformance/families/pointwise.h"
#include "conformance/framework/elementwise.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

const std::vector<std::pair<Sizes, Layout>> kLayouts = {{{7}, Layout::kContiguous},
                                                        {{5, 7}, Layout::kTransposed},
                                                        {{4, 9}, Layout::kSliced},
                                                        {{6, 5}, Layout::kExpanded},
                                                        {{2, 3, 4, 5}, Layout::kChannelsLast},
                                                        {{}, Layout::kContiguous},
                                                        {{0, 3}, Layout::kContiguous},
                                                        {{17}, Layout::kOffset},
                                                        {{257, 129}, Layout::kContiguous}};

Expected one(ExpectedOutput o) {
  Expected e;
  e.outputs.push_back(std::move(o));
  return e;
}

bool overlaps_itself(const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] == 0) return true;
  }
  return false;
}

// Values converted to another dtype stay where conversions are defined: floating values going
// to an integral dtype are drawn within its range, without NaN or infinities.
Domain source_domain(ScalarType src, ScalarType dst) {
  if (!is_integral(dst, /*include_bool=*/false) || is_integral(src, true)) return Domain{};
  const double high = dst == ScalarType::kUInt8 ? 250 : dst == ScalarType::kInt8 ? 120 : 1000;
  return Domain{.low = dst == ScalarType::kUInt8 ? 0 : -high, .high = high, .specials = false};
}

// A copy of `self` with `format`'s layout rules and dtype `dtype`.
ExpectedOutput copy_of(const Tensor& self, ScalarType dtype, std::optional<MemoryFormat> format) {
  ExpectedOutput o = Expected::output(cast(read_tensor(self), dtype));
  o.strides = preserved_strides(self, format);
  return o;
}

std::vector<Sample> copy_samples(ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  std::vector<Sample> out;
  auto add = [&](const Tensor& self, const Tensor& source, std::string note, bool on_host = false) {
    Sample s;
    s.add("self", self);
    s.add("src", TensorArg{source, on_host});
    s.note = std::move(note);
    out.push_back(std::move(s));
  };
  // From every dtype.
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto from = static_cast<ScalarType>(i);
    add(make_tensor(src, dtype, {7}, Layout::kContiguous),
        make_tensor(src, from, {7}, Layout::kContiguous, source_domain(from, dtype)),
        "from " + std::string(scalar_type_name(from)));
  }
  // Every layout on either side.
  for (const auto& [sizes, layout] : kLayouts) {
    add(make_tensor(src, dtype, sizes, Layout::kContiguous), make_tensor(src, dtype, sizes, layout),
        "from " + std::string(layout_name(layout)));
    add(make_tensor(src, dtype, sizes, layout), make_tensor(src, dtype, sizes, Layout::kContiguous),
        "into " + std::string(layout_name(layout)));
  }
  add(make_tensor(src, dtype, {5, 7}, Layout::kTransposed),
      make_tensor(src, ScalarType::kFloat64, {5, 7}, Layout::kSliced,
                  source_domain(ScalarType::kFloat64, dtype)),
      "transposed from sliced float64");
  add(make_tensor(src, dtype, {3, 5}, Layout::kContiguous),
      make_tensor(src, dtype, {5}, Layout::kContiguous), "broadcast");
  add(make_tensor(src, dtype, {3, 5}, Layout::kContiguous),
      make_tensor(src, dtype, {}, Layout::kContiguous), "broadcast a 0-dim tensor");
  add(make_tensor(src, dtype, {5, 7}, Layout::kTransposed),
      make_tensor(src, dtype, {5, 7}, Layout::kContiguous), "from the host", /*on_host=*/true);
  add(make_tensor(src, dtype, {5}, Layout::kContiguous),
      make_tensor(src, dtype, {2, 5}, Layout::kContiguous), "error: a larger source");
  return out;
}

Expected copy_reference(const RefArgs& a) {
  const Tensor& self = a.host("self");
  const RefTensor& src = a.tensor("src");
  const RefTensor target{self.dtype(), sizes_of(self), {}};
  const Sizes shape = broadcast_all({&target, &src});
  if (shape != target.sizes) {
    throw RefError{"output with shape " + sizes_string(target.sizes) +
                   " doesn't match the broadcast shape " + sizes_string(shape)};
  }
  if (overlaps_itself(self)) {
    throw RefError{
        "unsupported operation: more than one element of the written-to tensor refers "
        "to a single memory location"};
  }
  RefTensor r{self.dtype(), target.sizes, {}};
  for_each_index(target.sizes, [&](const Index& i) {
    r.values.push_back(cast(src.at_broadcast(i), src.dtype, self.dtype()));
  });
  return Expected::of(std::move(r));
}

// Inputs of clone / contiguous / _to_copy / to: every layout.
std::vector<Sample> copy_like_samples(ScalarType dtype, uint64_t seed, const Kwargs& base,
                                      const std::vector<Kwargs>& extra) {
  ValueSource src(seed);
  std::vector<Sample> out;
  for (const auto& [sizes, layout] : kLayouts) {
    Sample s;
    s.add("self", make_tensor(src, dtype, sizes, layout));
    for (const SampleArg& kw : base) s.args.push_back(kw);
    s.note = std::string(layout_name(layout));
    out.push_back(std::move(s));
  }
  for (const Kwargs& kwargs : extra) {
    for (size_t i : {size_t{1}, size_t{4}}) {
      Sample s = out[i];
      for (const SampleArg& kw : kwargs) s.set(kw.name, kw.value);
      s.note += ", keywords";
      out.push_back(std::move(s));
    }
  }
  return out;
}

OpEntry entry(std::string name, std::vector<OpVariant> v, SampleFn samples, ReferenceFn ref) {
  OpEntry e;
  e.name = std::move(name);
  e.family = "copy";
  e.variants = std::move(v);
  e.dtypes = kAllDtypes;
  e.samples = std::move(samples);
  e.reference = std::move(ref);
  return e;
}

ScalarType other_dtype(ScalarType t) {
  return t == ScalarType::kFloat64 ? ScalarType::kFloat32 : ScalarType::kFloat64;
}

// to.dtype / to.device: self itself when nothing changes, else _to_copy's result.
Expected to_reference(const RefArgs& a, ScalarType dtype) {
  const Tensor& self = a.host("self");
  const std::optional<MemoryFormat> format = a.memory_format("memory_format");
  const bool copy = a.boolean("copy", false);
  if (dtype == self.dtype() && !copy && (!format || *format == MemoryFormat::kPreserve)) {
    ExpectedOutput o = view_of(self, sizes_of(self), strides_of(self), self.storage_offset());
    o.may_alias = true;
    return one(std::move(o));
  }
  return one(copy_of(self, dtype, format));
}

}  // namespace

void add_copy_entries(OpDatabase& db) {
  db.add(entry("copy_", {{"copy_", VariantKind::kInplace}}, copy_samples, copy_reference));
  db.add(entry(
      "clone", variants("clone", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        return copy_like_samples(dtype, seed, {},
                                 {{{"memory_format", Value(MemoryFormat::kContiguous)}},
                                  {{"memory_format", Value(MemoryFormat::kPreserve)}}});
      },
      [](const RefArgs& a) {
        const Tensor& self = a.host("self");
        return one(copy_of(self, self.dtype(), a.memory_format("memory_format")));
      }));
  db.add(entry(
      "contiguous", variants("contiguous", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        return copy_like_samples(dtype, seed, {},
                                 {{{"memory_format", Value(MemoryFormat::kChannelsLast)}}});
      },
      [](const RefArgs& a) {
        const Tensor& self = a.host("self");
        const MemoryFormat format =
            a.memory_format("memory_format").value_or(MemoryFormat::kContiguous);
        if (format == MemoryFormat::kChannelsLast && self.dim() != 4) {
          throw RefError{"required rank 4 tensor to use channels_last format"};
        }
        if (self.is_contiguous(format)) {
          ExpectedOutput o = view_of(self, sizes_of(self), strides_of(self), self.storage_offset());
          o.may_alias = true;  // contiguous() of a contiguous tensor is the tensor itself
          return one(std::move(o));
        }
        return one(copy_of(self, self.dtype(), format));
      }));
  db.add(entry(
      "_to_copy", variants("_to_copy", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        return copy_like_samples(dtype, seed, {{"device", DeviceUnderTest{}}},
                                 {{{"dtype", Value(other_dtype(dtype))}},
                                  {{"memory_format", Value(MemoryFormat::kContiguous)}}});
      },
      [](const RefArgs& a) {
        const Tensor& self = a.host("self");
        return one(copy_of(self, a.dtype("dtype").value_or(self.dtype()),
                           a.memory_format("memory_format")));
      }));
  db.add(entry(
      "to.dtype", variants("to.dtype", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        return copy_like_samples(
            dtype, seed, {{"dtype", Value(other_dtype(dtype))}},
            {{{"dtype", Value(dtype)}}, {{"dtype", Value(dtype)}, {"copy", Value(true)}}});
      },
      [](const RefArgs& a) {
        return to_reference(a, a.dtype("dtype").value_or(a.host("self").dtype()));
      }));
  // to.other: to `other`'s dtype and device.
  db.add(entry(
      "to.other", variants("to.other", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        ValueSource src(seed + 1);
        std::vector<Sample> out;
        for (ScalarType target : {other_dtype(dtype), dtype}) {
          const Tensor other = make_tensor(src, target, {2}, Layout::kContiguous);
          for (Sample s : copy_like_samples(dtype, seed, {}, {{{"copy", Value(true)}}})) {
            s.set("other", other);
            out.push_back(std::move(s));
          }
        }
        return out;
      },
      [](const RefArgs& a) { return to_reference(a, a.host("other").dtype()); }));
  db.add(entry(
      "to.device", variants("to.device", "", ""),
      [](ScalarType dtype, uint64_t seed) {
        std::vector<Sample> out =
            copy_like_samples(dtype, seed, {{"device", DeviceUnderTest{}}, {"dtype", Value(dtype)}},
                              {{{"dtype", Value(other_dtype(dtype))}}, {{"copy", Value(true)}}});
        Sample from_host = out[1];
        std::get<TensorArg>(from_host.args[0].value).keep_on_host = true;
        from_host.note = "from the host";
        out.push_back(std::move(from_host));
        return out;
      },
      [](const RefArgs& a) {
        Expected e = to_reference(a, a.dtype("dtype").value_or(a.host("self").dtype()));
        if (a.on_host("self")) {
          // From the host to another device it is a copy; on the CPU it may be self itself.
          e.outputs[0].aliases.clear();
          e.outputs[0].storage_offset.reset();
          e.outputs[0].may_alias = true;
        }
        return e;
      }));
  db.add(entry(
      "resize_", {{"resize_", VariantKind::kInplace}},
      [](ScalarType dtype, uint64_t seed) {
        ValueSource src(seed);
        std::vector<Sample> out;
        for (const auto& size : std::vector<std::vector<int64_t>>{
                 {3, 4}, {12}, {2, 2}, {}, {0}, {4, 5}, {2, 3, 4, 5}, {-1, 2}}) {
          Sample s;
          s.add("self", make_tensor(src, dtype, {3, 4}, Layout::kContiguous));
          s.add("size", Value(size));
          out.push_back(std::move(s));
        }
        Sample cl;
        cl.add("self", make_tensor(src, dtype, {2, 3, 4, 5}, Layout::kContiguous));
        cl.add("size", Value(std::vector<int64_t>{2, 3, 2, 5}));
        cl.add("memory_format", Value(MemoryFormat::kChannelsLast));
        cl.note = "channels-last";
        out.push_back(std::move(cl));
        return out;
      },
      [](const RefArgs& a) {
        const std::vector<int64_t> size = a.ints("size", {});
        for (int64_t s : size) {
          if (s < 0) {
            throw RefError{"Trying to create tensor with negative dimension " + std::to_string(s) +
                           ": " + sizes_string(Sizes(size.begin(), size.end()))};
          }
        }
        const Tensor& self = a.host("self");
        const RefTensor old = read_tensor(self);
        const Sizes sizes(size.begin(), size.end());
        RefTensor r{self.dtype(), sizes, {}};
        const int64_t n = numel_of(sizes);
        const auto strides = format_strides(
            sizes, a.memory_format("memory_format").value_or(MemoryFormat::kContiguous));
        // The storage keeps its elements (self is contiguous, so storage order is self's element
        // order) and the result reads them through its new strides; new elements are
        // unspecified, so only shrinking resizes check values.
        for (int64_t i = 0; i < n; ++i) {
          int64_t offset = 0;
          for (int64_t d = static_cast<int64_t>(sizes.size()) - 1, rest = i; d >= 0; --d) {
            offset += (rest % sizes[d]) * strides[d];
            rest /= sizes[d];
          }
          r.values.push_back(offset < old.numel() ? old.values[offset] : Wide{});
        }
        ExpectedOutput o = Expected::output(std::move(r));
        o.values_unspecified = n > old.numel();
        o.strides = strides;
        return one(std::move(o));
      }));
  db.add(entry(
      "resize_as_", {{"resize_as_", VariantKind::kInplace}},
      [](ScalarType dtype, uint64_t seed) {
        ValueSource src(seed);
        std::vector<Sample> out;
        for (const Sizes& size : std::vector<Sizes>{{2, 6}, {5}, {4, 5}, {}}) {
          Sample s;
          s.add("self", make_tensor(src, dtype, {3, 4}, Layout::kContiguous));
          s.add("the_template", make_tensor(src, dtype, size, Layout::kTransposed));
          out.push_back(std::move(s));
        }
        return out;
      },
      [](const RefArgs& a) {
        const Tensor& self = a.host("self");
        const RefTensor old = read_tensor(self);
        const Sizes sizes = sizes_of(a.host("the_template"));
        RefTensor r{self.dtype(), sizes, {}};
        const int64_t n = numel_of(sizes);
        for (int64_t i = 0; i < n; ++i)
          r.values.push_back(i < old.numel() ? old.values[i] : Wide{});
        ExpectedOutput o = Expected::output(std::move(r));
        o.values_unspecified = n > old.numel();
        o.strides = contiguous_strides_of(sizes);
        return one(std::move(o));
      }));
}

}  // namespace bp::conformance
