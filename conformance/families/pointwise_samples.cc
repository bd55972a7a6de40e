#include "conformance/families/pointwise_samples.h"

#include "conformance/framework/layouts.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

// Whether a tensor of `dtype` and a number of type `number` promote to a dtype in `supported`
// (or fail to promote, as bfloat16 and complex numbers do: then the sample is an error input).
bool promotes_within(ScalarType dtype, ScalarType number, DtypeSet supported) {
  ResultTypeState state;
  update_result_type_state(state, dtype, OperandKind::kTensor);
  update_result_type_state(state, number, OperandKind::kWrappedScalar);
  try {
    return supported.has(result_type(state));
  } catch (const Error&) {
    return true;
  }
}

Wide number_value(const Scalar& s) {
  switch (s.type()) {
    case ScalarType::kBool:
      return from_int(Int(s.to<bool>() ? 1 : 0));
    case ScalarType::kInt64:
      return from_int(Int(s.to<int64_t>()));
    case ScalarType::kFloat64:
      return from_real(s.to<double>());
    default: {
      const complex<double> z = s.to<complex<double>>();
      return from_complex(cd(z.real(), z.imag()));
    }
  }
}

class Builder {
 public:
  Builder(ScalarType dtype, uint64_t seed, const PointwiseSamples& spec)
      : dtype_(dtype), src_(seed), spec_(spec) {}

  // One sample: operand i gets sizes[i] and layouts[i].
  void add(const std::vector<Sizes>& sizes, const std::vector<Layout>& layouts, std::string note,
           const std::vector<std::optional<ScalarType>>& dtypes = {}) {
    Sample s;
    for (size_t i = 0; i < spec_.operands.size(); ++i) {
      const Operand& op = spec_.operands[i];
      const ScalarType t =
          i < dtypes.size() && dtypes[i].has_value() ? *dtypes[i] : op.dtype.value_or(dtype_);
      s.add(op.name, make_tensor(src_, t, sizes[i], layouts[i], op.domain));
    }
    finish(s, std::move(note));
  }

  void same(const Sizes& sizes, Layout layout, std::string note) {
    const size_t n = spec_.operands.size();
    add(std::vector<Sizes>(n, sizes), std::vector<Layout>(n, layout), std::move(note));
  }

  // Operand `first` gets `a`, the others `b` (first != 0: operand 0 gets b too).
  void pair(const Sizes& a, const Sizes& b, std::string note, size_t first = 0) {
    std::vector<Sizes> sizes(spec_.operands.size(), b);
    sizes[first] = a;
    add(sizes, std::vector<Layout>(sizes.size(), Layout::kContiguous), std::move(note));
  }

  void finish(Sample& s, std::string note) {
    for (const SampleArg& kw : spec_.kwargs) s.args.push_back(kw);
    s.note = std::move(note);
    samples.push_back(std::move(s));
  }

  ScalarType dtype() const { return dtype_; }
  ValueSource& src() { return src_; }

  std::vector<Sample> samples;

 private:
  ScalarType dtype_;
  ValueSource src_;
  const PointwiseSamples& spec_;
};

void add_numbers(Builder& b, const PointwiseSamples& spec) {
  const std::vector<Scalar> numbers = {Scalar(int64_t{3}), Scalar(-2.5), Scalar(true),
                                       Scalar(complex<double>(1, -2))};
  for (const Scalar& number : numbers) {
    if (!promotes_within(b.dtype(), number.type(), spec.supported)) continue;
    for (size_t side = 0; side < 2; ++side) {
      const Operand& tensor_op = spec.operands[1 - side];
      Sample s;
      Tensor tensor = make_tensor(b.src(), tensor_op.dtype.value_or(b.dtype()), {7},
                                  Layout::kContiguous, tensor_op.domain);
      Tensor wrapped = wrapped_number(number_value(number), number.type());
      s.add(spec.operands[0].name, side == 0 ? tensor : wrapped);
      s.add(spec.operands[1].name, side == 0 ? wrapped : tensor);
      b.finish(s, side == 0 ? "a number on the right" : "a number on the left");
    }
  }
}

void add_promotions(Builder& b, const PointwiseSamples& spec) {
  for (ScalarType partner : {ScalarType::kBool, ScalarType::kInt32, ScalarType::kInt64,
                             ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kComplex64}) {
    if (partner == b.dtype() || !spec.supported.has(partner) ||
        !spec.supported.has(promote_types(b.dtype(), partner))) {
      continue;
    }
    b.add({{7}, {7}}, {Layout::kContiguous, Layout::kContiguous},
          "promotion with " + std::string(scalar_type_name(partner)), {std::nullopt, partner});
    if (partner == ScalarType::kFloat64 || partner == ScalarType::kInt64) {
      b.add({{7}, {}}, {Layout::kContiguous, Layout::kContiguous},
            "promotion with a zero-dim " + std::string(scalar_type_name(partner)),
            {std::nullopt, partner});
    }
  }
}

}  // namespace

std::vector<Sample> pointwise_samples(ScalarType dtype, uint64_t seed,
                                      const PointwiseSamples& spec) {
  Builder b(dtype, seed, spec);
  const size_t n = spec.operands.size();
  for (const Sizes& sizes : {Sizes{}, Sizes{0}, Sizes{1}, Sizes{7}, Sizes{15}, Sizes{17}, Sizes{33},
                             Sizes{65}, Sizes{3, 5}, Sizes{2, 0, 3}}) {
    b.same(sizes, Layout::kContiguous, sizes.empty() ? "0-dim" : "");
  }
  const size_t kwargs_targets[] = {3, b.samples.size()};  // {7}, then the transposed sample
  b.same({5, 7}, Layout::kTransposed, "transposed");
  b.same({4, 9}, Layout::kSliced, "sliced with a step");
  b.same({6, 5}, Layout::kExpanded, "expanded (stride 0)");
  b.same({2, 3, 4, 5}, Layout::kChannelsLast, "channels-last");
  b.same({17}, Layout::kOffset, "storage offset");
  size_t broadcast_target = b.samples.size();
  if (n >= 2) {
    std::vector<Layout> mixed(n, Layout::kContiguous);
    mixed[0] = Layout::kTransposed;
    b.add(std::vector<Sizes>(n, {5, 7}), mixed, "transposed and contiguous");
    mixed.assign(n, Layout::kExpanded);
    mixed[0] = Layout::kContiguous;
    b.add(std::vector<Sizes>(n, {6, 5}), mixed, "contiguous and expanded");
    mixed.assign(n, Layout::kContiguous);
    mixed[0] = Layout::kChannelsLast;
    b.add(std::vector<Sizes>(n, {2, 3, 4, 5}), mixed, "channels-last and contiguous");
    broadcast_target = b.samples.size();
    b.pair({3, 1}, {1, 4}, "broadcast");
    b.pair({4, 5}, {5}, "broadcast");
    b.pair({}, {7}, "broadcast a 0-dim tensor");
    b.pair({7}, {}, "broadcast a 0-dim tensor");
    b.pair({2, 0, 3}, {3}, "broadcast, zero-size");
    b.pair({5, 1, 3}, {4, 1}, "broadcast both ways");
    b.pair({2}, {3}, "shapes that do not broadcast");
  }
  b.same({257, 129}, Layout::kContiguous, "large (parallel)");
  if (n == 2 && spec.numbers) add_numbers(b, spec);
  if (n == 2 && spec.promotions) add_promotions(b, spec);
  // Keyword variations on a few representative samples.
  std::vector<Sample> extra;
  for (const Kwargs& kwargs : spec.extra_kwargs) {
    for (size_t target : {kwargs_targets[0], kwargs_targets[1], broadcast_target}) {
      if (target >= b.samples.size()) continue;
      Sample s = b.samples[target];
      for (const SampleArg& kw : kwargs) s.set(kw.name, kw.value);
      s.note = "keywords";
      extra.push_back(std::move(s));
    }
  }
  for (Sample& s : extra) b.samples.push_back(std::move(s));
  return std::move(b.samples);
}

std::vector<Sample> tensor_scalar_samples(ScalarType dtype, uint64_t seed, const Operand& tensor,
                                          const std::string& scalar_name,
                                          const std::vector<Scalar>& scalars, DtypeSet supported,
                                          const Kwargs& kwargs) {
  ValueSource src(seed);
  std::vector<Sample> samples;
  struct Shape {
    Sizes sizes;
    Layout layout;
    bool every_scalar;
    const char* note;
  };
  const Shape shapes[] = {{{7}, Layout::kContiguous, true, ""},
                          {{}, Layout::kContiguous, true, "0-dim"},
                          {{5, 7}, Layout::kTransposed, true, "transposed"},
                          {{0}, Layout::kContiguous, false, "zero-size"},
                          {{17}, Layout::kContiguous, false, ""},
                          {{33}, Layout::kOffset, false, "storage offset"},
                          {{4, 9}, Layout::kSliced, false, "sliced with a step"},
                          {{6, 5}, Layout::kExpanded, false, "expanded (stride 0)"},
                          {{2, 3, 4, 5}, Layout::kChannelsLast, false, "channels-last"},
                          {{257, 129}, Layout::kContiguous, false, "large (parallel)"}};
  for (const Shape& shape : shapes) {
    for (const Scalar& scalar : scalars) {
      if (!promotes_within(tensor.dtype.value_or(dtype), scalar.type(), supported)) continue;
      Sample s;
      s.add(tensor.name, make_tensor(src, tensor.dtype.value_or(dtype), shape.sizes, shape.layout,
                                     tensor.domain));
      s.add(scalar_name, Value(scalar));
      for (const SampleArg& kw : kwargs) s.args.push_back(kw);
      s.note = shape.note;
      samples.push_back(std::move(s));
      if (!shape.every_scalar) break;
    }
  }
  return samples;
}

}  // namespace bp::conformance
