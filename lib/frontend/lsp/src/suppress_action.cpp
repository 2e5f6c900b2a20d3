// "Suppress on this line" (suppress_action.h).
#include "schemac/lsp/suppress_action.h"

#include "schemac/diagnostics/suppressions.h"
#include "schemac/rules/rules.h"

namespace schemac::lsp {

std::optional<TextEdit> suppress_on_line(const Document& document,
                                         const diagnostics::Diagnostic& finding) {
  if (finding.rule.empty() || finding.location.line == 0 || finding.rule == rules::config ||
      finding.rule == rules::unused_suppression || finding.rule == rules::unknown_rule ||
      finding.rule == rules::bare_suppression)
    return std::nullopt;
  const diagnostics::CommentStyle style = document.language == DocumentLanguage::cpp
                                              ? diagnostics::CommentStyle::slashes
                                              : diagnostics::CommentStyle::hash;
  LineIndex index(document.text);
  const uint32_t line = finding.location.line;
  for (const diagnostics::Suppression& s : diagnostics::find_suppressions(document.text, style)) {
    if (s.line != line || s.next_line || s.bare) continue;
    for (const diagnostics::SuppressedRule& r : s.rules)
      if (r.rule == finding.rule || r.rule == "all") return std::nullopt;  // it is there already
    // Before the comment's `]`.
    const Position close = index.from_byte_column(line, s.column + s.length - 1);
    return TextEdit{{close, close}, (s.rules.empty() ? "" : ", ") + finding.rule};
  }
  const Position end =
      index.from_byte_column(line, static_cast<uint32_t>(index.line(line - 1).size() + 1));
  return TextEdit{{end, end},
                  std::string(style == diagnostics::CommentStyle::slashes ? "  // " : "  # ") +
                      "schemac: ignore[" + finding.rule + "]"};
}

}  // namespace schemac::lsp
