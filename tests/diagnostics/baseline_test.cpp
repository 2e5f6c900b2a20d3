// lib/frontend/diagnostics' baselines on small texts: findings keyed by file, rule, operator and the text
// they point at, whatever their line; version 1 baselines (keyed by message) still read.
#include <gtest/gtest.h>

#include "schemac/diagnostics/baseline.h"

namespace schemac::diagnostics {
namespace {

// Three entries with the same unknown type; the finding points at the type's text.
const std::string kToday =
    "- func: a(Tensorr x) -> Tensor\n"
    "- func: b(Tensorr x) -> Tensor\n"
    "- func: c(Tensorr x) -> Tensor\n";

Diagnostic unknown_type(uint32_t line, uint32_t column = 11) {
  return {Severity::error, "unknown-type", Location::at("ops.yaml", line, column, 7), "unknown type 'Tensorr'", {}, {}};
}

FileTextLookup texts_of(const std::string& text) {
  return [&text](const std::string& file) { return file == "ops.yaml" ? std::string_view(text) : std::string_view(); };
}

std::vector<uint32_t> lines_of(const std::vector<Diagnostic>& ds) {
  std::vector<uint32_t> out;
  for (const Diagnostic& d : ds) out.push_back(d.location.line);
  return out;
}

TEST(Baseline, KeysNameTheOperatorAndTheTextPointedAt) {
  std::vector<Diagnostic> today = {unknown_type(1), unknown_type(3)};
  std::vector<BaselineEntry> keys = baseline_keys(today, texts_of(kToday));
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].op, "a");
  EXPECT_EQ(keys[1].op, "c");
  EXPECT_EQ(keys[1].text, "Tensorr");
  EXPECT_EQ(render_baseline(today, texts_of(kToday)),
            "{\"version\": 2, \"findings\": [\n"
            "  {\"file\":\"ops.yaml\",\"rule\":\"unknown-type\",\"operator\":\"a\",\"text\":\"Tensorr\",\"line\":1},\n"
            "  {\"file\":\"ops.yaml\",\"rule\":\"unknown-type\",\"operator\":\"c\",\"text\":\"Tensorr\",\"line\":3}\n"
            "]}\n");
}

TEST(Baseline, ANewFindingAboveTheRecordedOnesIsReportedAtItsOwnLine) {
  std::vector<Diagnostic> today = {unknown_type(1), unknown_type(2), unknown_type(3)};
  std::string error;
  auto baseline = parse_baseline(render_baseline(today, texts_of(kToday)), error);
  ASSERT_TRUE(baseline) << error;
  const std::string later = "- func: d(Tensorr x) -> Tensor\n# a comment\n" + kToday;
  std::vector<Diagnostic> now = {unknown_type(1), unknown_type(3), unknown_type(4), unknown_type(5)};
  drop_baselined(now, *baseline, texts_of(later));
  EXPECT_EQ(lines_of(now), std::vector<uint32_t>{1});
  EXPECT_EQ(now[0].message, "unknown type 'Tensorr'");  // the finding itself, whole
  // A fixed finding drops out; the others stay excused.
  const std::string fixed = "- func: a(Tensor x) -> Tensor\n" + kToday.substr(kToday.find('\n') + 1);
  std::vector<Diagnostic> after_fix = {unknown_type(2), unknown_type(3)};
  drop_baselined(after_fix, *baseline, texts_of(fixed));
  EXPECT_TRUE(after_fix.empty());
}

TEST(Baseline, FindingsSharingAKeyArePairedByTheirRecordedLines) {
  // One operator with the same unknown type three times; a fourth is added between.
  const std::string text = "- func: a(Tensorr x, Tensorr y, Tensorr z) -> Tensor\n";
  std::vector<Diagnostic> today = {unknown_type(1, 11), unknown_type(1, 22), unknown_type(1, 33)};
  for (Diagnostic& d : today) d.location.line = 1;
  std::string error;
  auto baseline = parse_baseline(render_baseline(today, texts_of(text)), error);
  ASSERT_TRUE(baseline) << error;
  const std::string later = "- func: a(Tensorr x,\n  Tensorr y,\n  Tensorr w,\n  Tensorr z) -> Tensor\n";
  std::vector<Diagnostic> now = {unknown_type(1, 11), unknown_type(2, 3), unknown_type(3, 3), unknown_type(4, 3)};
  drop_baselined(now, *baseline, texts_of(later));
  ASSERT_EQ(now.size(), 1u);  // one of the four is new: the one farthest from the recorded line
  EXPECT_EQ(now[0].location.line, 4u);
}

TEST(Baseline, CodeFindingsAreKeyedByTheSchemaLiteralTheyAreIn) {
  const std::string text =
      "TORCH_LIBRARY(ns, m) {\n  m.def(\"f(Tensorr x) -> Tensor\");\n  m.def(\n      \"g(Tensorr x) -> Tensor\");\n}\n";
  auto lookup = [&text](const std::string&) { return std::string_view(text); };
  std::vector<Diagnostic> ds = {unknown_type(2, 12), unknown_type(4, 10)};
  std::vector<BaselineEntry> keys = baseline_keys(ds, lookup);
  EXPECT_EQ(keys[0].op, "f");
  EXPECT_EQ(keys[1].op, "g");
}

TEST(Baseline, VersionOneBaselinesStillExcuseByMessage) {
  std::string error;
  auto old = parse_baseline(
      R"({"version": 1, "findings": [{"file": "ops.yaml", "rule": "unknown-type", "message": "unknown type 'Tensorr'"}]})",
      error);
  ASSERT_TRUE(old) << error;
  std::vector<Diagnostic> now = {unknown_type(1), unknown_type(2)};
  drop_baselined(now, *old, texts_of(kToday));
  EXPECT_EQ(now.size(), 1u);
}

TEST(Baseline, MalformedDocumentsAreRefusedWithAReason) {
  std::string error;
  EXPECT_FALSE(parse_baseline("[1]", error));
  EXPECT_FALSE(parse_baseline("{\"findings\": [{\"file\": 1}]}", error));
  EXPECT_FALSE(parse_baseline("{\"version\": 2, \"findings\": [{\"file\": \"a\", \"rule\": \"r\"}]}", error));
  EXPECT_NE(error.find("\"operator\""), std::string::npos) << error;
  EXPECT_FALSE(parse_baseline("{\"version\": 7, \"findings\": []}", error));
  EXPECT_NE(error.find("version 7"), std::string::npos) << error;
}

TEST(Baseline, AFindingWithoutAPlaceIsKeyedByItsMessage) {
  std::vector<Diagnostic> ds = {{Severity::error, "config", Location{}, "unknown key 'x'", {}, {}}};
  std::vector<BaselineEntry> keys = baseline_keys(ds, nullptr);
  EXPECT_EQ(keys[0].text, "unknown key 'x'");
}

}  // namespace
}  // namespace schemac::diagnostics
