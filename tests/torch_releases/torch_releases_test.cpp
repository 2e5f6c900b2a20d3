// lib/torch_releases on its own: which diagnostics a release keeps and how severe they are, and
// the shape of its data (releases in order, rules sorted, tags and keys that only grow). What each
// release does to a file is tested through lint in tests/schemac/torch_release_test.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/torch_releases/torch_release.h"

namespace schemac::torch_releases {
namespace {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;

std::vector<std::string> kept(TorchVersion version, Severity severity, const std::string& rule) {
  std::vector<Diagnostic> diagnostics{{severity, rule, Location::at("f.yaml", 1, 1), "m", {}, {}}};
  apply_torch_version(diagnostics, version);
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics)
    out.push_back(d.rule + (d.severity == Severity::error ? ":error" : ":warning"));
  return out;
}

TEST(TorchReleases, RulesOutsideTheirReleasesAreDroppedAndOthersKept) {
  const TorchVersion v1_12{1, 12}, v1_13{1, 13};
  EXPECT_TRUE(kept(v1_12, Severity::error, "factory-dispatch").empty());
  EXPECT_EQ(kept(v1_13, Severity::error, "factory-dispatch"),
            std::vector<std::string>{"factory-dispatch:error"});
  // A rule with no limits is kept as it is in every release.
  for (TorchVersion version : known_torch_versions())
    EXPECT_EQ(kept(version, Severity::warning, "unknown-field"),
              std::vector<std::string>{"unknown-field:warning"});
}

TEST(TorchReleases, ARuleIsAnErrorUpToItsErrorRelease) {
  const RuleRelease* seeded = find_rule_release("nondeterministic-seeded");
  ASSERT_NE(seeded, nullptr);
  ASSERT_TRUE(seeded->error_until.has_value());
  EXPECT_EQ(kept(*seeded->error_until, Severity::warning, "nondeterministic-seeded"),
            std::vector<std::string>{"nondeterministic-seeded:error"});
  EXPECT_EQ(kept(kNewestTorchVersion, Severity::warning, "nondeterministic-seeded"),
            std::vector<std::string>{"nondeterministic-seeded:warning"});
}

TEST(TorchReleases, ReleasesAreInOrderAndRulesSortedById) {
  const std::span<const TorchVersion> versions = known_torch_versions();
  EXPECT_TRUE(std::is_sorted(versions.begin(), versions.end()));
  EXPECT_EQ(versions.back(), kNewestTorchVersion);
  EXPECT_EQ(known_torch_versions_text().substr(0, 10), "1.12, 1.13");
  const std::span<const RuleRelease> rules = rule_releases();
  EXPECT_TRUE(std::is_sorted(rules.begin(), rules.end(),
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

}  // namespace
}  // namespace schemac::torch_releases
