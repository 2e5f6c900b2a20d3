// The lint engine (engine.h): configuration, per-file and cross-file rules, suppressions, config
// and baseline, in that order, for every door.
#include "schemac/engine/engine.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "schemac/diagnostics/suppressions.h"
#include "schemac/engine/baseline_file.h"
#include "schemac/inputs/folder_search.h"
#include "schemac/inputs/text.h"
#include "schemac/lint/lint_inputs.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/rules/rules.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"
#include "schemac/support/did_you_mean.h"
#include "schemac/support/files.h"

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
      options.read_tags ? options.read_tags(file) : support::read_file(file);
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

// The config's `severity:` entries that are not `off`, as lint's rule selection takes them.
std::map<std::string, diagnostics::Severity, std::less<>> configured_severities(
    const config::Config& config) {
  std::map<std::string, diagnostics::Severity, std::less<>> out;
  for (const auto& [rule, severity] : config.severity) {
    if (std::optional<diagnostics::Severity> s = config::configured_severity(config, rule))
      out[rule] = *s;
  }
  return out;
}

// The profile a document's findings that lint did not decide are decided in: --profile, else
// the config's, else the door's default; chosen per operator (automatic), registration code is
// an extension's and a YAML file in-tree (the rules decided here are the same in both).
lint::Profile document_profile(const config::Config& config, const Options& options,
                               const std::string& path, std::string_view text) {
  lint::Profile profile = options.profile.value_or(
      config.profile ? lint::parse_profile(*config.profile).value_or(options.default_profile)
                     : options.default_profile);
  if (profile != lint::Profile::automatic) return profile;
  return sources::language_of(path, text) ? lint::Profile::extension : lint::Profile::in_tree;
}

}  // namespace

bool decide(Diagnostic& finding, const config::Config& config, lint::Profile profile) {
  const rules::RuleDef* rule = rules::find_rule(finding.rule);
  if (rule == nullptr || finding.severity == diagnostics::Severity::note) return true;
  rules::Circumstances c;
  c.profile =
      profile == lint::Profile::extension ? rules::Profile::extension : rules::Profile::in_tree;
  c.configured = config::configured_severity(config, finding.rule);
  const rules::Verdict verdict = rules::decide(*rule, c);
  if (!verdict.severity) return false;
  finding.severity = *verdict.severity;
  return true;
}

std::vector<diagnostics::RuleInfo> lint_rules() { return lint::lint_run_rules(); }

std::string unknown_rule(const std::vector<std::string>& ids) {
  std::vector<std::string_view> names;
  for (const rules::RuleDef& rule : rules::all_rules()) names.push_back(rule.id);
  for (const std::string& id : ids) {
    if (id == "all" || rules::find_rule(id)) continue;
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
  } else {
    out.profile = options.default_profile;
  }
  out.configured_severity = configured_severities(config);  // rules::decide's last word
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

Findings find(const Configured& configured, std::span<const std::string> texts,
              const Options& options) {
  const std::vector<Document>& documents = configured.documents;
  Findings out;
  out.linted.assign(documents.size(), true);
  out.decided.resize(documents.size());
  out.to_decide.resize(documents.size());
  out.entry_first_line.resize(documents.size());
  std::vector<sources::ScannedFile> scanned;  // C++ and Python files, checked together below
  std::vector<std::shared_ptr<const native_functions::NativeFunctionsFile>> native_files;
  // The registration code's profile and release: the command line's (each YAML file's own config
  // decides its own); each file's configured severities.
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
        out.problems.push_back({fmt::format("{}: {}", path, why), {}});
        out.linted[i] = false;
        continue;
      }
      sources::ScanOptions scan_options = scan_options_from(configured.configs[i]);
      scan_options.macros = &*macros;
      if (options.torch_version) scan_options.torch_version = *options.torch_version;
      scanned.push_back({path, sources::scan_source(texts[i], *language, scan_options)});
      out.entry_first_line[i] = code_entry_first_line(scanned.back().scan);
      out.schemas += scanned.back().scan.schemas.size();
      code_options.configured_by_file[path] = configured_severities(configured.configs[i]);
      continue;
    }
    std::string why;
    std::optional<lint::LintOptions> native = lint_options_for(configured.configs[i], options, why);
    if (!native) {
      out.problems.push_back({fmt::format("{}: {}", path, why), {}});
      out.linted[i] = false;
      continue;
    }
    Problem tags_problem;
    if (!tags_for(options, configured.configs[i], path, native->torch_version, native->valid_tags,
                  tags_problem)) {
      out.problems.push_back(std::move(tags_problem));
      out.linted[i] = false;
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
      out.linted[i] = false;  // not an operator file
      continue;
    }
    // A native file's findings are decided by lint's rules (select_rules); the other formats'
    // by step 5.
    (file.kind == lint::FileKind::native ? out.decided : out.to_decide)[i] =
        std::move(file.diagnostics);
    if (file.native) {
      out.schemas += file.native->functions.size();
      native_files.push_back(std::move(file.native));
    }
    out.entry_first_line[i] = diagnostics::yaml_entry_first_line(texts[i]);
  }
  std::vector<const native_functions::NativeFunctionsFile*> yaml;
  for (const auto& native_file : native_files) yaml.push_back(native_file.get());
  sources::resolve_across_files(scanned);  // helpers' Library objects bound in other files
  out.tally = sources::tally(scanned);
  auto owner_of = [&](const Diagnostic& d) {
    return std::find_if(documents.begin(), documents.end(),
                        [&](const Document& in) { return in.path == d.location.file; });
  };
  for (Diagnostic& d : lint::lint_registration_code(scanned, yaml, code_options)) {
    auto owner = owner_of(d);
    if (owner == documents.end()) {
      out.elsewhere.push_back(std::move(d));
    } else {
      out.decided[owner - documents.begin()].push_back(std::move(d));
    }
  }
  for (Diagnostic& d : lint::check_duplicates_across_files(yaml, scanned))
    add_finding(out, configured, std::move(d));
  return out;
}

Findings no_findings(const Configured& configured, std::span<const std::string> texts,
                     const Options& options) {
  const size_t count = configured.documents.size();
  Findings out;
  out.linted.assign(count, true);
  out.decided.resize(count);
  out.to_decide.resize(count);
  out.entry_first_line.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const std::string& path = configured.documents[i].path;
    std::optional<sources::Language> language = sources::language_of(path, texts[i]);
    if (!language) {
      out.entry_first_line[i] = diagnostics::yaml_entry_first_line(texts[i]);
      continue;
    }
    std::string why;
    if (std::optional<sources::ScannedFile> file = scan_registration_code(
            path, texts[i], *language, configured.configs[i], options.macros, why))
      out.entry_first_line[i] = code_entry_first_line(file->scan);
  }
  return out;
}

void add_finding(Findings& findings, const Configured& configured, Diagnostic finding) {
  const std::vector<Document>& documents = configured.documents;
  auto owner = std::find_if(documents.begin(), documents.end(),
                            [&](const Document& in) { return in.path == finding.location.file; });
  if (owner == documents.end()) {
    findings.elsewhere.push_back(std::move(finding));
  } else {
    findings.to_decide[owner - documents.begin()].push_back(std::move(finding));
  }
}

Run settle(const Configured& configured, std::span<const std::string> texts, Findings findings,
           const Options& options, const std::vector<diagnostics::BaselineEntry>* baseline) {
  const std::vector<Document>& documents = configured.documents;
  Run run;
  run.diagnostics = configured.problems;
  for (Diagnostic& d : findings.elsewhere) run.diagnostics.push_back(std::move(d));
  run.problems = std::move(findings.problems);
  run.linted = std::move(findings.linted);
  run.schemas = findings.schemas;
  run.tally = std::move(findings.tally);
  // A suppression of a rule this door does not check is another door's to call unused.
  const diagnostics::ChecksRule checked = [&options](const rules::RuleDef& rule) {
    const std::vector<rules::Family>& judged = options.suppressions_judged;
    return std::find(judged.begin(), judged.end(), rule.family) != judged.end();
  };
  for (size_t i = 0; i < documents.size(); ++i) {
    if (!run.linted[i]) continue;
    const std::string& path = documents[i].path;
    const diagnostics::CommentStyle style =  // C++ on stdin has `//` comments too
        sources::language_of(path, texts[i]) == sources::Language::cpp
            ? diagnostics::CommentStyle::slashes
            : diagnostics::comment_style_for(path);
    // Step 5 decides the findings lint did not (before the comments, as lint decides its own),
    // and what the comments say of themselves.
    const config::Config& config = configured.configs[i];
    const lint::Profile profile = document_profile(config, options, path, texts[i]);
    std::vector<Diagnostic>& decided = findings.decided[i];
    for (Diagnostic& d : findings.to_decide[i]) {
      if (decide(d, config, profile)) decided.push_back(std::move(d));
    }
    diagnostics::apply_suppressions(decided, path, texts[i], style, findings.entry_first_line[i],
                                    checked);
    std::erase_if(decided, [&](Diagnostic& d) {
      const bool about_comment = d.rule == rules::unused_suppression ||
                                 d.rule == rules::unknown_rule || d.rule == rules::bare_suppression;
      return about_comment && !decide(d, config, profile);
    });
    config::apply_config(config, decided);
    for (Diagnostic& d : decided) run.diagnostics.push_back(std::move(d));
  }
  if (baseline) drop_recorded(run.diagnostics, *baseline, configured, texts);
  return run;
}

Run lint(const Configured& configured, std::span<const std::string> texts, const Options& options,
         const std::vector<diagnostics::BaselineEntry>* baseline) {
  return settle(configured, texts, find(configured, texts, options), options, baseline);
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
    if (const config::Config* config =
            file.empty() ? nullptr : provider.for_input(file, problems)) {
      const lint::Profile profile =
          config->profile ? lint::parse_profile(*config->profile).value_or(lint::Profile::in_tree)
          : sources::language_for_path(file) ? lint::Profile::extension
                                             : lint::Profile::in_tree;
      std::erase_if(group, [&](Diagnostic& d) { return !decide(d, *config, profile); });
      config::apply_config(*config, group);
    }
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
