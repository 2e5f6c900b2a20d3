// The code action "suppress on this line": for a finding of the document, the edit that adds its
// rule id to a `schemac: ignore[...]` comment on the finding's line (to the one there, or a new
// one at the line's end, `#` in YAML and Python, `//` in C++). Removing an unused suppression is
// the unused-suppression finding's own fix (lib/frontend/diagnostics' suppressions.h), offered
// with the other quick fixes.
#pragma once

#include <optional>
#include <string>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp {

struct TextEdit {
  Range range;
  std::string new_text;
};

// The edit that suppresses `finding` on its line, or nothing when it cannot be suppressed so:
// a finding about a .schemac.yaml or about a suppression comment itself, or one without a rule
// or a line.
std::optional<TextEdit> suppress_on_line(const Document& document,
                                         const diagnostics::Diagnostic& finding);

}  // namespace schemac::lsp
