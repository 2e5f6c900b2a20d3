// lib/frontend/presentation: what each --format prints for a report, the rule lists with and without help, and
// --max-errors' cut.
#include "schemac/presentation/presentation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schemac/lint/lint_rules.h"

namespace schemac::presentation {
namespace {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;
using Json = nlohmann::json;

Diagnostic finding(Severity severity, uint32_t line) {
  return {severity, "unknown-field", Location::at("ops.yaml", line, 3, 4), "unknown field", {}, {}};
}

RuleHelp help() {
  return {[](std::string_view id) { return id == "unknown-field" ? "see the fields" : ""; },
          [](std::string_view id) { return "https://host/docs/lint-rules.md#" + std::string(id); }};
}

const std::vector<diagnostics::RuleInfo> kRules{
    {"unknown-field", Severity::error, "fields are known"},
    {"duplicate-key", Severity::warning, "keys are unique"}};

TEST(Report, EachFormat) {
  diagnostics::SourceFiles sources;
  sources.add("ops.yaml", "- func: f() -> ()\n  varian: x\n");
  const std::vector<Diagnostic> found{finding(Severity::error, 2)};
  const std::string text = render_report(found, sources, "text", kRules, {}, {}, false);
  EXPECT_NE(text.find("ops.yaml:2:3: error: unknown field [unknown-field]"), std::string::npos);
  EXPECT_NE(text.find("  varian: x"), std::string::npos) << "the source line";
  EXPECT_TRUE(text.ends_with("1 error, 0 warnings\n")) << text;
  EXPECT_EQ(render_report({}, sources, "text", kRules, {}, {}, false), "");
  EXPECT_EQ(Json::parse(render_report(found, sources, "json", kRules, {}, {}, false))[0]["rule"],
            "unknown-field");
  EXPECT_TRUE(render_report(found, sources, "github", kRules, {}, {}, false)
                  .starts_with("::error file=ops.yaml,line=2,col=3,"));
  const Json sarif = Json::parse(
      render_report(found, sources, "sarif", kRules, {{"cannot read 'x'"}, ""}, help(), false));
  const Json& run = sarif["runs"][0];
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], false);
  const Json& rule = run["tool"]["driver"]["rules"][0];
  EXPECT_EQ(rule["helpUri"], "https://host/docs/lint-rules.md#unknown-field");
  EXPECT_EQ(rule["help"]["text"], "see the fields");
}

TEST(Report, RuleCatalogWithHelpWhereThereIsSome) {
  EXPECT_EQ(render_rule_catalog(kRules, "text", {}),
            "unknown-field  error    fields are known\n"
            "duplicate-key  warning  keys are unique\n");
  const Json json = Json::parse(render_rule_catalog(kRules, "json", help()));
  EXPECT_EQ(json[0]["help"], "see the fields");
  EXPECT_FALSE(json[1].contains("help"));
  EXPECT_EQ(json[1]["helpUri"], "https://host/docs/lint-rules.md#duplicate-key");
  EXPECT_FALSE(Json::parse(render_rule_catalog(kRules, "json", {}))[0].contains("helpUri"));
}

TEST(Report, RuleProfilesOfLintsRules) {
  const std::vector<diagnostics::RuleInfo> rules = lint::lint_run_rules();
  const Json both = Json::parse(render_rule_profiles(rules, lint::Profile::automatic, "json", {}));
  const Json in_tree = Json::parse(render_rule_profiles(rules, lint::Profile::in_tree, "json", {}));
  ASSERT_FALSE(in_tree.empty());
  EXPECT_GE(both.size(), in_tree.size());
  for (const Json& rule : in_tree) {
    EXPECT_TRUE(rule["profiles"].contains("in-tree")) << rule.dump();
    EXPECT_FALSE(rule["profiles"].contains("extension")) << rule.dump();
  }
  const std::string text = render_rule_profiles(rules, lint::Profile::automatic, "text", {});
  EXPECT_NE(text.find("in-tree:error extension:"), std::string::npos) << text.substr(0, 400);
}

TEST(Report, RuleHelpFromTheTableLinksUnderTheDocsUrl) {
  const RuleHelp linked = rule_help("https://host/docs");
  EXPECT_TRUE(linked.text("unknown-field").starts_with("unknown-field: "));
  EXPECT_EQ(linked.text("no-such-rule"), "");
  EXPECT_EQ(linked.uri("unknown-field"), "https://host/docs/lint-rules.md#unknown-field");
  EXPECT_EQ(linked.uri("allow-unused"), "https://host/docs/compat.md#allow-unused");
  EXPECT_EQ(rule_help("").uri("unknown-field"), "");
}

TEST(Report, LimitErrorsKeepsTheFirstAndCountsTheRest) {
  std::vector<Diagnostic> found{finding(Severity::error, 1), finding(Severity::warning, 2),
                                finding(Severity::error, 3), finding(Severity::error, 4)};
  EXPECT_EQ(limit_errors(found, 1), 2u);
  EXPECT_EQ(found.size(), 2u) << "the warning before the second error stays";
  EXPECT_EQ(limit_errors(found, 1), 0u);
}

}  // namespace
}  // namespace schemac::presentation
