// The rule profiles: which rules fire, and how severely, for operators of each namespace, and
// what --profile forces. The extension profile's facts come from PyTorch 1.13: each schema
// below that the extension profile lets through was accepted by torch.library.Library.define.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "schemac/lint/lint_rules.h"
#include "schemac/lint/rule_selection.h"

namespace schemac::schema {

using diagnostics::Diagnostic, diagnostics::Severity, lint::LintOptions, lint::Profile,
    lint::find_lint_rule, lint::operator_profile, lint::rule_applies;

namespace {

std::vector<Diagnostic> lint(const std::string& yaml, Profile profile = Profile::automatic) {
  LintOptions options;
  options.profile = profile;
  return lint::lint_native_functions("ops.yaml", yaml, options);
}

// "rule:severity" for each diagnostic, in order.
std::vector<std::string> summary(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.rule + ":" + std::string(diagnostics::severity_name(d.severity)));
  return out;
}

using Found = std::vector<std::string>;

TEST(Profiles, NamesParseAndPrint) {
  for (Profile p : {Profile::in_tree, Profile::extension, Profile::automatic}) {
    EXPECT_EQ(lint::parse_profile(lint::profile_name(p)), p);
  }
  EXPECT_EQ(lint::parse_profile("intree"), std::nullopt);
}

TEST(Profiles, NamespaceChoosesTheProfileUnlessOneIsForced) {
  EXPECT_EQ(operator_profile(Profile::automatic, ""), Profile::in_tree);
  EXPECT_EQ(operator_profile(Profile::automatic, "aten"), Profile::in_tree);
  EXPECT_EQ(operator_profile(Profile::automatic, "myops"), Profile::extension);
  EXPECT_EQ(operator_profile(Profile::in_tree, "myops"), Profile::in_tree);
  EXPECT_EQ(operator_profile(Profile::extension, "aten"), Profile::extension);
}

TEST(Profiles, EveryProfileRowNamesACataloguedRule) {
  for (std::string_view id : {"group-no-out", "group-out-alone", "func-not-canonical", "mutable-return",
                              "factory-dispatch", "structured-kind", "out-annotation", "inplace-self"}) {
    ASSERT_NE(find_lint_rule(id), nullptr) << id;
    const lint::RuleProfiles profiles = lint::rule_profiles(id);
    EXPECT_TRUE(profiles.in_tree) << id;
    EXPECT_TRUE(!profiles.extension || profiles.extension_severity == Severity::warning) << id;
  }
  const lint::RuleProfiles plain = lint::rule_profiles("duplicate-overload");
  EXPECT_TRUE(plain.in_tree && plain.extension && !plain.extension_severity);
}

TEST(Profiles, RuleAppliesGivesTheProfilesSeverity) {
  const diagnostics::RuleInfo& group = *find_lint_rule("group-no-out");
  const diagnostics::RuleInfo& canonical = *find_lint_rule("func-not-canonical");
  LintOptions automatic;
  EXPECT_EQ(rule_applies(group, automatic, Profile::in_tree), Severity::error);
  EXPECT_EQ(rule_applies(group, automatic, Profile::extension), std::nullopt);
  EXPECT_EQ(rule_applies(canonical, automatic, Profile::extension), std::nullopt);
  EXPECT_EQ(rule_applies(*find_lint_rule("out-annotation"), automatic, Profile::extension), Severity::warning);
  LintOptions in_tree;
  in_tree.profile = Profile::in_tree;
  EXPECT_EQ(rule_applies(group, in_tree, Profile::extension), Severity::error);
}

// c10 reads `int? expert_start = None`; only torchgen insists on the canonical spacing.
TEST(Profiles, NonCanonicalSpacingIsFineOutOfTree) {
  const std::string yaml = "- func: myops::moe(Tensor x, int? expert_start = None) -> Tensor\n"
                           "  dispatch:\n    CPU: moe_cpu\n";
  EXPECT_EQ(summary(lint(yaml)), Found{});
  EXPECT_EQ(summary(lint(yaml, Profile::in_tree)), Found{"func-not-canonical:error"});
}

// A positional written argument returned as written: TORCH_LIBRARY takes it, torchgen wants it
// keyword-only.
TEST(Profiles, MutableReturnOfAPositionalArgumentIsFineOutOfTree) {
  const std::string yaml =
      "- func: myops::matmul_div(Tensor left, Tensor right, Tensor(a!) out_opt, Tensor div_input) -> Tensor(a!)\n"
      "  dispatch:\n    CPU: matmul_div_cpu\n";
  EXPECT_EQ(summary(lint(yaml)), Found{});
  EXPECT_EQ(summary(lint(yaml, Profile::in_tree)), Found{"mutable-return:error"});
}

// An out= function with nothing to group with, and a functional one returning nothing: torchgen
// refuses both (it generates the missing variants), TORCH_LIBRARY registers both.
TEST(Profiles, TorchgenGroupingRulesAreInTreeOnly) {
  const std::string yaml =
      "- func: myops::fill.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  dispatch:\n    CPU: fill_out_cpu\n"
      "- func: myops::record(Tensor self) -> ()\n"
      "  dispatch:\n    CPU: record_cpu\n";
  EXPECT_EQ(summary(lint(yaml)), Found{});
  const Found in_tree = summary(lint(yaml, Profile::in_tree));
  EXPECT_NE(std::find(in_tree.begin(), in_tree.end(), "group-out-alone:error"), in_tree.end());
  EXPECT_NE(std::find(in_tree.begin(), in_tree.end(), "group-no-out:error"), in_tree.end());
}

// The mutation mistakes that break functionalization stay, as warnings.
TEST(Profiles, MutationAnnotationsAreWarningsOutOfTree) {
  const std::string yaml =
      "- func: myops::scale.out(Tensor self, float factor, *, Tensor out) -> Tensor\n"
      "  dispatch:\n    CPU: scale_out_cpu\n"
      "- func: myops::scale_(Tensor self, float factor) -> Tensor\n"
      "  dispatch:\n    CPU: scale_inplace_cpu\n";
  EXPECT_EQ(summary(lint(yaml)), (Found{"out-annotation:warning", "inplace-self:warning"}));
  const Found in_tree = summary(lint(yaml, Profile::in_tree));
  for (const char* rule : {"out-annotation:error", "inplace-self:error"}) {
    EXPECT_NE(std::find(in_tree.begin(), in_tree.end(), rule), in_tree.end()) << rule;
  }
}

// Without a namespace, or in aten, an operator is PyTorch's own: the in-tree rules.
TEST(Profiles, AtenAndUnnamespacedOperatorsGetInTreeRules) {
  const std::string yaml = "- func: fill.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                           "  dispatch:\n    CPU: fill_out\n"
                           "- func: aten::moe(Tensor x, int? expert_start = None) -> Tensor\n";
  const Found found = summary(lint(yaml));
  EXPECT_NE(std::find(found.begin(), found.end(), "group-out-alone:error"), found.end());
  EXPECT_NE(std::find(found.begin(), found.end(), "func-not-canonical:error"), found.end());
  EXPECT_EQ(summary(lint(yaml, Profile::extension)), Found{});
}

// What c10 rejects stays an error out of tree: a second registration of one name, an overload
// named `default`, a default before a positional argument without one (c10 aborts).
TEST(Profiles, WhatC10RejectsIsAnErrorInBothProfiles) {
  const std::string yaml =
      "- func: myops::scale(Tensor x) -> Tensor\n"
      "- func: myops::scale(Tensor x, int y) -> Tensor\n"
      "- func: myops::f.default(Tensor x) -> Tensor\n"
      "- func: myops::g(Tensor x, int a=1, Tensor y) -> Tensor\n";
  for (Profile p : {Profile::automatic, Profile::in_tree}) {
    const Found found = summary(lint(yaml, p));
    for (const char* rule : {"duplicate-empty-overload:error", "reserved-overload-name:error", "default-order:error"}) {
      EXPECT_NE(std::find(found.begin(), found.end(), rule), found.end()) << rule << " in " << lint::profile_name(p);
    }
  }
}

// One file may hold both: each operator gets its own profile.
TEST(Profiles, EachOperatorOfAFileGetsItsOwnProfile) {
  const std::string yaml =
      "- func: myops::fill.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  dispatch:\n    CPU: fill_out_cpu\n"
      "- func: fill.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  dispatch:\n    CPU: fill_out\n";
  const std::vector<Diagnostic> diagnostics = lint(yaml);
  ASSERT_FALSE(diagnostics.empty());
  for (const Diagnostic& d : diagnostics) EXPECT_GE(d.location.line, 4u) << d.message;
}

}  // namespace
}  // namespace schemac::schema
