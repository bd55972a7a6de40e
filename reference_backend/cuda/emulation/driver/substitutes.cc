#include "reference_backend/cuda/emulation/driver/substitutes.h"

#include <cstring>

#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::emulated_cuda {
namespace {

std::optional<cuda::Dtype> dtype_named(const std::string& name) {
  for (int c = 0; c < cuda::kNumDtypes; ++c) {
    if (cuda::info(cuda::dtype_of_code(c)).name == name) return cuda::dtype_of_code(c);
  }
  return std::nullopt;
}

// The bytes after the StridedArgs where stored by-value inputs go.
constexpr size_t kStoredValues = sizeof(jit::StridedArgs);

}  // namespace

std::optional<Substitute> find_substitute(const std::string& name) {
  // From the end: s<mask>, variant, output, S; the computation is the rest.
  std::vector<std::string> parts;
  size_t end = name.size();
  for (int i = 0; i < 4; ++i) {
    const size_t at = name.rfind("__", end - 1);
    if (at == std::string::npos || at == 0) return std::nullopt;
    parts.push_back(name.substr(at + 2, end - at - 2));
    end = at;
  }
  const std::string computation = name.substr(0, end);
  const std::string& mask_text = parts[0];
  const std::string& variant = parts[1];
  const std::optional<cuda::Dtype> out = dtype_named(parts[2]);
  const std::optional<cuda::Dtype> in = dtype_named(parts[3]);
  if (mask_text.size() < 2 || mask_text[0] != 's' || !in) return std::nullopt;
  const uint32_t mask = static_cast<uint32_t>(std::stoul(mask_text.substr(1)));
  const bool dynamic = variant == "dynamic";
  const bool contiguous = variant.rfind("vec", 0) == 0;
  if (!dynamic && !contiguous && variant != "strided") return std::nullopt;
  if (!dynamic && !out) return std::nullopt;
  Substitute s;
  s.from_contiguous = contiguous;
  s.input_code = cuda::code(*in);
  s.output_code = cuda::code(dynamic ? *in : *out);
  s.compute_code = cuda::code(cuda::compute_dtype(*in));
  // A contiguous kernel as the strided kernel of the same types (fills and copies have no
  // dynamic kernel), then as the dynamic kernel.
  if (contiguous) {
    s.name = computation + "__" + parts[3] + "__" + parts[2] + "__strided__" + mask_text;
    s.kernel = emulation::find_emulated_kernel(s.name);
    if (s.kernel) return s;
  }
  const std::string base = computation + "__" + parts[3] + "__any__dynamic__s";
  if (!dynamic) {
    s.name = base + std::to_string(mask);
    s.kernel = emulation::find_emulated_kernel(s.name);
    if (s.kernel) return s;
  }
  if (mask == 0) return std::nullopt;
  s.name = base + "0";
  s.kernel = emulation::find_emulated_kernel(s.name);
  s.materialize_mask = mask;
  if (!s.kernel) return std::nullopt;
  return s;
}

std::vector<char> substitute_params(const Substitute& s, const void* original) {
  std::vector<char> block(kStoredValues + jit::kMaxOperands * sizeof(jit::Value));
  auto* args = reinterpret_cast<jit::StridedArgs*>(block.data());
  if (s.from_contiguous) {
    jit::ContiguousArgs c;
    std::memcpy(&c, original, sizeof c);
    *args = jit::StridedArgs{};
    args->numel = c.numel;
    std::memcpy(args->data, c.data, sizeof c.data);
    std::memcpy(args->values, c.values, sizeof c.values);
    // One dimension of contiguous operands: the output of its dtype, inputs of S.
    args->offsets.ndim = 1;
    args->offsets.sizes[0] = cuda::fast_divider(c.numel);
    for (int k = 0; k < jit::kMaxOperands; ++k) {
      const int32_t dtype = k == 0 ? s.output_code : s.input_code;
      args->dtypes[k] = dtype;
      args->offsets.strides[0][k] =
          static_cast<uint32_t>(cuda::info(cuda::dtype_of_code(dtype)).itemsize);
    }
  } else {
    std::memcpy(args, original, sizeof *args);
    // Static strided kernels were planned with each operand's dtype already.
  }
  // By-value inputs as operands of stride 0, held in the compute dtype.
  for (int i = 0; i + 1 < jit::kMaxOperands; ++i) {
    if (((s.materialize_mask >> i) & 1u) == 0) continue;
    char* stored = block.data() + kStoredValues + static_cast<size_t>(i) * sizeof(jit::Value);
    std::memcpy(stored, &args->values[i], sizeof(jit::Value));
    args->data[1 + i] = stored;
    args->dtypes[1 + i] = s.compute_code;
    for (int d = 0; d < jit::kMaxDims; ++d) args->offsets.strides[d][1 + i] = 0;
  }
  return block;
}

}  // namespace bp::emulated_cuda
