// The text renderer: compiler-style messages with the source line and a caret.
//   file:line:col: error: message [rule]
//     source line
//     ^~~~
//   file:line:col: note: message
// A long source line (a minified file, a binary one) is shown as a window of at most
// kExcerptColumns columns around the caret, cut ends marked with '…'; control characters in it
// are shown as '?', so an excerpt never moves the terminal's cursor. Messages are cut at
// kMessageBytes: no line of the report is longer than a few hundred bytes.
#include <algorithm>

#include <fmt/format.h>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::diagnostics {
namespace {

constexpr std::string_view kBold = "\033[1m";
constexpr std::string_view kReset = "\033[0m";

constexpr size_t kExcerptColumns = 200;
constexpr size_t kMessageBytes = 1000;
constexpr std::string_view kEllipsis = "\u2026";

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The nearest UTF-8 character boundary at or after `at`.
size_t char_boundary(std::string_view text, size_t at) {
  while (at < text.size() && is_continuation_byte(text[at])) ++at;
  return at;
}

// The part of a source line an excerpt shows: [begin, end) in bytes, and whether either end was
// cut.
struct Window {
  size_t begin = 0;
  size_t end = 0;
  bool cut_left = false;
  bool cut_right = false;
};

// At most kExcerptColumns bytes of `line` that hold `focus` (the caret), a quarter of the
// window before it; the whole line when it fits.
Window excerpt_window(std::string_view line, size_t focus) {
  if (line.size() <= kExcerptColumns) return {0, line.size(), false, false};
  size_t begin = focus > kExcerptColumns / 4 ? focus - kExcerptColumns / 4 : 0;
  begin = std::min(begin, line.size() - kExcerptColumns);
  begin = char_boundary(line, begin);
  size_t end = std::min(line.size(), begin + kExcerptColumns);
  while (end < line.size() && end > begin && is_continuation_byte(line[end])) --end;
  return {begin, end, begin > 0, end < line.size()};
}

// Control characters (but tabs, which keep the caret aligned) shown as '?'.
std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7F) c = '?';
  }
  return out;
}

class TextWriter {
 public:
  TextWriter(const SourceFiles& sources, TextStyle style) : sources_(sources), style_(style) {}

  void diagnostic(const Diagnostic& d) {
    header(d.location, d.severity, d.message + fmt::format(" [{}]", d.rule));
    excerpt(d.location);
    for (const Note& note : d.notes) {
      header(note.location, Severity::note, note.message);
      excerpt(note.location);
    }
    if (d.fix) {
      const FixHint& fix = *d.fix;
      const Location& at = fix.location;
      const bool whole_line = fix.replacement.empty() && at.column == 1 && at.end_column == 1 &&
                              at.end_line == at.line + 1;
      std::string what = whole_line ? std::string("fix: delete the line")
                         : fix.replacement.empty()
                             ? std::string("fix: delete the text")
                             : fmt::format("fix: replace with '{}'", fix.replacement);
      if (!fix.unsafe_reason.empty())
        what += fmt::format(" (not applied by --fix: {})", fix.unsafe_reason);
      header(at, Severity::note, what);
    }
  }

  std::string take() { return std::move(out_); }

 private:
  void paint(std::string_view code, std::string_view text) {
    if (style_.color) {
      out_ += code;
      out_ += text;
      out_ += kReset;
    } else {
      out_ += text;
    }
  }

  void header(const Location& loc, Severity severity, const std::string& message) {
    std::string where;
    if (!loc.file.empty()) {
      where = loc.file;
      if (loc.line != 0) where += fmt::format(":{}", loc.line);
      if (loc.line != 0 && loc.column != 0) where += fmt::format(":{}", loc.column);
      where += ": ";
    }
    paint(kBold, where);
    paint(severity_color(severity), fmt::format("{}:", severity_name(severity)));
    out_ += ' ';
    out_ += clip_text(message, kMessageBytes);
    out_ += '\n';
  }

  void excerpt(const Location& loc) {
    if (loc.file.empty() || loc.line == 0 || loc.column == 0) return;
    std::string_view line = sources_.line(loc.file, loc.line);
    if (line.empty()) return;
    const size_t end_column = loc.end_line == loc.line ? loc.end_column : 0;
    out_ += render_excerpt(line, loc.column, end_column, "  ", style_.color ? "\033[1;32m" : "");
  }

  const SourceFiles& sources_;
  TextStyle style_;
  std::string out_;
};

}  // namespace

std::string clip_text(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  size_t end = limit;
  while (end > 0 && is_continuation_byte(text[end])) --end;
  return std::string(text.substr(0, end)) + std::string(kEllipsis);
}

// The source line, then a caret under the first column and tildes under the rest of the range
// (up to the end of the line). Tabs in the source are copied so the caret lines up. A long line
// shows only its window around the caret.
std::string render_excerpt(std::string_view line, size_t column, size_t end_column,
                           std::string_view indent, std::string_view caret_color) {
  const size_t focus = std::min<size_t>(column == 0 ? 0 : column - 1, line.size());
  const Window window = excerpt_window(line, focus);
  std::string_view text = line.substr(window.begin, window.end - window.begin);
  std::string out(indent);
  if (window.cut_left) out += kEllipsis;
  out += printable(text);
  if (window.cut_right) out += kEllipsis;
  out += '\n';
  const size_t start = std::min(focus - std::min(focus, window.begin), text.size());
  size_t end = end_column > column ? end_column - 1 : line.size();
  end = end > window.begin ? end - window.begin : 0;
  end = std::clamp(end, start + 1, std::max(text.size(), start + 1));
  out += indent;
  if (window.cut_left) out += ' ';
  for (size_t i = 0; i < start; ++i) out += text[i] == '\t' ? '\t' : ' ';
  const std::string underline = "^" + std::string(end - start - 1, '~');
  if (caret_color.empty()) {
    out += underline;
  } else {
    out += caret_color;
    out += underline;
    out += kReset;
  }
  out += '\n';
  return out;
}

std::string render_text(std::span<const Diagnostic> diagnostics, const SourceFiles& sources,
                        TextStyle style) {
  TextWriter writer(sources, style);
  for (const Diagnostic& d : diagnostics) writer.diagnostic(d);
  return writer.take();
}

std::string render_line_problem(std::string_view where, Severity severity, std::string_view message,
                                std::string_view rule, std::string_view line, size_t column,
                                size_t end_column, TextStyle style) {
  auto paint = [&](std::string_view code, std::string_view text) {
    return style.color ? fmt::format("{}{}{}", code, text, kReset) : std::string(text);
  };
  return fmt::format("{} {} {} [{}]\n{}", paint(kBold, fmt::format("{}:", where)),
                     paint(severity_color(severity), fmt::format("{}:", severity_name(severity))),
                     clip_text(message, kMessageBytes), rule,
                     render_excerpt(line, column, end_column, "", style.color ? "\033[1;32m" : ""));
}

std::string render_summary(DiagnosticCounts counts) {
  return fmt::format("{} error{}, {} warning{}\n", counts.errors, counts.errors == 1 ? "" : "s",
                     counts.warnings, counts.warnings == 1 ? "" : "s");
}

}  // namespace schemac::diagnostics
