// lib/frontend/torch_releases on its own: which rules a release keeps and how severe they are, and
// the shape of its data (releases in order, rules sorted, tags and keys that only grow). What each
// release does to a file is tested through lint in tests/schemac/torch_release_test.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/torch_releases/torch_release.h"

namespace schemac::torch_releases {
namespace {

using diagnostics::Severity;

// What the one severity decision (rules::decide) makes of `rule` in `version`, from the release
// column of the registry that rule_releases() shows.
std::vector<std::string> kept(TorchVersion version, const std::string& rule) {
  const rules::RuleDef* def = rules::find_rule(rule);
  if (def == nullptr) return {"unknown rule " + rule};
  rules::Circumstances circumstances;
  circumstances.release = release_of(version);
  const std::optional<Severity> severity = rules::decide(*def, circumstances).severity;
  if (!severity) return {};
  return {rule + (*severity == Severity::error ? ":error" : ":warning")};
}

TEST(TorchReleases, RulesOutsideTheirReleasesAreDroppedAndOthersKept) {
  const TorchVersion v1_12{1, 12}, v1_13{1, 13};
  EXPECT_TRUE(kept(v1_12, "factory-dispatch").empty());
  EXPECT_EQ(kept(v1_13, "factory-dispatch"), std::vector<std::string>{"factory-dispatch:error"});
  // A rule with no limits is kept as it is in every release.
  for (TorchVersion version : known_torch_versions()) {
    EXPECT_EQ(kept(version, "unknown-field"), std::vector<std::string>{"unknown-field:error"});
    EXPECT_EQ(kept(version, "out-name"), std::vector<std::string>{"out-name:warning"});
  }
}

// A window's error_until makes a warning rule an error up to that release (no rule of the
// registry uses it since torchgen 2.14 still asserts nondeterministic_seeded).
TEST(TorchReleases, ARuleIsAnErrorUpToItsErrorRelease) {
  rules::RuleDef rule = *rules::find_rule("out-name");
  rule.releases = rules::table::since(1, 13).errors_until(2, 9);
  auto severity = [&](TorchVersion version) {
    rules::Circumstances circumstances;
    circumstances.release = release_of(version);
    return rules::decide(rule, circumstances).severity;
  };
  EXPECT_EQ(severity({1, 12}), std::nullopt);
  EXPECT_EQ(severity({2, 9}), Severity::error);
  EXPECT_EQ(severity(kNewestTorchVersion), Severity::warning);
}

// The schema forms whose reading differs: Dimname up to 2.12, dtype-name defaults from 2.5.
TEST(TorchReleases, SchemaFormsAreReadInTheirReleases) {
  EXPECT_TRUE(reads_schema_form({2, 12}, SchemaForm::dimname_type));
  EXPECT_FALSE(reads_schema_form({2, 13}, SchemaForm::dimname_type));
  EXPECT_FALSE(reads_schema_form(kNewestTorchVersion, SchemaForm::dimname_type));
  EXPECT_FALSE(reads_schema_form({2, 4}, SchemaForm::dtype_name_default));
  EXPECT_TRUE(reads_schema_form({2, 5}, SchemaForm::dtype_name_default));
  for (SchemaForm form : {SchemaForm::device_index_type, SchemaForm::sym_bool_type,
                          SchemaForm::await_type}) {
    EXPECT_FALSE(reads_schema_form({1, 13}, form));
    EXPECT_TRUE(reads_schema_form(kNewestTorchVersion, form));
    EXPECT_EQ(schema_form_releases(form).form, form);
  }
}

TEST(TorchReleases, ReleasesAreInOrderAndRulesSortedById) {
  const std::span<const TorchVersion> versions = known_torch_versions();
  EXPECT_TRUE(std::is_sorted(versions.begin(), versions.end()));
  EXPECT_EQ(versions.back(), kNewestTorchVersion);
  EXPECT_EQ(known_torch_versions_text().substr(0, 10), "1.12, 1.13");
  const std::span<const RuleRelease> rules = rule_releases();
  EXPECT_TRUE(
      std::is_sorted(rules.begin(), rules.end(),
                     [](const RuleRelease& a, const RuleRelease& b) { return a.id < b.id; }));
  for (const RuleRelease& rule : rules) EXPECT_EQ(find_rule_release(rule.id), &rule);
  EXPECT_EQ(find_rule_release("no-such-rule"), nullptr);
}

// torchgen only adds tags and dispatch keys from one release to the next.
TEST(TorchReleases, TagsAndKeysOnlyGrow) {
  const std::span<const TorchVersion> versions = known_torch_versions();
  for (size_t i = 1; i < versions.size(); ++i) {
    for (auto list : {&builtin_tags, &supported_dispatch_keys}) {
      const std::span<const std::string_view> before = (*list)(versions[i - 1]);
      const std::span<const std::string_view> after = (*list)(versions[i]);
      for (std::string_view name : before)
        EXPECT_NE(std::find(after.begin(), after.end(), name), after.end())
            << name << " gone in " << format_torch_version(versions[i]);
    }
  }
  const std::span<const std::string_view> keys = supported_dispatch_keys(kNewestTorchVersion);
  for (std::string_view never : {"Autograd", "AutogradCPU", "PrivateUse1"})
    EXPECT_EQ(std::find(keys.begin(), keys.end(), never), keys.end()) << never;
}

TEST(TorchReleases, AnUnknownReleaseIsSaidWithTheKnownOnes) {
  EXPECT_EQ(unknown_torch_version(format_torch_version(kNewestTorchVersion)), "");
  EXPECT_EQ(unknown_torch_version("1.0"),
            "unknown PyTorch release '1.0'; known: " + known_torch_versions_text());
}

}  // namespace
}  // namespace schemac::torch_releases
