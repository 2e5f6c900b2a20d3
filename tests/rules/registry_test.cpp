// The registry's table: symbols, lookups, families and their order.
#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

// A symbol is its rule's id; a misspelt symbol does not compile, so only the ids are tested.
static_assert(unknown_type == std::string_view("unknown-type"));
static_assert(group_out_alone.def().releases.since == Release{1, 13});
static_assert(!(schema_syntax == unknown_type));

TEST(Registry, EveryRuleIsFoundByItsIdAndIdsAreUnique) {
  std::set<std::string_view> seen;
  for (const RuleDef& rule : all_rules()) {
    EXPECT_TRUE(seen.insert(rule.id).second) << rule.id;
    EXPECT_EQ(find_rule(rule.id), &rule) << rule.id;
    EXPECT_FALSE(rule.summary.empty()) << rule.id;
    EXPECT_NE(rule.summary.back(), '.') << rule.id << ": a summary has no final period";
  }
  EXPECT_EQ(find_rule("no-such-rule"), nullptr);
  EXPECT_EQ(find_rule(""), nullptr);
}

TEST(Registry, SymbolsConvertToTheirIds) {
  const std::string as_string = torch_namespace;
  EXPECT_EQ(as_string, "torch-namespace");
  const std::string_view as_view = config;
  EXPECT_EQ(as_view, "config");
  EXPECT_TRUE(std::string("yaml-tab") == yaml_tab);
  EXPECT_EQ(&yaml_tab.def(), find_rule("yaml-tab"));
}

TEST(Registry, FamiliesKeepTheirRulesTogether) {
  std::span<const RuleDef> compat_rules = family_rules(Family::compat);
  EXPECT_EQ(compat_rules.size(), static_cast<size_t>(std::count_if(
                                     all_rules().begin(), all_rules().end(),
                                     [](const RuleDef& r) { return r.family == Family::compat; })));
  ASSERT_EQ(family_rules(Family::gen).size(), 4u);
  EXPECT_EQ(family_rules(Family::gen).front().id, "torch-custom-class");
  EXPECT_EQ(family_rules(Family::gen).back().id, "stable-abi");
}

TEST(Registry, DocAnchorsFollowTheFamily) {
  EXPECT_EQ(doc_anchor(unknown_type.def()), "lint-rules.md#unknown-type");
  EXPECT_EQ(doc_anchor(removed_operator.def()), "compat.md#removed-operator");
  EXPECT_EQ(doc_anchor(yaml_skipped.def()), "sources.md#yaml-skipped");
}

TEST(Registry, ReleaseWindows) {
  const ReleaseWindow seeded = nondeterministic_seeded.def().releases;
  EXPECT_TRUE(seeded.limited());
  EXPECT_FALSE(seeded.contains(Release{1, 12}));
  EXPECT_TRUE(seeded.contains(Release{2, 10}));
  EXPECT_FALSE(unknown_field.def().releases.limited());
  EXPECT_TRUE(table::since(1, 13).until_release(2, 0).contains(Release{2, 0}));
  EXPECT_FALSE(table::since(1, 13).until_release(2, 0).contains(Release{2, 1}));
}

}  // namespace
}  // namespace schemac::rules
