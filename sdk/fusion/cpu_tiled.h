// Runs a scheduled group on the host: tile by tile, each node as a call of its op (below the Lazy
// key) on the tile's slices, so every value passed between the group's ops is a tile that stays
// in cache, and the root writes its tile straight into its realised result through the op's out=
// variant.
//
//   run_group_tiled(graph, schedule, group);
//
// Every op runs its own kernel (vectorised, same dtype rules, same rounding), so a fused result
// equals eager's bit for bit wherever eager's result does not depend on how it is cut (pointwise
// ops; a reduction reduces the same elements in the same order per output element when the tile
// keeps whole rows, which the scheduler guarantees by tiling only along kept dimensions).
// Tiles run in parallel (parallel_for, one tile per task); a group in one piece runs each op on
// whole tensors, so the ops parallelise inside as eager does. Groups on devices other than the
// CPU run in one piece too: that is "splitting the group into ops" for a plugin that does not
// take fused groups (group_runners.h).
//
// Errors: those of the ops (none are expected: the meta functions checked every call when it was
// recorded).
// Thread safety: the caller holds the graph; tiles write disjoint slices of the root's result.
#ifndef BACKPLANE_SDK_FUSION_CPU_TILED_H_
#define BACKPLANE_SDK_FUSION_CPU_TILED_H_

#include "sdk/fusion/graph.h"
#include "sdk/fusion/scheduler.h"

namespace bp::fusion {

void run_group_tiled(const Graph& graph, const Schedule& schedule, const Group& group);

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_CPU_TILED_H_
