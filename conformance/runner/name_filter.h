// Op-name filtering by regular expression (the CLI's --ops), kept apart from the runner so that
// only this file includes <regex> (see the BUILD file for why).
#ifndef BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_
#define BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_

#include <string>
#include <string_view>
#include <vector>

namespace bp::conformance {

// True when `pattern` (ECMAScript syntax) matches part of any of `names` (std::regex_search).
// Throws std::regex_error for an invalid pattern. Thread-safe.
bool any_name_matches(const std::string& pattern, const std::vector<std::string_view>& names);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_NAME_FILTER_H_
