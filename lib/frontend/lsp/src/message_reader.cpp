#include "schemac/lsp/message_reader.h"
#include "schemac/support/text.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <poll.h>

namespace schemac::lsp {
namespace {

constexpr std::string_view kLengthField = "content-length";

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

using support::trim_blanks;

}  // namespace

MessageReader::Line MessageReader::read_header_line(std::string& line) {
  line.clear();
  bool too_long = false;
  for (;;) {
    int c = in_.get();
    if (c == std::char_traits<char>::eof()) return Line::end;
    if (c == '\n') break;
    if (line.size() < limits_.max_header_line) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;  // keep reading to the end of the line, keeping nothing more
    }
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return too_long ? Line::too_long : Line::ok;
}

Frame MessageReader::next() {
  std::string line;
  std::string error;
  bool has_length = false;
  size_t length = 0;
  bool any_field = false;
  for (;;) {
    Line got = read_header_line(line);
    if (got == Line::end) return {};
    if (got == Line::too_long) {
      error = "header line longer than " + std::to_string(limits_.max_header_line) + " bytes";
      any_field = true;
      continue;
    }
    if (line.empty()) {
      if (!any_field) continue;  // blank lines between messages
      break;
    }
    any_field = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      if (error.empty()) error = "header line without ':'";
      continue;
    }
    if (!equals_ignoring_case(trim_blanks(std::string_view(line).substr(0, colon)), kLengthField))
      continue;
    std::string_view value = trim_blanks(std::string_view(line).substr(colon + 1));
    size_t parsed = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
      if (error.empty()) error = "Content-Length is not a number";
      continue;
    }
    has_length = true;
    length = parsed;
  }
  if (!has_length && error.empty()) error = "header without Content-Length";
  if (has_length && length > limits_.max_body) {
    in_.ignore(static_cast<std::streamsize>(length));  // skip the body to stay in step
    if (in_.gcount() != static_cast<std::streamsize>(length)) return {};
    return {Frame::Status::malformed,
            {},
            "message of " + std::to_string(length) + " bytes is above the limit of " +
                std::to_string(limits_.max_body)};
  }
  if (!error.empty()) {
    // With a length known, the body is skipped; without one, the next header starts right here.
    if (has_length) {
      in_.ignore(static_cast<std::streamsize>(length));
      if (in_.gcount() != static_cast<std::streamsize>(length)) return {};
    }
    return {Frame::Status::malformed, {}, std::move(error)};
  }
  // Read in chunks, so a length that the input does not back costs no memory up front.
  Frame frame{Frame::Status::message, {}, {}};
  constexpr size_t kChunk = 64 * 1024;
  while (frame.body.size() < length) {
    size_t start = frame.body.size();
    size_t want = std::min(kChunk, length - start);
    frame.body.resize(start + want);
    in_.read(frame.body.data() + start, static_cast<std::streamsize>(want));
    if (in_.gcount() != static_cast<std::streamsize>(want)) return {};
  }
  return frame;
}

bool MessageReader::ready(int fd, std::chrono::milliseconds wait) {
  if (in_.rdbuf()->in_avail() > 0) return true;
  if (fd < 0) return false;
  pollfd watch{fd, POLLIN, 0};
  return ::poll(&watch, 1, static_cast<int>(wait.count())) > 0;
}

std::string frame_message(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace schemac::lsp
