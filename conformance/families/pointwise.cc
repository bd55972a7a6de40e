#include "conformance/families/pointwise.h"

#include <algorithm>
#include <memory>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

ScalarType real_counterpart(ScalarType t) {
  if (t == ScalarType::kComplex64) return ScalarType::kFloat32;
  if (t == ScalarType::kComplex128) return ScalarType::kFloat64;
  return t;
}

Expected reference(const PointwiseSpec& spec, const RefArgs& a) {
  ResultTypeState state;
  std::vector<const RefTensor*> operands;
  std::vector<RefTensor> scalars;
  for (const Operand& op : spec.operands) {
    const RefTensor* t = a.optional_tensor(op.name);
    if (t == nullptr) continue;
    operands.push_back(t);
    if (std::find(spec.not_promoting.begin(), spec.not_promoting.end(), op.name) ==
        spec.not_promoting.end()) {
      update_result_type_state(state, t->dtype, a.operand_kind(op.name));
    }
  }
  for (const std::string& name : spec.scalar_operands) {
    if (std::optional<ScalarArg> s = a.optional_scalar(name)) {
      update_result_type_state(state, s->type, OperandKind::kWrappedScalar);
      scalars.push_back(RefTensor{s->type, {}, {s->value}});
    }
  }
  // PyTorch rejects an operand of a rejected dtype (a complex number given to maximum) before
  // promoting.
  for (const RefTensor* t : operands) {
    if (spec.rejected.has(t->dtype)) throw RefError{spec.rejected_message};
  }
  for (const RefTensor& t : scalars) {
    if (spec.rejected.has(t.dtype)) throw RefError{spec.rejected_message};
  }
  ScalarType common;
  try {
    common = result_type(state);
  } catch (const Error& e) {
    throw RefError{e.message()};  // e.g. "Unknown Complex ScalarType for bfloat16"
  }
  if (spec.rejected.has(common)) throw RefError{spec.rejected_message};
  if (spec.check) spec.check(a, common);
  ScalarType compute = common;
  ScalarType result = common;
  switch (spec.result) {
    case ResultDtype::kCommon:
      break;
    case ResultDtype::kFloat:
      if (is_integral(common, /*include_bool=*/true)) compute = result = ScalarType::kFloat32;
      break;
    case ResultDtype::kBool:
      result = ScalarType::kBool;
      break;
    case ResultDtype::kComplexToReal:
      result = real_counterpart(common);
      break;
    case ResultDtype::kFloatComplexToReal:
      if (is_integral(common, /*include_bool=*/true)) compute = ScalarType::kFloat32;
      result = real_counterpart(compute);
      break;
  }
  if (spec.result_dtype) compute = result = spec.result_dtype(a, common);
  if (spec.scalars_in_math) {
    for (const RefTensor& s : scalars) operands.push_back(&s);
  }
  Sizes shape;
  try {
    shape = broadcast_all(operands);
  } catch (RefError& e) {
    // An op whose out must have exactly its result's dtype, known before broadcasting
    // (float_power), checks it first: its out= case takes an out of that dtype.
    if (spec.result_dtype && spec.out_dtype == OutDtypeRule::kExact) e.result_dtype = result;
    throw;
  }
  try {
    if (spec.check_after_build) spec.check_after_build(a, common);
    return Expected::of(elementwise(operands, compute, result, spec.math, Ctx(a, compute)));
  } catch (RefError& e) {
    // Raised after the output is built: by an argument check that follows it, or by the kernel.
    e.result_sizes = shape;
    e.result_dtype = result;
    throw;
  }
}

std::vector<Sample> samples(const PointwiseSpec& spec, ScalarType dtype, uint64_t seed) {
  std::vector<Sample> out;
  if (!spec.scalars.empty()) {
    out = tensor_scalar_samples(dtype, seed, spec.operands[0], spec.scalar_operands[0],
                                spec.scalars, spec.dtypes, spec.kwargs);
    for (const Kwargs& kwargs : spec.extra_kwargs) {
      for (size_t i = 0; i < 2 && i < out.size(); ++i) {
        Sample s = out[i];
        for (const SampleArg& kw : kwargs) s.set(kw.name, kw.value);
        s.note = "keywords";
        out.push_back(std::move(s));
      }
    }
  } else {
    PointwiseSamples p;
    p.operands = spec.operands;
    p.supported = spec.dtypes;
    p.kwargs = spec.kwargs;
    p.extra_kwargs = spec.extra_kwargs;
    p.numbers = spec.numbers;
    p.promotions = spec.promotions;
    out = pointwise_samples(dtype, seed, p);
  }
  ValueSource src(seed ^ 0x9e3779b97f4a7c15ull);
  // Error inputs of rejected dtypes ride with the first dtype.
  if (!spec.rejected.empty() && dtype == spec.dtypes.list().front()) {
    for (ScalarType t : spec.rejected.list()) {
      Sample s;
      for (const Operand& op : spec.operands) {
        s.add(op.name, make_tensor(src, op.dtype.value_or(t), {7}, Layout::kContiguous));
      }
      for (const SampleArg& kw : spec.kwargs) s.args.push_back(kw);
      if (!spec.scalars.empty()) s.add(spec.scalar_operands[0], Value(spec.scalars[0]));
      s.note = "error: " + std::string(scalar_type_name(t));
      out.push_back(std::move(s));
    }
  }
  if (spec.extra_samples) {
    for (Sample& s : spec.extra_samples(dtype, src)) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::vector<OpVariant> variants(const std::string& functional, const std::string& inplace,
                                const std::string& out) {
  std::vector<OpVariant> v;
  if (!functional.empty()) v.push_back({functional, VariantKind::kFunctional});
  if (!inplace.empty()) v.push_back({inplace, VariantKind::kInplace});
  if (!out.empty()) v.push_back({out, VariantKind::kOut});
  return v;
}

OpEntry pointwise(PointwiseSpec spec) {
  auto shared = std::make_shared<const PointwiseSpec>(std::move(spec));
  OpEntry e;
  e.name = shared->name;
  e.family = shared->operands.size() + shared->scalar_operands.size() >= 3   ? "ternary"
             : shared->operands.size() + shared->scalar_operands.size() == 2 ? "binary"
                                                                             : "unary";
  e.tier = shared->tier;
  e.variants = declared_variants(shared->name, shared->not_in_pytorch);
  e.not_in_pytorch = shared->not_in_pytorch;
  e.dtypes = shared->dtypes;
  e.out_dtype = shared->out_dtype;
  e.out_dtype_error = shared->out_dtype_error;
  e.inplace_dtype_error = shared->inplace_dtype_error;
  e.inplace_rejected = shared->inplace_rejected;
  e.inplace_rejected_message = shared->inplace_rejected_message;
  e.inplace_error_first = shared->inplace_error_first;
  e.inplace_allows_overlap = shared->inplace_allows_overlap;
  e.samples = [shared](ScalarType dtype, uint64_t seed) { return samples(*shared, dtype, seed); };
  e.reference = [shared](const RefArgs& a) { return reference(*shared, a); };
  return e;
}

ElementFn scalar_first(ElementFn fn) {
  return [fn](const std::vector<Wide>& operands, const Ctx& c) {
    return fn({operands.rbegin(), operands.rend()}, c);
  };
}

std::string found_dtype(ScalarType expected, ScalarType given) {
  return "Found dtype " + std::string(scalar_type_name(given)) + " but expected " +
         std::string(scalar_type_name(expected));
}

}  // namespace bp::conformance
