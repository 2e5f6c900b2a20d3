// The lint engine: the one driver behind every door that lints (`schemac lint` and its --fix
// rounds, `parse --source`, `gen`'s gate, `compat` and `schemac lsp`). It takes documents (a path
// and a text, from disk or an editor's buffer), the configuration provider (each path's
// .schemac.yaml, lib/frontend/config's provider.h) and the command line's options, and returns the
// diagnostics after every step, in this order:
//   1. configuration   each document's .schemac.yaml, merged with --select / --ignore; a document
//                      whose config is unusable is not linted (the config's problems are reported),
//                      nor one a folder search found that the config's `exclude:` names
//   2. per-file rules  YAML of the three kinds (file_kinds.h) with the release, profile and tags
//                      its options or config name; C++ and Python registration code is scanned
//   3. cross-file      the registration code's rules (knowing the YAML files' operators) and
//                      duplicate-operator across files (lint_inputs.h)
//   -- a door may add findings of its own here (gen's target checks: `find`, then `settle`)
//   4. suppressions    each document's `schemac: ignore[...]` comments (unused ones reported)
//   5. config          select / ignore / per-path of the document's config, and the severity of
//                      every finding not decided yet, by rules::decide with its `severity:`
//   6. baseline        findings a baseline records are dropped
// Every finding's severity is decided once, by rules::decide: lint's rules decide theirs (the
// operator's profile, the release, a vendor's subset, the config's `severity:`), step 5 the rest.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "schemac/config/config.h"
#include "schemac/config/provider.h"
#include "schemac/diagnostics/baseline.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/suppressions.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/sources/language.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"
#include "schemac/sources/tally.h"
#include "schemac/tokens/cpp_macros.h"

namespace schemac::engine {

using diagnostics::Diagnostic;

// The rules `schemac lint` reports (its YAML, schema and registration-code rules and those about
// the run), for --list-rules and SARIF's rule list. Every id of the rule table may be named at
// every door (--select, --ignore, `ignore[...]`, a .schemac.yaml, `schemac help`), whichever
// door reports it.
std::vector<diagnostics::RuleInfo> lint_rules();

// Why `ids` (of --select / --ignore) cannot be used: "unknown rule 'X'; did you mean 'Y'?" for
// the first id that names no rule of the rule table (and is not "all"); "" when every one does.
std::string unknown_rule(const std::vector<std::string>& ids);

struct Document {
  Document(std::string path, std::string text, bool skip_unknown_format = false)
      : path(std::move(path)), text(std::move(text)), skip_unknown_format(skip_unknown_format) {}

  std::string path;  // as diagnostics name it; where its config and a tags.yaml beside it are found
  std::string text;
  // Found by searching a folder, or opened in an editor: a YAML of no operator shape is skipped
  // (not reported as unknown-format).
  bool skip_unknown_format = false;
  // Found by searching a folder (or given with --by-content): left out when its config's
  // `exclude:` names it (inputs.h).
  bool excludable = false;
  // Where its config is looked for, when not at `path` (stdin without --stdin-filename: ".").
  std::optional<std::string> config_path;
  // A native-functions file already loaded from `text` (gen's inputs; kept alive by the caller),
  // with its loader's diagnostics: linted as it is, not read again.
  const native_functions::NativeFunctionsFile* loaded = nullptr;
  std::vector<Diagnostic> loader_diagnostics;
};

// The build's macros from the command line (-D NAME=VALUE, -U NAME), for C++ inputs.
struct BuildMacros {
  std::vector<std::string> defines;
  std::vector<std::string> undefines;
};

// The macros a C++ input is read with: its config's `defines:`, then -D, then -U. Nothing when a
// value is malformed (`why` says which and why).
std::optional<tokens::MacroTable> macros_for(const config::Config& config, const BuildMacros& build,
                                             std::string& why);

struct Options {
  std::optional<lint::Profile> profile;  // --profile; else the config's, else default_profile
  lint::Profile default_profile = lint::Profile::automatic;   // automatic: per operator
  std::optional<torch_releases::TorchVersion> torch_version;  // --torch-version; else config's
  std::optional<lint::FileKind> kind;                         // --kind; else by shape
  std::string tags_file;  // --tags; else the config's tags:, else a tags.yaml beside, else built-in
  const native_functions::NativeFunctionsFile* native_functions = nullptr;  // --native-functions
  config::CommandLineRules command_line;                                    // --select, --ignore
  BuildMacros macros;                                                       // -D, -U
  // gen generates its own registrations: torchgen's code-generation rules do not apply.
  bool torchgen_codegen = true;
  // The rule families whose suppressions this door may call unused: lint's own by default; gen
  // its target's (gen), compat its own, parse --source its own. A suppression of another
  // family's rule is another door's to judge (each door checks only some rules).
  std::vector<rules::Family> suppressions_judged = {
      rules::Family::yaml, rules::Family::schema, rules::Family::source, rules::Family::lint_meta};
  // Reads a tags file; nothing when it cannot (the reader says why). Unset: plain bytes.
  std::function<std::optional<std::string>(const std::string& path)> read_tags;
  // A tags file that cannot be used: false (lint) stops the document with a problem; true (the
  // editor, which shows the file being edited) leaves its tags unchecked.
  bool unusable_tags_unchecked = false;
};

// A problem with the run itself, not with a document: an unusable tags file or torch-version.
struct Problem {
  std::string message;  // "PATH: torch-version ..." or "tags file 'X' is not usable"
  std::vector<Diagnostic> diagnostics;  // the tags file's own, to show before the message
};

// The documents with their configuration resolved (step 1); made once, linted many times.
struct Configured {
  std::vector<Document> documents;      // those whose config is usable
  std::vector<config::Config> configs;  // one per document
  std::vector<Diagnostic> problems;     // the unusable configs' diagnostics
  bool config_error = false;            // some document's config could not be used
  // The excludable documents left out by their config's `exclude:`: path, config file; last first.
  std::vector<std::pair<std::string, std::string>> excluded;
};
// `provider` null: no configuration at all (every document gets an empty Config).
Configured configure(std::vector<Document> documents, config::ConfigProvider* provider,
                     const config::CommandLineRules& command_line);

struct Run {
  std::vector<Diagnostic> diagnostics;  // the configs' problems, then every document's findings
  std::vector<Problem> problems;
  std::vector<bool> linted;  // per document: false when skipped (unknown shape, unusable setting)
  size_t schemas = 0;        // the schemas checked: YAML entries' func, registration code's
  sources::FormTally tally;  // the registration code read (sources/tally.h)
};

// Steps 2 and 3: each document's findings before suppressions, config and baseline.
struct Findings {
  std::vector<std::vector<Diagnostic>> decided;    // per document: severities decided by lint
  std::vector<std::vector<Diagnostic>> to_decide;  // per document: decided by step 5
  std::vector<Diagnostic> elsewhere;               // in no document: kept as they are
  std::vector<Problem> problems;
  std::vector<bool> linted;  // per document: false when skipped (unknown shape, unusable setting)
  std::vector<diagnostics::EntryFirstLine> entry_first_line;  // per document, for suppressions
  size_t schemas = 0;        // the schemas checked: YAML entries' func, registration code's
  sources::FormTally tally;  // the registration code read (sources/tally.h)
};
Findings find(const Configured& configured, std::span<const std::string> texts,
              const Options& options);

// Findings with none yet, for a door that makes its own (compat): every document counts as
// linted, its entries known to its suppression comments (a YAML file's `- ` lines; registration
// code's schema strings, scanned under its config).
Findings no_findings(const Configured& configured, std::span<const std::string> texts,
                     const Options& options);

// A door's own finding (gen's target checks), for the document it is in (else kept as it is):
// suppressed, configured and decided with the rest by `settle`.
void add_finding(Findings& findings, const Configured& configured, Diagnostic finding);

// Steps 4 to 6 over `find`'s findings.
Run settle(const Configured& configured, std::span<const std::string> texts, Findings findings,
           const Options& options,
           const std::vector<diagnostics::BaselineEntry>* baseline = nullptr);

// Steps 2 to 6 over `texts` (one per configured document; --fix rounds pass fixed texts).
Run lint(const Configured& configured, std::span<const std::string> texts, const Options& options,
         const std::vector<diagnostics::BaselineEntry>* baseline = nullptr);

// Configure and lint in one call: the editor's one document, gen's inputs.
Run lint(std::vector<Document> documents, config::ConfigProvider* provider, const Options& options);

// Step 5 alone, for a door whose findings are not lint's (compat's): each diagnostic kept or not,
// and its severity decided, by the config of the file it is in. The problems of a config that
// cannot be used are added (rule `config`, errors).
void apply_configs(std::vector<Diagnostic>& diagnostics, config::ConfigProvider& provider);

// A finding's severity decided (rules::decide) with its document's profile and the config's
// `severity:` for it; false when its rule does not apply there (the finding is dropped). Notes
// keep theirs.
bool decide(Diagnostic& finding, const config::Config& config, lint::Profile profile);

// --verbose: the registration calls of each C++ or Python document whose schema is not a literal
// (so lint cannot check it), in document order; `problem` says why a document's macros (its
// config's `defines:`, -D, -U) could not be used instead.
struct UncheckedCalls {
  std::string path;
  std::vector<sources::SkippedCall> calls;
  std::string problem;
};
std::vector<UncheckedCalls> unchecked_calls(const Configured& configured,
                                            const BuildMacros& macros);

// How registration code is scanned under a document's config: its custom-op-helpers, and the
// torch-version whose custom_op infers schemas (--torch-version overrides it in lint).
sources::ScanOptions scan_options_from(const config::Config& config);

// Registration code as every door reads it: scanned under its config's defines: (then -D, then
// -U) and custom-op-helpers:. Nothing when a macro is malformed (`why` says which).
std::optional<sources::ScannedFile> scan_registration_code(
    const std::string& path, const std::string& text, sources::Language language,
    const config::Config& config, const BuildMacros& build, std::string& why);

// `parse --source`'s registration code, read as lint reads it: each document configured (step
// 1), scanned under its config, the helpers' namespaces settled across the files
// (sources::resolve_across_files); `findings` are each found schema's problems and what its
// custom ops' inference left unsettled (not lint's cross-file rules), not yet settled.
struct RegistrationCode {
  Configured configured;
  std::vector<std::string> texts;           // one per configured document
  std::vector<sources::ScannedFile> files;  // those that scanned, in document order
  std::vector<Diagnostic> findings;
  std::vector<Problem> problems;  // a document whose macros cannot be used (not scanned)
};
RegistrationCode read_registration_code(std::vector<Document> documents,
                                        config::ConfigProvider* provider, const Options& options);

// Steps 4 and 5 over `findings` (the code's, and any the caller added: adopt's), as lint settles
// them; then an `unusable-schema` error for each schema that cannot be printed (it does not
// parse), or with `written` (a YAML for gen) one PyTorch rejects (a check that is an error by
// default fails), whose own error was silenced or made a warning: a schema is never left out in
// silence. Sorted by place.
std::vector<Diagnostic> settle_registration_code(const RegistrationCode& code,
                                                 std::vector<Diagnostic> findings,
                                                 const Options& options, bool written = false);

// What `parse --source` prints of the schemas found in `files`, in order, each as `diagnostics`
// (settled) leave it: a check's problem silenced is no problem, one made a warning is a warning.
// With `json`, one object per schema and line (lib/frontend/schema_json's found_schema_json:
// "ok" is false only when an error remains); else "FILE:LINE:COL: SCHEMA" in canonical form for
// each schema with no error left (the others' errors are in `diagnostics`).
std::string found_schemas_listing(std::span<const sources::ScannedFile> files,
                                  std::span<const Diagnostic> diagnostics, bool json);

// The lint options a document's config and `options` give: profile, release, tags' file.
// Returns nothing (and says why in `problem`) when its torch-version is no release lint knows.
std::optional<lint::LintOptions> lint_options_for(const config::Config& config,
                                                  const Options& options, std::string& problem);

}  // namespace schemac::engine
