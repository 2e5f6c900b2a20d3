// The rules' documentation (rule_help.h): read from the embedded pages' rule tables, linked only
// under a base URL given.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "schemac/rules/rule_help.h"
#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

TEST(RuleHelp, TheEmbeddedPagesAreTheThreeRulePages) {
  std::vector<std::string_view> names;
  for (const RuleDocPage& page : rule_doc_pages()) {
    names.push_back(page.name);
    EXPECT_FALSE(page.text.empty()) << page.name;
  }
  EXPECT_EQ(names, (std::vector<std::string_view>{"lint-rules.md", "sources.md", "compat.md"}));
}

TEST(RuleHelp, ARuleIsItsTableRowWithPageSectionAndSeverity) {
  std::optional<RuleHelp> help = find_rule_help("unknown-type");
  ASSERT_TRUE(help);
  EXPECT_EQ(help->page, "lint-rules.md");
  EXPECT_EQ(help->section, "Inside `func` (reported by the schema parser and checker)");
  EXPECT_TRUE(help->text.starts_with("unknown-type (error; docs/lint-rules.md, \"Inside `func`"))
      << help->text;
  EXPECT_NE(help->text.find("  since: 1.12\n"), std::string::npos) << help->text;
  EXPECT_EQ(help->text.find("<a id"), std::string::npos) << "anchors are dropped";

  std::optional<RuleHelp> compat = find_rule_help("removed-operator");
  ASSERT_TRUE(compat);
  EXPECT_EQ(compat->page, "compat.md");
  EXPECT_FALSE(find_rule_help("no-such-rule"));
}

TEST(RuleHelp, EveryCompatRuleIsDocumented) {
  const std::vector<std::string> ids = documented_rule_ids();
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  for (const RuleDef& rule : all_rules()) {
    if (rule.family != Family::compat) continue;
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), std::string(rule.id))) << rule.id;
  }
}

TEST(RuleHelp, LinksNeedABaseUrl) {
  EXPECT_EQ(docs_page_url("", "compat.md"), "");
  EXPECT_EQ(rule_help_uri("", "unknown-type"), "");
  EXPECT_EQ(docs_page_url("https://x.org/docs", "compat.md"), "https://x.org/docs/compat.md");
  EXPECT_EQ(rule_help_uri("https://x.org/docs/", "removed-operator"),
            "https://x.org/docs/compat.md#removed-operator");
  // A rule no table documents links to lint's page.
  EXPECT_EQ(rule_help_uri("https://x.org/", "no-such-rule"),
            "https://x.org/lint-rules.md#no-such-rule");
}

}  // namespace
}  // namespace schemac::rules
