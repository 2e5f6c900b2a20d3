// One small OLD/NEW pair per kind of change, with the findings expected (place, rule, message),
// and a table of changes that keep old calls working and must stay silent.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compat_test_support.h"

namespace schemac::schema {

using compat::CompatReport, compat::find_compat_rule, diagnostics::Diagnostic;

namespace {

using compat_test::briefs;
using compat_test::compat;

struct ChangeCase {
  const char* name;
  const char* old_text;
  const char* new_text;
  std::vector<std::string> expected;  // "file:line:col: rule: message", notes left out
};

std::vector<std::string> without_notes(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> copy = diagnostics;
  for (Diagnostic& d : copy) d.notes.clear();
  return briefs(copy);
}

// `- func: ` is 8 characters, so the schema's first character is column 9.
const ChangeCase kBreakingChanges[] = {
    {"removed operator",
     "- func: relu(Tensor self) -> Tensor\n- func: abs(Tensor self) -> Tensor\n",
     "- func: abs(Tensor self) -> Tensor\n",
     {"old.yaml:1:9: removed-operator: operator 'relu' was removed"}},
    {"removed overload",
     "- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n"
     "- func: add.Scalar(Tensor self, Scalar other) -> Tensor\n",
     "- func: add.Scalar(Tensor self, Scalar other) -> Tensor\n",
     {"old.yaml:1:9: removed-overload: overload 'add.Tensor' was removed; NEW still has 'add.Scalar'"}},
    {"renamed overload",
     "- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n",
     "- func: add.Tensors(Tensor self, Tensor other) -> Tensor\n",
     {"new.yaml:1:9: renamed-overload: overload 'add.Tensor' was renamed to 'add.Tensors'"}},
    {"renamed argument",
     "- func: sum(Tensor self, int dim) -> Tensor\n",
     "- func: sum(Tensor self, int axis) -> Tensor\n",
     {"new.yaml:1:26: renamed-argument: argument 'dim' of 'sum' was renamed to 'axis'"}},
    {"removed argument",
     "- func: sum(Tensor self, int dim, bool keepdim=False) -> Tensor\n",
     "- func: sum(Tensor self, bool keepdim=False) -> Tensor\n",
     {"new.yaml:1:9: removed-argument: argument 'dim' of 'sum' was removed"}},
    {"reordered arguments",
     "- func: f(Tensor self, int a, int b) -> Tensor\n",
     "- func: f(Tensor self, int b, int a) -> Tensor\n",
     {"new.yaml:1:24: reordered-argument: argument 'b' of 'f' moved from position 3 to 2"}},
    {"retyped argument",
     "- func: f(Tensor self, int dim) -> Tensor\n",
     "- func: f(Tensor self, float dim) -> Tensor\n",
     {"new.yaml:1:24: retyped-argument: argument 'dim' of 'f' changed type from 'int' to 'float'"}},
    {"argument narrowed from optional",
     "- func: f(Tensor self, Tensor? weight) -> Tensor\n",
     "- func: f(Tensor self, Tensor weight) -> Tensor\n",
     {"new.yaml:1:24: retyped-argument: argument 'weight' of 'f' changed type from 'Tensor?' to 'Tensor'"}},
    {"argument narrowed to a fixed size",
     "- func: f(Tensor self, int[] size) -> Tensor\n",
     "- func: f(Tensor self, int[2] size) -> Tensor\n",
     {"new.yaml:1:24: retyped-argument: argument 'size' of 'f' changed type from 'int[]' to 'int[2]'"}},
    {"positional argument made keyword-only",
     "- func: f(Tensor self, int dim=0) -> Tensor\n",
     "- func: f(Tensor self, *, int dim=0) -> Tensor\n",
     {"new.yaml:1:27: kwarg-only-argument: argument 'dim' of 'f' is keyword-only in NEW but positional in OLD"}},
    {"new argument without default",
     "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self, int dim) -> Tensor\n",
     {"new.yaml:1:24: added-argument: new argument 'dim' of 'f' has no default, so calls written for "
      "OLD do not pass it"}},
    {"new argument inserted before a positional one",
     "- func: f(Tensor self, int dim=0) -> Tensor\n",
     "- func: f(Tensor self, bool flag=False, int dim=0) -> Tensor\n",
     {"new.yaml:1:24: added-argument: new argument 'flag' of 'f' is inserted before existing argument "
      "'dim', so positional calls written for OLD shift"}},
    {"removed default",
     "- func: f(Tensor self, int dim=0) -> Tensor\n",
     "- func: f(Tensor self, int dim) -> Tensor\n",
     {"new.yaml:1:24: removed-default: argument 'dim' of 'f' lost its default '0'"}},
    {"changed default",
     "- func: f(Tensor self, int dim=0) -> Tensor\n",
     "- func: f(Tensor self, int dim=-1) -> Tensor\n",
     {"new.yaml:1:24: changed-default: argument 'dim' of 'f' changed its default from '0' to '-1'"}},
    {"changed return count",
     "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self) -> (Tensor, Tensor)\n",
     {"new.yaml:1:27: changed-return-count: 'f' returns 2 values in NEW but 1 value in OLD"}},
    {"retyped return",
     "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self) -> Tensor?\n",
     {"new.yaml:1:27: retyped-return: return 1 of 'f' changed type from 'Tensor' to 'Tensor?'"}},
    {"renamed return",
     "- func: max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)\n",
     "- func: max.dim(Tensor self, int dim) -> (Tensor vals, Tensor indices)\n",
     {"new.yaml:1:43: renamed-return: return 1 of 'max.dim' was renamed from 'values' to 'vals'"}},
    {"return name dropped",
     "- func: max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)\n",
     "- func: max.dim(Tensor self, int dim) -> (Tensor, Tensor indices)\n",
     {"new.yaml:1:43: renamed-return: return 1 of 'max.dim' lost its name 'values'"}},
    {"argument no longer written to",
     "- func: relu_(Tensor(a!) self) -> Tensor(a!)\n",
     "- func: relu_(Tensor self) -> Tensor\n",
     {"new.yaml:1:15: changed-alias: argument 'self' of 'relu_' is no longer written to: alias "
      "annotation '(a!)' in OLD, none in NEW",
      "new.yaml:1:31: changed-alias: return 1 of 'relu_' is no longer written to: alias annotation "
      "'(a!)' in OLD, none in NEW"}},
    {"argument now written to",
     "- func: f(Tensor self, Tensor other) -> Tensor\n",
     "- func: f(Tensor self, Tensor(a!) other) -> Tensor\n",
     {"new.yaml:1:24: changed-alias: argument 'other' of 'f' is now written to: alias annotation none "
      "in OLD, '(a!)' in NEW"}},
    {"view no longer aliases its input",
     "- func: alias(Tensor(a) self) -> Tensor(a)\n",
     "- func: alias(Tensor self) -> Tensor\n",
     {"new.yaml:1:15: changed-alias: argument 'self' of 'alias' changed aliasing: alias annotation "
      "'(a)' in OLD, none in NEW",
      "new.yaml:1:31: changed-alias: return 1 of 'alias' changed aliasing: alias annotation '(a)' in "
      "OLD, none in NEW"}},
    {"return aliases another argument",
     "- func: f(Tensor(a) self, Tensor(b) other) -> Tensor(a)\n",
     "- func: f(Tensor(a) self, Tensor(b) other) -> Tensor(b)\n",
     {"new.yaml:1:47: changed-alias: return 1 of 'f' changed aliasing: alias annotation '(a)' in OLD, "
      "'(b)' in NEW"}},
    {"varargs dropped",
     "- func: f(Tensor self, ...) -> Tensor\n",
     "- func: f(Tensor self) -> Tensor\n",
     {"new.yaml:1:9: changed-varargs: 'f' no longer takes variable arguments ('...')"}},
    {"backend removed from the dispatch section",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n    CUDA: f_cuda\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n",
     {"new.yaml:2:3: removed-backend: 'f' no longer has a kernel for backend 'CUDA'"}},
    {"backend removed from a shared dispatch line",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA, Meta: f_kernel\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU, Meta: f_kernel\n",
     {"new.yaml:2:3: removed-backend: 'f' no longer has a kernel for backend 'CUDA'"}},
    {"composite kernel replaced by backend kernels",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: f\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: f\n",
     {"new.yaml:2:3: removed-backend: 'f' no longer has a kernel for every backend: NEW dispatches "
      "only to CPU, CUDA"}},
    {"implicit composite replaced by a backend kernel",
     "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n",
     {"new.yaml:2:3: removed-backend: 'f' no longer has a kernel for every backend: NEW dispatches "
      "only to CPU"}},
};

class BreakingChange : public ::testing::TestWithParam<ChangeCase> {};

TEST_P(BreakingChange, IsReportedWithItsRulePlaceAndMessage) {
  const ChangeCase& c = GetParam();
  CompatReport report = compat(c.old_text, c.new_text);
  EXPECT_TRUE(report.compared);
  EXPECT_EQ(without_notes(report.diagnostics), c.expected) << c.name;
  for (const Diagnostic& d : report.diagnostics) {
    EXPECT_EQ(d.severity, diagnostics::Severity::error) << d.message;
    EXPECT_NE(find_compat_rule(d.rule), nullptr) << d.rule;
    ASSERT_EQ(d.notes.size(), 1u) << d.message;
    // A finding in one file points at the other.
    EXPECT_NE(d.notes[0].location.file, d.location.file) << d.message;
  }
}

std::string case_name(const ::testing::TestParamInfo<ChangeCase>& info) {
  std::string name;
  for (const char* p = info.param.name; *p; ++p) name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Compat, BreakingChange, ::testing::ValuesIn(kBreakingChanges), case_name);

struct CompatibleCase {
  const char* name;
  const char* old_text;
  const char* new_text;
};

const CompatibleCase kCompatibleChanges[] = {
    {"identical", "- func: f(Tensor self) -> Tensor\n", "- func: f(Tensor self) -> Tensor\n"},
    {"new operator", "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self) -> Tensor\n- func: g(Tensor self) -> Tensor\n"},
    {"new overload", "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self) -> Tensor\n- func: f.dim(Tensor self, int dim) -> Tensor\n"},
    {"operators moved around", "- func: f(Tensor self) -> Tensor\n- func: g(Tensor self) -> Tensor\n",
     "- func: g(Tensor self) -> Tensor\n- func: f(Tensor self) -> Tensor\n"},
    {"new trailing argument with default", "- func: f(Tensor self) -> Tensor\n",
     "- func: f(Tensor self, int dim=0) -> Tensor\n"},
    {"new argument with default before the out arguments",
     "- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n",
     "- func: f.out(Tensor self, int dim=0, *, Tensor(a!) out) -> Tensor(a!)\n"},
    {"keyword-only made positional", "- func: f(Tensor self, *, int dim=0) -> Tensor\n",
     "- func: f(Tensor self, int dim=0) -> Tensor\n"},
    {"default added", "- func: f(Tensor self, int dim) -> Tensor\n",
     "- func: f(Tensor self, int dim=0) -> Tensor\n"},
    {"argument made optional", "- func: f(Tensor self, Tensor weight) -> Tensor\n",
     "- func: f(Tensor self, Tensor? weight) -> Tensor\n"},
    {"int argument made SymInt", "- func: f(Tensor self, int[] size, int dim) -> Tensor\n",
     "- func: f(Tensor self, SymInt[] size, SymInt dim) -> Tensor\n"},
    {"fixed-size list unsized", "- func: f(Tensor self, int[2] size) -> Tensor\n",
     "- func: f(Tensor self, int[] size) -> Tensor\n"},
    {"return narrowed from optional", "- func: f(Tensor self) -> Tensor?\n", "- func: f(Tensor self) -> Tensor\n"},
    {"unnamed return named", "- func: f(Tensor self) -> (Tensor, Tensor)\n",
     "- func: f(Tensor self) -> (Tensor a, Tensor b)\n"},
    {"alias set relabelled", "- func: f_(Tensor(a!) self, Tensor(b) other) -> Tensor(a!)\n",
     "- func: f_(Tensor(x!) self, Tensor(y) other) -> Tensor(x!)\n"},
    {"backend added", "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n    CUDA: f_cuda\n"},
    {"kernel renamed", "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu_v2\n"},
    {"backend kernels replaced by a composite one",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n    CUDA: f_cuda\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: f\n"},
    {"dispatch section dropped (implicit composite)",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n",
     "- func: f(Tensor self) -> Tensor\n"},
    {"synonym key", "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: f\n",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    DefaultBackend: f\n"},
    {"kernels moved to a structured delegate",
     "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: f\n"
     "- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
     "  dispatch:\n    CPU, CUDA: f_out\n",
     "- func: f(Tensor self) -> Tensor\n  structured_delegate: f.out\n"
     "- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
     "  dispatch:\n    CPU, CUDA: f_out\n"},
};

class CompatibleChange : public ::testing::TestWithParam<CompatibleCase> {};

TEST_P(CompatibleChange, IsNotReported) {
  const CompatibleCase& c = GetParam();
  CompatReport report = compat(c.old_text, c.new_text);
  EXPECT_TRUE(report.compared);
  EXPECT_EQ(briefs(report.diagnostics), std::vector<std::string>{}) << c.name;
}

std::string compatible_name(const ::testing::TestParamInfo<CompatibleCase>& info) {
  std::string name;
  for (const char* p = info.param.name; *p; ++p) name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Compat, CompatibleChange, ::testing::ValuesIn(kCompatibleChanges), compatible_name);

TEST(CompatNotes, PointAtTheOtherFile) {
  CompatReport report = compat("- func: sum(Tensor self, int dim) -> Tensor\n",
                               "- func: sum(Tensor self, int axis) -> Tensor\n");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(compat_test::brief(report.diagnostics[0]),
            "new.yaml:1:26: renamed-argument: argument 'dim' of 'sum' was renamed to 'axis' | note "
            "old.yaml:1:26: OLD declares 'int dim' here");
  EXPECT_EQ(report.diagnostics[0].location.end_column, 34u);  // the whole `int axis`
}

TEST(CompatNotes, RemovedOperatorIsLocatedInOldWithANoteOnNew) {
  CompatReport report = compat("- func: f(Tensor self) -> Tensor\n- func: g(Tensor self) -> Tensor\n",
                               "- func: g(Tensor self) -> Tensor\n");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(compat_test::brief(report.diagnostics[0]),
            "old.yaml:1:9: removed-operator: operator 'f' was removed | note new.yaml:0:0: NEW has no "
            "operator named 'f'");
}

TEST(CompatNotes, RemovedBackendNotePointsAtTheOldKernel) {
  CompatReport report = compat("- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n    CUDA: f_cuda\n",
                               "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  ASSERT_EQ(report.diagnostics[0].notes.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].notes[0].location.file, "old.yaml");
  EXPECT_EQ(report.diagnostics[0].notes[0].location.line, 4u);
  EXPECT_EQ(report.diagnostics[0].notes[0].message, "OLD registers 'f_cuda' for CUDA here");
}

TEST(CompatFindings, CarryTheOldOperatorName) {
  native_functions::NativeFunctionsLoad old_load = native_functions::load_native_functions("old.yaml", "- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n");
  native_functions::NativeFunctionsLoad new_load = native_functions::load_native_functions("new.yaml", "- func: add.Tensor(Tensor self, Tensor rhs) -> Tensor\n");
  std::vector<compat::CompatFinding> findings = compat::compare_native_functions(old_load.file, new_load.file);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].operator_name, "add.Tensor");
  EXPECT_EQ(findings[0].diagnostic.rule, "renamed-argument");
}

TEST(CompatInputs, BadFilesGetLintErrorsAndNoComparison) {
  CompatReport report = compat("- func: f(Tensor self) -> Tensor\n", "- func: f(Tensor self -> Tensor\n");
  EXPECT_FALSE(report.compared);
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics[0].location.file, "new.yaml");
  EXPECT_EQ(report.diagnostics[0].rule, "schema-syntax");
}

TEST(CompatInputs, BrokenYamlIsReportedAtItsPlace) {
  CompatReport report = compat("- func: [unclosed\n", "- func: f(Tensor self) -> Tensor\n");
  EXPECT_FALSE(report.compared);
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics[0].location.file, "old.yaml");
  EXPECT_EQ(report.diagnostics[0].rule, "yaml-syntax");
}

TEST(CompatRules, CatalogueIsSortedAndCoversEveryReportedRule) {
  std::span<const diagnostics::RuleInfo> rules = compat::compat_rule_catalog();
  for (size_t i = 1; i < rules.size(); ++i) EXPECT_LT(rules[i - 1].id, rules[i].id);
  for (const ChangeCase& c : kBreakingChanges) {
    for (const Diagnostic& d : compat(c.old_text, c.new_text).diagnostics) {
      EXPECT_NE(find_compat_rule(d.rule), nullptr) << d.rule;
    }
  }
  EXPECT_EQ(find_compat_rule("no-such-rule"), nullptr);
}

}  // namespace
}  // namespace schemac::schema
