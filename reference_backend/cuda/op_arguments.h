// Every declared op's argument names, in schema order (the codegen writes the rows from
// sdk/ops/*.yaml, op_arguments.inc), so hand-written plugin kernels find their boxed arguments by
// name and register only for ops that are declared.
//
//   std::optional<OpArguments> sum = find_op_arguments("sum.IntList_out");
//   sum->index_of("keepdim");     // 2
//   sum->index_of("correction");  // -1: no such argument
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_OP_ARGUMENTS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_OP_ARGUMENTS_H_

#include <optional>
#include <string_view>

namespace bp::cuda {

struct OpArguments {
  std::string_view op;     // "sum.IntList_out"
  std::string_view names;  // "self,dim,keepdim,dtype,out"

  // The position of argument `name`, or -1.
  int index_of(std::string_view name) const;
  int count() const;
};

std::optional<OpArguments> find_op_arguments(std::string_view op);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_OP_ARGUMENTS_H_
