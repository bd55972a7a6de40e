// Case files: cases as data (docs/conformance.md, "Case files"), so anyone can check a backend
// against results produced elsewhere; and repro files: one failed case with what the backend
// returned, which `backplane-conformance --replay FILE` runs again.
//
//   {"format": "backplane-conformance-cases", "version": 1, "cases": [
//     {"op": "add.Tensor",
//      "args": {"self": {"dtype": "float32", "sizes": [2], "values": [1, "nan"]},
//               "other": {"dtype": "float32", "sizes": [], "values": [2.5]}, "alpha": 2},
//      "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [6, "nan"]}]}}]}
//
// Arguments are read as the op's schema types them, so a case's op must be declared. Tensors that
// share a buffer name one of the case's "storages" (json_codec.h); case_to_json writes a storage
// that several arguments view that way, once.
//
// Reading streams: one case is in memory at a time (a 200 MB file needs about one case's worth
// of memory, not gigabytes). Limits on input: JSON nested at most kMaxCaseFileDepth deep;
// integers as json_codec.h says; tensor geometries checked as sdk/core/geometry_check.h says;
// error messages quote at most about 100 characters of input (excerpt).
//
// Errors: std::runtime_error naming the file, the case and what is malformed.
// Thread safety: pure functions apart from the files they read and write.
#ifndef BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_
#define BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/io/json_codec.h"
#include "conformance/runner/case.h"
#include "conformance/runner/case_outcome.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

inline constexpr char kCaseFileFormat[] = "backplane-conformance-cases";
inline constexpr int kCaseFileVersion = 1;
// The deepest nesting of JSON arrays and objects a case file may have (the whole document: a
// case's tensor sits at depth 5, its elements at 6 or 7).
inline constexpr int kMaxCaseFileDepth = 256;

json case_to_json(const Case& c);
// Tolerances a case does not give come from `tolerances` (by dtype).
Case case_from_json(const json& j, const Tolerances& tolerances);

// The op a case names, for messages and reports: at most ~100 characters (excerpt), "?" when it
// names none.
std::string case_op_name(const json& c);

// Receives the cases of a case file one at a time: `index` counts from 0, `c` is undecoded (decode
// it with case_from_json, so that one bad case does not stop the others) and lives until the
// call returns.
using CaseCallback = std::function<void(size_t index, const json& c)>;

// Reads a case file or repro file, calling `on_case` for each case, in order, as it is parsed;
// returns how many there were. "format" and "version" are checked before any case is handed over
// (files that put them after "cases" are read twice: once for them, once for the cases).
// Errors: unreadable file; malformed JSON (its line and column, quoting at most ~100 characters);
// nesting deeper than kMaxCaseFileDepth; not a case file ("format"); a newer "version"; no
// "cases" list; an empty one ("FILE holds no cases"); and what `on_case` throws, which stops the
// reading. A file malformed part way fails after the cases before the fault were handed over.
size_t read_case_file(const std::string& path, const CaseCallback& on_case);
// The same over case-file text in memory; `name` stands for the file in messages.
size_t read_case_text(std::string_view text, const std::string& name, const CaseCallback& on_case);

// Writes "format" and "version" first, then the cases one by one.
void write_case_file(const std::string& path, const std::vector<Case>& cases);

// Writes a repro file for a failed case into `dir` (created when missing) and returns its path:
// the case (arguments with their full storage, expectations) plus the backend, the failures,
// the error raised and the outputs the backend returned.
std::string write_repro(const std::string& dir, const Case& c, const CaseOutcome& outcome,
                        const std::string& backend);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_
