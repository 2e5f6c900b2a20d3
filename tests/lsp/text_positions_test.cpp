// UTF-16 positions against byte columns, incremental edits, and file URIs.
#include <gtest/gtest.h>

#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp {
namespace {

TEST(LineIndex, CountsUtf16CodeUnits) {
  // 'é' is 2 bytes and 1 unit, '€' 3 bytes and 1 unit, '😀' 4 bytes and 2 units.
  const std::string text = "ab\né€x😀y\r\nlast";
  LineIndex index(text);
  ASSERT_EQ(index.line_count(), 3u);
  EXPECT_EQ(index.line(1), "é€x😀y");
  EXPECT_EQ(index.from_byte_column(2, 1), (Position{1, 0}));
  EXPECT_EQ(index.from_byte_column(2, 6), (Position{1, 2}));   // 'x'
  EXPECT_EQ(index.from_byte_column(2, 11), (Position{1, 5}));  // 'y'
  EXPECT_EQ(index.from_byte_column(2, 99), (Position{1, 6}));  // clamped to the line's end
  EXPECT_EQ(index.offset({1, 5}), text.find('y'));
  EXPECT_EQ(index.offset({1, 99}), text.find('\r'));
  EXPECT_EQ(index.offset({9, 0}), text.size());
  EXPECT_EQ(index.byte_column({1, 2}), 6u);
}

TEST(LineIndex, MalformedUtf8CountsOneUnitPerByte) {
  EXPECT_EQ(utf16_length("\xff\xc3"), 2u);
  EXPECT_EQ(utf16_length("\xe2\x82"), 2u);
}

TEST(ApplyChange, ReplacesRangesAndWholeTexts) {
  std::string text = "- func: a()\n  dispatch:\n    Cuda: k\n";
  apply_change(text, {{"range", {{"start", {{"line", 2}, {"character", 4}}}, {"end", {{"line", 2}, {"character", 8}}}}},
                      {"text", "CUDA"}});
  EXPECT_EQ(text, "- func: a()\n  dispatch:\n    CUDA: k\n");
  apply_change(text, {{"range", {{"start", {{"line", 3}, {"character", 0}}}, {"end", {{"line", 3}, {"character", 0}}}}},
                      {"text", "- func: b()\n"}});
  EXPECT_EQ(text, "- func: a()\n  dispatch:\n    CUDA: k\n- func: b()\n");
  apply_change(text, {{"text", "new"}});
  EXPECT_EQ(text, "new");
  EXPECT_THROW(apply_change(text, {{"range", 1}}), nlohmann::json::exception);
}

TEST(Uris, RoundTripPathsWithSpecialCharacters) {
  EXPECT_EQ(path_from_uri("file:///a/b%20c/%C3%A9.yaml"), "/a/b c/é.yaml");
  EXPECT_EQ(uri_from_path("/a/b c/é.yaml"), "file:///a/b%20c/%C3%A9.yaml");
  EXPECT_EQ(path_from_uri("file://localhost/x.yaml"), "/x.yaml");
  EXPECT_EQ(path_from_uri("untitled:1"), "untitled:1");
}

}  // namespace
}  // namespace schemac::lsp
