// lib/frontend/diagnostics' fix-its, on small texts.
#include <gtest/gtest.h>

#include "schemac/diagnostics/fixes.h"

namespace schemac::diagnostics {
namespace {

Diagnostic with_fix(uint32_t line, uint32_t column, uint32_t end_line, uint32_t end_column, std::string replacement,
                    std::string rule = "r", std::string unsafe = "") {
  Diagnostic d{Severity::error, rule, Location::at("f.yaml", line, column), "m", {}, {}};
  d.fix = diagnostics::FixHint{Location{"f.yaml", line, column, end_line, end_column}, std::move(replacement), std::move(unsafe)};
  return d;
}

TEST(Fixes, OffsetsCountBytesAndStopAtTheLineBreak) {
  EXPECT_EQ(offset_of("ab\r\ncd", 1, 1), 0u);
  EXPECT_EQ(offset_of("ab\r\ncd", 2, 2), 5u);
  EXPECT_EQ(offset_of("ab\r\ncd", 1, 4), 3u);  // the '\n'
  EXPECT_EQ(offset_of("ab\r\ncd", 1, 5), std::nullopt);
  EXPECT_EQ(offset_of("ab\n", 2, 1), 3u);  // the empty last line
  EXPECT_EQ(offset_of("ab\n", 3, 1), std::nullopt);
}

TEST(Fixes, KeepEveryOtherByteAndLeaveOutOverlapsAndUnsafeOnes) {
  const std::string text = "a: CPUU  # keep\r\nb: x\r\nc: y\r\n";
  std::vector<Diagnostic> ds = {with_fix(1, 4, 1, 8, "CPU"), with_fix(1, 5, 1, 6, "Z", "overlapping"),
                                with_fix(2, 1, 3, 1, ""), with_fix(3, 4, 3, 5, "w", "unsafe", "why not")};
  diagnostics::FixOutcome out = diagnostics::apply_fixes("f.yaml", text, ds);
  EXPECT_EQ(out.text, "a: CPU  # keep\r\nc: y\r\n");
  ASSERT_EQ(out.skipped.size(), 2u);
  EXPECT_EQ(out.skipped[0].reason, "why not");
  EXPECT_EQ(out.skipped[1].diagnostic.rule, "overlapping");
  EXPECT_NE(out.skipped[1].reason.find("overlaps the fix of [r] at 1:4"), std::string::npos);
}

TEST(Fixes, SameFixTwiceIsTakenOnceAndOtherFilesAreIgnored) {
  Diagnostic other = with_fix(1, 1, 1, 2, "X");
  other.location.file = other.fix->location.file = "g.yaml";
  std::vector<Diagnostic> ds = {with_fix(1, 1, 1, 2, "b"), with_fix(1, 1, 1, 2, "b"), other};
  diagnostics::FixOutcome out = diagnostics::apply_fixes("f.yaml", "a\n", ds);
  EXPECT_EQ(out.text, "b\n");
  EXPECT_EQ(out.edits.size(), 1u);
  EXPECT_TRUE(out.skipped.empty());
}

TEST(Fixes, RoundsRelintUntilNoFixIsLeft) {
  // Each round's lint offers one fix per file while the text still holds an "x"; the overlap
  // waits a round.
  std::vector<std::string> paths{"f.yaml"};
  std::vector<std::string> texts{"xx\n"};
  int rounds = 0;
  auto relint = [&](const std::vector<std::string>& current) {
    ++rounds;
    std::vector<Diagnostic> out;
    const size_t x = current[0].find('x');
    if (x != std::string::npos) {
      const auto column = static_cast<uint32_t>(x + 1);
      out.push_back(with_fix(1, column, 1, column + 1, "y"));
      out.push_back(with_fix(1, column, 1, column + 1, "z"));  // overlaps: left out
    }
    return out;
  };
  FixRounds fixed = apply_fixes_in_rounds(paths, texts, relint);
  EXPECT_EQ(texts[0], "yy\n");
  EXPECT_EQ(fixed.fixed, 2u);
  EXPECT_EQ(rounds, 3);  // the third finds nothing to fix
  EXPECT_TRUE(fixed.left_out.empty());
}

TEST(Fixes, UnifiedDiffHasHunksWithContext) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += i == 2 ? "LINE 2\n" : i == 18 ? "" : "line " + std::to_string(i) + "\n";
  }
  EXPECT_EQ(render_unified_diff("f.yaml", before, after),
            "--- a/f.yaml\n+++ b/f.yaml\n"
            "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n"
            "@@ -15,6 +15,5 @@\n line 15\n line 16\n line 17\n-line 18\n line 19\n line 20\n");
  EXPECT_EQ(render_unified_diff("f.yaml", before, before), "");
  EXPECT_EQ(render_unified_diff("f", "a", "b"),
            "--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
}

TEST(Fixes, Utf16ColumnsCountSurrogatePairsTwice) {
  EXPECT_EQ(utf16_column("abc", 3), 3u);
  EXPECT_EQ(utf16_column("\xc3\xa9x", 3), 2u);          // é is 2 bytes, 1 unit
  EXPECT_EQ(utf16_column("\xf0\x9f\x98\x80x", 5), 3u);  // an emoji is 4 bytes, 2 units
}

}  // namespace
}  // namespace schemac::diagnostics
