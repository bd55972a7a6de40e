// Op-name matching by regular expression (the CLI's --ops-regex), kept apart from the runner so
// that only this file includes <regex> (see the BUILD file for why).
#ifndef BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_
#define BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_

#include <memory>
#include <string>
#include <vector>

namespace bp::conformance {

// An ECMAScript regular expression matched against whole names (std::regex_match: "add" matches
// "add" only, not "addcmul"). Thread safety: const methods are safe from any thread.
class NameRegex {
 public:
  // Errors: std::invalid_argument "FLAG: invalid regular expression 'PATTERN' (why)".
  NameRegex(const std::string& flag, const std::string& pattern);
  ~NameRegex();
  NameRegex(NameRegex&&) noexcept;
  NameRegex& operator=(NameRegex&&) noexcept;

  bool matches(const std::string& name) const;
  bool matches_any(const std::vector<std::string>& names) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_
