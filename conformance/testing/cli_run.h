// Runs the conformance CLI in-process for tests and captures what it printed; reads its reports.
//
//   const CliRun r = run_cli_quietly({"--ops", "neg"}, test_backend_factories());
//   EXPECT_EQ(r.status, 0) << r.out << r.err;
#ifndef BACKPLANE_CONFORMANCE_TESTING_CLI_RUN_H_
#define BACKPLANE_CONFORMANCE_TESTING_CLI_RUN_H_

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/cli/cli.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {

// The CLI's exit status and its standard output and error.
struct CliRun {
  int status;
  std::string out;
  std::string err;
};

// run_cli with `args` plus --quiet (no progress lines) over `backends`.
inline CliRun run_cli_quietly(std::vector<std::string> args, const BackendFactories& backends) {
  std::ostringstream out, err;
  args.push_back("--quiet");
  const int status = run_cli(args, backends, out, err);
  return CliRun{status, out.str(), err.str()};
}

// The entry of op `name` (e.g. "add.out") in a JSON report's "ops"; throws when there is none.
inline const nlohmann::json& report_op(const nlohmann::json& report, const std::string& name) {
  for (const nlohmann::json& op : report["ops"]) {
    if (op["op"] == name) return op;
  }
  throw std::runtime_error("no op " + name + " in the report");
}

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_TESTING_CLI_RUN_H_
