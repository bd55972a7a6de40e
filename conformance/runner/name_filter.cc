#include "conformance/runner/name_filter.h"

#include <regex>

namespace bp::conformance {

bool any_name_matches(const std::string& pattern, const std::vector<std::string_view>& names) {
  const std::regex re(pattern);
  for (std::string_view name : names) {
    if (std::regex_search(name.begin(), name.end(), re)) return true;
  }
  return false;
}

}  // namespace bp::conformance
