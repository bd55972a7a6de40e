#include "sdk/fusion/cpu_tiled.h"

#include <algorithm>

#include "sdk/core/empty.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/views.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/iter/parallel.h"

namespace bp::fusion {
namespace {

const OperatorHandle& copy_op() {
  static const OperatorHandle op = Dispatcher::singleton().find_op_or_throw("copy_");
  return op;
}

// Runs a group's tiles; each internal node with an out= variant writes into a tile-sized
// buffer made once per Runner and reused by every tile (no allocation per tile), so the values
// passed between the group's ops stay in the same cache lines from tile to tile.
class Runner {
 public:
  Runner(const Graph& graph, const Schedule& schedule, const Group& group)
      : graph_(graph), schedule_(schedule), group_(group), values_(group.nodes.size()) {
    const bool tiled = group.root_axis >= 0;
    scratch_.resize(group.nodes.size());
    for (size_t i = 0; i < group.nodes.size(); ++i) {
      const Node& node = graph.nodes()[group.nodes[i]];
      if (group.nodes[i] == group.root || !node.out_op) continue;
      std::vector<int64_t> sizes(node.result.sizes().begin(), node.result.sizes().end());
      if (tiled) sizes[group.node_axis[i]] = std::min(group.tile, group.extent);
      // In the result's order of dimensions: a kernel may take another path (vectorised or
      // not) for another layout, and the value must be eager's to the bit.
      scratch_[i] = native::empty_strided(sizes, infer_dense_strides(sizes, node.result.strides()),
                                          node.result.dtype(), node.result.device());
    }
  }

  // Runs the group's nodes over elements [start, start + length) of the tile axis (the whole
  // group when it is in one piece).
  void run_tile(int64_t start, int64_t length) {
    const bool tiled = group_.root_axis >= 0;
    for (size_t i = 0; i < group_.nodes.size(); ++i) {
      const int n = group_.nodes[i];
      const Node& node = graph_.nodes()[n];
      const bool is_root = n == group_.root;
      Stack stack;
      stack.reserve(node.args.size() + 1);
      for (size_t a = 0; a < node.args.size(); ++a) {
        const int p = node.producers[a];
        if (p >= 0 && !schedule_.realised[p]) {
          stack.emplace_back(value_of(p));
        } else if (tiled && group_.arg_axis[i][a] >= 0) {
          stack.emplace_back(
              native::narrow(node.args[a].ref<Tensor>(), group_.arg_axis[i][a], start, length));
        } else {
          stack.push_back(node.args[a]);
        }
      }
      Tensor dest;
      if (is_root) {
        dest =
            tiled ? native::narrow(node.result, group_.node_axis[i], start, length) : node.result;
      } else if (scratch_[i].defined()) {
        dest = tiled && length != scratch_[i].sizes()[group_.node_axis[i]]
                   ? native::narrow(scratch_[i], group_.node_axis[i], 0, length)
                   : scratch_[i];
      }
      if (dest.defined() && node.out_op) {
        stack.emplace_back(dest);
        node.out_op->call_boxed(&stack);
        if (!is_root) values_[i] = std::move(dest);
        continue;
      }
      node.op.call_boxed(&stack);
      if (!is_root) {
        values_[i] = std::move(stack.back().ref<Tensor>());
        continue;
      }
      Stack copy;
      copy.emplace_back(dest);
      copy.emplace_back(std::move(stack.back()));
      copy.emplace_back(false);
      copy_op().call_boxed(&copy);
    }
  }

 private:
  const Tensor& value_of(int producer) const {
    auto it = std::lower_bound(group_.nodes.begin(), group_.nodes.end(), producer);
    return values_[it - group_.nodes.begin()];
  }

  const Graph& graph_;
  const Schedule& schedule_;
  const Group& group_;
  std::vector<Tensor> scratch_;  // per node: its tile buffer (internal nodes with out=)
  std::vector<Tensor> values_;   // per node: its value in the current tile
};

}  // namespace

void run_group_tiled(const Graph& graph, const Schedule& schedule, const Group& group) {
  if (group.root_axis < 0 || group.num_tiles() == 1) {
    Runner(graph, schedule, group).run_tile(0, group.extent);
    return;
  }
  parallel_for(0, group.num_tiles(), 1, [&](int64_t begin, int64_t end) {
    Runner runner(graph, schedule, group);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t start = t * group.tile;
      runner.run_tile(start, std::min(group.tile, group.extent - start));
    }
  });
}

}  // namespace bp::fusion
