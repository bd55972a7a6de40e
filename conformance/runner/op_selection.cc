#include "conformance/runner/op_selection.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "conformance/runner/name_filter.h"

namespace bp::conformance {
namespace {

// Levenshtein distance.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool selects(const OpEntry& entry, const std::string& name) {
  const std::vector<std::string> names = selectable_names(entry);
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> every_selectable_name(const OpDatabase& db) {
  std::set<std::string> all;
  for (const OpEntry& e : db.entries()) {
    for (std::string& n : selectable_names(e)) all.insert(std::move(n));
  }
  return {all.begin(), all.end()};
}

}  // namespace

std::vector<std::string> split_op_names(const std::string& flag, const std::string& list) {
  std::vector<std::string> names;
  std::istringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) names.push_back(name);
  if (!list.empty() && list.back() == ',') names.emplace_back();
  if (names.empty() || std::find(names.begin(), names.end(), "") != names.end()) {
    throw std::invalid_argument(flag + ": expected comma-separated op names (add,mul.out), got '" +
                                list + "'");
  }
  return names;
}

std::vector<std::string> selectable_names(const OpEntry& entry) {
  std::vector<std::string> names{entry.name};
  for (const OpVariant& v : entry.variants) {
    names.push_back(v.op);
    names.push_back(tolerance_op_name(v.op));
  }
  return names;
}

std::vector<std::string> close_names(std::string_view name,
                                     const std::vector<std::string>& candidates, size_t limit) {
  const size_t max_edits = std::max<size_t>(1, name.size() / 4);
  std::vector<std::pair<size_t, std::string>> close;
  for (const std::string& c : candidates) {
    if (c == name) continue;
    const size_t d = edit_distance(name, c);
    if (d <= max_edits || c.starts_with(name)) close.emplace_back(d, c);
  }
  std::sort(close.begin(), close.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < close.size() && i < limit; ++i) out.push_back(close[i].second);
  return out;
}

std::string join_op_names(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

std::vector<const OpEntry*> select_entries(const OpDatabase& db, const OpSelection& selection) {
  std::vector<const OpEntry*> selected;
  if (selection.all()) {
    for (const OpEntry& e : db.entries()) selected.push_back(&e);
    return selected;
  }
  for (const std::string& name : selection.names) {
    const bool known = std::any_of(db.entries().begin(), db.entries().end(),
                                   [&](const OpEntry& e) { return selects(e, name); });
    if (known) continue;
    std::string message = "--ops: '" + name + "' names no op or conformance entry";
    const std::vector<std::string> close = close_names(name, every_selectable_name(db));
    for (size_t i = 0; i < close.size(); ++i) message += (i == 0 ? " (close: " : ", ") + close[i];
    if (!close.empty()) message += ")";
    throw std::invalid_argument(message + "; --list-ops lists them");
  }
  std::optional<NameRegex> regex;
  if (!selection.regex.empty()) regex.emplace("--ops-regex", selection.regex);
  for (const OpEntry& e : db.entries()) {
    const bool by_name = std::any_of(selection.names.begin(), selection.names.end(),
                                     [&](const std::string& n) { return selects(e, n); });
    if (by_name || (regex && regex->matches_any(selectable_names(e)))) selected.push_back(&e);
  }
  if (regex && std::none_of(db.entries().begin(), db.entries().end(), [&](const OpEntry& e) {
        return regex->matches_any(selectable_names(e));
      })) {
    throw std::invalid_argument("--ops-regex: '" + selection.regex +
                                "' matches no op or entry name (it must match a whole name, "
                                "'mul.*' rather than 'mul'); --list-ops lists them");
  }
  return selected;
}

}  // namespace bp::conformance
