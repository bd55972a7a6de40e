// Finding ops: --ops selects entries by exact names (base, op or entry names), --ops-regex by
// whole-name regular expressions, unknown names are usage errors naming close names; --schema and
// --list-ops --schemas describe declared ops without running anything.
#include "conformance/runner/op_selection.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cli/cli.h"
#include "conformance/ops/database.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

OpSelection named(std::vector<std::string> names) { return {std::move(names), ""}; }
OpSelection matching(std::string regex) { return {{}, std::move(regex)}; }

std::vector<std::string> selected(const OpSelection& s) {
  std::vector<std::string> names;
  for (const OpEntry* e : select_entries(op_database(), s)) names.push_back(e->name);
  return names;
}

std::string selection_error(const OpSelection& s) {
  try {
    select_entries(op_database(), s);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

CliRun cli(std::vector<std::string> args) {
  return run_cli_quietly(std::move(args), {cpu_backend_factory()});
}

TEST(OpSelection, ABaseNameSelectsEveryOverloadWithItsInPlaceAndOutVariantsAndNothingElse) {
  EXPECT_THAT(selected(named({"add"})), ElementsAre("add.Tensor", "add.Scalar"));
  EXPECT_THAT(selected(named({"mul", "add"})),
              ElementsAre("add.Tensor", "add.Scalar", "mul.Tensor", "mul.Scalar"));
  EXPECT_THAT(selected(named({"expand"})), ElementsAre("expand"));
}

TEST(OpSelection, AnOpOrEntryNameSelectsItsEntry) {
  EXPECT_THAT(selected(named({"add.out"})), ElementsAre("add.Tensor"));
  EXPECT_THAT(selected(named({"add_.Scalar"})), ElementsAre("add.Scalar"));
  EXPECT_THAT(selected(named({"sum.IntList_out"})), ElementsAre("sum.dim_IntList"));
  EXPECT_THAT(selected(named({"sum.dim_IntList"})), ElementsAre("sum.dim_IntList"));
}

TEST(OpSelection, ARegexMatchesWholeNamesOnly) {
  // Searched, "^(add|mul)" also selected addcmul, expand and expand_as.
  EXPECT_THAT(selected(matching("(add|mul)")),
              ElementsAre("add.Tensor", "add.Scalar", "mul.Tensor", "mul.Scalar"));
  EXPECT_THAT(selected(matching("expand.*")), ElementsAre("expand", "expand_as"));
  EXPECT_THAT(selected({.names = {"neg"}, .regex = "exp"}), ElementsAre("neg", "exp"));
}

TEST(OpSelection, NothingSelectedIsAnErrorNamingCloseNames) {
  EXPECT_EQ(selection_error(named({"sum.IntList"})),
            "--ops: 'sum.IntList' names no op or conformance entry (close: sum.IntList_out); "
            "--list-ops lists them");
  EXPECT_EQ(selection_error(named({"nogood"})),
            "--ops: 'nogood' names no op or conformance entry; --list-ops lists them");
  EXPECT_EQ(selection_error(matching("zz.*")),
            "--ops-regex: 'zz.*' matches no op or entry name (it must match a whole name, "
            "'mul.*' rather than 'mul'); --list-ops lists them");
  EXPECT_THAT(selection_error(matching("(")),
              StartsWith("--ops-regex: invalid regular expression '(' ("));
}

TEST(OpSelection, CloseNamesShareAPrefixOrAreAFewEditsAway) {
  EXPECT_THAT(close_names("ad", {"abs", "add", "addcmul", "ad", "mul"}),
              ElementsAre("add", "addcmul"));
  EXPECT_THAT(close_names("sigmod", {"sigmoid", "sign", "sin"}), ElementsAre("sigmoid"));
  EXPECT_THAT(close_names("x", {"a", "b", "c"}, 2), ElementsAre("a", "b"));
}

TEST(OpSelection, OpNameListsSplitOnCommasAndRejectEmptyNames) {
  EXPECT_THAT(split_op_names("--ops", "add,mul.out"), ElementsAre("add", "mul.out"));
  for (const std::string bad : {"", "add,,mul", "add,", ",add"}) {
    EXPECT_THROW(split_op_names("--ops", bad), std::invalid_argument) << bad;
  }
}

TEST(OpSelectionCli, AnUnknownOpIsAUsageErrorNotAnEmptyRun) {
  const CliRun r = cli({"--ops", "add,sum.IntList", "--no-repro"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, StartsWith("backplane-conformance: --ops: 'sum.IntList' names no op or "
                                "conformance entry (close: sum.IntList_out); --list-ops lists "
                                "them\n"));
  EXPECT_EQ(r.out, "");
  const CliRun listed = cli({"--list-ops", "--ops", "ad"});
  EXPECT_EQ(listed.status, 2);
  EXPECT_EQ(listed.out, "");
  EXPECT_THAT(listed.err, HasSubstr("(close: add, addmm, addmm_, add.out, addcdiv, addcmul,"));
}

TEST(OpSelectionCli, ListOpsListsTheSelectedEntries) {
  const CliRun r = cli({"--list-ops", "--ops", "mul", "--ops-regex", "sum\\..*"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "entry                   family     tier  dtypes  variants (* = not declared)\n"
            "mul.Tensor              binary     1     12       mul.Tensor mul_.Tensor mul.out\n"
            "mul.Scalar              binary     1     12       mul.Scalar mul_.Scalar\n"
            "sum.dim_IntList         reduction  1     12       sum.dim_IntList sum.IntList_out\n"
            "sum                     reduction  2     12       sum sum.out\n");
}

TEST(SchemaCli, DescribesEachOverloadWithDtypesVariantsAndWhatCommonServes) {
  const CliRun r = cli({"--schema", "sum"});
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string all_dtypes =
      "bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, "
      "complex128";
  EXPECT_EQ(
      r.out,
      "sum.dim_IntList (conformance entry, family reduction, tier 1)\n"
      "  functional  sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor\n"
      "  out         sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, "
      "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)\n"
      "  dtypes      " +
          all_dtypes +
          "\n"
          "  Common      a backend that registers only sum.IntList_out also gets sum.dim_IntList "
          "(the Common key runs the meta function, allocates or checks the output, then calls "
          "sum.IntList_out)\n"
          "\n"
          "sum (conformance entry, family reduction, tier 2)\n"
          "  functional  sum(Tensor self, *, ScalarType? dtype=None) -> Tensor\n"
          "  out         sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> "
          "Tensor(a!)\n"
          "  dtypes      " +
          all_dtypes +
          "\n"
          "  composite   sum, sum.out: written with other ops (CompositeImplicit): served by "
          "what they call\n"
          "  Common      serves no variant of this group through sum.out (not a structured "
          "group)\n");
}

TEST(SchemaCli, AnOutOpNamesItsGroupAndTheInPlaceVariantIsServedToo) {
  const CliRun r = cli({"--schema", "add.out"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("add.Tensor (conformance entry, family binary, tier 1)\n"
                                "  functional  add.Tensor(Tensor self, Tensor other, *, Scalar "
                                "alpha=1) -> Tensor\n"
                                "  inplace     add_.Tensor(Tensor(a!) self, Tensor other, *, "
                                "Scalar alpha=1) -> Tensor(a!)\n"));
  EXPECT_THAT(r.out, HasSubstr("  Common      a backend that registers only add.out also gets "
                               "add.Tensor and add_.Tensor ("));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("add.Scalar")));
  const CliRun view = cli({"--schema", "view"});
  EXPECT_THAT(view.out, HasSubstr("  composite   view: one kernel for every device "
                                  "(CompositeExplicit)\n  Common      no out= variant: the "
                                  "Common key serves no variant of this group\n"));
}

TEST(SchemaCli, AnUnknownNameIsAUsageError) {
  const CliRun r = cli({"--schema", "sumx"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, StartsWith("backplane-conformance: --schema: 'sumx' names no declared op or "
                                "conformance entry (close: sum); --list-ops --schemas lists "
                                "them\n"));
  EXPECT_EQ(cli({"--schemas"}).status, 2);
}

TEST(SchemaCli, ListOpsSchemasListsEveryDeclaredOpOnceALine) {
  const CliRun r = cli({"--list-ops", "--schemas"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("# Every op Backplane declares"));
  EXPECT_THAT(r.out, HasSubstr("\nsum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, "
                               "*, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)  # out, "
                               "conformance entry sum.dim_IntList\n"));
  EXPECT_THAT(r.out, HasSubstr("\nadd_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) "
                               "-> Tensor(a!)  # inplace, conformance entry add.Tensor\n"));
  size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 2 + op_table().size());
}

}  // namespace
}  // namespace bp::conformance
