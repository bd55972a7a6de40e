// A fused group as JSON: what a plugin's group runner (group_runners.h) receives.
//
//   std::vector<Tensor> buffers;
//   std::string text = group_to_json(graph, schedule, group, &buffers);
//
// Format "backplane.fused_group/1" (docs/fusion.md has an example):
//   buffers  the tensors the group touches, outside inputs first (in order of first use), its
//            result last: dtype, sizes, strides and storage_offset (in elements);
//   nodes    the group's nodes in call order, each: op ("mul.Tensor"), structured_group (the
//            out= op it runs through, "mul.out", or ""), kind ("pointwise" or "reduction"), math
//            (the scalar functor of reference_backend/math, or ""), dtype and sizes of its result,
//            ranges (pointwise: the result's sizes; reduction: the input's) with reduction_dims and
//            keepdim, and args, one per schema argument:
//              {"load": {"buffer": i, "index_strides": [...]}}  an outside tensor,
//              {"load": {"node": j, "index_strides": [...]}}    node j's value (contiguous),
//            index_strides giving the element offset per step of each range (0: broadcast), or
//              {"scalar": {"value": v, "dtype": "int64", "wrapped_number": true}}  a 0-dim
//                                                     CPU tensor beside device tensors, or
//              {"value": <bool|number|string|list|null>, "type": "Scalar"|"int[]"|...};
//   output   {"node": j, "buffer": i}: the node whose value the group stores, and where.
//
// Thread safety: pure.
#ifndef BACKPLANE_SDK_FUSION_GROUP_JSON_H_
#define BACKPLANE_SDK_FUSION_GROUP_JSON_H_

#include <string>
#include <vector>

#include "sdk/fusion/graph.h"
#include "sdk/fusion/scheduler.h"

namespace bp::fusion {

std::string group_to_json(const Graph& graph, const Schedule& schedule, const Group& group,
                          std::vector<Tensor>* buffers);

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_GROUP_JSON_H_
