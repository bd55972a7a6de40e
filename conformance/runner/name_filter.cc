#include "conformance/runner/name_filter.h"

#include <regex>
#include <stdexcept>

namespace bp::conformance {

struct NameRegex::Compiled {
  std::regex re;
};

NameRegex::NameRegex(const std::string& flag, const std::string& pattern) {
  try {
    compiled_ = std::make_unique<Compiled>(Compiled{std::regex(pattern)});
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(flag + ": invalid regular expression '" + pattern + "' (" +
                                e.what() + ")");
  }
}

NameRegex::~NameRegex() = default;
NameRegex::NameRegex(NameRegex&&) noexcept = default;
NameRegex& NameRegex::operator=(NameRegex&&) noexcept = default;

bool NameRegex::matches(const std::string& name) const {
  return std::regex_match(name, compiled_->re);
}

bool NameRegex::matches_any(const std::vector<std::string>& names) const {
  for (const std::string& name : names) {
    if (matches(name)) return true;
  }
  return false;
}

}  // namespace bp::conformance
