#include "reference_backend/cuda/kernel_source.h"

#include "reference_backend/cuda/jit_sources.h"

namespace bp::cuda {

const char* variant_name(Variant variant) {
  switch (variant) {
    case Variant::kVectorized:
      return "vec";
    case Variant::kStrided:
      return "strided";
    case Variant::kDynamic:
      return "dynamic";
  }
  return "?";
}

Dtype ElementwiseKernel::compute() const {
  return computation.uses_opmath ? compute_dtype(dtype) : dtype;
}

std::string ElementwiseKernel::entry_name() const {
  std::string name = computation.name + "__" + std::string(info(dtype).name) + "__";
  name += variant == Variant::kDynamic ? "any" : std::string(info(out_dtype).name);
  name += std::string("__") + variant_name(variant);
  if (variant == Variant::kVectorized) name += std::to_string(vec);
  return name + "__s" + std::to_string(scalar_mask);
}

std::string body_name(const Computation& computation, Dtype compute) {
  return "body_" + computation.name + "_" + std::string(info(compute).name);
}

std::string body_source(const Computation& c, Dtype compute) {
  const std::string m(info(compute).device_type);
  const std::string name = body_name(c, compute);
  const std::string inputs = std::to_string(c.num_inputs > 0 ? c.num_inputs : 1);
  std::string s = "struct " + name + " {\n  using compute_t = " + m +
                  ";\n  static constexpr int kInputs = " + std::to_string(c.num_inputs) + ";\n";
  std::string init;
  for (int j = 0; j < c.num_args(); ++j) {
    const std::string arg = "arg" + std::to_string(j);
    const std::string type(info(arg_dtype(c.args[static_cast<size_t>(j)], compute)).device_type);
    s += "  " + type + " " + arg + ";\n";
    init += std::string(j ? ", " : " : ") + arg + "(bp::jit::value_as<" + type + ">(values[" +
            std::to_string(c.num_inputs + j) + "]))";
  }
  s += "  BP_INLINE explicit " + name + "(const bp::jit::Value* values)" + init + " {" +
       (c.args.empty() ? " (void)values;" : "") + " }\n";
  s += std::string("  static constexpr bool kUsesIndex = ") + (c.uses_index ? "true" : "false") +
       ";\n";
  s += "  BP_INLINE auto operator()(const " + m + " (&in)[" + inputs + "]" +
       (c.uses_index ? ", uint32_t index" : "") + ") const {" +
       (c.num_inputs == 0 ? " (void)in;" : "") + " return " + c.expression + "; }\n};\n";
  return s;
}

std::string entry_source(const ElementwiseKernel& k) {
  const std::string body = body_name(k.computation, k.compute());
  const std::string s(info(k.dtype).device_type);
  const std::string out(info(k.out_dtype).device_type);
  const std::string mask = std::to_string(k.scalar_mask) + "u";
  std::string call;
  std::string args;
  switch (k.variant) {
    case Variant::kVectorized:
      args = "ContiguousArgs";
      call = "bp::jit::vectorized<" + body + ", " + s + ", " + out + ", " + std::to_string(k.vec) +
             ", " + mask + ">(args)";
      break;
    case Variant::kStrided:
      args = "StridedArgs";
      call = "bp::jit::strided<" + body + ", " + s + ", " + out + ", " + mask + ">(args)";
      break;
    case Variant::kDynamic:
      args = "StridedArgs";
      call = "bp::jit::dynamic<" + body + ", " + s + ", " + mask + ">(args)";
      break;
  }
  return "extern \"C\" __global__ void __launch_bounds__(bp::jit::kThreads) " + k.entry_name() +
         "(const bp::jit::" + args + " args) {\n  " + call + ";\n}\n";
}

void ProgramSource::add(const ElementwiseKernel& kernel) {
  const std::string body = body_name(kernel.computation, kernel.compute());
  if (bodies_seen_.insert(body).second)
    bodies_ += body_source(kernel.computation, kernel.compute());
  kernels_ += entry_source(kernel);
  entries_.push_back(kernel.entry_name());
}

void ProgramSource::add_text(const std::string& text, const std::string& entry_name) {
  kernels_ += text;
  entries_.push_back(entry_name);
}

std::string ProgramSource::text() const {
  return program_head() + "\n// ---- kernels ----\n" + bodies_ + kernels_;
}

}  // namespace bp::cuda
