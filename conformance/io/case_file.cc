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
  // Storages that several arguments view are written once, by name, and the views name them.
  StorageNames names;
  json storages = shared_storages_to_json(c.args, &names);
  json args = json::object();
  for (const SampleArg& a : c.args) args[a.name] = argument_to_json(a.value, &names);
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
  if (!c.id.empty()) j["id"] = c.id;
  if (!storages.empty()) j["storages"] = std::move(storages);
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
  if (!op) throw std::runtime_error("op '" + excerpt(c.op) + "' is not declared");
  const NamedStorages storages =
      j.contains("storages") ? storages_from_json(j.at("storages")) : NamedStorages();
  const json& args = j.value("args", json::object());
  for (const auto& [name, value] : args.items()) {
    const Argument* schema_arg = nullptr;
    for (const Argument& a : op->schema().arguments) {
      if (a.name == name) schema_arg = &a;
    }
    if (schema_arg == nullptr) {
      throw std::runtime_error("argument '" + excerpt(name) + "' is not in " +
                               to_string(op->schema()));
    }
    try {
      c.args.push_back({name, argument_from_json(value, schema_arg->type, &storages)});
    } catch (const std::exception& e) {
      throw std::runtime_error("argument '" + name + "': " + e.what());
    }
  }
  const json& expect = j.at("expect");
  if (expect.contains("error")) c.expect.error = expect.at("error").get<std::string>();
  for (const json& o : expect.value("outputs", json::array())) {
    try {
      c.expect.outputs.push_back(expected_output_from_json(o, op->schema()));
    } catch (const std::exception& e) {
      throw std::runtime_error("output " + std::to_string(c.expect.outputs.size()) + ": " +
                               e.what());
    }
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
  if (j.contains("id")) {
    if (!j.at("id").is_string()) throw std::runtime_error("id is not a string");
    c.id = j.at("id").get<std::string>();
  }
  c.entry = j.value("entry", std::string());
  c.check = j.value("check", std::string("case"));
  c.description = j.value("description", std::string());
  if (j.contains("seed")) {
    const json& seed = j.at("seed");
    // A float or a negative number would be truncated or wrapped.
    if (!seed.is_number_integer() || (!seed.is_number_unsigned() && seed.get<int64_t>() < 0)) {
      throw std::runtime_error("seed is " + excerpt(seed.dump()) +
                               ": not a JSON integer within uint64 range");
    }
    c.seed = seed.get<uint64_t>();
  }
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

std::string case_op_name(const json& c) {
  if (c.is_object()) {
    const auto it = c.find("op");
    if (it != c.end() && it->is_string()) return excerpt(it->get_ref<const std::string&>());
  }
  return "?";
}

namespace {

// The SAX handler of the case-file reader. Builds one case at a time (depth 3: document, "cases",
// case) and hands it to the callback; skips every other value but "format" and "version"; stops
// at kMaxCaseFileDepth. In header mode it only collects "format" and "version".
class CaseFileSax {
 public:
  enum class Mode { kCases, kHeader };

  CaseFileSax(Mode mode, const std::string& name, const CaseCallback* on_case)
      : mode_(mode), name_(name), on_case_(on_case) {}

  bool null() { return scalar(nullptr); }
  bool boolean(bool v) { return scalar(v); }
  bool number_integer(json::number_integer_t v) { return scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(v); }
  bool number_float(json::number_float_t v, const json::string_t&) { return scalar(v); }
  bool string(json::string_t& v) { return scalar(std::move(v)); }
  bool binary(json::binary_t&) { return fail("binary values are not JSON"); }
  bool start_object(size_t) { return open(json::object()); }
  bool start_array(size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (depth_ == 1) {
      top_key_ = std::move(k);
    } else if (building()) {
      key_ = std::move(k);
    }
    return true;
  }
  bool parse_error(size_t position, const std::string& last_token, const json::exception& e) {
    // e.what(): "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error
    // while parsing value - invalid literal; last read: '<the whole token>'".
    std::string what = e.what();
    if (what.starts_with("[json.exception.")) what.erase(0, what.find("] ") + 2);
    if (const size_t at = what.rfind(last_token);
        last_token.size() > kQuoted && at != std::string::npos) {
      what.replace(at, last_token.size(), excerpt(last_token));
    }
    // Some ("number overflow parsing '1e999'") give no position.
    if (what.find(" line ") == std::string::npos) {
      what = "at byte " + std::to_string(position) + ": " + what;
    }
    error_ = excerpt(what, 4 * kQuoted);
    return false;
  }

  // After a pass that returned false: why.
  const std::string& error() const { return error_; }
  // The pass stopped at "cases" because "format" or "version" had not come yet.
  bool needs_header_pass() const { return needs_header_pass_; }
  bool cases_seen() const { return cases_seen_; }
  size_t count() const { return count_; }

  // Throws unless "format" and "version" (given by a header pass, or seen in this one) say a
  // case file this suite reads.
  void check_header(const json& format, const json& version) const {
    if (format != kCaseFileFormat) {
      throw std::runtime_error(name_ + ": not a case file (\"format\" must be \"" +
                               std::string(kCaseFileFormat) + "\")");
    }
    if (version.is_null()) return;
    if (!version.is_number_integer()) {
      throw std::runtime_error(name_ + ": \"version\" must be an integer, got " +
                               excerpt(version.dump()));
    }
    if (!version.is_number_unsigned() && version.get<int64_t>() <= kCaseFileVersion) return;
    if (version.is_number_unsigned() && version.get<uint64_t>() <= kCaseFileVersion) return;
    throw std::runtime_error(name_ + ": case file version " + version.dump() +
                             " is newer than this suite's (" + std::to_string(kCaseFileVersion) +
                             ")");
  }
  const json& format() const { return format_; }
  const json& version() const { return version_; }
  // For the cases pass after a header pass.
  void set_header(json format, json version) {
    format_ = std::move(format);
    version_ = std::move(version);
    header_checked_ = true;
  }

 private:
  static constexpr size_t kQuoted = 100;

  // Inside a case (which this pass builds).
  bool building() const { return in_cases_ && depth_ >= 3 && mode_ == Mode::kCases; }

  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }

  // Adds `v` to the case being built, under the pending key or at the end of an array.
  json* add(json v) {
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.get_ref<json::array_t&>().push_back(std::move(v));
      return &parent.get_ref<json::array_t&>().back();
    }
    json& slot = parent[key_];
    slot = std::move(v);
    return &slot;
  }

  void hand_over() {
    (*on_case_)(count_, current_);
    ++count_;
    current_ = json();
    stack_.clear();
  }

  bool open(json container) {
    if (depth_ >= kMaxCaseFileDepth) {
      return fail("JSON nested deeper than " + std::to_string(kMaxCaseFileDepth) +
                  " levels (the limit of case files)");
    }
    ++depth_;
    if (depth_ == 1) {
      if (!container.is_object()) return fail("not a case file (expected a JSON object)");
      return true;
    }
    if (depth_ == 2 && top_key_ == "cases") return open_cases(container);
    if (in_cases_ && mode_ == Mode::kCases) {
      if (depth_ == 3) {
        current_ = std::move(container);
        stack_.assign(1, &current_);
      } else {
        stack_.push_back(add(std::move(container)));
      }
    }
    return true;
  }

  bool open_cases(const json& container) {
    if (!container.is_array()) return fail("\"cases\" must be a list");
    cases_seen_ = true;
    if (mode_ == Mode::kHeader) return true;  // skipped
    if (!header_checked_) {
      // Files this suite writes give "format" and "version" first; others need a header pass.
      if (format_.is_null() || version_.is_null()) {
        needs_header_pass_ = true;
        return false;
      }
      check_header(format_, version_);
      header_checked_ = true;
    }
    in_cases_ = true;
    return true;
  }

  bool close() {
    if (building()) {
      stack_.pop_back();
      if (depth_ == 3) hand_over();
    } else if (depth_ == 2 && in_cases_) {
      in_cases_ = false;
    }
    --depth_;
    return true;
  }

  bool scalar(json v) {
    if (depth_ == 0) return fail("not a case file (expected a JSON object)");
    if (depth_ == 1) {
      if (top_key_ == "format") format_ = std::move(v);
      if (top_key_ == "version") version_ = std::move(v);
      if (top_key_ == "cases") return fail("\"cases\" must be a list");
      return true;
    }
    if (in_cases_ && mode_ == Mode::kCases) {
      if (depth_ == 2) {
        current_ = std::move(v);  // not an object: case_from_json says so
        hand_over();
      } else {
        add(std::move(v));
      }
    }
    return true;
  }

  const Mode mode_;
  const std::string& name_;
  const CaseCallback* on_case_;
  int depth_ = 0;          // arrays and objects open
  std::string top_key_;    // the document's key being read
  std::string key_;        // the key being read inside the case
  json format_, version_;  // the document's "format" and "version" (null until read)
  bool header_checked_ = false;
  bool needs_header_pass_ = false;
  bool cases_seen_ = false;
  bool in_cases_ = false;     // inside the "cases" list
  json current_;              // the case being built
  std::vector<json*> stack_;  // its open arrays and objects, innermost last
  size_t count_ = 0;
  std::string error_;
};

// The result of a cases pass that read the whole input.
size_t cases_read(const std::string& name, const CaseFileSax& sax) {
  if (!sax.cases_seen()) {
    throw std::runtime_error(name + ": not a case file (it has no \"cases\" list)");
  }
  if (sax.count() == 0) throw std::runtime_error(name + " holds no cases");
  return sax.count();
}

// Reads with `parse(sax)` (one pass over the input each call).
template <typename Parse>
size_t read_cases(const std::string& name, const Parse& parse, const CaseCallback& on_case) {
  CaseFileSax sax(CaseFileSax::Mode::kCases, name, &on_case);
  if (parse(sax)) return cases_read(name, sax);
  if (!sax.needs_header_pass()) throw std::runtime_error(name + ": " + sax.error());
  // "cases" came before "format" or "version": read those first, then the cases again.
  CaseFileSax header(CaseFileSax::Mode::kHeader, name, nullptr);
  if (!parse(header)) throw std::runtime_error(name + ": " + header.error());
  header.check_header(header.format(), header.version());
  CaseFileSax cases(CaseFileSax::Mode::kCases, name, &on_case);
  cases.set_header(header.format(), header.version());
  if (!parse(cases)) throw std::runtime_error(name + ": " + cases.error());
  return cases_read(name, cases);
}

}  // namespace

size_t read_case_file(const std::string& path, const CaseCallback& on_case) {
  return read_cases(
      path,
      [&](CaseFileSax& sax) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read " + path);
        return json::sax_parse(in, &sax);
      },
      on_case);
}

size_t read_case_text(std::string_view text, const std::string& name, const CaseCallback& on_case) {
  return read_cases(
      name, [&](CaseFileSax& sax) { return json::sax_parse(text.begin(), text.end(), &sax); },
      on_case);
}

void write_case_file(const std::string& path, const std::vector<Case>& cases) {
  std::ofstream out(path);
  out << "{\"format\": " << json(kCaseFileFormat).dump() << ", \"version\": " << kCaseFileVersion
      << ", \"cases\": [";
  for (size_t i = 0; i < cases.size(); ++i) {
    out << (i == 0 ? "\n" : ",\n") << case_to_json(cases[i]).dump(1);
  }
  out << "]}\n";
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
  // "format" and "version" first, as write_case_file writes them.
  std::ofstream out(path);
  out << "{\"format\": " << json(kCaseFileFormat).dump() << ", \"version\": " << kCaseFileVersion
      << ",\n\"repro\": " << repro.dump(1) << ",\n\"cases\": [\n"
      << case_to_json(c).dump(1) << "]}\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace bp::conformance
