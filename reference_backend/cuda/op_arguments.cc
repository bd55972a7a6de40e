#include "reference_backend/cuda/op_arguments.h"

namespace bp::cuda {
namespace {

constexpr OpArguments kOps[] = {
#include "reference_backend/cuda/op_arguments.inc"
};

}  // namespace

int OpArguments::index_of(std::string_view name) const {
  int index = 0;
  size_t begin = 0;
  while (begin <= names.size()) {
    size_t end = names.find(',', begin);
    if (end == std::string_view::npos) end = names.size();
    if (names.substr(begin, end - begin) == name) return index;
    ++index;
    begin = end + 1;
  }
  return -1;
}

int OpArguments::count() const {
  if (names.empty()) return 0;
  int n = 1;
  for (char c : names) n += c == ',';
  return n;
}

std::optional<OpArguments> find_op_arguments(std::string_view op) {
  for (const OpArguments& row : kOps) {
    if (row.op == op) return row;
  }
  return std::nullopt;
}

}  // namespace bp::cuda
