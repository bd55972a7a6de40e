#include "sdk/fusion/graph.h"

#include <sstream>

#include "sdk/core/error.h"

namespace bp::fusion {

const char* node_kind_name(NodeKind kind) {
  return kind == NodeKind::kPointwise ? "pointwise" : "reduction";
}

int Graph::add(Node node) {
  const int index = static_cast<int>(nodes_.size());
  BP_INTERNAL_ASSERT(by_result_.emplace(node.result.impl(), index).second);
  nodes_.push_back(std::move(node));
  return index;
}

int Graph::producer_of(const Tensor& t) const {
  if (!t.defined()) return -1;
  auto it = by_result_.find(t.impl());
  return it == by_result_.end() ? -1 : it->second;
}

std::string to_string(const Graph& graph) {
  std::ostringstream out;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    out << "%" << i << " = " << node_kind_name(n.kind) << " " << n.op.name() << "(";
    for (size_t a = 0; a < n.args.size(); ++a) {
      if (a) out << ", ";
      if (n.producers[a] >= 0) {
        out << "%" << n.producers[a];
      } else if (n.args[a].is_tensor()) {
        const Tensor& t = n.args[a].ref<Tensor>();
        out << scalar_type_name(t.dtype()) << "[";
        for (int64_t d = 0; d < t.dim(); ++d) out << (d ? ", " : "") << t.sizes()[d];
        out << "]";
      } else {
        out << n.args[a];
      }
    }
    out << ") -> " << scalar_type_name(n.result.dtype()) << "[";
    for (int64_t d = 0; d < n.result.dim(); ++d) out << (d ? ", " : "") << n.result.sizes()[d];
    out << "]\n";
  }
  return out.str();
}

}  // namespace bp::fusion
