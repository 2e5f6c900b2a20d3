// tools/cli's input reading in-process: what counts as text, and why not.
#include <sstream>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "input.h"

namespace schemac::cli {
namespace {

using namespace std::string_view_literals;

TEST(WhyNotText, Utf8TextIsText) {
  EXPECT_EQ(why_not_text(""), "");
  EXPECT_EQ(why_not_text("- func: relu(Tensor self) -> Tensor\n"), "");
  EXPECT_EQ(why_not_text("# caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"), "");  // 2, 3 and 4 bytes
}

TEST(WhyNotText, NulByteIsBinary) {
  EXPECT_EQ(why_not_text("ab\ncd\0e"sv),
            "it holds a NUL byte at line 2, column 3 (a binary file?)");
}

TEST(WhyNotText, InvalidUtf8NamesTheByte) {
  EXPECT_EQ(why_not_text("ok\nbad \xff"), "it is not UTF-8: byte 0xff at line 2, column 5");
  EXPECT_EQ(why_not_text("\xc3"), "it is not UTF-8: byte 0xc3 at line 1, column 1");  // cut short
  EXPECT_EQ(why_not_text("\xc0\xaf"),
            "it is not UTF-8: byte 0xc0 at line 1, column 1");  // overlong
  EXPECT_EQ(why_not_text("\xed\xa0\x80"),
            "it is not UTF-8: byte 0xed at line 1, column 1");  // surrogate
  EXPECT_EQ(why_not_text("\xf4\x90\x80\x80"), "it is not UTF-8: byte 0xf4 at line 1, column 1");
}

TEST(NonBlankLines, NumberedWithoutLineBreaksBlankOnesSkipped) {
  std::istringstream in("a() -> ()\r\n\n  \t\nb() -> ()\nc() -> ()");
  std::vector<NumberedLine> lines = non_blank_lines(in);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].number, 1u);
  EXPECT_EQ(lines[0].text, "a() -> ()");
  EXPECT_EQ(lines[1].number, 4u);
  EXPECT_EQ(lines[2].number, 5u);
  EXPECT_EQ(lines[2].text, "c() -> ()");
}

}  // namespace
}  // namespace schemac::cli
