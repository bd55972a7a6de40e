#include "conformance/io/case_file.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "conformance/framework/op_entry.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

json tolerance_to_json(const Tolerance& t) {
  return json{{"atol", t.atol}, {"rtol", t.rtol}, {"signed_zeros", t.signed_zeros}};
}

std::string file_name_part(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  }
  return s;
}

}  // namespace

json case_to_json(const Case& c) {
  json args = json::object();
  for (const SampleArg& a : c.args) args[a.name] = argument_to_json(a.value);
  json expect = json::object();
  if (c.expect.error) {
    expect["error"] = *c.expect.error;
  } else {
    json outputs = json::array();
    for (size_t i = 0; i < c.expect.outputs.size(); ++i) {
      json o = expected_output_to_json(c.expect.outputs[i]);
      if (i < c.expect.tolerances.size() && !c.expect.outputs[i].plain)
        o["tolerance"] = tolerance_to_json(c.expect.tolerances[i]);
      outputs.push_back(std::move(o));
    }
    expect["outputs"] = std::move(outputs);
  }
  if (!c.expect.returns_args.empty()) expect["returns_args"] = c.expect.returns_args;
  if (!c.expect.unmodified.empty()) expect["unmodified"] = c.expect.unmodified;
  if (!c.expect.written.empty()) expect["written"] = c.expect.written;
  if (c.expect.check_meta) expect["check_meta"] = true;
  json j{{"op", c.op},
         {"dtype", std::string(scalar_type_name(c.dtype))},
         {"args", std::move(args)},
         {"expect", std::move(expect)}};
  if (!c.entry.empty()) j["entry"] = c.entry;
  if (!c.check.empty()) j["check"] = c.check;
  if (!c.description.empty()) j["description"] = c.description;
  if (c.seed != 0) j["seed"] = c.seed;
  return j;
}

Case case_from_json(const json& j, const Tolerances& tolerances) {
  Case c;
  c.op = j.at("op").get<std::string>();
  std::optional<OperatorHandle> op = Dispatcher::singleton().find_op(c.op);
  if (!op) throw std::runtime_error("op '" + c.op + "' is not declared");
  const json& args = j.value("args", json::object());
  for (const auto& [name, value] : args.items()) {
    const Argument* schema_arg = nullptr;
    for (const Argument& a : op->schema().arguments) {
      if (a.name == name) schema_arg = &a;
    }
    if (schema_arg == nullptr) {
      throw std::runtime_error("argument '" + name + "' is not in " + to_string(op->schema()));
    }
    c.args.push_back({name, argument_from_json(value, schema_arg->type)});
  }
  const json& expect = j.at("expect");
  if (expect.contains("error")) c.expect.error = expect.at("error").get<std::string>();
  for (const json& o : expect.value("outputs", json::array())) {
    c.expect.outputs.push_back(expected_output_from_json(o, op->schema()));
    Tolerance t = tolerances.get(tolerance_op_name(c.op), c.expect.outputs.back().value.dtype);
    if (o.contains("tolerance")) {
      const json& tj = o.at("tolerance");
      t.atol = tj.value("atol", t.atol);
      t.rtol = tj.value("rtol", t.rtol);
      t.signed_zeros = tj.value("signed_zeros", t.signed_zeros);
    }
    c.expect.tolerances.push_back(t);
  }
  // An empty list of outputs is a result too: split of an empty dim into no pieces.
  if (!c.expect.error && !expect.contains("outputs")) {
    throw std::runtime_error("a case expects \"outputs\" or an \"error\"");
  }
  c.expect.returns_args = expect.value("returns_args", std::vector<std::string>{});
  c.expect.unmodified = expect.value("unmodified", std::vector<std::string>{});
  c.expect.written = expect.value("written", std::vector<std::string>{});
  c.expect.check_meta = expect.value("check_meta", false);
  c.entry = j.value("entry", std::string());
  c.check = j.value("check", std::string("case"));
  c.description = j.value("description", std::string());
  c.seed = j.value("seed", uint64_t{0});
  if (j.contains("dtype")) {
    c.dtype = dtype_from_json(j.at("dtype"));
  } else {
    // The dtype column: the first tensor argument's dtype.
    for (const SampleArg& a : c.args) {
      if (const auto* t = std::get_if<TensorArg>(&a.value)) {
        c.dtype = t->host.dtype();
        break;
      }
      if (const auto* list = std::get_if<TensorListArg>(&a.value); list && !list->host.empty()) {
        c.dtype = list->host[0].dtype();
        break;
      }
    }
  }
  return c;
}

std::vector<json> read_case_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (!doc.is_object() || doc.value("format", std::string()) != kCaseFileFormat) {
    throw std::runtime_error(path + ": not a case file (\"format\" must be \"" +
                             std::string(kCaseFileFormat) + "\")");
  }
  if (doc.value("version", 0) > kCaseFileVersion) {
    throw std::runtime_error(
        path + ": case file version " + std::to_string(doc.value("version", 0)) +
        " is newer than this suite's (" + std::to_string(kCaseFileVersion) + ")");
  }
  return doc.at("cases").get<std::vector<json>>();
}

void write_case_file(const std::string& path, const std::vector<Case>& cases) {
  json list = json::array();
  for (const Case& c : cases) list.push_back(case_to_json(c));
  std::ofstream out(path);
  out << json{{"format", kCaseFileFormat}, {"version", kCaseFileVersion}, {"cases", list}}.dump(1)
      << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string write_repro(const std::string& dir, const Case& c, const CaseOutcome& outcome,
                        const std::string& backend) {
  static std::atomic<int> counter{0};
  std::filesystem::create_directories(dir);
  const std::string path =
      (std::filesystem::path(dir) /
       (file_name_part(c.op + "-" + std::string(scalar_type_name(c.dtype)) + "-" + c.check) + "-" +
        std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".json"))
          .string();
  json actual = json::array();
  for (const RefTensor& t : outcome.actual) actual.push_back(ref_tensor_to_json(t));
  json repro{{"backend", backend}, {"failures", outcome.failures}, {"actual", actual}};
  if (!outcome.raised.empty()) repro["raised"] = outcome.raised;
  json doc{{"format", kCaseFileFormat},
           {"version", kCaseFileVersion},
           {"repro", std::move(repro)},
           {"cases", json::array({case_to_json(c)})}};
  std::ofstream out(path);
  out << doc.dump(1) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace bp::conformance
