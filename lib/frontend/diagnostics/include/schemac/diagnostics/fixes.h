// Applying fix-its: turning the FixHints of a file's diagnostics into byte edits, leaving out the
// ones that overlap an earlier fix or are marked unsafe (and saying why), and showing the result
// as a unified diff. Every byte outside the edited ranges is kept (comments, quoting, CRLF). The
// CLI's `lint --fix` and the language server's quick fixes share this.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::diagnostics {

// The byte offset in `text` of a 1-based line and byte column (Location's convention). A column
// one past the line's last byte is the line break; nullopt when the line does not exist or the
// column runs past the line's break.
std::optional<size_t> offset_of(std::string_view text, uint32_t line, uint32_t column);

// One edit: replace text[begin, end) (byte offsets) with `replacement`.
struct TextEdit {
  size_t begin = 0;
  size_t end = 0;
  std::string replacement;
};

// The edit a fix hint asks for, or nullopt when its range is not in `text`.
std::optional<TextEdit> edit_of(std::string_view text, const FixHint& fix);

struct SkippedFix {
  Diagnostic diagnostic;  // whose fix was left out
  std::string reason;     // "it overlaps the fix of ... at 3:5", the hint's unsafe_reason, ...
};

struct FixOutcome {
  std::string text;             // `text` with the applied edits
  std::vector<TextEdit> edits;  // the applied ones, in file order, offsets into the old text
  std::vector<SkippedFix> skipped;
};

// Applies the fixes of the diagnostics located in `file` to `text`, in file order. A fix is left
// out when it is unsafe, when its range is not in the text, or when it overlaps (or touches the
// same point as) a fix already taken; a fix equal to one already taken is taken once.
FixOutcome apply_fixes(std::string_view file, std::string_view text,
                       std::span<const Diagnostic> diagnostics);

// Lints `texts` (one per file, in order) again and returns every file's diagnostics.
using Relint = std::function<std::vector<Diagnostic>(const std::vector<std::string>& texts)>;

struct FixRounds {
  size_t fixed = 0;                  // fixes applied, all rounds together
  std::vector<SkippedFix> left_out;  // those of the last round: unsafe, or not in the text
};

// `lint --fix`: the fixes of every file applied in rounds, each on a fresh lint of the fixed
// texts (`relint`), until no fix is left or 8 rounds have run (a fix that overlaps another waits
// for the next round, so that a second run changes nothing). `texts` become the fixed texts.
FixRounds apply_fixes_in_rounds(std::span<const std::string> paths, std::vector<std::string>& texts,
                                const Relint& relint);

// A unified diff (`--- a/PATH`, `+++ b/PATH`, `@@ -l,n +l,n @@` hunks with `context` lines around
// each change) from `before` to `after`, by lines (a CR stays part of its line); empty when they
// are equal. A last line without a line break is marked "\ No newline at end of file".
std::string render_unified_diff(std::string_view path, std::string_view before,
                                std::string_view after, int context = 3);

// The UTF-16 code units before byte column `column` (1-based) of `line`, plus one: the column
// editors and SARIF's utf16CodeUnits count. Invalid UTF-8 bytes count one unit each.
uint32_t utf16_column(std::string_view line, uint32_t column);

}  // namespace schemac::diagnostics
