// The scheduler: which recorded results are realised (written to memory), how the rest fuse into
// groups, and how each group is cut into tiles.
//
//   Schedule s = schedule(graph, /*tile_bytes=*/256 << 10);
//   for (const Group& g : s.groups) run(g);        // in order: a group's inputs come first
//
// Rules (docs/fusion.md):
//   - a result is realised when code outside the graph holds it (the caller's tensor, a call
//     that is about to read it), when a view shares its memory, when more than one node reads
//     it, or when its reader runs on another device;
//   - a result nobody holds and nobody reads is dead: neither it nor what only it reads is
//     computed;
//   - every other result has exactly one reader and is fused into it: a group is a realised
//     result (its root) with the unrealised results it reads, transitively. Pointwise nodes fuse
//     into pointwise and reduction nodes, reductions into pointwise nodes and other reductions
//     (softmax's max, then the sum of exponentials, run row by row in one group);
//   - a group runs tile by tile along one dimension of its root that every node of the group
//     keeps (no reduction over it, no broadcast of an internal result along it); tiles are as
//     long as fit `tile_bytes` of the group's results and sliced inputs together, so that the
//     values passed between the group's ops stay in cache. A group with no such dimension runs in
//     one piece.
//
// Thread safety: pure.
#ifndef BACKPLANE_SDK_FUSION_SCHEDULER_H_
#define BACKPLANE_SDK_FUSION_SCHEDULER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/fusion/graph.h"

namespace bp::fusion {

struct Group {
  int root = -1;           // the realised node the group computes
  std::vector<int> nodes;  // the group's nodes in call order (the root last)
  // The group runs in tiles of `tile` along `extent` of the root's dimension `root_axis`
  // (root_axis -1: in one piece).
  int root_axis = -1;
  int64_t extent = 0;
  int64_t tile = 0;
  // Per node of the group (indexed like `nodes`): the dimension of its result that a tile
  // slices. Per node and argument: the dimension of an outside tensor argument that a tile
  // slices, or -1 when every tile reads all of it (broadcast along the axis, scalars).
  std::vector<int> node_axis;
  std::vector<std::vector<int>> arg_axis;

  int64_t num_tiles() const { return root_axis < 0 ? 1 : (extent + tile - 1) / tile; }
};

struct Schedule {
  std::vector<Group> groups;   // in execution order
  std::vector<bool> realised;  // per node
  int dead = 0;                // nodes not computed: nothing could read their results
};

Schedule schedule(const Graph& graph, int64_t tile_bytes);

// "group %3 <- {%0, %1, %2}, tiles of 16 along dim 0 of 4096" per group, for tests and logs.
std::string to_string(const Schedule& schedule);

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_SCHEDULER_H_
