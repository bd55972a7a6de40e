#include "conformance/framework/sample.h"

#include <sstream>

namespace bp::conformance {

Sample& Sample::set(const std::string& name, SampleValue v) {
  for (SampleArg& a : args) {
    if (a.name == name) {
      a.value = std::move(v);
      return *this;
    }
  }
  args.push_back({name, std::move(v)});
  return *this;
}

const SampleArg* Sample::find(const std::string& name) const {
  for (const SampleArg& a : args) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string describe(const Tensor& t) {
  std::ostringstream out;
  out << scalar_type_name(t.dtype()) << int_list_string(t.sizes());
  bool expanded = false;
  for (int64_t d = 0; d < t.dim(); ++d) expanded |= t.strides()[d] == 0 && t.sizes()[d] > 1;
  if (expanded) {
    out << "{E}";
  } else if (!t.is_contiguous()) {
    out << (t.is_contiguous(MemoryFormat::kChannelsLast) ? "{CL}" : "{T}");
  }
  if (t.storage_offset() != 0) out << "{+" << t.storage_offset() << "}";
  if (t.is_wrapped_number()) out << "{number}";
  return out.str();
}

std::string list_element_name(const std::string& name, size_t index) {
  return name + "[" + std::to_string(index) + "]";
}

std::string describe(const Sample& sample) {
  std::ostringstream out;
  for (size_t i = 0; i < sample.args.size(); ++i) {
    const SampleArg& a = sample.args[i];
    out << (i ? " " : "") << a.name << "=";
    if (const auto* t = std::get_if<TensorArg>(&a.value)) {
      out << describe(t->host) << (t->keep_on_host ? "{host}" : "");
    } else if (const auto* list = std::get_if<TensorListArg>(&a.value)) {
      out << "[";
      for (size_t k = 0; k < list->host.size(); ++k)
        out << (k ? ", " : "") << describe(list->host[k]);
      out << "]";
    } else if (std::holds_alternative<DeviceUnderTest>(a.value)) {
      out << "<device>";
    } else {
      out << std::get<Value>(a.value);
    }
  }
  return out.str();
}

}  // namespace bp::conformance
