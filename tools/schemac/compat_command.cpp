// `schemac compat OLD NEW [--allow FILE] [--format text|json|sarif|github] [--today YYYY-MM-DD]
// [--list-rules]`: reports the changes from OLD to NEW that break callers written against OLD.
// OLD and NEW are native-functions YAML or C++ / Python registration code (by extension), mixed
// as needed; registration code is compared operator by operator through its YAML form.
// Every format goes to stdout, as lint's (text coloured by --color), text ending with
// "N errors, M warnings". Exit 0 compatible, 1 when anything
// breaking is found (or an input file or the allow-list has errors, or an allow-list entry
// expired), 2 on usage or I/O errors.
#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "build_macros.h"
#include "cli.h"
#include "commands.h"
#include "input.h"
#include "parse_sources.h"
#include "report.h"
#include "schemac/compat/compat.h"
#include "schemac/engine/engine.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/sources/language.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"
#include "sources_yaml.h"

namespace schemac::tool {

using cli::error;

namespace {

constexpr std::string_view kCommand = "schemac compat";

struct CompatOptions {
  std::string old_file;
  std::string new_file;
  std::string allow_file;  // empty: no allow-list
  std::string format = "text";
  std::string today;  // empty: the current UTC date
  bool list_rules = false;
  std::string docs_url;  // --docs-url: SARIF's helpUri base
  std::string language;  // cpp | python | yaml: overrides what the names and contents say
  BuildMacroOptions macros;
};

// The language of OLD or NEW: --language, else the name's extension, else the content (read
// through `<(git show HEAD:bind.cpp)`, a name says nothing). nullopt: YAML.
std::optional<sources::Language> language_of_input(const CompatOptions& options,
                                                   const std::string& path,
                                                   const std::string& text) {
  if (options.language == "cpp") return sources::Language::cpp;
  if (options.language == "python") return sources::Language::python;
  if (options.language == "yaml") return std::nullopt;
  return sources::language_of(path, text);
}

compat::Date current_utc_date() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return compat::Date{utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

// compat's rules, then lint's (the errors of a bad input file), for SARIF's rule table.
const std::vector<diagnostics::RuleInfo>& all_rules() {
  static const std::vector<diagnostics::RuleInfo> rules = [] {
    std::vector<diagnostics::RuleInfo> out(compat::compat_rule_catalog().begin(),
                                           compat::compat_rule_catalog().end());
    out.insert(out.end(), lint::lint_rule_catalog().begin(), lint::lint_rule_catalog().end());
    return out;
  }();
  return rules;
}

// The identifier a YAML finding points at (an argument's name, the operator's), from the text
// under its range: the last identifier in it.
std::string named_in(std::string_view text) {
  text = text.substr(0, text.find('='));  // "float factor=2.0": the argument, not its default
  size_t end = text.size();
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (end > 0 && !word(text[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && (word(text[begin - 1]) || text[begin - 1] == '.')) --begin;
  return std::string(text.substr(begin, end - begin));
}

// `name` as a whole word in `text` (not inside a longer name), or npos.
size_t find_word(const std::string& text, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    bool starts = at == 0 || !word(text[at - 1]);
    bool ends = at + name.size() >= text.size() || !word(text[at + name.size()]);
    if (starts && ends) return at;
  }
  return std::string::npos;
}

// A location in the YAML written for registration code, moved to the source it came from: the
// word it names inside the schema literal when that can be found (an argument's line in a schema
// written over many lines), else where the schema or the m.impl starts.
void place_in_source(diagnostics::Location& location, const std::string& path,
                     const std::string& yaml, const std::vector<YamlLineOrigin>& origins) {
  if (location.file != path || location.line == 0 || location.line > origins.size()) return;
  const YamlLineOrigin& origin = origins[location.line - 1];
  diagnostics::Location moved =
      diagnostics::Location::at(origin.file, origin.position.line, origin.position.column);
  if (origin.schema != nullptr) {
    size_t start = 0;
    for (uint32_t line = 1; line < location.line && start != std::string::npos; ++line)
      start = yaml.find('\n', start) + 1;
    size_t end = yaml.find('\n', start);
    std::string_view text = std::string_view(yaml).substr(start, end - start);
    size_t from = std::min<size_t>(location.column > 0 ? location.column - 1 : 0, text.size());
    size_t to = location.end_line == location.line && location.end_column > location.column
                    ? std::min<size_t>(location.end_column - 1, text.size())
                    : from + 1;
    std::string name = named_in(text.substr(from, to - from));
    size_t at = name.empty() ? std::string::npos : find_word(origin.schema->text(), name);
    if (at != std::string::npos) {
      moved = sources::location_in(origin.file, *origin.schema, static_cast<uint32_t>(at),
                                   static_cast<uint32_t>(name.size()));
    }
  }
  location = std::move(moved);
}

void place_in_source(diagnostics::Diagnostic& d, const std::string& path, const std::string& yaml,
                     const std::vector<YamlLineOrigin>& origins) {
  if (origins.empty()) return;
  bool moved = d.location.file == path;
  place_in_source(d.location, path, yaml, origins);
  for (diagnostics::Note& note : d.notes) place_in_source(note.location, path, yaml, origins);
  // A fix names bytes of the YAML, which the source does not have.
  if (moved) d.fix.reset();
}

int run_compat(const CompatOptions& options) {
  if (options.list_rules) {
    print_rule_catalog(compat::compat_rule_catalog(), options.format, options.docs_url);
    return cli::kExitOk;
  }
  if (options.old_file.empty() || options.new_file.empty()) {
    error(kCommand, "expected two files, OLD and NEW (see 'schemac compat --help')");
    return cli::kExitUsage;
  }
  std::vector<std::string> paths = {options.old_file, options.new_file};
  if (!options.allow_file.empty()) paths.push_back(options.allow_file);
  if (!build_macros(kCommand, options.macros)) return cli::kExitUsage;
  std::vector<std::string> texts;
  std::vector<std::optional<sources::Language>> languages;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    // Registration code (OLD, NEW) is read whatever its bytes, as lint and parse --source read it;
    // YAML must be text.
    std::error_code ec;
    bool source = i < 2 && std::filesystem::exists(path, ec) && !sources::is_yaml_path(path);
    std::optional<std::string> text =
        source ? read_source_file(kCommand, path) : cli::read_input(kCommand, path);
    if (!text) return cli::kExitUsage;
    if (i < 2) {
      languages.push_back(language_of_input(options, path, *text));
      if (!languages.back()) {
        if (std::string why = cli::why_not_text(*text); !why.empty()) {
          error(kCommand, "cannot read '{}': {}", path, why);
          return cli::kExitUsage;
        }
      }
    }
    texts.push_back(std::move(*text));
  }
  diagnostics::SourceFiles sources;
  for (size_t i = 0; i < paths.size(); ++i) sources.add(paths[i], texts[i]);
  // C++ and Python registration code is compared as the YAML `parse --format yaml` writes for
  // it; its findings are then placed back at the schema strings they came from. What the YAML
  // leaves out is said once: a schema that does not parse in NEW is that error, at its place.
  std::vector<diagnostics::Diagnostic> not_compared;
  std::vector<std::vector<YamlLineOrigin>> origins(2);
  std::vector<std::string> unreadable;  // NEW's operators whose definition has its own error
  std::vector<std::vector<sources::ScannedFile>> scanned(2);  // origins point into them
  for (size_t i = 0; i < 2; ++i) {
    if (!languages[i]) continue;
    config::Config config = nearest_config(paths[i]);
    std::optional<tokens::MacroTable> macros = build_macros(kCommand, options.macros, &config);
    if (!macros) return cli::kExitUsage;
    sources::ScanOptions scan_options = engine::scan_options_from(config);
    scan_options.macros = &*macros;
    scanned[i].push_back({paths[i], sources::scan_source(texts[i], *languages[i], scan_options)});
    sources::resolve_across_files(scanned[i]);
    std::vector<diagnostics::Diagnostic> left_out;
    texts[i] =
        registrations_yaml(scanned[i], left_out, &origins[i], i == 1 ? &unreadable : nullptr);
    for (diagnostics::Diagnostic& d : left_out) {
      // OLD's own problems are not NEW's breaks: only what keeps an OLD operator from being
      // compared is said, as a warning.
      if (i == 0 && d.severity == diagnostics::Severity::error) {
        d.severity = diagnostics::Severity::warning;
      }
      not_compared.push_back(std::move(d));
    }
  }

  std::optional<compat::CompatInput> allow;
  if (!options.allow_file.empty()) allow = compat::CompatInput{paths[2], texts[2]};
  compat::Date today =
      options.today.empty() ? current_utc_date() : *compat::parse_date(options.today);
  compat::CompatReport report = compat::check_compat({paths[0], texts[0]}, {paths[1], texts[1]},
                                                     std::move(allow), today, unreadable);
  for (size_t i = 0; i < 2; ++i) {
    for (diagnostics::Diagnostic& d : report.diagnostics)
      place_in_source(d, paths[i], texts[i], origins[i]);
  }
  for (diagnostics::Diagnostic& d : not_compared) report.diagnostics.push_back(std::move(d));
  diagnostics::sort_diagnostics(report.diagnostics);

  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(report.diagnostics);
  print_report(report.diagnostics, sources, options.format, all_rules(), {{}, options.docs_url});
  if (options.format == "text" && report.allowed > 0) {
    fmt::print("{} breaking change{} accepted by the allow-list '{}'\n", report.allowed,
               report.allowed == 1 ? "" : "s", options.allow_file);
  }
  return counts.errors > 0 ? cli::kExitProblems : cli::kExitOk;
}

}  // namespace

std::function<int()> bind_compat_command(CLI::App* cmd) {
  auto options = std::make_shared<CompatOptions>();
  cmd->add_option("old", options->old_file, "the file as it was (the baseline)");
  cmd->add_option("new", options->new_file, "the file as it is now");
  cmd->add_option(
      "--allow", options->allow_file,
      "a YAML allow-list of accepted breaks: '- {operator: NAME, rule: ID, reason: TEXT, "
      "expires: YYYY-MM-DD}' (rule and expires optional)");
  cli::add_format_option(cmd, options->format, {"text", "json", "sarif", "github"},
                         kReportFormatHelp);
  cmd->add_option("--today", options->today,
                  "the date allow-list expiry is checked against (default: today's UTC date)")
      ->check(CLI::Validator(
          [](std::string& value) {
            return compat::parse_date(value) ? std::string()
                                             : "expected a date as YYYY-MM-DD, got '" + value + "'";
          },
          "YYYY-MM-DD"));
  cmd->add_flag("--list-rules", options->list_rules,
                "print every rule id, its severity and what it checks");
  cmd->add_option("--docs-url", options->docs_url, kDocsUrlHelp);
  cmd->add_option("--language", options->language,
                  "how OLD and NEW are read: cpp, python (registration code) or yaml; default: "
                  "by the file's extension, else by its content")
      ->check(CLI::IsMember({"cpp", "python", "yaml"}));
  add_build_macro_options(cmd, options->macros);
  return [options] {
    if (!checked_docs_url(kCommand, options->docs_url)) return cli::kExitUsage;
    if (options->list_rules && options->format != "text" && options->format != "json") {
      error(kCommand, "--format {} does not apply to --list-rules: use text or json",
            options->format);
      return cli::kExitUsage;
    }
    return run_compat(*options);
  };
}

}  // namespace schemac::tool
