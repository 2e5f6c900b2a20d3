// Diagnostics: located problems with a severity, a rule id, notes and an optional fix hint, and
// the three ways to print them (text for people, JSON for tools, SARIF for code scanning).
// Nothing here knows about native_functions.yaml; `schemac lint` and `schemac compat` share it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schemac/rules/rules.h"

namespace schemac::diagnostics {

// The registry's severity (lib/common/rules), so that a rule's default and a finding's are one
// type.
using Severity = rules::Severity;

std::string_view severity_name(Severity severity);   // "error", "warning", "note"
std::string_view severity_color(Severity severity);  // its ANSI colour in text output

// A place in a file. Lines and columns are 1-based (column counts bytes); 0 means unknown.
// The range is [line:column, end_line:end_column), so a one-character caret has
// end_column == column + 1. An empty file name means "no file" (a tool-level message).
struct Location {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;

  static Location at(std::string file, uint32_t line, uint32_t column, uint32_t length = 1);
};

struct Note {
  Location location;
  std::string message;
};

// A suggested edit: replace the text at `location` with `replacement` (fixes.h applies them).
// A fix that may change what the file means, or that could not be made exact, says why in
// `unsafe_reason`; --fix leaves it out and says so.
struct FixHint {
  FixHint() = default;
  FixHint(Location location, std::string replacement, std::string unsafe_reason = "")
      : location(std::move(location)),
        replacement(std::move(replacement)),
        unsafe_reason(std::move(unsafe_reason)) {}

  Location location;
  std::string replacement;
  std::string unsafe_reason;  // empty: safe to apply
};

struct Diagnostic {
  Severity severity = Severity::error;
  std::string rule;  // kebab-case id, e.g. duplicate-overload (rules::duplicate_overload)
  Location location;
  std::string message;  // lower-case, no final period
  std::vector<Note> notes;
  std::optional<FixHint> fix;
};

// What a rule is, for --list-rules and for SARIF's rule table.
struct RuleInfo {
  std::string_view id;
  Severity severity;
  std::string_view description;  // one line, lower-case, no final period
};

// The text of the files the diagnostics point into, so the text renderer can show source lines.
class SourceFiles {
 public:
  void add(std::string file, std::string text);
  // The text of line `line` (1-based) without its line break; empty when unknown.
  std::string_view line(const std::string& file, uint32_t line) const;

 private:
  struct File {
    std::string text;
    std::vector<uint32_t> line_starts;
  };
  std::map<std::string, File, std::less<>> files_;
};

struct DiagnosticCounts {
  size_t errors = 0;
  size_t warnings = 0;
};
DiagnosticCounts count_diagnostics(std::span<const Diagnostic> diagnostics);

// Sorts by file, line, column (stable, so diagnostics at one place keep their order).
void sort_diagnostics(std::vector<Diagnostic>& diagnostics);

struct TextStyle {
  bool color = false;
};

// `file:line:col: error: message [rule]`, the source line, a caret under the range, each note
// the same way, and a fix hint as `fix-it:` line. No closing count (see render_summary).
std::string render_text(std::span<const Diagnostic> diagnostics, const SourceFiles& sources,
                        TextStyle style = {});
// The two excerpt lines render_text shows under a message, each after `indent` and ending in a
// newline: the source line and a caret under columns [column, end_column) (1-based; an
// end_column not past column marks the rest of the line). A line longer than 200 columns is
// shown as a window around the caret with '…' at each cut end; control characters but tabs
// show as '?'. `caret_color` (an ANSI code, or empty) paints the caret line.
std::string render_excerpt(std::string_view line, size_t column, size_t end_column,
                           std::string_view indent = "  ", std::string_view caret_color = "");
// A problem in one line given alone (a schema on the command line or a line of stdin), as
// `schemac parse` shows it: "WHERE: error: MESSAGE [RULE]" (WHERE bold, the severity in its
// colour, under `style`), then the line and a caret line under [column, end_column), unindented.
std::string render_line_problem(std::string_view where, Severity severity, std::string_view message,
                                std::string_view rule, std::string_view line, size_t column,
                                size_t end_column, TextStyle style = {});
// `text` cut to at most `limit` bytes at a UTF-8 character boundary, '…' added when cut: for
// messages that quote the input.
std::string clip_text(std::string_view text, size_t limit);
// "2 errors, 1 warning" followed by a newline.
std::string render_summary(DiagnosticCounts counts);

// A JSON array; each element has file, line, column, end {line, column}, severity, rule,
// message, notes [{file, line, column, end, message}] and, when present, fix {replacement}.
std::string render_json(std::span<const Diagnostic> diagnostics);

struct ToolInfo {
  std::string name;             // "schemac"
  std::string version;          // "0.1.0"
  std::string information_uri;  // may be empty
  std::span<const RuleInfo> rules;
};
// What SARIF's `invocations` says about the run, the file texts the UTF-16 columns are counted
// in (a file not in `sources` keeps byte columns), and where and how the rules are documented.
struct SarifRun {
  bool execution_successful = true;      // false: some input could not be read, or a usage error
  std::vector<std::string> tool_errors;  // toolExecutionNotifications, e.g. "cannot read 'x.yaml'"
  const SourceFiles* sources = nullptr;
  // A rule's documentation: its helpUri (an absolute URL; "" for none) and its help text (""
  // for none). Unset: neither.
  std::function<std::string(std::string_view rule)> help_uri;
  std::function<std::string(std::string_view rule)> help_text;
};
// A SARIF 2.1.0 log with one run: the driver with its rules, one invocation, and one result per
// diagnostic; columns count UTF-16 code units (columnKind utf16CodeUnits).
std::string render_sarif(std::span<const Diagnostic> diagnostics, const ToolInfo& tool,
                         const SarifRun& run = {});

}  // namespace schemac::diagnostics
