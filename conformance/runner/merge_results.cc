#include "conformance/runner/merge_results.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "conformance/runner/verdict.h"

namespace bp::conformance {
namespace {

std::string dtype_list(DtypeSet dtypes) {
  std::string names;
  for (ScalarType t : dtypes.list())
    names += (names.empty() ? "" : ",") + std::string(scalar_type_name(t));
  return names;
}

// Fails unless every shard agrees with the first on `what` (its value as text).
template <typename Get>
void require_same(const std::vector<RunResults>& shards, const std::vector<std::string>& names,
                  const std::string& what, Get get) {
  for (size_t i = 1; i < shards.size(); ++i) {
    if (get(shards[i]) != get(shards[0])) {
      throw std::invalid_argument("cannot merge: " + names[0] + " and " + names[i] + " differ in " +
                                  what + " ('" + get(shards[0]) + "' and '" + get(shards[i]) +
                                  "'): they are not shards of one run");
    }
  }
}

void check_shards(const std::vector<RunResults>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) throw std::invalid_argument("merge: no reports given");
  require_same(shards, names, "backend", [](const RunResults& r) { return r.backend; });
  require_same(shards, names, "--ops", [](const RunResults& r) { return r.ops_names; });
  require_same(shards, names, "--ops-regex", [](const RunResults& r) { return r.ops_regex; });
  require_same(shards, names, "--dtypes", [](const RunResults& r) { return dtype_list(r.dtypes); });
  require_same(shards, names, "--cases", [](const RunResults& r) { return r.cases_file; });
  require_same(shards, names, "--expected-failures",
               [](const RunResults& r) { return r.expected_failures_file; });
  require_same(shards, names, "the expected-failures file's text",
               [](const RunResults& r) { return r.expected_failures_text; });
  require_same(shards, names, "--case-results", [](const RunResults& r) {
    return std::string(case_results_level_name(r.case_results_level));
  });
  require_same(shards, names, "the shard count",
               [](const RunResults& r) { return std::to_string(r.shard.count); });
  const int count = shards[0].shard.count;
  std::map<int, std::string> seen;
  for (size_t i = 0; i < shards.size(); ++i) {
    const int index = shards[i].shard.index;
    if (auto [it, fresh] = seen.emplace(index, names[i]); !fresh) {
      throw std::invalid_argument("cannot merge: shard " + std::to_string(index) + "/" +
                                  std::to_string(count) + " is given twice (" + it->second +
                                  " and " + names[i] + ")");
    }
  }
  std::string missing;
  for (int k = 1; k <= count; ++k) {
    if (seen.count(k) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  }
  if (!missing.empty()) {
    throw std::invalid_argument("cannot merge: shard" +
                                std::string(missing.find(',') == std::string::npos ? " " : "s ") +
                                missing + " of " + std::to_string(count) +
                                " missing; merge needs the report of every shard");
  }
}

}  // namespace

RunResults merge_results(std::vector<RunResults> shards, const std::vector<std::string>& names,
                         const OpDatabase& db) {
  check_shards(shards, names);
  // Shard order, so that a case file's ops come in a stable order.
  std::vector<size_t> order(shards.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return shards[a].shard.index < shards[b].shard.index; });

  RunResults merged = shards[order[0]];
  merged.ops.clear();
  merged.notes.clear();
  merged.case_results.clear();
  merged.seconds = 0;
  merged.shard = Shard{};
  std::map<std::string, size_t> position;
  std::set<std::string> notes;
  for (size_t i : order) {
    RunResults& s = shards[i];
    merged.seconds += s.seconds;
    merged.isolated = merged.isolated || s.isolated;
    for (OpResult& op : s.ops) {
      if (auto it = position.find(op.op); it != position.end()) {
        merged.ops[it->second].merge(op);
      } else {
        position.emplace(op.op, merged.ops.size());
        merged.ops.push_back(std::move(op));
      }
    }
    for (std::string& note : s.notes) {
      if (!is_expected_failures_note(note) && notes.insert(note).second) {
        merged.notes.push_back(std::move(note));
      }
    }
  }
  // Per-case results in run order: a database run's by entry (below); a case file's dealt back
  // in turn, as the cases were dealt out (case i is shard i % N + 1's case i / N).
  std::vector<size_t> next(order.size(), 0);
  for (bool any = true; any;) {
    any = false;
    for (size_t k = 0; k < order.size(); ++k) {
      std::vector<CaseResult>& from = shards[order[k]].case_results;
      if (next[k] < from.size()) {
        merged.case_results.push_back(std::move(from[next[k]++]));
        any = true;
      }
    }
  }
  // A database run's ops and cases in the database's order, as an unsharded run lists them: ops
  // by variant, cases by entry (an entry's cases interleave its variants).
  if (merged.cases_file.empty()) {
    std::map<std::string, std::pair<size_t, size_t>> rank;  // op -> (entry, variant)
    for (const OpEntry& e : db.entries()) {
      for (const OpVariant& v : e.variants) rank.emplace(v.op, std::pair(rank.size(), rank.size()));
      for (const OpVariant& v : e.variants) rank[v.op].first = rank[e.variants[0].op].second;
    }
    auto rank_of = [&](const std::string& op) {
      auto it = rank.find(op);
      return it == rank.end() ? std::pair(rank.size(), rank.size()) : it->second;
    };
    std::stable_sort(merged.ops.begin(), merged.ops.end(),
                     [&](const OpResult& a, const OpResult& b) {
                       return rank_of(a.op).second < rank_of(b.op).second;
                     });
    std::stable_sort(merged.case_results.begin(), merged.case_results.end(),
                     [&](const CaseResult& a, const CaseResult& b) {
                       return rank_of(a.op).first < rank_of(b.op).first;
                     });
  }
  // A case file's ops in order of their first case, when every case is listed.
  if (!merged.cases_file.empty() && merged.case_results_level == CaseResultsLevel::kAll) {
    std::map<std::string, size_t> first;
    for (const CaseResult& c : merged.case_results) first.emplace(c.op, first.size());
    auto first_of = [&](const std::string& op) {
      auto it = first.find(op);
      return it == first.end() ? first.size() : it->second;
    };
    std::stable_sort(
        merged.ops.begin(), merged.ops.end(),
        [&](const OpResult& a, const OpResult& b) { return first_of(a.op) < first_of(b.op); });
  }
  if (!merged.expected_failures_text.empty()) {
    for (OpResult& op : merged.ops) {
      for (auto& [dtype, cell] : op.cells) cell.expected_to_fail = false;
    }
    apply_expected_failures(merged, ExpectedFailures::parse(merged.expected_failures_text));
  }
  return merged;
}

}  // namespace bp::conformance
