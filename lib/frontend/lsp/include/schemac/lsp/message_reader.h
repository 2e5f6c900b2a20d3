// The LSP base protocol's framing: each message is a header ("Content-Length: N\r\n", other
// header fields ignored, then an empty line) followed by N bytes of JSON. The reader never
// trusts the header: a missing or unreadable length, an over-long header line or a length above
// the limit gives a `malformed` frame (with why), and the reader resynchronises on the next
// header, so one bad message does not end the session.
#pragma once

#include <chrono>
#include <cstddef>
#include <istream>
#include <string>

namespace schemac::lsp {

struct Frame {
  enum class Status { message, malformed, end };
  Status status = Status::end;
  std::string body;   // the JSON text (message only)
  std::string error;  // what was wrong (malformed only)
};

struct ReaderLimits {
  size_t max_header_line = 1024;  // bytes in one header line
  size_t max_body = 64u << 20;    // bytes in one message body
};

class MessageReader {
 public:
  explicit MessageReader(std::istream& in, ReaderLimits limits = {}) : in_(in), limits_(limits) {}

  // The next frame; `end` once the input is exhausted (a body cut short by the end of the
  // input is `end` too: there is no one left to answer).
  Frame next();

  // Whether input is waiting: text already buffered in the stream, or, for a stream over the
  // file descriptor `fd` (>= 0), input (or its end) arriving within `wait`. With fd -1 only the
  // buffered text counts.
  bool ready(int fd, std::chrono::milliseconds wait);

 private:
  enum class Line { ok, too_long, end };
  Line read_header_line(std::string& line);

  std::istream& in_;
  ReaderLimits limits_;
};

// `body` framed for sending: "Content-Length: N\r\n\r\n" + body.
std::string frame_message(const std::string& body);

}  // namespace schemac::lsp
