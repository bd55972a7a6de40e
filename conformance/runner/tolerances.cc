#include "conformance/runner/tolerances.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bp::conformance {

extern const char kBuiltinTolerancesJson[];  // tolerances_json.cc, generated

namespace {

Tolerance parse_tolerance(const nlohmann::json& j, Tolerance base, const std::string& where) {
  if (!j.is_object()) throw std::runtime_error(where + ": expected an object");
  for (const auto& [key, value] : j.items()) {
    if (key == "atol") {
      base.atol = value.get<double>();
    } else if (key == "rtol") {
      base.rtol = value.get<double>();
    } else if (key == "signed_zeros") {
      base.signed_zeros = value.get<bool>();
    } else {
      throw std::runtime_error(where + ": unknown key '" + key + "'");
    }
  }
  return base;
}

}  // namespace

const Tolerances& Tolerances::builtin() {
  static const Tolerances* t = [] {
    auto* tol = new Tolerances;
    tol->merge(nlohmann::json::parse(kBuiltinTolerancesJson), "conformance/tolerances.json");
    return tol;
  }();
  return *t;
}

void Tolerances::merge(const nlohmann::json& doc, const std::string& source) {
  const bool builtin = sources_.empty();
  try {
    if (doc.contains("defaults")) {
      for (const auto& [dtype, t] : doc.at("defaults").items()) {
        defaults_[dtype] = parse_tolerance(t, defaults_[dtype], source + ": defaults." + dtype);
        if (!builtin) vendor_overrides_.push_back("default " + dtype + ": " + t.dump());
      }
    }
    if (doc.contains("ops")) {
      for (const auto& [op, per_dtype] : doc.at("ops").items()) {
        for (const auto& [dtype, t] : per_dtype.items()) {
          Tolerance base = ops_[op].count(dtype) ? ops_[op][dtype] : Tolerance{};
          if (!ops_[op].count(dtype) && defaults_.count(dtype)) base = defaults_[dtype];
          ops_[op][dtype] = parse_tolerance(t, base, source + ": ops." + op + "." + dtype);
          if (!builtin) vendor_overrides_.push_back(op + " " + dtype + ": " + t.dump());
        }
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
  sources_.push_back(source);
}

void Tolerances::merge_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read tolerances file " + path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  merge(doc, path);
}

Tolerance Tolerances::get(std::string_view op, ScalarType dtype) const {
  if (!is_floating_point(dtype) && !is_complex(dtype)) return Tolerance{0, 0, true};
  const std::string name(scalar_type_name(dtype));
  auto it = ops_.find(op);
  if (it != ops_.end()) {
    if (auto d = it->second.find(name); d != it->second.end()) return d->second;
    if (auto d = it->second.find("*"); d != it->second.end()) return d->second;
  }
  auto d = defaults_.find(name);
  return d == defaults_.end() ? Tolerance{} : d->second;
}

}  // namespace bp::conformance
