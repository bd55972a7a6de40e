#include "sdk/fusion/scheduler.h"

#include <algorithm>
#include <sstream>

namespace bp::fusion {
namespace {

// Who reads each node's result: (reader node, argument index) pairs.
using Readers = std::vector<std::vector<std::pair<int, int>>>;

Readers readers_of(const Graph& graph) {
  Readers readers(graph.nodes().size());
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    for (size_t a = 0; a < node.producers.size(); ++a) {
      if (node.producers[a] >= 0) readers[node.producers[a]].push_back({static_cast<int>(n), a});
    }
  }
  return readers;
}

// Whether code outside the graph holds the node's result, or a view shares its memory. The graph
// holds one reference as the node's result and one per argument slot that reads it.
bool held_outside(const Node& node, size_t reader_slots) {
  return node.result.use_count() > 1 + reader_slots || node.result.storage().use_count() > 1;
}

// Assigns tile axes from the root down; false when some node cannot keep `root_axis`.
bool assign_axes(const Graph& graph, const std::vector<bool>& realised, Group& group,
                 int root_axis) {
  const std::vector<Node>& nodes = graph.nodes();
  const int64_t extent = nodes[group.root].result.sizes()[root_axis];
  absl::flat_hash_map<int, int> axis_of;  // node -> axis of its result
  axis_of[group.root] = root_axis;
  group.node_axis.assign(group.nodes.size(), -1);
  group.arg_axis.assign(group.nodes.size(), {});
  for (size_t i = group.nodes.size(); i-- > 0;) {
    const int n = group.nodes[i];
    const Node& node = nodes[n];
    const int axis = axis_of.at(n);
    group.node_axis[i] = axis;
    group.arg_axis[i].assign(node.args.size(), -1);
    const int64_t out_rank = node.result.dim();
    for (size_t a = 0; a < node.args.size(); ++a) {
      if (!node.args[a].is_tensor()) continue;
      const Tensor& t = node.args[a].ref<Tensor>();
      int64_t arg_axis = -1;
      if (node.kind == NodeKind::kPointwise) {
        arg_axis = axis - (out_rank - t.dim());
      } else if (a == 0) {
        if (node.keepdim) {
          arg_axis = axis;
        } else {
          // The axis-th dimension the reduction keeps.
          int64_t kept = -1;
          for (int64_t d = 0; d < t.dim(); ++d) {
            if (std::binary_search(node.reduced_dims.begin(), node.reduced_dims.end(), d)) {
              continue;
            }
            if (++kept == axis) {
              arg_axis = d;
              break;
            }
          }
        }
        if (std::binary_search(node.reduced_dims.begin(), node.reduced_dims.end(), arg_axis)) {
          return false;
        }
      }
      const bool sliced = arg_axis >= 0 && arg_axis < t.dim() && t.sizes()[arg_axis] != 1;
      if (sliced && t.sizes()[arg_axis] != extent) return false;
      const int p = node.producers[a];
      if (p >= 0 && !realised[p]) {
        if (!sliced) return false;  // an internal result read whole by every tile
        axis_of[p] = static_cast<int>(arg_axis);
      } else {
        group.arg_axis[i][a] = sliced ? static_cast<int>(arg_axis) : -1;
      }
    }
  }
  return true;
}

void choose_tiles(const Graph& graph, const std::vector<bool>& realised, Group& group,
                  int64_t tile_bytes) {
  const Tensor& root = graph.nodes()[group.root].result;
  for (int axis = 0; axis < root.dim(); ++axis) {
    if (root.sizes()[axis] <= 1 || !assign_axes(graph, realised, group, axis)) continue;
    group.root_axis = axis;
    group.extent = root.sizes()[axis];
    // Bytes one step along the axis touches: every result of the group and every sliced input.
    int64_t bytes = 0;
    for (size_t i = 0; i < group.nodes.size(); ++i) {
      const Node& node = graph.nodes()[group.nodes[i]];
      bytes += node.result.numel() / group.extent * static_cast<int64_t>(node.result.itemsize());
      for (size_t a = 0; a < node.args.size(); ++a) {
        if (group.arg_axis[i][a] < 0) continue;
        const Tensor& t = node.args[a].ref<Tensor>();
        bytes += t.numel() / group.extent * static_cast<int64_t>(t.itemsize());
      }
    }
    group.tile = std::clamp<int64_t>(tile_bytes / std::max<int64_t>(bytes, 1), 1, group.extent);
    return;
  }
  group.root_axis = -1;
  group.node_axis.assign(group.nodes.size(), -1);
  group.arg_axis.clear();
  for (int n : group.nodes) group.arg_axis.emplace_back(graph.nodes()[n].args.size(), -1);
}

}  // namespace

Schedule schedule(const Graph& graph, int64_t tile_bytes) {
  const std::vector<Node>& nodes = graph.nodes();
  const Readers readers = readers_of(graph);
  Schedule s;
  s.realised.assign(nodes.size(), false);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const auto& r = readers[n];
    const bool other_device =
        r.size() == 1 && nodes[r[0].first].result.device() != nodes[n].result.device();
    s.realised[n] = held_outside(nodes[n], r.size()) || r.size() > 1 || other_device;
  }
  // Groups from each realised root back through the unrealised results it reads.
  std::vector<bool> computed(nodes.size(), false);
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!s.realised[n]) continue;
    Group g;
    g.root = static_cast<int>(n);
    std::vector<int> stack = {g.root};
    while (!stack.empty()) {
      const int m = stack.back();
      stack.pop_back();
      g.nodes.push_back(m);
      computed[m] = true;
      for (int p : nodes[m].producers) {
        if (p >= 0 && !s.realised[p]) stack.push_back(p);
      }
    }
    std::sort(g.nodes.begin(), g.nodes.end());
    choose_tiles(graph, s.realised, g, tile_bytes);
    s.groups.push_back(std::move(g));
  }
  s.dead = static_cast<int>(std::count(computed.begin(), computed.end(), false));
  return s;
}

std::string to_string(const Schedule& schedule) {
  std::ostringstream out;
  for (const Group& g : schedule.groups) {
    out << "group %" << g.root << " <- {";
    for (size_t i = 0; i < g.nodes.size(); ++i) out << (i ? ", " : "") << "%" << g.nodes[i];
    out << "}";
    if (g.root_axis >= 0) {
      out << ", tiles of " << g.tile << " along dim " << g.root_axis << " of " << g.extent;
    } else {
      out << ", in one piece";
    }
    out << "\n";
  }
  if (schedule.dead > 0) out << schedule.dead << " dead\n";
  return out.str();
}

}  // namespace bp::fusion
