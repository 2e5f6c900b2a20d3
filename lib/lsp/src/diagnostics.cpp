#include "schemac/lsp/diagnostics.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "schemac/diagnostics/suppressions.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"

namespace schemac::lsp {
namespace {

namespace fs = std::filesystem;
using diagnostics::Diagnostic;
using diagnostics::Location;

// The tags the config's `tags:` file lists, else those of a tags.yaml beside `path`, else the
// built-in ones (as `schemac lint` without --tags). A tags file that cannot be read or has errors
// leaves tags unchecked: the editor shows the file being edited, not the tags file's problems.
std::optional<std::vector<std::string>> tags_for(const std::string& path,
                                                 const config::Config* config) {
  std::error_code ec;
  fs::path beside = config != nullptr && config->tags ? fs::path(*config->tags)
                                                      : fs::path(path).parent_path() / "tags.yaml";
  if (path.empty() || !fs::is_regular_file(beside, ec)) {
    return std::vector<std::string>(torch_releases::builtin_tags().begin(),
                                    torch_releases::builtin_tags().end());
  }
  std::ifstream in(beside, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return std::nullopt;
  lint::TagsLoad load = lint::load_tags(beside.string(), text.str());
  if (!load.diagnostics.empty()) return std::nullopt;
  return std::move(load.tags);
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

// Where the document's rules are documented (AnalysisOptions::rule_docs); "" for nowhere.
std::string rule_docs_for(const Document& document, const AnalysisOptions& options) {
  if (!options.rule_docs.empty() || !options.config_for) return options.rule_docs;
  const config::Config* config = options.config_for(document.path);
  if (config == nullptr || !config->docs_url) return "";
  const std::string& base = *config->docs_url;
  return base + (base.ends_with('/') ? "" : "/") + "lint-rules.md";
}

nlohmann::json diagnostic_json(const Document& document, const LineIndex& index,
                               const Diagnostic& d, std::string_view rule_docs) {
  nlohmann::json out = {{"range", to_json(range_of(index, d.location))},
                        {"severity", lsp_severity(d.severity)},
                        {"source", "schemac"},
                        {"message", d.message}};
  if (!d.rule.empty()) {
    out["code"] = d.rule;
    if (!rule_docs.empty())
      out["codeDescription"] = {{"href", fmt::format("{}#{}", rule_docs, d.rule)}};
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
  const config::Config* config = options.config_for ? options.config_for(document.path) : nullptr;
  std::vector<Diagnostic> diagnostics;
  diagnostics::EntryFirstLine entry_first_line = [](uint32_t line) { return line; };
  switch (document.language) {
    case DocumentLanguage::yaml: {
      lint::FileLintOptions lint_options;
      lint_options.native.valid_tags = tags_for(document.path, config);
      if (config != nullptr && config->profile) {
        lint_options.native.profile =
            lint::parse_profile(*config->profile).value_or(lint::Profile::automatic);
      }
      lint::FileLint lint = lint::lint_file(document.path, document.text, lint_options);
      // An editor hands the server every YAML file (CI workflows, configs): one that is none of
      // the operator formats is not this server's to judge, where `schemac lint` says
      // unknown-format.
      if (lint.kind == lint::FileKind::unknown) return {};
      diagnostics = std::move(lint.diagnostics);
      entry_first_line = diagnostics::yaml_entry_first_line(document.text);
      break;
    }
    case DocumentLanguage::cpp:
    case DocumentLanguage::python: {
      auto language = document.language == DocumentLanguage::cpp ? sources::Language::cpp
                                                                 : sources::Language::python;
      sources::ScannedFile file{document.path, sources::scan_source(document.text, language)};
      diagnostics = sources::lint_sources(std::span(&file, 1));
      break;
    }
    case DocumentLanguage::other: return {};
  }
  diagnostics::apply_suppressions(diagnostics, document.path, document.text,
                                  diagnostics::comment_style_for(document.path), entry_first_line);
  if (config != nullptr) config::apply_config(*config, diagnostics);
  return diagnostics;
}

nlohmann::json lsp_diagnostics(const Document& document, const AnalysisOptions& options) {
  LineIndex index(document.text);
  const std::string rule_docs = rule_docs_for(document, options);
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : document.diagnostics) {
    if (d.location.file == document.path)
      out.push_back(diagnostic_json(document, index, d, rule_docs));
  }
  return out;
}

nlohmann::json quick_fixes(const Document& document, Range range, const AnalysisOptions& options) {
  LineIndex index(document.text);
  const std::string rule_docs = rule_docs_for(document, options);
  nlohmann::json actions = nlohmann::json::array();
  for (const Diagnostic& d : document.diagnostics) {
    if (!d.fix || d.location.file != document.path || d.fix->location.file != document.path)
      continue;
    if (!meets(range_of(index, d.location), range)) continue;
    Range edit = range_of(index, d.fix->location);
    size_t begin = index.offset(edit.start);
    std::string_view old_text =
        std::string_view(document.text).substr(begin, index.offset(edit.end) - begin);
    std::string title =
        old_text.empty()
            ? fmt::format("insert '{}'", diagnostics::clip_text(d.fix->replacement, 60))
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
  return actions;
}

}  // namespace schemac::lsp
