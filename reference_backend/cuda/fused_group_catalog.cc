#include "reference_backend/cuda/fused_group_catalog.h"

#include <optional>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/fused_group.h"

namespace bp::cuda {

std::vector<FusedCatalogEntry> fused_group_catalog() {
  return {
      {"gelu_mul_add", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [96], "strides": [1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [96], "strides": [1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0}],
  "nodes": [
    {"op": "mul.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"buffer": 1, "index_strides": [0, 1]}}]},
    {"op": "add.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 0, "index_strides": [96, 1]}},
              {"load": {"buffer": 2, "index_strides": [0, 1]}},
              {"value": 1, "type": "Scalar"}]},
    {"op": "gelu", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 1, "index_strides": [96, 1]}},
              {"value": "none", "type": "str"}]}],
  "output": {"node": 2, "buffer": 3}})"},
      {"exp_sub_amax_sum", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64], "strides": [1], "storage_offset": 0}],
  "nodes": [
    {"op": "amax", "kind": "reduction", "math": "", "dtype": "float32", "sizes": [64, 1],
     "ranges": [64, 96], "reduction_dims": [1], "keepdim": true,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"value": [-1], "type": "int[]"}, {"value": true, "type": "bool"}]},
    {"op": "sub.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"node": 0, "index_strides": [1, 0]}},
              {"value": 1, "type": "Scalar"}]},
    {"op": "exp", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 1, "index_strides": [96, 1]}}]},
    {"op": "sum.dim_IntList", "kind": "reduction", "math": "", "dtype": "float32", "sizes": [64],
     "ranges": [64, 96], "reduction_dims": [1], "keepdim": false,
     "args": [{"load": {"node": 2, "index_strides": [96, 1]}},
              {"value": [-1], "type": "int[]"}, {"value": false, "type": "bool"},
              {"value": null, "type": "None"}]}],
  "output": {"node": 3, "buffer": 1}})"},
      {"exp_sub_amax", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0}],
  "nodes": [
    {"op": "amax", "kind": "reduction", "math": "", "dtype": "float32", "sizes": [64, 1],
     "ranges": [64, 96], "reduction_dims": [1], "keepdim": true,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"value": [-1], "type": "int[]"}, {"value": true, "type": "bool"}]},
    {"op": "sub.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"node": 0, "index_strides": [1, 0]}},
              {"value": 1, "type": "Scalar"}]},
    {"op": "exp", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 1, "index_strides": [96, 1]}}]}],
  "output": {"node": 2, "buffer": 1}})"},
      {"tanh_add_mul_half", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float16", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float16", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float16", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0}],
  "nodes": [
    {"op": "add.Tensor", "kind": "pointwise", "math": "", "dtype": "float16", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"buffer": 1, "index_strides": [96, 1]}},
              {"value": 1, "type": "Scalar"}]},
    {"op": "tanh", "kind": "pointwise", "math": "", "dtype": "float16", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 0, "index_strides": [96, 1]}}]},
    {"op": "mul.Tensor", "kind": "pointwise", "math": "", "dtype": "float16", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 1, "index_strides": [96, 1]}},
              {"load": {"buffer": 0, "index_strides": [96, 1]}}]}],
  "output": {"node": 2, "buffer": 2}})"},
      {"relu_mul_mixed", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float16", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [96], "strides": [1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0}],
  "nodes": [
    {"op": "mul.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"buffer": 1, "index_strides": [0, 1]}}]},
    {"op": "relu", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 0, "index_strides": [96, 1]}}]}],
  "output": {"node": 1, "buffer": 2}})"},
      {"exp_mul_scalar", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0}],
  "nodes": [
    {"op": "mul.Tensor", "kind": "pointwise", "math": "Mul", "dtype": "float32",
     "sizes": [64, 96], "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"scalar": {"value": 0.5, "dtype": "float64", "wrapped_number": true}}]},
    {"op": "exp", "kind": "pointwise", "math": "Exp", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"node": 0, "index_strides": [96, 1]}}]}],
  "output": {"node": 1, "buffer": 1}})"},
      {"mean_mul", R"({"format": "backplane.fused_group/1", "device": "cuda:0",
  "buffers": [
    {"dtype": "float32", "sizes": [64, 96], "strides": [96, 1], "storage_offset": 0},
    {"dtype": "float32", "sizes": [64], "strides": [1], "storage_offset": 0}],
  "nodes": [
    {"op": "mul.Tensor", "kind": "pointwise", "math": "", "dtype": "float32", "sizes": [64, 96],
     "ranges": [64, 96], "reduction_dims": [], "keepdim": false,
     "args": [{"load": {"buffer": 0, "index_strides": [96, 1]}},
              {"load": {"buffer": 0, "index_strides": [96, 1]}}]},
    {"op": "mean.dim", "kind": "reduction", "math": "", "dtype": "float32", "sizes": [64],
     "ranges": [64, 96], "reduction_dims": [1], "keepdim": false,
     "args": [{"load": {"node": 0, "index_strides": [96, 1]}},
              {"value": [-1], "type": "int[]"}, {"value": false, "type": "bool"},
              {"value": null, "type": "None"}]}],
  "output": {"node": 1, "buffer": 1}})"},
  };
}

std::vector<FusedKernel> fused_catalog_kernels() {
  std::vector<FusedKernel> kernels;
  for (const FusedCatalogEntry& e : fused_group_catalog()) {
    std::string why_not;
    const std::optional<FusedGroup> group = parse_fused_group(e.json, &why_not);
    BP_CUDA_INTERNAL_CHECK(group.has_value(),
                           "fused catalogue entry " + e.name + " is declined: " + why_not);
    kernels.push_back(fused_kernel_of(*group));
  }
  return kernels;
}

}  // namespace bp::cuda
