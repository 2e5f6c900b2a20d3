// The lint engine (engine.h): configuration, per-file and cross-file rules, suppressions, config
// and baseline, in that order, for every door.
#include "schemac/engine/engine.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "schemac/diagnostics/suppressions.h"
#include "schemac/inputs/folder_search.h"
#include "schemac/inputs/text.h"
#include "schemac/lint/lint_inputs.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/rules/rules.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"
#include "schemac/support/did_you_mean.h"

namespace schemac::engine {

namespace {

namespace fs = std::filesystem;

// The valid tags for `path`: from --tags, else the config's tags:, else a tags.yaml beside it,
// else the built-in list of `release`. False (with `problem`) when the tags file is unusable.
bool tags_for(const Options& options, const config::Config& config, const std::string& path,
              torch_releases::TorchVersion release, std::optional<std::vector<std::string>>& tags,
              Problem& problem) {
  std::string file = options.tags_file.empty() ? config.tags.value_or("") : options.tags_file;
  if (file.empty()) {
    fs::path beside = fs::path(path).parent_path() / "tags.yaml";
    std::error_code ec;
    if (path.empty() || !fs::is_regular_file(beside, ec)) {
      const auto builtin = torch_releases::builtin_tags(release);
      tags.emplace(builtin.begin(), builtin.end());
      return true;
    }
    file = beside.string();
  }
  std::optional<std::string> text =
      options.read_tags ? options.read_tags(file) : inputs::read_file(file);
  if (text) {
    lint::TagsLoad load = lint::load_tags(file, std::move(*text));
    if (load.diagnostics.empty()) {
      tags = std::move(load.tags);
      return true;
    }
    problem.diagnostics = std::move(load.diagnostics);
    problem.message = fmt::format("tags file '{}' is not usable", file);
  }
  if (options.unusable_tags_unchecked) {
    tags.reset();
    return true;
  }
  return false;
}

// For registration code, an entry is a found schema: its first line is where its literal starts.
diagnostics::EntryFirstLine code_entry_first_line(const sources::ScanResult& scan) {
  std::vector<uint32_t> lines;
  for (const sources::FoundSchema& found : scan.schemas) lines.push_back(found.position.line);
  std::sort(lines.begin(), lines.end());
  return [lines = std::move(lines)](uint32_t line) {
    auto it = std::upper_bound(lines.begin(), lines.end(), line);
    return it == lines.begin() ? line : *(it - 1);
  };
}

}  // namespace

std::vector<diagnostics::RuleInfo> all_rules() { return lint::lint_run_rules(); }

std::vector<diagnostics::RuleInfo> config_rules() {
  std::vector<diagnostics::RuleInfo> out = all_rules();
  for (const rules::RuleDef& rule : rules::all_rules()) {
    if (rule.family == rules::Family::compat)
      out.push_back(diagnostics::RuleInfo{rule.id, rule.severity, rule.summary});
  }
  return out;
}

std::string unknown_rule(const std::vector<std::string>& ids) {
  const std::vector<diagnostics::RuleInfo> rules = all_rules();
  std::vector<std::string_view> names;
  for (const diagnostics::RuleInfo& rule : rules) names.push_back(rule.id);
  for (const std::string& id : ids) {
    if (id == "all" || std::find(names.begin(), names.end(), id) != names.end()) continue;
    std::optional<std::string> guess = support::did_you_mean(id, names);
    return fmt::format("unknown rule '{}'{}", id,
                       guess ? fmt::format("; did you mean '{}'?", *guess) : "");
  }
  return "";
}

Configured configure(std::vector<Document> documents, config::ConfigProvider* provider,
                     const config::CommandLineRules& command_line) {
  Configured out;
  const config::Config none;
  for (Document& document : documents) {
    const config::Config* config =
        provider ? provider->for_input(document.config_path.value_or(document.path), out.problems)
                 : &none;
    if (config == nullptr) {
      out.config_error = true;
      continue;
    }
    out.configs.push_back(config::merge_command_line(*config, command_line));
    out.documents.push_back(std::move(document));
  }
  for (size_t i = out.documents.size(); i-- > 0;) {
    if (!out.documents[i].excludable || !inputs::excluded(out.configs[i], out.documents[i].path))
      continue;
    out.excluded.emplace_back(out.documents[i].path, out.configs[i].file);
    out.documents.erase(out.documents.begin() + static_cast<std::ptrdiff_t>(i));
    out.configs.erase(out.configs.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return out;
}

std::optional<lint::LintOptions> lint_options_for(const config::Config& config,
                                                  const Options& options, std::string& problem) {
  lint::LintOptions out;
  out.torchgen_codegen = options.torchgen_codegen;
  if (options.profile) {
    out.profile = *options.profile;
  } else if (config.profile) {
    out.profile = lint::parse_profile(*config.profile).value_or(lint::Profile::automatic);
  } else if (config.namespace_name && *config.namespace_name != "aten") {
    // Operators written without a namespace register into the config's (as gen does): an
    // extension's.
    out.profile = lint::Profile::extension;
  }
  for (const auto& [rule, severity] : config.severity) {  // decided with the rest (rules::decide)
    if (severity != config::RuleSeverity::off)
      out.configured_severity[rule] = severity == config::RuleSeverity::error
                                          ? diagnostics::Severity::error
                                          : diagnostics::Severity::warning;
  }
  if (options.torch_version) {
    out.torch_version = *options.torch_version;
  } else if (config.torch_version) {
    std::optional<torch_releases::TorchVersion> version =
        torch_releases::parse_torch_version(*config.torch_version);
    if (!version) {
      problem =
          fmt::format("torch-version '{}' of its .schemac.yaml is not a release lint knows ({})",
                      *config.torch_version, torch_releases::known_torch_versions_text());
      return std::nullopt;
    }
    out.torch_version = *version;
  }
  return out;
}

Run lint(const Configured& configured, std::span<const std::string> texts, const Options& options,
         const std::vector<diagnostics::BaselineEntry>* baseline) {
  const std::vector<Document>& documents = configured.documents;
  Run run;
  run.diagnostics = configured.problems;
  run.linted.assign(documents.size(), true);
  std::vector<std::vector<Diagnostic>> found(documents.size());
  std::vector<diagnostics::EntryFirstLine> entry_first_line(documents.size());
  std::vector<sources::ScannedFile> scanned;  // C++ and Python files, checked together below
  std::vector<std::shared_ptr<const native_functions::NativeFunctionsFile>> native_files;
  // The registration code's profile and release: the command line's (each YAML file's own config
  // decides its own).
  lint::LintOptions code_options;
  code_options.torchgen_codegen = options.torchgen_codegen;
  if (options.profile) code_options.profile = *options.profile;
  if (options.torch_version) code_options.torch_version = *options.torch_version;
  for (size_t i = 0; i < documents.size(); ++i) {
    const std::string& path = documents[i].path;
    if (std::optional<sources::Language> language = sources::language_of(path, texts[i])) {
      std::string why;
      std::optional<tokens::MacroTable> macros =
          macros_for(configured.configs[i], options.macros, why);
      if (!macros) {
        run.problems.push_back({fmt::format("{}: {}", path, why), {}});
        run.linted[i] = false;
        continue;
      }
      sources::ScanOptions scan_options = scan_options_from(configured.configs[i]);
      scan_options.macros = &*macros;
      if (options.torch_version) scan_options.torch_version = *options.torch_version;
      scanned.push_back({path, sources::scan_source(texts[i], *language, scan_options)});
      entry_first_line[i] = code_entry_first_line(scanned.back().scan);
      continue;
    }
    std::string why;
    std::optional<lint::LintOptions> native = lint_options_for(configured.configs[i], options, why);
    if (!native) {
      run.problems.push_back({fmt::format("{}: {}", path, why), {}});
      run.linted[i] = false;
      continue;
    }
    Problem tags_problem;
    if (!tags_for(options, configured.configs[i], path, native->torch_version, native->valid_tags,
                  tags_problem)) {
      run.problems.push_back(std::move(tags_problem));
      run.linted[i] = false;
      continue;
    }
    lint::FileLintOptions file_options;
    file_options.native = std::move(*native);
    file_options.kind = options.kind;
    file_options.native_functions = options.native_functions;
    const native_functions::NativeFunctionsFile* loaded = documents[i].loaded;
    lint::FileLint file = loaded ? lint::lint_loaded_native(
                                       std::shared_ptr<const native_functions::NativeFunctionsFile>(
                                           std::shared_ptr<void>(), loaded),
                                       documents[i].loader_diagnostics, file_options.native)
                                 : lint::lint_file(path, texts[i], file_options);
    if (documents[i].skip_unknown_format && file.kind == lint::FileKind::unknown) {
      run.linted[i] = false;  // not an operator file
      continue;
    }
    found[i] = std::move(file.diagnostics);
    if (file.native) native_files.push_back(std::move(file.native));
    entry_first_line[i] = diagnostics::yaml_entry_first_line(texts[i]);
  }
  std::vector<const native_functions::NativeFunctionsFile*> yaml;
  for (const auto& native_file : native_files) yaml.push_back(native_file.get());
  sources::resolve_across_files(scanned);  // helpers' Library objects bound in other files
  run.tally = sources::tally(scanned);
  std::vector<Diagnostic> across = lint::lint_registration_code(scanned, yaml, code_options);
  for (Diagnostic& d : lint::check_duplicates_across_files(yaml, scanned))
    across.push_back(std::move(d));
  for (Diagnostic& d : across) {
    auto owner = std::find_if(documents.begin(), documents.end(),
                              [&](const Document& in) { return in.path == d.location.file; });
    if (owner == documents.end()) {
      run.diagnostics.push_back(std::move(d));
    } else {
      found[owner - documents.begin()].push_back(std::move(d));
    }
  }
  const std::vector<diagnostics::RuleInfo> rules = all_rules();
  for (size_t i = 0; i < documents.size(); ++i) {
    if (!run.linted[i]) continue;
    const std::string& path = documents[i].path;
    const diagnostics::CommentStyle style =  // C++ on stdin has `//` comments too
        sources::language_of(path, texts[i]) == sources::Language::cpp
            ? diagnostics::CommentStyle::slashes
            : diagnostics::comment_style_for(path);
    diagnostics::apply_suppressions(found[i], path, texts[i], style, entry_first_line[i], rules);
    config::apply_config(configured.configs[i], found[i]);
    for (Diagnostic& d : found[i]) run.diagnostics.push_back(std::move(d));
  }
  if (baseline) {
    diagnostics::drop_baselined(run.diagnostics, *baseline, [&](const std::string& file) {
      for (size_t i = 0; i < documents.size(); ++i) {
        if (documents[i].path == file) return std::string_view(texts[i]);
      }
      return std::string_view();
    });
  }
  return run;
}

std::optional<tokens::MacroTable> macros_for(const config::Config& config, const BuildMacros& build,
                                             std::string& why) {
  tokens::MacroTable table;
  for (const auto& [name, value] : config.defines) {
    if (std::string problem = table.define_from_text(name + "=" + value); !problem.empty()) {
      why = fmt::format("{}: defines: '{}': {}", config.file, name, problem);
      return std::nullopt;
    }
  }
  for (const std::string& spec : build.defines) {
    if (std::string problem = table.define_from_text(spec); !problem.empty()) {
      why = fmt::format("-D '{}': {}", spec, problem);
      return std::nullopt;
    }
  }
  for (const std::string& name : build.undefines) table.undefine(name);
  return table;
}

std::vector<UncheckedCalls> unchecked_calls(const Configured& configured,
                                            const BuildMacros& macros) {
  std::vector<UncheckedCalls> out;
  for (size_t i = 0; i < configured.documents.size(); ++i) {
    const Document& document = configured.documents[i];
    std::optional<sources::Language> language = sources::language_of(document.path, document.text);
    if (!language) continue;
    UncheckedCalls& calls = out.emplace_back(UncheckedCalls{document.path, {}, {}});
    std::optional<tokens::MacroTable> table =
        macros_for(configured.configs[i], macros, calls.problem);
    if (!table) continue;
    sources::ScanOptions scan_options = scan_options_from(configured.configs[i]);
    scan_options.macros = &*table;
    calls.calls = sources::scan_source(document.text, *language, scan_options).skipped;
  }
  return out;
}

sources::ScanOptions scan_options_from(const config::Config& config) {
  sources::ScanOptions options;
  for (const config::CustomOpHelperEntry& entry : config.custom_op_helpers) {
    if (std::optional<sources::HelperKind> like = sources::helper_kind(entry.like)) {
      options.helpers.push_back({entry.name, *like, entry.namespace_name.value_or(""),
                                 sources::default_name(entry.default_name.value_or("function"))
                                     .value_or(sources::DefaultName::function)});
    }
  }
  // An unknown release is reported where the config is read for YAML; custom ops keep the newest.
  if (config.torch_version) {
    if (auto version = torch_releases::parse_torch_version(*config.torch_version))
      options.torch_version = *version;
  }
  return options;
}

void apply_configs(std::vector<Diagnostic>& diagnostics, config::ConfigProvider& provider) {
  std::vector<Diagnostic> problems;
  std::vector<Diagnostic> kept;
  for (size_t begin = 0; begin < diagnostics.size();) {
    const std::string file = diagnostics[begin].location.file;  // a copy: the group moves it
    size_t end = begin;
    std::vector<Diagnostic> group;
    while (end < diagnostics.size() && diagnostics[end].location.file == file)
      group.push_back(std::move(diagnostics[end++]));
    if (const config::Config* config = file.empty() ? nullptr : provider.for_input(file, problems))
      config::apply_config(*config, group);
    for (Diagnostic& d : group) kept.push_back(std::move(d));
    begin = end;
  }
  for (Diagnostic& d : problems) kept.push_back(std::move(d));
  diagnostics = std::move(kept);
}

Run lint(std::vector<Document> documents, config::ConfigProvider* provider,
         const Options& options) {
  Configured configured = configure(std::move(documents), provider, options.command_line);
  std::vector<std::string> texts;
  for (const Document& document : configured.documents) texts.push_back(document.text);
  return lint(configured, texts, options);
}

}  // namespace schemac::engine
