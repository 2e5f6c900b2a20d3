// The allow-list: reading entries (required reason and operator, known fields and rules, real
// dates), accepting findings by operator or by operator and rule, expiry, unused entries.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compat_test_support.h"

namespace schemac::schema {

using compat::AllowListLoad, compat::CompatReport, compat::Date, compat::load_allow_list,
    compat::parse_date;

namespace {

using compat_test::briefs;

const char* kOld = "- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
                   "- func: relu(Tensor self) -> Tensor\n";
// Renames `other` and removes alpha's default; removes relu.
const char* kNew = "- func: add.Tensor(Tensor self, Tensor rhs, *, Scalar alpha) -> Tensor\n";

CompatReport run(const std::string& allow_text, Date today = compat_test::test_day()) {
  return compat::check_compat({"old.yaml", kOld}, {"new.yaml", kNew}, compat::CompatInput{"allow.yaml", allow_text}, today);
}

std::vector<std::string> rules_of(const CompatReport& report) {
  std::vector<std::string> rules;
  for (const diagnostics::Diagnostic& d : report.diagnostics) rules.push_back(d.rule);
  return rules;
}

TEST(AllowDates, ParseOnlyRealDates) {
  EXPECT_EQ(parse_date("2026-02-28"), (Date{2026, 2, 28}));
  EXPECT_EQ(parse_date("2024-02-29"), (Date{2024, 2, 29}));
  EXPECT_EQ(parse_date("2000-02-29"), (Date{2000, 2, 29}));
  for (const char* bad : {"2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
                          "2026-1-01", "26-01-01", "2026/01/01", "2026-01-01x", "", "tomorrow"}) {
    EXPECT_EQ(parse_date(bad), std::nullopt) << bad;
  }
  EXPECT_EQ((Date{2026, 1, 5}).text(), "2026-01-05");
  EXPECT_LT((Date{2025, 12, 31}), (Date{2026, 1, 1}));
}

TEST(AllowList, WithoutEntriesEverythingIsReported) {
  EXPECT_EQ(rules_of(run("")),
            (std::vector<std::string>{"renamed-argument", "removed-default", "removed-operator"}));
}

TEST(AllowList, AnOperatorEntryAcceptsAllItsFindings) {
  CompatReport report = run("- operator: add.Tensor\n  reason: the name 'other' was never released\n");
  EXPECT_EQ(rules_of(report), std::vector<std::string>{"removed-operator"});
  EXPECT_EQ(report.allowed, 2u);
}

TEST(AllowList, ARuleEntryAcceptsOnlyThatRule) {
  CompatReport report = run("- operator: add.Tensor\n  rule: renamed-argument\n  reason: typo fix\n");
  EXPECT_EQ(rules_of(report), (std::vector<std::string>{"removed-default", "removed-operator"}));
  EXPECT_EQ(report.allowed, 1u);
}

TEST(AllowList, TheAtenNamespaceIsOptional) {
  CompatReport report = run("- operator: aten::relu\n  reason: replaced by clamp\n");
  EXPECT_EQ(rules_of(report), (std::vector<std::string>{"renamed-argument", "removed-default"}));
}

TEST(AllowList, AnEntryApplyingOnItsExpiryDayStillHolds) {
  CompatReport report = run("- operator: relu\n  reason: gone\n  expires: 2026-03-15\n", Date{2026, 3, 15});
  EXPECT_EQ(rules_of(report), (std::vector<std::string>{"renamed-argument", "removed-default"}));
}

TEST(AllowList, AnExpiredEntryIsAnErrorAndAcceptsNothing) {
  CompatReport report = run("- operator: relu\n  reason: gone for good\n  expires: 2026-03-14\n", Date{2026, 3, 15});
  EXPECT_EQ(briefs(report.diagnostics),
            (std::vector<std::string>{
                "allow.yaml:3:12: allow-expired: allow-list entry for 'relu' expired on 2026-03-14 (today "
                "is 2026-03-15) | note allow.yaml:1:3: its reason was: gone for good",
                "new.yaml:1:33: renamed-argument: argument 'other' of 'add.Tensor' was renamed to 'rhs' | "
                "note old.yaml:1:33: OLD declares 'Tensor other' here",
                "new.yaml:1:48: removed-default: argument 'alpha' of 'add.Tensor' lost its default '1' | "
                "note old.yaml:1:50: OLD declares 'Scalar alpha=1' here",
                "old.yaml:2:9: removed-operator: operator 'relu' was removed | note new.yaml:0:0: NEW "
                "has no operator named 'relu'"}));
  EXPECT_EQ(report.allowed, 0u);
}

TEST(AllowList, AnEntryMatchingNothingIsAWarning) {
  CompatReport report = run(
      "- operator: relu\n  reason: gone\n"
      "- operator: add.Tensor\n  reason: fine\n"
      "- operator: mul.Tensor\n  reason: stale\n"
      "- operator: relu\n  rule: renamed-argument\n  reason: wrong rule\n");
  EXPECT_EQ(briefs(report.diagnostics),
            (std::vector<std::string>{
                "allow.yaml:5:3: allow-unused: allow-list entry for 'mul.Tensor' matches no finding",
                "allow.yaml:7:3: allow-unused: allow-list entry for 'relu' (rule 'renamed-argument') "
                "matches no finding"}));
  EXPECT_EQ(report.diagnostics[0].severity, diagnostics::Severity::warning);
  EXPECT_EQ(report.allowed, 3u);
}

struct BadEntryCase {
  const char* name;
  const char* allow_text;
  std::vector<std::string> expected;  // "file:line:col: rule: message", notes included
};

const BadEntryCase kBadEntries[] = {
    {"missing reason", "- operator: relu\n",
     {"allow.yaml:1:3: allow-missing-reason: allow-list entry for 'relu' has no reason"}},
    {"blank reason", "- operator: relu\n  reason: '  '\n",
     {"allow.yaml:2:11: allow-missing-reason: allow-list entry for 'relu' has no reason"}},
    {"empty reason", "- operator: relu\n  reason:\n",
     {"allow.yaml:2:9: allow-missing-reason: allow-list entry for 'relu' has no reason"}},
    {"empty rule", "- operator: relu\n  rule:\n  reason: r\n",
     {"allow.yaml:2:7: allow-invalid-entry: allow-list field 'rule' takes a string"}},
    {"missing operator", "- reason: because\n",
     {"allow.yaml:1:3: allow-missing-operator: allow-list entry has no operator"}},
    {"bad date", "- operator: relu\n  reason: r\n  expires: 2026-02-30\n",
     {"allow.yaml:3:12: allow-invalid-date: allow-list entry for 'relu' has expiry '2026-02-30', which "
      "is not a YYYY-MM-DD date"}},
    {"unknown field", "- operator: relu\n  reason: r\n  expire: 2026-02-01\n",
     {"allow.yaml:3:3: allow-unknown-field: unknown allow-list field 'expire' | note :0:0: did you "
      "mean 'expires'?"}},
    {"unknown rule", "- operator: relu\n  rule: removed-operater\n  reason: r\n",
     {"allow.yaml:2:9: allow-unknown-rule: allow-list entry for 'relu' names unknown rule "
      "'removed-operater' | note :0:0: did you mean 'removed-operator'?"}},
    {"allow rule named", "- operator: relu\n  rule: allow-unused\n  reason: r\n",
     {"allow.yaml:2:9: allow-unknown-rule: allow-list entry for 'relu' names unknown rule "
      "'allow-unused'"}},
    {"field not a string", "- operator: relu\n  reason: [a, b]\n",
     {"allow.yaml:2:11: allow-invalid-entry: allow-list field 'reason' takes a string"}},
    {"entry not a mapping", "- relu\n",
     {"allow.yaml:1:3: allow-invalid-entry: an allow-list entry is a mapping with operator, reason "
      "and optionally rule and expires"}},
    {"not a list", "operator: relu\n",
     {"allow.yaml:1:1: allow-invalid-entry: an allow-list is a list of '- operator: NAME' entries"}},
};

class BadAllowEntry : public ::testing::TestWithParam<BadEntryCase> {};

TEST_P(BadAllowEntry, IsReportedAndLeftOut) {
  const BadEntryCase& c = GetParam();
  AllowListLoad load = load_allow_list("allow.yaml", c.allow_text);
  EXPECT_EQ(briefs(load.diagnostics), c.expected) << c.name;
  EXPECT_TRUE(load.entries.empty()) << c.name;
  for (const diagnostics::Diagnostic& d : load.diagnostics) EXPECT_EQ(d.severity, diagnostics::Severity::error);
}

std::string bad_entry_name(const ::testing::TestParamInfo<BadEntryCase>& info) {
  std::string name;
  for (const char* p = info.param.name; *p; ++p) name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Compat, BadAllowEntry, ::testing::ValuesIn(kBadEntries), bad_entry_name);

TEST(AllowList, AGoodEntryIsReadWithEveryField) {
  AllowListLoad load = load_allow_list(
      "allow.yaml", "- operator: add.Tensor\n  rule: renamed-argument\n  reason: typo\n  expires: 2026-06-30\n");
  ASSERT_TRUE(load.diagnostics.empty());
  ASSERT_EQ(load.entries.size(), 1u);
  const compat::AllowEntry& entry = load.entries[0];
  EXPECT_EQ(entry.operator_name, "add.Tensor");
  EXPECT_EQ(entry.rule, "renamed-argument");
  EXPECT_EQ(entry.reason, "typo");
  EXPECT_EQ(entry.expires, (Date{2026, 6, 30}));
  EXPECT_EQ(entry.expires_location.line, 4u);
}

TEST(AllowList, BrokenYamlIsAnError) {
  AllowListLoad load = load_allow_list("allow.yaml", "- operator: [relu\n");
  ASSERT_FALSE(load.diagnostics.empty());
  EXPECT_EQ(load.diagnostics[0].rule, "yaml-syntax");
}

TEST(AllowList, ABadEntryDoesNotHideTheOthers) {
  CompatReport report = run("- operator: relu\n- operator: add.Tensor\n  reason: ok\n");
  EXPECT_EQ(rules_of(report), (std::vector<std::string>{"allow-missing-reason", "removed-operator"}));
}

}  // namespace
}  // namespace schemac::schema
