// The text renderer: compiler-style messages with the source line and a caret.
//   file:line:col: error: message [rule]
//     source line
//     ^~~~
//   file:line:col: note: message
#include <algorithm>

#include <fmt/format.h>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::schema {
namespace {

constexpr std::string_view kBold = "\033[1m";
constexpr std::string_view kReset = "\033[0m";

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
      header(d.fix->location, Severity::note, fmt::format("fix: replace with '{}'", d.fix->replacement));
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
    out_ += message;
    out_ += '\n';
  }

  // The source line, then a caret under the first column and tildes under the rest of the range
  // (up to the end of the line). Tabs in the source are copied so the caret lines up.
  void excerpt(const Location& loc) {
    if (loc.file.empty() || loc.line == 0 || loc.column == 0) return;
    std::string_view text = sources_.line(loc.file, loc.line);
    if (text.empty()) return;
    out_ += "  ";
    out_ += text;
    out_ += '\n';
    size_t start = std::min<size_t>(loc.column - 1, text.size());
    size_t end = loc.end_line == loc.line && loc.end_column > loc.column ? loc.end_column - 1
                                                                          : text.size();
    end = std::clamp(end, start + 1, std::max(text.size(), start + 1));
    std::string marker = "  ";
    for (size_t i = 0; i < start; ++i) marker += text[i] == '\t' ? '\t' : ' ';
    std::string underline = "^" + std::string(end - start - 1, '~');
    out_ += marker;
    paint("\033[1;32m", underline);
    out_ += '\n';
  }

  const SourceFiles& sources_;
  TextStyle style_;
  std::string out_;
};

}  // namespace

std::string render_text(std::span<const Diagnostic> diagnostics, const SourceFiles& sources,
                        TextStyle style) {
  TextWriter writer(sources, style);
  for (const Diagnostic& d : diagnostics) writer.diagnostic(d);
  return writer.take();
}

std::string render_summary(DiagnosticCounts counts) {
  return fmt::format("{} error{}, {} warning{}\n", counts.errors, counts.errors == 1 ? "" : "s",
                     counts.warnings, counts.warnings == 1 ? "" : "s");
}

}  // namespace schemac::schema
