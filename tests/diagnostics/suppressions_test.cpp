// lib/frontend/diagnostics' suppression comments on small texts: what silences what, and what a
// comment gets wrong (unused ids, unknown ids, no ids). `schemac lint` and the server call this one
// function; tests/cli/suppress_baseline_test.cpp and tests/lsp/lsp_command_test.cpp run both.
#include <gtest/gtest.h>

#include "schemac/diagnostics/fixes.h"
#include "schemac/diagnostics/suppressions.h"

namespace schemac::diagnostics {
namespace {

Diagnostic at(uint32_t line, std::string rule, std::string file = "f.yaml") {
  return Diagnostic{
      Severity::error, std::move(rule), Location::at(std::move(file), line, 3), "m", {}, {}};
}

std::vector<std::string> rules_of(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds)
    out.push_back(d.rule + "@" + std::to_string(d.location.line) + ":" +
                  std::to_string(d.location.column));
  return out;
}

TEST(Suppressions, SilenceTheLineOrTheEntryAndReportUnusedIds) {
  const std::string text =
      "- func: a() -> ()  # schemac: ignore[unknown-field, func-not-canonical]\n"
      "  dispach: x\n"
      "- func: b() -> ()\n"
      "  dispach: y  # schemac: ignore[unknown-field]\n"
      "  tags: z\n";
  std::vector<Diagnostic> ds = {at(2, "unknown-field"), at(4, "unknown-field"),
                                at(5, "unknown-tag")};
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].rule, "unknown-tag");
  EXPECT_EQ(ds[1].rule, "unused-suppression");
  EXPECT_EQ(ds[1].location.line, 1u);
  EXPECT_EQ(ds[1].location.column, 53u);  // where 'func-not-canonical' stands in the comment
}

TEST(Suppressions, AllSilencesEveryRuleAndIsUnusedOnlyWhenItSilencesNothing) {
  const std::string text =
      "- func: a() -> ()  # schemac: ignore[all]\n"
      "  dispach: x\n"
      "  tags: z\n"
      "- func: b() -> ()  # schemac: ignore[all]\n";
  std::vector<Diagnostic> ds = {at(2, "unknown-field"), at(3, "unknown-tag")};
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  EXPECT_EQ(rules_of(ds), std::vector<std::string>{"unused-suppression@4:38"});
  EXPECT_EQ(ds[0].message, "'schemac: ignore[all]' silences nothing here");
}

TEST(Suppressions, IgnoreNextLineSilencesTheLineBelowAndTheEntryItStarts) {
  // C++: the schema literal on the line after `m.def(`; the registration's entry starts there.
  const std::string text =
      "TORCH_LIBRARY(ns, m) {\n"
      "  m.def(  // schemac: ignore-next-line[unknown-type]\n"
      "      \"f(Tensorr x) -> \"\n"
      "      \"Tensorr\");\n"
      "  /* schemac: ignore-next-line[duplicate-definition] */\n"
      "  m.def(\"g() -> ()\");\n"
      "  // schemac: ignore-next-line[unknown-type]\n"
      "  m.def(\"h() -> ()\");\n"
      "}\n";
  auto entry = [](uint32_t line) { return line == 4 ? 3u : line; };
  std::vector<Diagnostic> ds = {at(3, "unknown-type", "f.cpp"), at(4, "unknown-type", "f.cpp"),
                                at(6, "duplicate-definition", "f.cpp"),
                                at(8, "unknown-tag", "f.cpp")};
  apply_suppressions(ds, "f.cpp", text, CommentStyle::slashes, entry);
  EXPECT_EQ(rules_of(ds), (std::vector<std::string>{"unknown-tag@8:3", "unused-suppression@7:32"}));
  EXPECT_EQ(ds[1].message,
            "'schemac: ignore-next-line[unknown-type]' silences nothing on the next line");
}

TEST(Suppressions, UnknownIdsAreUnknownRuleWithDidYouMeanAndSilenceNothing) {
  const std::string text =
      "- func: a(Tensorr x) -> ()  # schemac: ignore[unknwn-type, nonsense-rule-xyz]\n";
  std::vector<Diagnostic> ds = {at(1, "unknown-type")};
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  ASSERT_EQ(rules_of(ds), (std::vector<std::string>{"unknown-type@1:3", "unknown-rule@1:47",
                                                    "unknown-rule@1:60"}));
  EXPECT_EQ(ds[1].message,
            "unknown rule 'unknwn-type' in 'schemac: ignore[...]'; did you mean 'unknown-type'?");
  ASSERT_TRUE(ds[1].fix.has_value());
  EXPECT_EQ(ds[1].fix->replacement, "unknown-type");
  EXPECT_EQ(ds[1].fix->location.column, 47u);
  EXPECT_EQ(ds[1].fix->location.end_column, 58u);
  EXPECT_EQ(ds[2].message, "unknown rule 'nonsense-rule-xyz' in 'schemac: ignore[...]'");
  EXPECT_FALSE(ds[2].fix.has_value());
}

TEST(Suppressions, ABareIgnoreAsksForRuleIdsAndSilencesNothing) {
  const std::string text =
      "- func: a(Tensorr x) -> ()  # schemac: ignore\n  dispach: x  #schemac:ignore[\n";
  std::vector<Diagnostic> ds = {at(1, "unknown-type"), at(2, "unknown-field")};
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  ASSERT_EQ(rules_of(ds),
            (std::vector<std::string>{"unknown-type@1:3", "unknown-field@2:3",
                                      "bare-suppression@1:31", "bare-suppression@2:16"}));
  EXPECT_EQ(
      ds[2].message,
      "'schemac: ignore' names no rule: write 'schemac: ignore[rule-id, ...]' (or 'ignore[all]')");
}

TEST(Suppressions, OnlyCommentsOfTheFilesStyleCountAndOtherWordsAreNotSuppressions) {
  std::vector<Suppression> found = find_suppressions(
      "m.def(\"a() -> ()\");  // schemac: ignore[x]\r\n# schemac: ignore[y]\n"
      "x;  /*schemac: ignore-next-line[z]*/\n// schemac: ignored\n// schemac: ignore-file[w]\n"
      "s = \"schemac: ignore[v]\";\n",
      CommentStyle::slashes);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rules[0].rule, "x");
  EXPECT_EQ(found[0].line, 1u);
  EXPECT_EQ(found[1].rules[0].rule, "z");
  EXPECT_TRUE(found[1].next_line);
  EXPECT_EQ(found[1].line, 3u);
  EXPECT_EQ(found[1].target_line, 4u);
  EXPECT_EQ(comment_style_for("a/b.cpp"), CommentStyle::slashes);
  EXPECT_EQ(comment_style_for("a/b.py"), CommentStyle::hash);
}

TEST(Suppressions, EveryIdOfTheRuleTableIsKnownAndOtherDoorsRulesAreTheirsToCallUnused) {
  const std::string text =
      "- func: a() -> ()  # schemac: ignore[torch-namespace, removed-default, unknown-type]\n";
  std::vector<Diagnostic> ds;
  auto lint_checks = [](const rules::RuleDef& rule) {
    return rule.family != rules::Family::gen && rule.family != rules::Family::compat;
  };
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text),
                     lint_checks);
  EXPECT_EQ(rules_of(ds), std::vector<std::string>{"unused-suppression@1:72"})
      << "gen's and compat's rules are known, and not lint's to call unused";
  ds.clear();
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  EXPECT_EQ(rules_of(ds),
            (std::vector<std::string>{"unused-suppression@1:38", "unused-suppression@1:55",
                                      "unused-suppression@1:72"}));
}

TEST(Suppressions, CostGrowsLinearlyWithALongLineOfMarkers) {
  // A line of megabytes holding many markers: each one is looked at once (no rescans to the end
  // of the line), so ten times the text finds ten times the comments.
  auto line_of = [](size_t n) {
    std::string s = "x";
    for (size_t i = 0; i < n; ++i) s += "  # schemac: ignore[a]";
    return s + "\n";
  };
  EXPECT_EQ(find_suppressions(line_of(1000), CommentStyle::hash).size(), 1000u);
  EXPECT_EQ(find_suppressions(line_of(100000), CommentStyle::hash).size(), 100000u);
}

}  // namespace
}  // namespace schemac::diagnostics

namespace schemac::diagnostics {
namespace {

// The fix of an unused suppression: its id and a comma when others stay, the whole comment (and
// the blanks before it) when it was the only id, the whole line when nothing else stands there.
TEST(Suppressions, AnUnusedSuppressionsFixRemovesItAndNothingElse) {
  const std::string text =
      "- func: a(Tensorr x) -> ()  # schemac: ignore[unknown-type, unknown-field]\n"
      "- func: b() -> ()  # schemac: ignore[unknown-field, unknown-type]\n"
      "- func: c() -> ()  # schemac: ignore[unknown-type]\n"
      "# schemac: ignore-next-line[unknown-type]\n"
      "- func: d() -> ()\n";
  std::vector<Diagnostic> ds = {
      Diagnostic{Severity::error, "unknown-type", Location::at("f.yaml", 1, 11), "m", {}, {}}};
  apply_suppressions(ds, "f.yaml", text, CommentStyle::hash, yaml_entry_first_line(text));
  ASSERT_EQ(ds.size(), 5u);
  FixOutcome outcome = apply_fixes("f.yaml", text, ds);
  EXPECT_EQ(outcome.text,
            "- func: a(Tensorr x) -> ()  # schemac: ignore[unknown-type]\n"
            "- func: b() -> ()  # schemac: ignore[unknown-type]\n"
            "- func: c() -> ()\n"
            "- func: d() -> ()\n");
  const std::string slashes = "m.def(\"a() -> ()\");  /* schemac: ignore[unknown-type] */ int x;\n";
  ds.clear();
  apply_suppressions(ds, "f.cpp", slashes, CommentStyle::slashes, {});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(apply_fixes("f.cpp", slashes, ds).text, "m.def(\"a() -> ()\"); int x;\n");
}

}  // namespace
}  // namespace schemac::diagnostics
