// result_type: the dtype PyTorch 1.13's TypeProperties.cpp gives, written here from its
// description (three priority classes: tensors with dims, zero-dim tensors, numbers; within a
// class the promotion table; across classes a lower class only lifts the category) rather than
// with sdk/core/result_type.h, which the op runs. Only the two-dtype table (promote_types) is
// shared: it is checked against PyTorch's table in sdk/core/promotion_test.cc.
#include "sdk/core/promotion.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

using MaybeDtype = std::optional<ScalarType>;

// The complex dtype with `t`'s precision (float16 has no complex32 in Backplane: complex64,
// docs/pytorch_parity.md).
ScalarType complex_of(ScalarType t) {
  return t == ScalarType::kFloat64 ? ScalarType::kComplex128 : ScalarType::kComplex64;
}

// PyTorch's combine_categories: a lower class changes the result only by lifting its category.
MaybeDtype combine(MaybeDtype higher, MaybeDtype lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  if (is_complex(*lower)) return is_floating_point(*higher) ? complex_of(*higher) : *lower;
  if (is_floating_point(*higher)) return higher;
  if (*higher == ScalarType::kBool || is_floating_point(*lower)) {
    return promote_types(*higher, *lower);
  }
  return higher;
}

MaybeDtype promote(MaybeDtype a, ScalarType b) { return a ? promote_types(*a, b) : b; }

// The dtype a number takes part with: a float as the default dtype (float32), a complex as the
// default complex dtype (complex64).
ScalarType number_dtype(const Scalar& s) {
  switch (s.type()) {
    case ScalarType::kFloat64:
      return ScalarType::kFloat32;
    case ScalarType::kComplex128:
      return ScalarType::kComplex64;
    default:
      return s.type();
  }
}

Expected result_type_of(const std::vector<Tensor>& tensors, const std::vector<Scalar>& numbers) {
  MaybeDtype dims, zero_dim, wrapped;
  for (const Tensor& t : tensors) {
    MaybeDtype& cls = t.dim() == 0 ? zero_dim : dims;
    cls = promote(cls, t.dtype());
  }
  for (const Scalar& s : numbers) wrapped = promote(wrapped, number_dtype(s));
  return Expected::of_plain(Value(*combine(dims, combine(zero_dim, wrapped))));
}

const std::vector<Scalar>& numbers() {
  static const std::vector<Scalar> kNumbers = {Scalar(true), Scalar(int64_t{3}), Scalar(-2.5),
                                               Scalar(complex<double>(1, 2))};
  return kNumbers;
}

OpEntry result_type_entry(std::string name) {
  OpEntry e;
  e.name = name;
  e.family = "promotion";
  e.tier = 2;
  e.variants = {{name, VariantKind::kFunctional}};
  e.dtypes = kAllDtypes;
  return e;
}

}  // namespace

void add_promotion_entries(OpDatabase& db) {
  // Against every other dtype, with dims and zero-dim: each pair of classes.
  OpEntry tensors = result_type_entry("result_type.Tensor");
  tensors.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    for (const Sizes& self_sizes : {Sizes{3}, Sizes{}}) {
      for (const ScalarTypeInfo& other : kScalarTypeInfos) {
        for (const Sizes& other_sizes : {Sizes{3}, Sizes{}}) {
          Sample s;
          s.add("tensor", make_tensor(src, dtype, self_sizes, Layout::kContiguous));
          s.add("other", make_tensor(src, other.type, other_sizes, Layout::kContiguous));
          out.push_back(std::move(s));
        }
      }
    }
    return out;
  };
  tensors.reference = [](const RefArgs& a) {
    return result_type_of({a.host("tensor"), a.host("other")}, {});
  };
  db.add(std::move(tensors));

  // A tensor (with dims and zero-dim) and each kind of number, in either order.
  for (const bool number_first : {false, true}) {
    const std::string name = number_first ? "result_type.Scalar_Tensor" : "result_type.Scalar";
    const std::string number_arg = number_first ? "scalar" : "other";
    OpEntry e = result_type_entry(name);
    e.samples = [number_arg](ScalarType dtype, uint64_t seed) {
      ValueSource src(seed);
      std::vector<Sample> out;
      for (const Sizes& sizes : {Sizes{3}, Sizes{}}) {
        for (const Scalar& number : numbers()) {
          Sample s;
          s.add("tensor", make_tensor(src, dtype, sizes, Layout::kContiguous));
          s.add(number_arg, Value(number));
          out.push_back(std::move(s));
        }
      }
      return out;
    };
    e.reference = [number_arg](const RefArgs& a) {
      return result_type_of({a.host("tensor")}, {a.given_scalar(number_arg)});
    };
    db.add(std::move(e));
  }

  // Two numbers: the dtypes a number has (bool, int64, float64, complex128), each against all.
  OpEntry two = result_type_entry("result_type.Scalar_Scalar");
  two.dtypes = DtypeSet(ScalarType::kBool) | DtypeSet(ScalarType::kInt64) |
               DtypeSet(ScalarType::kFloat64) | DtypeSet(ScalarType::kComplex128);
  two.samples = [](ScalarType dtype, uint64_t) {
    std::vector<Sample> out;
    for (const Scalar& first : numbers()) {
      if (first.type() != dtype) continue;
      for (const Scalar& second : numbers()) {
        Sample s;
        s.add("scalar1", Value(first));
        s.add("scalar2", Value(second));
        out.push_back(std::move(s));
      }
    }
    return out;
  };
  two.reference = [](const RefArgs& a) {
    return result_type_of({}, {a.given_scalar("scalar1"), a.given_scalar("scalar2")});
  };
  db.add(std::move(two));
}

}  // namespace bp::conformance
