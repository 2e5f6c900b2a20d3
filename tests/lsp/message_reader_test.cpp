// The base protocol's framing: well-formed frames, and every way a header can be wrong, each
// giving one `malformed` frame and the reader back in step for the next message.
#include <sstream>

#include <gtest/gtest.h>

#include "schemac/lsp/message_reader.h"

namespace schemac::lsp {
namespace {

std::vector<Frame> read_all(const std::string& input, ReaderLimits limits = {}) {
  std::istringstream in(input);
  MessageReader reader(in, limits);
  std::vector<Frame> frames;
  for (Frame f = reader.next(); f.status != Frame::Status::end; f = reader.next()) frames.push_back(f);
  return frames;
}

TEST(MessageReader, ReadsConsecutiveFrames) {
  std::vector<Frame> frames = read_all(frame_message("{\"a\":1}") + frame_message("[]"));
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].body, "{\"a\":1}");
  EXPECT_EQ(frames[1].body, "[]");
}

TEST(MessageReader, IgnoresOtherFieldsCaseAndBareNewlines) {
  std::vector<Frame> frames =
      read_all("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
               "Content-Length:3\n\n[1]");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].body, "{}");
  EXPECT_EQ(frames[1].body, "[1]");
}

TEST(MessageReader, MissingLengthIsMalformedAndTheNextFrameStillReads) {
  std::vector<Frame> frames = read_all("Content-Type: x\r\n\r\n" + frame_message("{}"));
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].status, Frame::Status::malformed);
  EXPECT_EQ(frames[0].error, "header without Content-Length");
  EXPECT_EQ(frames[1].status, Frame::Status::message);
  EXPECT_EQ(frames[1].body, "{}");
}

TEST(MessageReader, UnreadableLengthIsMalformed) {
  for (std::string value : {"abc", "-1", "12x", "", "99999999999999999999999"}) {
    std::vector<Frame> frames = read_all("Content-Length: " + value + "\r\n\r\n" + frame_message("{}"));
    ASSERT_EQ(frames.size(), 2u) << value;
    EXPECT_EQ(frames[0].status, Frame::Status::malformed) << value;
    EXPECT_EQ(frames[1].body, "{}") << value;
  }
}

TEST(MessageReader, BodyAboveTheLimitIsSkipped) {
  std::vector<Frame> frames = read_all(frame_message("0123456789") + frame_message("{}"), {1024, 8});
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].status, Frame::Status::malformed);
  EXPECT_NE(frames[0].error.find("above the limit"), std::string::npos);
  EXPECT_EQ(frames[1].body, "{}");
}

TEST(MessageReader, OverlongHeaderLineIsMalformed) {
  std::vector<Frame> frames = read_all("X-Long: " + std::string(5000, 'x') + "\r\n\r\n" + frame_message("{}"), {64, 1024});
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].status, Frame::Status::malformed);
  EXPECT_EQ(frames[1].body, "{}");
}

TEST(MessageReader, TruncatedBodyEndsTheInput) {
  EXPECT_TRUE(read_all("Content-Length: 100\r\n\r\n{}").empty());
  // A huge length with nothing behind it allocates nothing up front.
  EXPECT_TRUE(read_all("Content-Length: 60000000\r\n\r\n{}").empty());
}

}  // namespace
}  // namespace schemac::lsp
