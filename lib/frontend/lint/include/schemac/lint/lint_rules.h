// The rules of the native-functions format: what `schemac lint` checks beyond the shape of each
// field (native_functions.h). Every rule has an id, a severity and a one-line description in
// lint_rule_catalog(); docs/lint-rules.md says why each exists.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/rule_profiles.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::lint {

using diagnostics::Diagnostic;

struct LintOptions {
  // The tag names `tags:` may use (from a tags.yaml); nullopt leaves tags unchecked.
  std::optional<std::vector<std::string>> valid_tags;
  // Check what torchgen's code generator requires of PyTorch's own files beyond the format: the
  // grouping of variants (group-*, autogen-group), the default CompositeImplicitAutograd kernel
  // (cia-*) and factory functions (factory-dispatch). `schemac gen`, which generates its own
  // registrations, turns it off.
  bool torchgen_codegen = true;
  // The rule profile (rule_profiles.h): forced, or chosen per operator by its namespace.
  Profile profile = Profile::automatic;
  // The release whose torchgen will read the file: its rules, dispatch keys and tag syntax.
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
  // A .schemac.yaml's `severity:` for some rules (error or warning: `off` drops the rule before
  // lint sees it), the last word in rules::decide.
  std::map<std::string, diagnostics::Severity, std::less<>> configured_severity = {};
  // The same per file, for findings decided across files (registration code): a file named here
  // has these instead.
  std::map<std::string, std::map<std::string, diagnostics::Severity, std::less<>>, std::less<>>
      configured_by_file = {};
};

// Every rule lint can report, loader and schema rules included, sorted by id.
std::span<const diagnostics::RuleInfo> lint_rule_catalog();
// The catalogue entry of `id`, or nullptr.
const diagnostics::RuleInfo* find_lint_rule(std::string_view id);
// Every rule a `schemac lint` run reports, in the registry's order: the catalogue above, the rules
// over registration code, those about the run (unused-suppression, config); with `gen`, also gen's
// own checks (torch-namespace), as --list-rules shows them. SARIF, .schemac.yaml and the language
// server take this list.
std::vector<diagnostics::RuleInfo> lint_run_rules(bool gen = false);

// The cross-field and cross-entry rules over a loaded file, each kept or not, and given its
// severity, by the profile of the operator it is about (rule_selection.h).
std::vector<Diagnostic> check_native_functions(const native_functions::NativeFunctionsFile& file,
                                               const LintOptions& options);

// Load, shape checks and rules for one file's text; the diagnostics sorted by place. Never
// throws for any input.
std::vector<Diagnostic> lint_native_functions(std::string file, std::string text,
                                              const LintOptions& options);
// The same for a file already read as YAML.
std::vector<Diagnostic> lint_native_functions(yaml::YamlLoadResult yaml,
                                              const LintOptions& options);

// Reads a tags.yaml: a list of mappings with a `tag:` name (and a `desc:`).
struct TagsLoad {
  std::vector<std::string> tags;
  std::vector<Diagnostic> diagnostics;
};
TagsLoad load_tags(std::string file, std::string text);

}  // namespace schemac::lint
