// The lint configuration: what a `.schemac.yaml` says, merged with the command line, and what it
// does to diagnostics (rule selection, per-rule severity, per-path ignores). Reading the text is
// here; finding the file upward from an input is provider.h's, which every door asks.
//
//   select: [rule-id, ...]        only these rules (default: all)
//   ignore: [rule-id, ...]        never these
//   severity: {rule-id: error|warning|off}
//   per-path: {"glob": [rule-id, ...]}   ignores for the files the glob matches (relative to the
//                                        config file's folder; `*` matches '/' too)
//   tags: path/to/tags.yaml       (relative to the config file's folder)
//   profile: in-tree|extension
//   torch-version: "X.Y"
//   namespace: NAME
//   custom-op-helpers:            the project's own operator-registering helpers
//   (lib/frontend/sources)
//     - name: custom_op_with_fake   a decorator or function of the project, as called
//       like: custom_op             custom_op | triton_op | direct_register_custom_op | define
//       namespace: tfl              optional: the namespace of names written without one
//   exclude: ["gen/", "third_party/**"]  files a folder search and `lint --by-content` skip
//                                        (.gitignore syntax, relative to the config's folder)
//   docs-url: https://host/path/docs/    where the rule documentation is published: SARIF's
//                                        helpUri and the server's links point there
//   defines: {NAME: VALUE}        build macros for C++ inputs, as `-D NAME=VALUE` gives them
//                                 (a NAME without a value is 1); the command line's -D wins
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::config {

enum class RuleSeverity { error, warning, off };
std::string_view rule_severity_name(RuleSeverity severity);

struct PathIgnore {
  std::string glob;
  std::vector<std::string> rules;
};

struct CustomOpHelperEntry {
  std::string name;
  std::string like;  // one of kCustomOpHelperKinds
  std::optional<std::string> namespace_name;
  // How the helper names an operator it is given no name for: one of kDefaultNames.
  std::optional<std::string> default_name;
};
inline constexpr std::string_view kDefaultNames[] = {"function", "module::function"};
inline constexpr std::string_view kCustomOpHelperKinds[] = {"custom_op", "triton_op",
                                                            "direct_register_custom_op", "define"};

struct Config {
  std::string file;                 // the .schemac.yaml it came from; empty: none
  std::vector<std::string> select;  // empty: every rule
  std::vector<std::string> ignore;
  std::map<std::string, RuleSeverity, std::less<>> severity;
  std::vector<PathIgnore> per_path;
  std::optional<std::string> tags;  // resolved against the config file's folder
  std::optional<std::string> profile;
  std::optional<std::string> torch_version;
  std::optional<std::string> namespace_name;
  std::vector<CustomOpHelperEntry> custom_op_helpers;
  std::vector<std::string> exclude;     // .gitignore-style patterns, from the config's folder
  std::optional<std::string> docs_url;  // an absolute URL (is_url)
  std::map<std::string, std::string> defines;  // NAME -> VALUE
};

// Whether `text` is an absolute URL: `scheme://rest`.
bool is_url(std::string_view text);

struct ConfigLoad {
  Config config;
  std::vector<diagnostics::Diagnostic>
      diagnostics;  // rule `config`: unknown keys (with did-you-mean),
                    // unknown rule ids, values of the wrong shape
};

// Reads a .schemac.yaml's text. select/ignore/severity/per-path may name every id of the rule
// table (lib/common/rules), as every other door does, and `all`. Never throws.
ConfigLoad load_config(std::string file, std::string text);

// The command line's choices over a file's: --select replaces select, --ignore adds to ignore.
struct CommandLineRules {
  std::vector<std::string> select;
  std::vector<std::string> ignore;
};
Config merge_command_line(Config config, const CommandLineRules& command_line);

// Whether `rule` is reported for `path` (a path as given to the tool).
bool rule_enabled(const Config& config, std::string_view rule, std::string_view path);

// The config's `severity:` for `rule` (error or warning), the last word in rules::decide;
// nothing when it gives none (or `off`: the rule is not enabled).
std::optional<diagnostics::Severity> configured_severity(const Config& config,
                                                         std::string_view rule);

// Drops the diagnostics the config turns off (select, ignore, `severity: off`, per-path).
// Diagnostics of rule `config` and tool-level ones (no file) are always kept. Severities are not
// this function's: each finding's is decided once, by rules::decide, with configured_severity.
void apply_config(const Config& config, std::vector<diagnostics::Diagnostic>& diagnostics);

// The config as YAML, every key present (defaults written out): what --show-config prints.
std::string render_config(const Config& config);

}  // namespace schemac::config
