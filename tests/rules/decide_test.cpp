// rules::decide, the one place a finding's severity is decided: profile, release, vendor subset
// and configuration, each step on its own and together.
#include <gtest/gtest.h>

#include "schemac/rules/rules.h"

namespace schemac::rules {
namespace {

Verdict decide_for(Rule rule, Circumstances c) { return decide(rule.def(), c); }

TEST(Decide, DefaultIsTheRulesSeverity) {
  EXPECT_EQ(decide_for(unknown_field, {}).severity, Severity::error);
  EXPECT_EQ(decide_for(unknown_field, {}).because, Because::rule);
  EXPECT_EQ(decide_for(out_name, {}).severity, Severity::warning);
}

TEST(Decide, Profiles) {
  Circumstances extension;
  extension.profile = Profile::extension;
  const Verdict group = decide_for(group_out_alone, extension);
  EXPECT_EQ(group.severity, std::nullopt);  // torchgen's grouping is not an extension's
  EXPECT_EQ(group.because, Because::profile);
  EXPECT_EQ(decide_for(out_annotation, extension).severity, Severity::warning);
  EXPECT_EQ(decide_for(out_annotation, extension).because, Because::profile);
  EXPECT_EQ(decide_for(out_annotation, {}).severity, Severity::error);
}

TEST(Decide, ReleaseWindowAndErrorRelease) {
  Circumstances old;
  old.release = Release{1, 12};
  EXPECT_EQ(decide_for(factory_dispatch, old).severity, std::nullopt);
  EXPECT_EQ(decide_for(factory_dispatch, old).because, Because::release);
  old.release = Release{2, 14};
  EXPECT_EQ(decide_for(nondeterministic_seeded, old).severity, Severity::error);
  // A warning rule whose window makes it an error up to a release (no registry rule has one
  // since torchgen 2.14 still asserts nondeterministic_seeded): the release raises it there, in
  // the extension profile too.
  RuleDef raised = out_name.def();
  raised.releases = table::since(1, 13).errors_until(2, 9);
  old.release = Release{2, 9};
  EXPECT_EQ(decide(raised, old).severity, Severity::error);
  EXPECT_EQ(decide(raised, old).because, Because::release);
  old.release = Release{2, 10};
  EXPECT_EQ(decide(raised, old).severity, Severity::warning);
  Circumstances ext;
  ext.profile = Profile::extension;
  ext.release = Release{2, 0};
  EXPECT_EQ(decide(raised, ext).severity, Severity::error);
  // nondeterministic-seeded itself is a warning out of tree, where no torchgen reads the file.
  EXPECT_EQ(decide_for(nondeterministic_seeded, ext).severity, Severity::warning);
}

// A vendor's subset file: the group rules are warnings, whatever the release; other rules keep
// their severity; outside their profile they stay off.
TEST(Decide, VendorSubsetMakesGroupRulesWarningsAndSaysSo) {
  Circumstances subset;
  subset.vendor_subset = true;
  subset.release = Release{2, 8};
  for (Rule rule : {group_out_alone, autogen_group, group_no_functional}) {
    const Verdict v = decide_for(rule, subset);
    EXPECT_EQ(v.severity, Severity::warning) << rule.name();
    EXPECT_EQ(v.because, Because::vendor_subset) << rule.name();
  }
  EXPECT_EQ(decide_for(group_no_out, subset).severity, Severity::error);
  EXPECT_EQ(decide_for(group_no_out, subset).because, Because::rule);
  subset.release = Release{1, 12};
  EXPECT_EQ(decide_for(group_out_alone, subset).severity, std::nullopt);
  subset.release = Release{2, 8};
  subset.profile = Profile::extension;
  EXPECT_EQ(decide_for(group_out_alone, subset).severity, std::nullopt);
}

TEST(Decide, ConfigurationHasTheLastWord) {
  Circumstances c;
  c.vendor_subset = true;
  c.configured = Severity::error;
  const Verdict v = decide_for(group_out_alone, c);
  EXPECT_EQ(v.severity, Severity::error);
  EXPECT_EQ(v.because, Because::configured);  // so no "this is a warning here" note
  c.configured = Severity::warning;
  EXPECT_EQ(decide_for(group_out_alone, c).because, Because::vendor_subset);  // no change: kept
  c.profile = Profile::extension;
  EXPECT_EQ(decide_for(group_out_alone, c).severity, std::nullopt);  // not in the profile at all
}

}  // namespace
}  // namespace schemac::rules
