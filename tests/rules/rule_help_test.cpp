// Each rule's help (rule_help.h): made from its line of the rule table alone, linked only under
// a base URL given.
#include <string>

#include <gtest/gtest.h>

#include "schemac/rules/rule_help.h"
#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

TEST(RuleHelp, IsTheRulesLineOfTheTable) {
  EXPECT_EQ(rule_help_text(unknown_type.def()),
            "unknown-type: argument and return types are known schema types\n"
            "  reported by: schemac lint and schemac parse (function schemas, in YAML and "
            "registration code)\n"
            "  severity: error\n"
            "  releases: every release\n"
            "  documented: docs/lint-rules.md#unknown-type\n");
  const std::string compat = rule_help_text(allow_unused.def());
  EXPECT_NE(compat.find("  severity: warning\n"), std::string::npos) << compat;
  EXPECT_NE(compat.find("docs/compat.md#allow-unused"), std::string::npos) << compat;
  EXPECT_EQ(compat.find("releases"), std::string::npos) << "compat rules have no release window";
}

TEST(RuleHelp, EveryRuleHasHelpWithItsSeverityAndAnchor) {
  for (const RuleDef& rule : all_rules()) {
    const std::string help = rule_help_text(rule);
    EXPECT_TRUE(help.starts_with(std::string(rule.id) + ": " + std::string(rule.summary))) << help;
    EXPECT_NE(help.find("docs/" + doc_anchor(rule)), std::string::npos) << help;
  }
}

TEST(RuleHelp, SeverityPerProfileAndReleases) {
  EXPECT_EQ(severity_text(composite_conflict.def()), "error (in-tree), warning (extension)");
  EXPECT_EQ(severity_text(func_not_canonical.def()), "error (in-tree profile only)");
  EXPECT_EQ(severity_text(yaml_skipped.def()), "warning");
  EXPECT_EQ(release_text(nondeterministic_seeded.def().releases), "1.13 and later");
  EXPECT_EQ(release_text(const_ref_out.def().releases), "2.7 and later");
  EXPECT_EQ(release_text(unknown_type.def().releases), "every release");
}

TEST(RuleHelp, LinksNeedABaseUrlAndARule) {
  EXPECT_EQ(docs_page_url("", "compat.md"), "");
  EXPECT_EQ(rule_help_uri("", "unknown-type"), "");
  EXPECT_EQ(docs_page_url("https://x.org/docs", "compat.md"), "https://x.org/docs/compat.md");
  EXPECT_EQ(rule_help_uri("https://x.org/docs/", "removed-operator"),
            "https://x.org/docs/compat.md#removed-operator");
  EXPECT_EQ(rule_help_uri("https://x.org/", "yaml-skipped"),
            "https://x.org/sources.md#yaml-skipped");
  EXPECT_EQ(rule_help_uri("https://x.org/", "no-such-rule"), "");
}

}  // namespace
}  // namespace schemac::rules
