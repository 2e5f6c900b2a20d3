// The lint pipeline over an open document, and its findings in the protocol's shapes: each
// Diagnostic with a 0-based UTF-16 range, `code` = the rule id, `source` = "schemac" and
// `codeDescription.href` = the rule's entry in the published docs, when known; each fix-it as a
// quick fix.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/config/provider.h"
#include "schemac/lsp/document.h"
#include "schemac/lsp/text_positions.h"
#include "schemac/sources/scan.h"

namespace schemac::lsp {

inline constexpr size_t kMaxProjectFiles = 400;

struct AnalysisOptions {
  // Where the rules are documented: a rule's href is this + "#" + its id. Empty: the
  // published docs/lint-rules.md under `docs_url`, else under the document's config's
  // `docs-url:`, else no link (never a path of the machine that built schemac).
  std::string rule_docs;
  // Each file's .schemac.yaml, found as `schemac lint` finds it; null: no configuration.
  std::shared_ptr<config::ConfigProvider> configs;
  // Lint each document with the other files of its project (the workspace when the document is
  // in it, else the outermost folder above it with a .schemac.yaml, else its own folder; read from
  // disk, at most kMaxProjectFiles of them), so that the rules across files (duplicate operators,
  // implementations without a definition) see what `schemac lint` over that folder sees. Off: the
  // document alone.
  bool project_context = false;
  // The client's workspace folder (initialize's rootUri): a document inside it has the workspace
  // as its project, as `schemac lint WORKSPACE` reads it.
  std::string workspace_root = {};
  std::string docs_url = {};  // --docs-url: where docs/ is published (see rule_docs)
};

// What `schemac lint` reports for the document's text alone, through the same engine
// (lib/frontend/engine): YAML of any of the three kinds and C++ and Python registration code, with
// the document's .schemac.yaml (release, profile, tags, per-path, ...) and suppression comments;
// nothing for other files, YAML of another shape included. An unusable config gives one `config`
// error on the first line. With project_context, the rules across files see the project's other
// files; only the document's findings are returned.
std::vector<diagnostics::Diagnostic> lint_document(const Document& document,
                                                   const AnalysisOptions& options);

// How the document's registration code is scanned for a hover: with its config's
// custom-op-helpers:, as lint scans it.
sources::ScanOptions scan_options_for(const Document& document, const AnalysisOptions& options);

// The document's diagnostics (those located in it) as LSP Diagnostic objects.
nlohmann::json lsp_diagnostics(const Document& document, const AnalysisOptions& options);

// The quick fixes (CodeAction objects with a WorkspaceEdit) of the document's diagnostics whose
// range meets `range`.
nlohmann::json quick_fixes(const Document& document, Range range, const AnalysisOptions& options);

nlohmann::json to_json(Position position);
nlohmann::json to_json(Range range);
Range range_from_json(const nlohmann::json& json);

}  // namespace schemac::lsp
