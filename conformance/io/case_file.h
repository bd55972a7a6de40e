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
// Arguments are read as the op's schema types them, so a case's op must be declared.
//
// Errors: std::runtime_error naming the file, the case and what is malformed.
// Thread safety: pure functions apart from the files they read and write.
#ifndef BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_
#define BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_

#include <string>
#include <vector>

#include "conformance/io/json_codec.h"
#include "conformance/runner/case.h"
#include "conformance/runner/execute.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

inline constexpr char kCaseFileFormat[] = "backplane-conformance-cases";
inline constexpr int kCaseFileVersion = 1;

json case_to_json(const Case& c);
// Tolerances a case does not give come from `tolerances` (by dtype).
Case case_from_json(const json& j, const Tolerances& tolerances);

// The cases of a case file or repro file, undecoded (decode each with case_from_json, so that one
// bad case does not stop the others). Errors: unreadable file, not a case file.
std::vector<json> read_case_file(const std::string& path);
void write_case_file(const std::string& path, const std::vector<Case>& cases);

// Writes a repro file for a failed case into `dir` (created when missing) and returns its path:
// the case (arguments with their full storage, expectations) plus the backend, the failures,
// the error raised and the outputs the backend returned.
std::string write_repro(const std::string& dir, const Case& c, const CaseOutcome& outcome,
                        const std::string& backend);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_IO_CASE_FILE_H_
