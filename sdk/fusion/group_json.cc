#include "sdk/fusion/group_json.h"

#include <algorithm>
#include <sstream>

#include "nlohmann/json.hpp"
#include "sdk/core/scalar_type.h"
#include "sdk/ops/ops.h"

namespace bp::fusion {
namespace {

using nlohmann::json;

std::vector<int64_t> to_vector(IntArrayRef v) { return std::vector<int64_t>(v.begin(), v.end()); }

std::vector<int64_t> contiguous(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * std::max<int64_t>(sizes[d], 1);
  return strides;
}

// The element offset per step of each of `ranges` for an argument of `sizes` / `strides`
// broadcast to them (right-aligned; size-1 and missing dimensions step 0).
std::vector<int64_t> index_strides(IntArrayRef ranges, IntArrayRef sizes,
                                   const std::vector<int64_t>& strides) {
  std::vector<int64_t> out(ranges.size(), 0);
  const int64_t shift = static_cast<int64_t>(ranges.size()) - static_cast<int64_t>(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t r = static_cast<int64_t>(d) + shift;
    if (r >= 0 && sizes[d] != 1) out[r] = strides[d];
  }
  return out;
}

json value_json(const Value& v) {
  json j;
  switch (v.tag()) {
    case Value::Tag::kNone:
      j["value"] = nullptr;
      break;
    case Value::Tag::kBool:
      j["value"] = v.ref<bool>();
      break;
    case Value::Tag::kInt:
      j["value"] = v.ref<int64_t>();
      break;
    case Value::Tag::kDouble:
      j["value"] = v.ref<double>();
      break;
    case Value::Tag::kString:
      j["value"] = v.ref<std::string>();
      break;
    case Value::Tag::kScalarType:
      j["value"] = std::string(scalar_type_name(v.ref<ScalarType>()));
      break;
    case Value::Tag::kIntList:
      j["value"] = v.ref<std::vector<int64_t>>();
      break;
    case Value::Tag::kScalar: {
      const Scalar s = v.to<Scalar>();
      if (s.is_boolean()) {
        j["value"] = s.to<bool>();
      } else if (s.is_integral(false)) {
        j["value"] = s.to<int64_t>();
      } else if (s.is_floating_point()) {
        j["value"] = s.to<double>();
      } else {
        std::ostringstream text;
        text << v;
        j["value"] = text.str();
      }
      break;
    }
    default: {
      std::ostringstream text;
      text << v;
      j["value"] = text.str();
    }
  }
  j["type"] = std::string(Value::tag_name(v.tag()));
  return j;
}

Device result_device(const Graph& graph, const Group& group) {
  return graph.nodes()[group.root].result.device();
}

// The scalar functor of the op, declared on it or on its structured group's out= op.
std::string_view math_of(const OpInfo& info) {
  if (!info.math.empty() || info.structured_group.empty()) return info.math;
  const OpInfo* out = find_op_info(info.structured_group);
  return out == nullptr ? std::string_view() : out->math;
}

// A 0-dim CPU tensor (a number the caller wrote, or a CPU scalar beside device tensors) as its
// value, so a device needs no host memory access to read it.
json scalar_tensor_json(const Tensor& t) {
  const ScalarType dtype = t.dtype();
  json value;
  if (dtype == ScalarType::kBool) {
    value = *t.data_ptr<bool>();
  } else if (is_integral(dtype, false)) {
    value = *t.to(ScalarType::kInt64).data_ptr<int64_t>();
  } else if (is_floating_point(dtype)) {
    value = *t.to(ScalarType::kFloat64).data_ptr<double>();
  } else {
    const Tensor c = t.to(ScalarType::kComplex128);
    const double* p = static_cast<const double*>(c.data_ptr());
    value = {p[0], p[1]};  // [real, imaginary]
  }
  return {{"scalar",
           {{"value", value},
            {"dtype", std::string(scalar_type_name(dtype))},
            {"wrapped_number", t.is_wrapped_number()}}}};
}

}  // namespace

std::string group_to_json(const Graph& graph, const Schedule& schedule, const Group& group,
                          std::vector<Tensor>* buffers) {
  buffers->clear();
  auto buffer_of = [&](const Tensor& t) {
    for (size_t i = 0; i < buffers->size(); ++i) {
      if ((*buffers)[i].is_same(t)) return static_cast<int>(i);
    }
    buffers->push_back(t);
    return static_cast<int>(buffers->size() - 1);
  };
  json nodes = json::array();
  absl::flat_hash_map<int, int> position;  // graph node -> index in "nodes"
  for (int n : group.nodes) {
    const Node& node = graph.nodes()[n];
    const Tensor& first = node.args[0].ref<Tensor>();
    const IntArrayRef ranges =
        node.kind == NodeKind::kPointwise ? node.result.sizes() : first.sizes();
    json args = json::array();
    for (size_t a = 0; a < node.args.size(); ++a) {
      const Value& v = node.args[a];
      if (!v.is_tensor()) {
        args.push_back(value_json(v));
        continue;
      }
      const Tensor& t = v.ref<Tensor>();
      const int p = node.producers[a];
      if (p < 0 && t.dim() == 0 && t.device().type == DeviceType::kCPU &&
          result_device(graph, group).type != DeviceType::kCPU) {
        args.push_back(scalar_tensor_json(t));
        continue;
      }
      json load;
      if (p >= 0 && !schedule.realised[p]) {
        load["node"] = position.at(p);
        load["index_strides"] = index_strides(ranges, t.sizes(), contiguous(t.sizes()));
      } else {
        load["buffer"] = buffer_of(t);
        load["index_strides"] = index_strides(ranges, t.sizes(), to_vector(t.strides()));
      }
      args.push_back({{"load", load}});
    }
    json j = {{"op", node.op.name().substr(node.op.name().find("::") + 2)},
              {"kind", node_kind_name(node.kind)},
              {"structured_group", std::string(node.info->structured_group)},
              {"math", std::string(math_of(*node.info))},
              {"dtype", std::string(scalar_type_name(node.result.dtype()))},
              {"sizes", to_vector(node.result.sizes())},
              {"ranges", to_vector(ranges)},
              {"reduction_dims", node.reduced_dims},
              {"keepdim", node.keepdim},
              {"args", args}};
    position[n] = static_cast<int>(nodes.size());
    nodes.push_back(std::move(j));
  }
  const Tensor& result = graph.nodes()[group.root].result;
  const int out = buffer_of(result);
  json buffer_list = json::array();
  for (const Tensor& t : *buffers) {
    buffer_list.push_back({{"dtype", std::string(scalar_type_name(t.dtype()))},
                           {"sizes", to_vector(t.sizes())},
                           {"strides", to_vector(t.strides())},
                           {"storage_offset", t.storage_offset()}});
  }
  std::ostringstream device;
  device << result.device();
  json group_json = {{"format", "backplane.fused_group/1"},
                     {"device", device.str()},
                     {"buffers", buffer_list},
                     {"nodes", nodes},
                     {"output", {{"node", position.at(group.root)}, {"buffer", out}}}};
  return group_json.dump();
}

}  // namespace bp::fusion
