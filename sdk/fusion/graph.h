// The fusion IR: the pointwise and reduction calls a lazy scope recorded, in call order.
//
//   Graph g;
//   int mul = g.add(Node{NodeKind::kPointwise, op, info, args, producers, result});
//   g.producer_of(t);          // the node whose result `t` is, or -1
//
// A node is one functional op call: its boxed arguments (tensors that are other nodes' results
// are listed in `producers`), the op's kind, and its result tensor, whose sizes, strides and
// dtype the op's meta function chose when the call was recorded and whose storage is allocated
// but not yet written (pending). Over index ranges, as Inductor's IR has it:
//   Pointwise  ranges = result.sizes(); each tensor argument is a load whose index is the range
//              index broadcast to the argument (strides of 0 along broadcast dimensions);
//   Reduction  ranges = the input's sizes; `reduced_dims` of them are reduced (`keepdim` keeps
//              them as size 1 in the result).
// View ops are not nodes: they move no data, so a lazy scope runs them at once; a view of a
// pending result is an outside tensor over pending memory, i.e. a load with other strides from a
// buffer that must be realised first (scheduler.h).
//
// Thread safety: a Graph is not synchronised (lazy.cc guards it).
#ifndef BACKPLANE_SDK_FUSION_GRAPH_H_
#define BACKPLANE_SDK_FUSION_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/operator_handle.h"
#include "sdk/dispatch/value.h"
#include "sdk/ops/op_table.h"

namespace bp::fusion {

enum class NodeKind : uint8_t { kPointwise, kReduction };

// "pointwise" or "reduction".
const char* node_kind_name(NodeKind kind);

struct Node {
  NodeKind kind;
  OperatorHandle op;  // the functional op, e.g. bp::mul.Tensor
  // Its out= variant (the functional arguments, then `out`), when it has one: a root writes its
  // result through it.
  std::optional<OperatorHandle> out_op;
  const OpInfo* info;          // its declaration (structured group, math functor, tags)
  Stack args;                  // the call's arguments as recorded
  std::vector<int> producers;  // per argument: the node whose result it is, or -1
  Tensor result;               // geometry from the meta function; contents pending
  // Reductions: the reduced dimensions of the input (wrapped, ascending) and keepdim.
  std::vector<int64_t> reduced_dims;
  bool keepdim = false;
};

class Graph {
 public:
  // Appends `node`; returns its index. Its result must not be a result already in the graph.
  int add(Node node);

  const std::vector<Node>& nodes() const { return nodes_; }
  bool empty() const { return nodes_.empty(); }
  // The node whose result is `t` (the same TensorImpl), or -1.
  int producer_of(const Tensor& t) const;

 private:
  std::vector<Node> nodes_;
  absl::flat_hash_map<const TensorImpl*, int> by_result_;
};

// "bp::gelu.default(%2, approximate='none') -> float32[4096, 4096]" per node, one per line, for
// tests and the docs.
std::string to_string(const Graph& graph);

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_GRAPH_H_
