// What the CLI prints about declared ops without running anything: --schema NAMES and
// --list-ops --schemas. From the op table (sdk/ops/*.yaml), the conformance database and the
// dispatcher's registrations, so it describes exactly what the binary would check and serve.
//
//   describe_ops({"sum"}, std::cout);  // sum.dim_IntList with sum.IntList_out, sum with sum.out
//
// Thread safety: one call at a time (reads the dispatcher's registrations).
#ifndef BACKPLANE_CONFORMANCE_CLI_SCHEMAS_H_
#define BACKPLANE_CONFORMANCE_CLI_SCHEMAS_H_

#include <ostream>
#include <string>
#include <vector>

namespace bp::conformance {

// --list-ops --schemas: two '#' comment lines saying what follows, then every declared op, one a
// line, in declaration order:
//   "<schema>  # <functional|inplace|out>, conformance entry <entry>" (or "no conformance entry").
void list_schemas(std::ostream& out);

// --schema NAMES: for each variant group the names select (an op's base name "sum", an op
// "sum.IntList_out" or a conformance entry "sum.dim_IntList"), its variants with their
// schemas as declared, the dtypes the suite checks, and which variants the Common key serves for
// a backend that registers only the group's out= op (the ops with a Common kernel in the
// dispatcher that run through that out= op). Errors: std::invalid_argument "--schema: 'x' names
// no declared op (close: ...)".
void describe_ops(const std::vector<std::string>& names, std::ostream& out);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_CLI_SCHEMAS_H_
