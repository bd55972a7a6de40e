#include "conformance/perf/shape_catalogue.h"

#include <set>
#include <stdexcept>

#include "nlohmann/json.hpp"

namespace bp::conformance {

extern const char kPerfShapesJson[];  // shapes_json.cc, generated from shapes.json

namespace {

using json = nlohmann::json;

const json& field(const json& shape, const std::string& where, const char* key) {
  if (!shape.contains(key)) throw std::runtime_error(where + ": missing \"" + key + "\"");
  return shape.at(key);
}

std::string string_field(const json& shape, const std::string& where, const char* key) {
  const json& v = field(shape, where, key);
  if (!v.is_string() || v.get<std::string>().empty()) {
    throw std::runtime_error(where + ": \"" + key + "\" must be a non-empty string");
  }
  return v.get<std::string>();
}

}  // namespace

int64_t CatalogueShape::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

std::vector<CatalogueShape> parse_shape_catalogue(const std::string& text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw std::runtime_error("shape catalogue: not a JSON object");
  }
  if (!j.contains("shapes") || !j.at("shapes").is_array()) {
    throw std::runtime_error("shape catalogue: missing the \"shapes\" array");
  }
  std::vector<CatalogueShape> shapes;
  std::set<std::string> names;
  for (size_t i = 0; i < j.at("shapes").size(); ++i) {
    const json& s = j.at("shapes")[i];
    const std::string where = "shape catalogue: shape " + std::to_string(i);
    if (!s.is_object()) throw std::runtime_error(where + ": not an object");
    CatalogueShape shape;
    shape.name = string_field(s, where, "name");
    const std::string named = where + " (" + shape.name + ")";
    if (shape.name.find('.') == std::string::npos) {
      throw std::runtime_error(named + ": a name is '<model>.<layer>'");
    }
    if (!names.insert(shape.name).second) throw std::runtime_error(named + ": a duplicate name");
    shape.model = string_field(s, named, "model");
    shape.layer = string_field(s, named, "layer");
    shape.source = string_field(s, named, "source");
    const json& dims = field(s, named, "dims");
    const json& sizes = field(s, named, "sizes");
    if (!dims.is_array() || !sizes.is_array() || dims.size() != sizes.size() || dims.empty()) {
      throw std::runtime_error(named +
                               ": \"dims\" and \"sizes\" must be arrays of one length (one "
                               "name per size)");
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!dims[d].is_string() || !sizes[d].is_number_integer() || sizes[d].get<int64_t>() < 1) {
        throw std::runtime_error(named + ": dimension " + std::to_string(d) +
                                 " needs a name (string) and a size of at least 1");
      }
      shape.dims.push_back(dims[d].get<std::string>());
      shape.sizes.push_back(sizes[d].get<int64_t>());
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

const std::vector<CatalogueShape>& shape_catalogue() {
  static const std::vector<CatalogueShape> catalogue = parse_shape_catalogue(kPerfShapesJson);
  return catalogue;
}

std::vector<CatalogueShape> select_shapes(const std::vector<CatalogueShape>& catalogue,
                                          const std::vector<std::string>& names) {
  std::set<std::string> wanted;
  for (const std::string& name : names) {
    if (name == "none") continue;
    bool found = false;
    for (const CatalogueShape& s : catalogue) {
      if (name == "all" || s.name == name || s.name.starts_with(name + ".")) {
        wanted.insert(s.name);
        found = true;
      }
    }
    if (!found) {
      std::set<std::string> models;
      for (const CatalogueShape& s : catalogue) models.insert(s.name.substr(0, s.name.find('.')));
      std::string list;
      for (const std::string& m : models) list += (list.empty() ? "" : ", ") + m;
      throw std::invalid_argument("--perf-shapes: '" + name +
                                  "' names no shape of the catalogue (models: " + list +
                                  "; or a shape's full name, all, none)");
    }
  }
  std::vector<CatalogueShape> selected;
  for (const CatalogueShape& s : catalogue) {
    if (wanted.count(s.name) != 0) selected.push_back(s);
  }
  return selected;
}

}  // namespace bp::conformance
