// The op database: one OpEntry per op (or per structured group: the functional, in-place and out=
// variants checked together), saying how to make sample inputs, which dtypes PyTorch supports, and
// what the op returns (a naive reference).
//
//   OpEntry e;
//   e.name = "add.Tensor";
//   e.family = "binary";
//   e.variants = {{"add.Tensor", VariantKind::kFunctional}, {"add_.Tensor", VariantKind::kInplace},
//                 {"add.out", VariantKind::kOut}};
//   e.dtypes = kAllDtypes;
//   e.samples = [](ScalarType dtype, uint64_t seed) { return binary_samples(dtype, seed, ...); };
//   e.reference = [](const RefArgs& a) { ... return Expected::of(result); };
//   database.add(std::move(e));
//
// Families (conformance/families/) build entries from a few lines each; conformance/ops/ holds
// the entries. The runner derives every check from an entry: in-place and out= expectations come
// from the functional reference (PyTorch's rules for in-place and out= outputs), so an entry
// with a functional variant writes its reference once.
//
// Thread safety: an OpDatabase is built once, then read-only.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_OP_ENTRY_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_OP_ENTRY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/framework/dtype_set.h"
#include "conformance/framework/expected.h"
#include "conformance/framework/ref_args.h"
#include "conformance/framework/sample.h"

namespace bp::conformance {

enum class VariantKind { kFunctional, kInplace, kOut };
// "functional", "inplace", "out".
std::string_view variant_kind_name(VariantKind kind);

struct OpVariant {
  std::string op;  // "add_.Tensor": PyTorch's name
  VariantKind kind;
};

// Which out= dtypes an op accepts.
enum class OutDtypeRule {
  kSafeCast,  // any dtype the result can be cast to (TensorIterator ops): "can't be cast to ..."
  kExact,     // exactly the result's dtype: "Expected out tensor to have dtype ..."
  kFromOut,   // the out's dtype is the dtype to compute in (reductions' out=): not checked
  kAny,       // any dtype: the results are copied in as copy_ casts (unsafe_split.Tensor_out)
};

using SampleFn = std::function<std::vector<Sample>(ScalarType dtype, uint64_t seed)>;
// Throws RefError when PyTorch raises for the sample.
using ReferenceFn = std::function<Expected(const RefArgs&)>;

// The name an op's tolerances go by (conformance/tolerances.json): its base name, "add" for
// add_.Tensor and add.out.
std::string tolerance_op_name(std::string_view op);

struct OpEntry {
  std::string name;    // unique; reports group the variants under it
  std::string family;  // "unary", "binary", "reduction", ...
  int tier = 1;        // OPS.md's tier
  std::vector<OpVariant> variants;
  // Ops Backplane declares with these variants (in their group) that PyTorch lacks, so nothing to
  // check them against: not run, but covered by this entry (entry_for_op finds it, so they are not
  // reported as ops without an entry). Where the entry is written, a comment says why.
  std::vector<std::string> not_in_pytorch;
  // The dtypes PyTorch supports for the op on CPU: the dtypes tested. Samples of dtype D have
  // their first tensor (or their dtype= argument) in D.
  DtypeSet dtypes;
  SampleFn samples;
  ReferenceFn reference;
  OutDtypeRule out_dtype = OutDtypeRule::kSafeCast;
  // kExact: the error for an out of dtype `given` where `expected` is required; default
  // "Expected out tensor to have dtype <expected>, but got <given> instead".
  std::function<std::string(ScalarType expected, ScalarType given)> out_dtype_error;
  // Out= ops writing a `Tensor(a!)[] out` list: the error for a list of `given` outs where the
  // op has `expected` results; unset: the count is not checked.
  std::function<std::string(size_t expected, size_t given)> out_count_error;
  // The in-place variant's error when the result dtype differs from self's, for ops PyTorch
  // builds on `self.to(result dtype)` with self as the output (pow_: "Found dtype int16 but
  // expected float32"); unset: "can't be cast to the desired output type" when the result does
  // not cast safely to self's dtype.
  std::function<std::string(ScalarType result, ScalarType self)> inplace_dtype_error;
  // The in-place variant computes in self's dtype where the functional one would pick another
  // (cumsum_ of an int32 tensor scans in int32; cumsum gives int64): without a `dtype=` in the
  // sample, its expected result is the reference's for the sample with `dtype=` self's dtype.
  bool inplace_in_self_dtype = false;
  // Dtypes of self the in-place variant rejects before any other check, with this message
  // (abs_ of a complex tensor: "In-place abs is not supported for complex tensors.").
  DtypeSet inplace_rejected;
  std::string inplace_rejected_message;
  // The in-place variant's own argument error, checked before the functional reference's, or
  // nullopt (masked_fill_ names self "tensor a" in a broadcast error, the functional op the mask).
  std::function<std::optional<std::string>(const RefArgs&)> inplace_error_first;
  // The in-place variant writes into a self whose elements overlap (threshold_ of an expanded
  // tensor: PyTorch writes each shared element, with the same value) instead of refusing it.
  bool inplace_allows_overlap = false;
  // Key of the op's tolerances in tolerances.json; default: the name before the first '.'.
  std::string tolerance_key;
  // Results whose values PyTorch leaves unspecified beyond what the reference says (empty()).
  // Also skips the check that the variants' results agree bit for bit.
  bool nondeterministic = false;
  // The result's sizes depend on the input's values (masked_select): its Meta call refuses, as
  // PyTorch's does, so the Meta variant is not compared.
  bool data_dependent_sizes = false;

  const OpVariant* variant(VariantKind kind) const;
  std::string tolerance_name() const;
};

class OpDatabase {
 public:
  // Errors (internal): a duplicate entry name, an op covered by two entries, an entry without
  // variants, samples or reference.
  void add(OpEntry entry);

  const std::vector<OpEntry>& entries() const { return entries_; }
  const OpEntry* find(std::string_view name) const;
  // The entry covering the op `op_name` ("add_.Tensor"): one of its variants or of its
  // not_in_pytorch ops. Null when none does.
  const OpEntry* entry_for_op(std::string_view op_name) const;

 private:
  std::vector<OpEntry> entries_;
  std::map<std::string, size_t, std::less<>> by_op_;
};

// The seed of an entry's samples for a dtype: a stable hash, recorded in repro files.
uint64_t sample_seed(std::string_view entry, ScalarType dtype);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_OP_ENTRY_H_
