#include "reference_backend/cuda/fused_group_kernel.h"

#include <algorithm>
#include <cstdio>

#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/jit_sources.h"

namespace bp::cuda {

// jit/fused_args.h and jit/fused.cuh as text (embed_sources, BUILD.bazel's JIT_FILES).
extern const char kFused[];

namespace {

std::string type(Dtype d) { return std::string(info(d).device_type); }

// Writes the kernel's statements. Values of nodes are locals `v<n>`; loads read
// args.loads[l] at the row's offset `o` (plus the element's `e` inside a loop over a row).
class Emitter {
 public:
  explicit Emitter(const FusedGroup& g) : g_(g), operands_(std::to_string(1 + g.loads.size())) {}

  std::string body() {
    const int root = static_cast<int>(g_.nodes.size()) - 1;
    const std::string out = type(g_.root().dtype);
    std::string s =
        "extern \"C\" __global__ void __launch_bounds__(bp::jit::kFusedThreads) @NAME@"
        "(const bp::jit::FusedArgs args) {\n";
    if (!g_.has_reductions) {
      s += "  for (uint32_t index = blockIdx.x * blockDim.x + threadIdx.x; index < args.rows;\n"
           "       index += blockDim.x * gridDim.x) {\n";
      s += "    " + offsets("o", "outer", "index");
      for (int n = 0; n <= root; ++n) s += pointwise(n, false, "    ");
      s += "    *reinterpret_cast<" + out + "*>(args.out + o.at[0]) = v" + std::to_string(root) +
           ";\n  }\n}\n";
      return s;
    }
    // Every thread runs every row of its block (and so every barrier).
    s += "  for (uint32_t row = blockIdx.x; row < args.rows; row += gridDim.x) {\n";
    s += "    " + offsets("o", "outer", "row");
    for (int n = 0; n <= root; ++n) {
      const FusedNode& node = g_.nodes[static_cast<size_t>(n)];
      if (node.reduction != nullptr) {
        s += reduction(n);
      } else if (node.space == FusedSpace::kOuter) {
        s += pointwise(n, false, "    ");
      }
    }
    if (g_.root().space == FusedSpace::kOuter) {
      s += "    if (threadIdx.x == 0) *reinterpret_cast<" + out + "*>(args.out + o.at[0]) = v" +
           std::to_string(root) + ";\n";
    } else {
      s += "    for (uint32_t r = threadIdx.x; r < args.row_size; r += blockDim.x) {\n";
      s += "      " + offsets("e", "inner", "r");
      s += owned(root);
      s += "      *reinterpret_cast<" + out + "*>(args.out + o.at[0] + e.at[0]) = v" +
           std::to_string(root) + ";\n    }\n";
    }
    s += "  }\n}\n";
    return s;
  }

 private:
  std::string offsets(const std::string& name, const std::string& which,
                      const std::string& index) const {
    return "const bp::jit::OperandOffsets<" + operands_ + "> " + name + " = bp::jit::offsets_of<" +
           operands_ + ">(args." + which + ", " + index + ");\n" + "    (void)" + name + ";\n";
  }

  // The value `in` reads, in its own dtype; `element`: inside a loop over a row's elements.
  std::string read(const FusedInput& in, bool element) const {
    if (in.node >= 0) return "v" + std::to_string(in.node);
    const std::string k = std::to_string(1 + in.load);
    return "*reinterpret_cast<const " + type(in.dtype) + "*>(args.loads[" +
           std::to_string(in.load) + "] + o.at[" + k + "]" + (element ? " + e.at[" + k + "]" : "") +
           ")";
  }

  // The inner nodes computed in node n's loop, in call order.
  std::string owned(int n) const {
    std::string s;
    for (size_t m = 0; m < g_.nodes.size(); ++m) {
      if (g_.nodes[m].owner == n) s += pointwise(static_cast<int>(m), true, "      ");
    }
    return s;
  }

  // v<n> = the node's computation (computation.h: its functor over in[] and arg0...), as the
  // per-op kernels compute and store it.
  std::string pointwise(int n, bool element, const std::string& indent) const {
    const FusedNode& node = g_.nodes[static_cast<size_t>(n)];
    const Computation& c = node.computation;
    const Dtype compute = compute_dtype(node.common);
    const std::string s_type = type(node.common), m = type(compute), out = type(node.dtype);
    const std::string v = "v" + std::to_string(n);
    std::string s = indent + out + " " + v + ";\n" + indent + "{\n";
    s += indent + "  const " + m + " in[" + std::to_string(c.num_inputs) + "] = {";
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const FusedInput& in = node.inputs[i];
      s += i ? ", " : "";
      if (in.value >= 0) {  // a CPU scalar, already in the compute type
        s += "bp::jit::value_as<" + m + ">(args.values[" + std::to_string(in.value) + "])";
      } else {
        s += "bp::element_cast<" + m + ">(bp::element_cast<" + s_type + ">(" + read(in, element) +
             "))";
      }
    }
    s += "};\n";
    for (int j = 0; j < c.num_args(); ++j) {
      const std::string a = type(arg_dtype(c.args[static_cast<size_t>(j)], compute));
      s += indent + "  const " + a + " arg" + std::to_string(j) + " = bp::jit::value_as<" + a +
           ">(args.values[" + std::to_string(node.first_value + j) + "]);\n";
    }
    s += indent + "  " + v + " = bp::jit::fused_value(bp::element_cast<" + out +
         ">(bp::jit::to_storage<" + s_type + ", " + m + ">(" + c.expression + ")));\n";
    return s + indent + "}\n";
  }

  // v<n> = the reduction of its input over the row: a loop over the row's elements (computing
  // the inner nodes it reads), then the block's combine.
  std::string reduction(int n) const {
    const FusedNode& node = g_.nodes[static_cast<size_t>(n)];
    const std::string t = type(node.common), out = type(node.dtype);
    const std::string v = "v" + std::to_string(n);
    std::string s = "    " + out + " " + v + ";\n    {\n";
    s += "      using Ops = bp::math::" + std::string(node.reduction->ops) + "<" + t + ">;\n";
    s += "      const Ops ops{};\n      Ops::acc_t acc = ops.identity();\n";
    s += "      for (uint32_t r = threadIdx.x; r < args.row_size; r += blockDim.x) {\n";
    s += "        " + offsets("e", "inner", "r");
    s += owned(n);
    s += "        acc = ops.reduce(acc, bp::element_cast<Ops::value_t>(bp::element_cast<" + t +
         ">(" + read(node.inputs[0], true) + ")), static_cast<int64_t>(r));\n      }\n";
    s += "      acc = bp::jit::fused_block_combine(ops, acc);\n";
    s += "      " + v + " = bp::jit::fused_value(bp::element_cast<" + out +
         ">(ops.project(acc)));\n    }\n";
    return s;
  }

  const FusedGroup& g_;
  std::string operands_;
};

// Offsets over `sizes` (outermost first) for the output (`out`) and each load (`load_strides`),
// fastest dimension first as jit::Offsets has them.
void fill_offsets(jit::Offsets& offsets, const std::vector<int64_t>& sizes,
                  const std::vector<int64_t>& out,
                  const std::vector<const std::vector<int64_t>*>& load_strides) {
  const size_t ndim = sizes.size();
  offsets.ndim = static_cast<int32_t>(ndim);
  for (size_t k = 0; k < ndim; ++k) {
    const size_t d = ndim - 1 - k;
    offsets.sizes[k] = fast_divider(static_cast<uint32_t>(std::max<int64_t>(sizes[d], 1)));
    offsets.strides[k][0] = static_cast<uint32_t>(out[d]);
    for (size_t l = 0; l < load_strides.size(); ++l) {
      offsets.strides[k][1 + l] = static_cast<uint32_t>((*load_strides[l])[d]);
    }
  }
}

}  // namespace

std::string FusedKernel::source() const { return std::string(kFused) + "\n" + body; }

FusedKernel fused_kernel_of(const FusedGroup& group) {
  FusedKernel k;
  std::string body = Emitter(group).body();
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(body.data(), body.size())));
  k.name = std::string("fused_") + hash;
  body.replace(body.find("@NAME@"), 6, k.name);
  k.body = std::move(body);
  k.cooperative = group.has_reductions;
  return k;
}

FusedLaunch plan_fused(const FusedGroup& group, std::span<char* const> buffers) {
  FusedLaunch launch;
  jit::FusedArgs& a = launch.args;
  const int64_t rows = group.rows();
  a.rows = static_cast<uint32_t>(rows);
  a.row_size = static_cast<uint32_t>(group.row_size());
  a.out = buffers.back();
  std::vector<const std::vector<int64_t>*> outer, inner;
  for (size_t l = 0; l < group.loads.size(); ++l) {
    a.loads[l] = buffers[static_cast<size_t>(group.loads[l].buffer)];
    outer.push_back(&group.loads[l].outer_strides);
    inner.push_back(&group.loads[l].inner_strides);
  }
  for (size_t i = 0; i < group.values.size(); ++i) a.values[i] = group.values[i];
  fill_offsets(a.outer, group.outer_sizes, group.out_outer_strides, outer);
  fill_offsets(a.inner, group.inner_sizes, group.out_inner_strides, inner);
  const int64_t threads = jit::kFusedThreads;
  const int64_t blocks = group.has_reductions ? rows : (rows + threads - 1) / threads;
  launch.blocks = static_cast<unsigned>(std::min<int64_t>(blocks, 65535));
  return launch;
}

}  // namespace bp::cuda
