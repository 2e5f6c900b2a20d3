#include "schemac/lsp/diagnostics.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "schemac/engine/documents.h"
#include "schemac/engine/engine.h"
#include "schemac/inputs/folder_search.h"
#include "schemac/lsp/suppress_action.h"
#include "schemac/rules/rule_help.h"
#include "schemac/rules/rules.h"

namespace schemac::lsp {
namespace {

namespace fs = std::filesystem;
using diagnostics::Diagnostic;
using diagnostics::Location;

// The folder `schemac lint` would be run on for the document: the workspace holding it, else the
// outermost folder with a .schemac.yaml above it, else its own folder.
fs::path project_folder(const Document& document, const AnalysisOptions& options) {
  fs::path folder = fs::path(document.path).parent_path();
  for (std::optional<fs::path> config = config::find_config_file(document.path); config;) {
    folder = config->parent_path();
    if (folder == folder.parent_path()) break;
    config = config::find_config_file(folder.parent_path());
  }
  const fs::path root = fs::path(options.workspace_root).lexically_normal();
  const fs::path relative = fs::path(document.path).lexically_normal().lexically_relative(root);
  if (!options.workspace_root.empty() && !relative.empty() && *relative.begin() != "..")
    folder = root;
  return folder;
}

// The document (its buffer, as a folder search would have found it: its config's `exclude:`
// leaves it out) and, with `project`, the other files of its project from disk, as `schemac lint`
// reads the project's folder, in its order.
std::vector<engine::Document> project_documents(const Document& document,
                                                const AnalysisOptions& options) {
  std::vector<engine::Document> documents{engine::Document(document.path, document.text, true)};
  documents.front().excludable = true;
  if (!options.project_context || document.path.empty()) return documents;
  // The folder read as `schemac lint DIR` reads it (engine/documents.h): what .gitignore, the
  // configs' `exclude:` or a generator's banner leaves out is not part of the project.
  engine::InputReading reading;
  reading.limit = kMaxProjectFiles;
  engine::Inputs project =
      engine::read_inputs({project_folder(document, options).string()}, reading);
  if (!project.complete) return documents;
  std::error_code ec;
  const fs::path self = fs::weakly_canonical(document.path, ec);
  for (engine::Document& file : project.documents) {
    if (fs::weakly_canonical(file.path, ec) != self) documents.push_back(std::move(file));
  }
  std::sort(documents.begin(), documents.end(),
            [](const engine::Document& a, const engine::Document& b) { return a.path < b.path; });
  return documents;
}

Range range_of(const LineIndex& index, const Location& location) {
  Position start = index.from_byte_column(location.line, location.column);
  if (location.end_line == 0)
    return {start, index.from_byte_column(location.line, location.column + 1)};
  Position end = index.from_byte_column(location.end_line, location.end_column);
  if (end.line < start.line || (end.line == start.line && end.character < start.character))
    end = start;
  return {start, end};
}

int lsp_severity(diagnostics::Severity severity) {
  switch (severity) {
    case diagnostics::Severity::error: return 1;
    case diagnostics::Severity::warning: return 2;
    case diagnostics::Severity::note: break;
  }
  return 3;
}

bool meets(const Range& a, const Range& b) {
  auto before = [](Position x, Position y) {
    return x.line < y.line || (x.line == y.line && x.character <= y.character);
  };
  return before(a.start, b.end) && before(b.start, a.end);
}

// Where a rule of the document is documented: AnalysisOptions::rule_docs + "#" + id, else its
// page (rules::doc_anchor) under the published docs; "" for nowhere.
using RuleLink = std::function<std::string(std::string_view rule)>;
RuleLink rule_docs_for(const Document& document, const AnalysisOptions& options) {
  if (!options.rule_docs.empty())
    return [page = options.rule_docs](std::string_view rule) {
      return fmt::format("{}#{}", page, rule);
    };
  std::string base = options.docs_url;
  if (base.empty() && options.configs) {
    std::vector<Diagnostic> problems;  // an unusable config is reported with the findings
    const config::Config* config = options.configs->for_input(document.path, problems);
    if (config != nullptr && config->docs_url) base = *config->docs_url;
  }
  return [base](std::string_view rule) { return rules::rule_help_uri(base, rule); };
}

nlohmann::json diagnostic_json(const Document& document, const LineIndex& index,
                               const Diagnostic& d, const RuleLink& rule_docs) {
  nlohmann::json out = {{"range", to_json(range_of(index, d.location))},
                        {"severity", lsp_severity(d.severity)},
                        {"source", "schemac"},
                        {"message", d.message}};
  if (!d.rule.empty()) {
    out["code"] = d.rule;
    if (std::string href = rule_docs(d.rule); !href.empty())
      out["codeDescription"] = {{"href", std::move(href)}};
  }
  nlohmann::json related = nlohmann::json::array();
  for (const diagnostics::Note& note : d.notes) {
    if (note.location.file.empty() || note.location.line == 0) {
      out["message"] = out["message"].get<std::string>() + "\nnote: " + note.message;
      continue;
    }
    // Notes in another file are placed by byte column: its text is not at hand.
    Position there{note.location.line - 1, note.location.column > 0 ? note.location.column - 1 : 0};
    Range range =
        note.location.file == document.path ? range_of(index, note.location) : Range{there, there};
    std::string uri =
        note.location.file == document.path ? document.uri : uri_from_path(note.location.file);
    related.push_back(
        {{"location", {{"uri", uri}, {"range", to_json(range)}}}, {"message", note.message}});
  }
  if (!related.empty()) out["relatedInformation"] = std::move(related);
  return out;
}

}  // namespace

nlohmann::json to_json(Position position) {
  return {{"line", position.line}, {"character", position.character}};
}

nlohmann::json to_json(Range range) {
  return {{"start", to_json(range.start)}, {"end", to_json(range.end)}};
}

Range range_from_json(const nlohmann::json& json) {
  auto position = [](const nlohmann::json& p) {
    return Position{p.at("line").get<uint32_t>(), p.at("character").get<uint32_t>()};
  };
  return {position(json.at("start")), position(json.at("end"))};
}

std::vector<Diagnostic> lint_document(const Document& document, const AnalysisOptions& options) {
  // A .schemac.yaml: its own problems, as every door would report them.
  if (fs::path(document.path).filename() == config::kConfigFileName)
    return config::load_config(document.path, document.text).diagnostics;
  if (document.language == DocumentLanguage::other) return {};
  // What `schemac lint` on the project would not read gets nothing: a file in a hidden folder or
  // one .gitignore leaves out, a generated file, one its config's `exclude:` names.
  if (!document.path.empty() &&
      inputs::search_leaves_out(project_folder(document, options).string(), document.path,
                                document.text))
    return {};
  // The engine that `schemac lint` runs: an editor hands the server every YAML file (CI
  // workflows, configs), so one of no operator shape is skipped, as lint skips it in a folder; a
  // tags file that cannot be used leaves tags unchecked.
  engine::Options lint_options;
  lint_options.unusable_tags_unchecked = true;
  std::vector<engine::Document> documents = project_documents(document, options);
  engine::Configured configured =
      engine::configure(std::move(documents), options.configs.get(), {});
  auto self = std::find_if(configured.documents.begin(), configured.documents.end(),
                           [&](const engine::Document& d) { return d.path == document.path; });
  if (std::any_of(configured.excluded.begin(), configured.excluded.end(),
                  [&](const auto& excluded) { return excluded.first == document.path; }))
    return {};
  if (self == configured.documents.end()) {
    // `schemac lint` stops at an unusable config; the editor says so on the document's first line.
    std::string why = configured.problems.empty() ? "" : configured.problems.front().message;
    return {Diagnostic{diagnostics::Severity::error,
                       rules::config,
                       Location::at(document.path, 1, 1),
                       fmt::format("the .schemac.yaml that applies cannot be used: {}", why),
                       {},
                       {}}};
  }
  std::vector<std::string> texts;
  for (const engine::Document& d : configured.documents) texts.push_back(d.text);
  std::vector<Diagnostic> found = engine::lint(configured, texts, lint_options).diagnostics;
  std::erase_if(found, [&](const Diagnostic& d) { return d.location.file != document.path; });
  return found;
}

sources::ScanOptions scan_options_for(const Document& document, const AnalysisOptions& options) {
  std::vector<Diagnostic> problems;
  const config::Config* config =
      options.configs ? options.configs->for_input(document.path, problems) : nullptr;
  return config ? engine::scan_options_from(*config) : sources::ScanOptions{};
}

nlohmann::json lsp_diagnostics(const Document& document, const AnalysisOptions& options) {
  LineIndex index(document.text);
  const RuleLink rule_docs = rule_docs_for(document, options);
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : document.diagnostics) {
    if (d.location.file == document.path)
      out.push_back(diagnostic_json(document, index, d, rule_docs));
  }
  return out;
}

nlohmann::json quick_fixes(const Document& document, Range range, const AnalysisOptions& options) {
  LineIndex index(document.text);
  const RuleLink rule_docs = rule_docs_for(document, options);
  nlohmann::json actions = nlohmann::json::array();
  std::vector<const Diagnostic*> to_suppress;
  for (const Diagnostic& d : document.diagnostics) {
    if (d.location.file != document.path || !meets(range_of(index, d.location), range)) continue;
    to_suppress.push_back(&d);
    if (!d.fix || d.fix->location.file != document.path) continue;
    Range edit = range_of(index, d.fix->location);
    size_t begin = index.offset(edit.start);
    std::string_view old_text =
        std::string_view(document.text).substr(begin, index.offset(edit.end) - begin);
    std::string title =
        d.rule == rules::unused_suppression ? std::string("remove the unused suppression")
        : old_text.empty()
            ? fmt::format("insert '{}'", diagnostics::clip_text(d.fix->replacement, 60))
        : d.fix->replacement.empty()
            ? fmt::format("remove '{}'", diagnostics::clip_text(old_text, 60))
            : fmt::format("replace '{}' with '{}'", diagnostics::clip_text(old_text, 60),
                          diagnostics::clip_text(d.fix->replacement, 60));
    nlohmann::json text_edit = {{"range", to_json(edit)}, {"newText", d.fix->replacement}};
    // A fix that may change what the file means is offered, but not as the one to apply blindly.
    if (!d.fix->unsafe_reason.empty()) title += fmt::format(" (unsafe: {})", d.fix->unsafe_reason);
    actions.push_back({{"title", title},
                       {"kind", "quickfix"},
                       {"isPreferred", d.fix->unsafe_reason.empty()},
                       {"diagnostics", {diagnostic_json(document, index, d, rule_docs)}},
                       {"edit", {{"changes", {{document.uri, {text_edit}}}}}}});
  }
  // After the fixes, "suppress on this line" for each finding there (never the preferred one).
  for (const Diagnostic* d : to_suppress) {
    std::optional<TextEdit> edit = suppress_on_line(document, *d);
    if (!edit) continue;
    nlohmann::json text_edit = {{"range", to_json(edit->range)}, {"newText", edit->new_text}};
    actions.push_back({{"title", fmt::format("suppress [{}] on this line", d->rule)},
                       {"kind", "quickfix"},
                       {"isPreferred", false},
                       {"diagnostics", {diagnostic_json(document, index, *d, rule_docs)}},
                       {"edit", {{"changes", {{document.uri, {text_edit}}}}}}});
  }
  return actions;
}

}  // namespace schemac::lsp
