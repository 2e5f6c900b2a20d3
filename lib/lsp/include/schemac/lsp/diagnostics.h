// The lint pipeline over an open document, and its findings in the protocol's shapes: each
// Diagnostic with a 0-based UTF-16 range, `code` = the rule id, `source` = "schemac" and
// `codeDescription.href` = the rule's entry in the published docs, when known; each fix-it as a
// quick fix.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/config/config.h"
#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp {

struct AnalysisOptions {
  // Where the rules are documented: a rule's href is this + "#" + its id. Empty: the
  // published docs/lint-rules.md under the document's config's `docs-url:`, else no link.
  std::string rule_docs;
  // The .schemac.yaml configuration that applies to a file (as `schemac lint` finds it), or
  // nullptr for none or an unusable one; unset: no configuration.
  std::function<const config::Config*(const std::string& path)> config_for;
};

// What `schemac lint` reports for the document's text alone: YAML of any of the three kinds
// (with the tags its config names, else those of a tags.yaml beside the file, else the built-in
// ones), C++ and Python registration code; nothing for other files, YAML of another shape
// included. The suppression comments and then the configuration apply, as in `schemac lint`.
std::vector<diagnostics::Diagnostic> lint_document(const Document& document,
                                                   const AnalysisOptions& options);

// The document's diagnostics (those located in it) as LSP Diagnostic objects.
nlohmann::json lsp_diagnostics(const Document& document, const AnalysisOptions& options);

// The quick fixes (CodeAction objects with a WorkspaceEdit) of the document's diagnostics whose
// range meets `range`.
nlohmann::json quick_fixes(const Document& document, Range range, const AnalysisOptions& options);

nlohmann::json to_json(Position position);
nlohmann::json to_json(Range range);
Range range_from_json(const nlohmann::json& json);

}  // namespace schemac::lsp
