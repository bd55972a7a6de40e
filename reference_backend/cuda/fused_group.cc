#include "reference_backend/cuda/fused_group.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "nlohmann/json.hpp"
#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

using nlohmann::json;

// Thrown inside parse_fused_group to decline with a reason.
struct Decline {
  std::string why;
};
[[noreturn]] void decline(std::string why) { throw Decline{std::move(why)}; }

std::optional<Dtype> dtype_named(const std::string& name) {
  for (int c = 0; c < kNumDtypes; ++c) {
    if (info(dtype_of_code(c)).name == name) return dtype_of_code(c);
  }
  return std::nullopt;
}

Dtype real_dtype_named(const std::string& name) {
  const std::optional<Dtype> d = dtype_named(name);
  if (!d) decline("unknown dtype " + name);
  if (info(*d).is_complex) decline("complex dtypes are not fused");
  return *d;
}

// "bp::sum.dim_IntList" -> {"sum", "dim_IntList"}; "gelu" and "gelu.default" -> {"gelu", ""}.
std::pair<std::string, std::string> split_name(std::string_view op) {
  if (const size_t ns = op.find("::"); ns != std::string_view::npos) op.remove_prefix(ns + 2);
  const size_t dot = op.find('.');
  std::string base(op.substr(0, dot));
  std::string overload(dot == std::string_view::npos ? "" : op.substr(dot + 1));
  if (overload == "default") overload.clear();
  return {base, overload};
}

// The out= names the functional overload's out= row usually has ("mul.Tensor" -> "mul.out",
// "pow.Tensor_Scalar" -> "pow.Tensor_Scalar_out"): the tie-break when several rows fit.
bool conventional_out_name(std::string_view row, const std::string& base,
                           const std::string& overload) {
  if (overload.empty() || overload == "Tensor") return row == base + ".out";
  return row == base + "." + overload + "_out" || row == base + ".out_" + overload;
}

template <typename Row>
const Row* pick(const std::vector<const Row*>& fits, const std::string& base,
                const std::string& overload) {
  std::set<std::string_view> names;
  for (const Row* r : fits) names.insert(r->name);
  if (names.size() == 1) return fits.front();
  for (const Row* r : fits) {
    if (conventional_out_name(r->name, base, overload)) return r;
  }
  return nullptr;
}

std::vector<int64_t> ints(const json& j) { return j.get<std::vector<int64_t>>(); }

// Index strides of a contiguous result of `sizes` (0 along size-1 dims, as group_json writes
// them for node loads).
std::vector<int64_t> contiguous_index_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size(), 0);
  int64_t step = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = sizes[d] == 1 ? 0 : step;
    step *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

// The tag of a value no functor argument takes (a list): not a bp_value_tag.
constexpr int32_t kUnusable = -1;

// A JSON argument value as a boxed value for the pointwise tables (alternatives, math_argument).
// `storage` keeps strings alive.
bp_value boxed(const json& arg, std::string* storage) {
  bp_value v{};
  if (arg.contains("load") || arg.contains("scalar")) {
    // Only whether a tensor is given is read (alternative_applies): any non-null handle.
    static char given;
    v.tag = BP_VALUE_TENSOR;
    v.u.tensor = reinterpret_cast<bp_tensor*>(&given);
    return v;
  }
  const json& value = arg.at("value");
  if (value.is_null()) {
    v.tag = BP_VALUE_NONE;
  } else if (value.is_boolean()) {
    v.tag = BP_VALUE_BOOL;
    v.u.b = value.get<bool>();
  } else if (value.is_number_integer()) {
    v.tag = BP_VALUE_INT;
    v.u.i = value.get<int64_t>();
  } else if (value.is_number()) {
    v.tag = BP_VALUE_DOUBLE;
    v.u.d = value.get<double>();
  } else if (value.is_string()) {
    *storage = value.get<std::string>();
    v.tag = BP_VALUE_STRING;
    v.u.s = storage->c_str();
  } else {
    v.tag = kUnusable;
  }
  return v;
}

// Reads a group into FusedGroup; throws Decline.
class Reader {
 public:
  explicit Reader(const json& group) : j_(group) {}

  FusedGroup read() {
    if (j_.value("format", "") != "backplane.fused_group/1") decline("unknown group format");
    for (const json& b : j_.at("buffers")) {
      g_.buffers.push_back({real_dtype_named(b.at("dtype").get<std::string>()), ints(b.at("sizes")),
                            ints(b.at("strides"))});
    }
    const json& nodes = j_.at("nodes");
    if (nodes.empty()) decline("an empty group");
    find_space(nodes);
    for (size_t n = 0; n < nodes.size(); ++n) read_node(nodes[n]);
    const json& output = j_.at("output");
    if (output.at("node").get<size_t>() != nodes.size() - 1 ||
        output.at("buffer").get<size_t>() != g_.buffers.size() - 1) {
      decline("the root is not the last node, or its buffer not the last");
    }
    read_output(nodes.back());
    assign_owners();
    if (g_.loads.size() > static_cast<size_t>(jit::kFusedMaxLoads)) decline("too many loads");
    if (g_.values.size() > static_cast<size_t>(jit::kFusedMaxValues)) decline("too many arguments");
    if (g_.outer_sizes.size() > static_cast<size_t>(jit::kMaxDims) ||
        g_.inner_sizes.size() > static_cast<size_t>(jit::kMaxDims)) {
      decline("too many dimensions");
    }
    if (g_.rows() * g_.row_size() >= (int64_t{1} << 31)) decline("more than 2^31 elements");
    return std::move(g_);
  }

 private:
  // The iteration space: a pointwise group iterates the root's ranges; a row group the ranges of
  // its reductions, whose reduced dims must be the innermost ones, the same for all.
  void find_space(const json& nodes) {
    std::vector<int64_t> ranges;
    std::vector<int64_t> reduced;
    for (const json& n : nodes) {
      if (n.at("kind") != "reduction") continue;
      const std::vector<int64_t> r = ints(n.at("ranges")), dims = ints(n.at("reduction_dims"));
      if (!g_.has_reductions) {
        ranges = r;
        reduced = dims;
        g_.has_reductions = true;
      } else if (r != ranges || dims != reduced) {
        decline("reductions over different ranges");
      }
    }
    if (!g_.has_reductions) {
      g_.outer_sizes = ints(nodes.back().at("ranges"));
      return;
    }
    if (reduced.size() > ranges.size()) decline("more reduced dims than ranges");
    const size_t kept = ranges.size() - reduced.size();
    for (size_t i = 0; i < reduced.size(); ++i) {
      if (reduced[i] != static_cast<int64_t>(kept + i)) decline("a reduction over outer dims");
    }
    g_.outer_sizes.assign(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(kept));
    g_.inner_sizes.assign(ranges.begin() + static_cast<std::ptrdiff_t>(kept), ranges.end());
  }

  std::vector<int64_t> full_ranges() const {
    std::vector<int64_t> r = g_.outer_sizes;
    r.insert(r.end(), g_.inner_sizes.begin(), g_.inner_sizes.end());
    return r;
  }

  // Whether `sizes` are the kept dims (keepdim's trailing 1s allowed).
  bool is_outer_shape(const std::vector<int64_t>& sizes) const {
    std::vector<int64_t> keep = g_.outer_sizes;
    if (sizes == keep) return true;
    keep.resize(keep.size() + g_.inner_sizes.size(), 1);
    return sizes == keep;
  }

  FusedSpace space_of(const json& n) const {
    const std::vector<int64_t> ranges = ints(n.at("ranges"));
    if (n.at("kind") == "reduction") {
      // Its result must be one value per row (whatever its reduction_dims say).
      if (!is_outer_shape(ints(n.at("sizes")))) decline("a reduction whose result is not per row");
      return FusedSpace::kOuter;
    }
    if (ranges == full_ranges()) return FusedSpace::kInner;
    if (g_.has_reductions && is_outer_shape(ranges)) return FusedSpace::kOuter;
    decline("a pointwise node over other ranges than the group's");
  }

  // The input argument `arg` of a node iterating `ranges` in `space`.
  FusedInput input_of(const json& arg, FusedSpace space, const std::vector<int64_t>& ranges) {
    if (!arg.contains("load")) decline("a tensor input given by value");
    const json& load = arg.at("load");
    const std::vector<int64_t> index = ints(load.at("index_strides"));
    if (index.size() != ranges.size()) decline("index strides of the wrong rank");
    FusedInput in;
    if (load.contains("node")) {
      in.node = load.at("node").get<int>();
      if (in.node < 0 || static_cast<size_t>(in.node) >= g_.nodes.size()) decline("a later node");
      const FusedNode& p = g_.nodes[static_cast<size_t>(in.node)];
      in.dtype = p.dtype;
      if (p.space == FusedSpace::kInner) {
        // Inner values are computed where they are read: element for element only.
        if (space != FusedSpace::kInner || index != contiguous_index_strides(ranges)) {
          decline("an inner value read at another element");
        }
      } else {
        // Outer values (one per row) broadcast over the row's elements.
        std::vector<int64_t> expected = contiguous_index_strides(g_.outer_sizes);
        expected.resize(index.size(), 0);
        if (index != expected) decline("an outer value read at another row");
      }
      return in;
    }
    const size_t b = load.at("buffer").get<size_t>();
    if (b + 1 >= g_.buffers.size()) decline("a load of the result buffer");
    const FusedBuffer& buffer = g_.buffers[b];
    in.dtype = buffer.dtype;
    in.load = static_cast<int>(g_.loads.size());
    FusedLoad l;
    l.buffer = static_cast<int>(b);
    const int64_t itemsize = info(buffer.dtype).itemsize;
    int64_t extent = 0;
    const size_t kept = g_.outer_sizes.size();
    for (size_t d = 0; d < index.size(); ++d) {
      if (index[d] < 0) decline("a negative stride");
      extent += (ranges[d] > 0 ? ranges[d] - 1 : 0) * index[d] * itemsize;
      if (d < kept) {
        l.outer_strides.push_back(index[d] * itemsize);
      } else if (space == FusedSpace::kInner) {
        l.inner_strides.push_back(index[d] * itemsize);
      }
    }
    l.inner_strides.resize(g_.inner_sizes.size(), 0);  // outer nodes: the row's first element
    if (extent >= (int64_t{1} << 31)) decline("a load beyond 31-bit offsets");
    g_.loads.push_back(std::move(l));
    return in;
  }

  void read_node(const json& n) {
    FusedNode node;
    node.op = n.at("op").get<std::string>();
    node.dtype = real_dtype_named(n.at("dtype").get<std::string>());
    node.space = space_of(n);
    const std::vector<int64_t> ranges = ints(n.at("ranges"));
    const json& args = n.at("args");
    std::vector<bool> is_tensor;
    for (const json& a : args) is_tensor.push_back(a.contains("load") || a.contains("scalar"));
    if (n.at("kind") == "reduction") {
      read_reduction(args, is_tensor, ranges, node);
    } else {
      read_pointwise(args, is_tensor, ranges, node);
    }
    g_.nodes.push_back(std::move(node));
  }

  void read_pointwise(const json& args, const std::vector<bool>& is_tensor,
                      const std::vector<int64_t>& ranges, FusedNode& node) {
    const PointwiseOp* row = pointwise_row_of(node.op, is_tensor);
    if (row == nullptr) decline("no pointwise kernel for " + node.op);
    std::vector<std::string> strings(args.size());
    std::vector<bp_value> boxes;
    for (size_t a = 0; a < args.size(); ++a) boxes.push_back(boxed(args[a], &strings[a]));
    boxes.emplace_back();  // out
    row = select_alternative(pointwise_alternatives(row->name), boxes.data());
    if (row == nullptr) decline("no alternative of " + node.op + " applies");
    node.pointwise = row;
    node.computation = computation_of(*row);
    std::vector<const json*> scalars(static_cast<size_t>(row->num_inputs), nullptr);
    for (int i = 0; i < row->num_inputs; ++i) {
      const json& arg = args.at(static_cast<size_t>(row->inputs[i]));
      if (arg.contains("scalar")) {
        scalars[static_cast<size_t>(i)] = &arg.at("scalar");
        FusedInput in;
        in.dtype = real_dtype_named(arg.at("scalar").at("dtype").get<std::string>());
        node.inputs.push_back(in);
      } else {
        node.inputs.push_back(input_of(arg, node.space, ranges));
      }
    }
    node.common = common_dtype(*row, node, scalars);
    if (!row->supports(node.common)) decline(node.op + " does not support its dtype");
    node.first_value = static_cast<int>(g_.values.size());
    for (int j = 0; j < row->num_args; ++j) {
      const bp_value& v = boxes[static_cast<size_t>(row->args[j])];
      if (v.tag == kUnusable) decline("an argument the math cannot take");
      g_.values.push_back(math_argument(*row, j, v, node.common));
    }
    // CPU scalars: to S, then to the compute type (the per-op kernels' by-value inputs).
    for (size_t i = 0; i < scalars.size(); ++i) {
      if (scalars[i] == nullptr) continue;
      node.inputs[i].value = static_cast<int>(g_.values.size());
      g_.values.push_back(scalar_value(scalars[i]->at("value"), node.common));
    }
  }

  // S: the result's dtype, but for predicates (bool results), whose tensor inputs share S (CPU
  // scalars do not promote them unless they are of a higher kind: then declined).
  static Dtype common_dtype(const PointwiseOp& row, const FusedNode& node,
                            const std::vector<const json*>& scalars) {
    if (node.dtype != Dtype::kBool) return node.dtype;
    std::optional<Dtype> common;
    for (int pass = 0; pass < 2 && !common; ++pass) {  // tensors; else scalars alone
      for (int i = 0; i < row.num_inputs; ++i) {
        const bool scalar = scalars[static_cast<size_t>(i)] != nullptr;
        if (((row.bool_inputs >> i) & 1u) || scalar != (pass == 1)) continue;
        const Dtype d = node.inputs[static_cast<size_t>(i)].dtype;
        if (common && *common != d) decline("a predicate over inputs of different dtypes");
        common = d;
      }
    }
    if (!common) return node.dtype;
    for (int i = 0; i < row.num_inputs; ++i) {
      const Dtype d = node.inputs[static_cast<size_t>(i)].dtype;
      if (scalars[static_cast<size_t>(i)] != nullptr && info(d).is_floating &&
          !info(*common).is_floating) {
        decline("a predicate of an integer tensor and a floating-point scalar");
      }
    }
    return *common;
  }

  // A scalar's value (bool, integer or floating point: exact in bool, int64 or float64) converted
  // to `common`, then to its compute type.
  static jit::Value scalar_value(const json& value, Dtype common) {
    const Dtype compute = compute_dtype(common);
    if (value.is_boolean()) {
      const bool b = value.get<bool>();
      return element_as(&b, Dtype::kBool, common, compute);
    }
    if (value.is_number_integer()) {
      const int64_t i = value.get<int64_t>();
      return element_as(&i, Dtype::kInt64, common, compute);
    }
    if (!value.is_number()) decline("a complex scalar");
    const double d = value.get<double>();
    return element_as(&d, Dtype::kFloat64, common, compute);
  }

  void read_reduction(const json& args, const std::vector<bool>& is_tensor,
                      const std::vector<int64_t>& ranges, FusedNode& node) {
    const ReductionOp* row = reduction_row_of(node.op, is_tensor);
    if (row == nullptr) decline("no reduction kernel for " + node.op);
    if (row->num_args != 0 || row->num_outputs != 1 || row->result(0) != ReduceResult::kValue) {
      decline(std::string(row->name) + " takes arguments or has several outputs");
    }
    node.reduction = row;
    node.inputs.push_back(
        input_of(args.at(static_cast<size_t>(row->self)), FusedSpace::kInner, ranges));
    const Dtype in = node.inputs[0].dtype;
    if (!row->supports(in)) decline(node.op + " does not support its dtype");
    // The dtype elements are reduced in: a ScalarType argument (None: self's), or an output's.
    node.common = in;
    if (row->in == static_cast<int>(args.size())) {
      node.common = node.dtype;
    } else if (row->in != row->self) {
      const json& v = args.at(static_cast<size_t>(row->in)).at("value");
      if (v.is_string()) node.common = real_dtype_named(v.get<std::string>());
    }
  }

  void read_output(const json& root) {
    const FusedBuffer& out = g_.buffers.back();
    if (out.dtype != g_.root().dtype || out.sizes != ints(root.at("sizes"))) {
      decline("the result buffer does not match the root");
    }
    const int64_t itemsize = info(out.dtype).itemsize;
    const size_t kept = g_.outer_sizes.size();
    for (size_t d = 0; d < out.strides.size(); ++d) {
      const int64_t stride = out.sizes[d] == 1 ? 0 : out.strides[d] * itemsize;
      if (stride < 0) decline("a negative stride");
      if (d < kept) {
        g_.out_outer_strides.push_back(stride);
      } else if (g_.root().space == FusedSpace::kInner) {
        g_.out_inner_strides.push_back(stride);
      }
    }
    if (g_.out_outer_strides.size() != kept) decline("the result's rank");
    g_.out_inner_strides.resize(g_.inner_sizes.size(), 0);
  }

  // Every inner node is computed in one loop (the reduction reading it, or the root's store):
  // each must be read by nodes of one loop only.
  void assign_owners() {
    std::vector<int> owner(g_.nodes.size(), -1);
    const int root = static_cast<int>(g_.nodes.size()) - 1;
    owner[static_cast<size_t>(root)] = root;
    for (int c = root; c >= 0; --c) {
      const FusedNode& node = g_.nodes[static_cast<size_t>(c)];
      const int loop = node.reduction != nullptr ? c : owner[static_cast<size_t>(c)];
      for (const FusedInput& in : node.inputs) {
        if (in.node < 0 || g_.nodes[static_cast<size_t>(in.node)].space != FusedSpace::kInner) {
          continue;
        }
        int& o = owner[static_cast<size_t>(in.node)];
        if (o >= 0 && o != loop) decline("an inner value read in two loops");
        o = loop;
      }
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      if (g_.nodes[n].space == FusedSpace::kInner && owner[n] < 0) decline("an unread node");
      g_.nodes[n].owner = g_.nodes[n].space == FusedSpace::kInner ? owner[n] : -1;
    }
  }

  const json& j_;
  FusedGroup g_;
};

}  // namespace

int64_t FusedGroup::rows() const {
  int64_t n = 1;
  for (int64_t s : outer_sizes) n *= s;
  return n;
}

int64_t FusedGroup::row_size() const {
  int64_t n = 1;
  for (int64_t s : inner_sizes) n *= s;
  return n;
}

const PointwiseOp* pointwise_row_of(std::string_view op, const std::vector<bool>& is_tensor) {
  const auto [base, overload] = split_name(op);
  std::vector<const PointwiseOp*> fits;
  for (const PointwiseOp& row : pointwise_ops()) {
    if (row.base_name != base || row.num_arguments != static_cast<int>(is_tensor.size()) + 1 ||
        row.out != static_cast<int>(is_tensor.size())) {
      continue;
    }
    std::vector<bool> reads(is_tensor.size(), false);
    for (int i = 0; i < row.num_inputs; ++i) reads[static_cast<size_t>(row.inputs[i])] = true;
    // Optional tensor inputs an alternative does not read may be given or not.
    bool ok = true;
    for (size_t a = 0; a < is_tensor.size(); ++a) ok = ok && (!reads[a] || is_tensor[a]);
    if (ok) fits.push_back(&row);
  }
  return pick(fits, base, overload);
}

const ReductionOp* reduction_row_of(std::string_view op, const std::vector<bool>& is_tensor) {
  const auto [base, overload] = split_name(op);
  std::vector<const ReductionOp*> fits;
  for (const ReductionOp& row : reduction_ops()) {
    const int nargs = static_cast<int>(is_tensor.size());
    if (row.base_name != base || row.num_arguments != nargs + 1 || row.num_outputs != 1 ||
        row.outputs[0] != nargs || row.self < 0 || row.self >= nargs ||
        !is_tensor[static_cast<size_t>(row.self)] || row.dim < 0 || row.keepdim < 0) {
      continue;
    }
    fits.push_back(&row);
  }
  return pick(fits, base, overload);
}

std::optional<FusedGroup> parse_fused_group(std::string_view text, std::string* why_not) {
  try {
    const json group = json::parse(text.begin(), text.end());
    return Reader(group).read();
  } catch (const Decline& d) {
    *why_not = d.why;
  } catch (const json::exception& e) {
    *why_not = std::string("malformed group: ") + e.what();
  } catch (const Error& e) {
    *why_not = e.what();  // an argument the op's math does not take (math_argument)
  }
  return std::nullopt;
}

}  // namespace bp::cuda
