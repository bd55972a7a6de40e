// The perf mode's shape catalogue: activation shapes of real model architectures (GPT-2
// small/medium, LLaMA-7B, ResNet-50, BERT-base), kept as data in conformance/perf/shapes.json
// (compiled in), each with its model, layer, dimension names and the source of its numbers.
//
//   for (const CatalogueShape& s : select_shapes(shape_catalogue(), {"resnet50"}))
//     use(s.name, s.sizes);   // "resnet50.conv1" [1, 64, 112, 112], ...
//
// Thread safety: shape_catalogue() is built once (thread-safe static) and read-only.
#ifndef BACKPLANE_CONFORMANCE_PERF_SHAPE_CATALOGUE_H_
#define BACKPLANE_CONFORMANCE_PERF_SHAPE_CATALOGUE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bp::conformance {

struct CatalogueShape {
  std::string name;               // "<model>.<layer>": "gpt2-small.mlp"
  std::string model;              // "GPT-2 small (124M)"
  std::string layer;              // where in the model the tensor is
  std::vector<std::string> dims;  // one name per dimension: "batch", "seq (n_ctx)", ...
  std::vector<int64_t> sizes;
  std::string source;  // the paper or config the numbers come from

  int64_t numel() const;
};

// Parses a catalogue (the format of shapes.json). Errors: std::runtime_error naming the shape
// and field: not JSON, a missing or mistyped field, dims and sizes of different lengths, a size
// below 1, a duplicate name, a name without a '.'.
std::vector<CatalogueShape> parse_shape_catalogue(const std::string& text);

// The compiled-in catalogue (conformance/perf/shapes.json).
const std::vector<CatalogueShape>& shape_catalogue();

// The shapes `names` select, in catalogue order: each name is a shape's name
// ("gpt2-small.mlp") or a model prefix ("gpt2-small", "resnet50": every shape named
// "<prefix>.*"); "all" selects every shape, "none" none. Errors: std::invalid_argument naming a
// name that selects nothing, with the catalogue's models.
std::vector<CatalogueShape> select_shapes(const std::vector<CatalogueShape>& catalogue,
                                          const std::vector<std::string>& names);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_SHAPE_CATALOGUE_H_
